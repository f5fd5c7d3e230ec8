"""Loads into the LDS (LDS DMA): global_load_lds_dword, scratch_load_lds_dword (gfx942) and
buffer_load_dword ... lds (gfx90a and gfx942) write each active lane's dword to the LDS at M0 plus the
instruction offset plus 4 * lane, not to a VGPR, and are counted in vmcnt (LLVM's SIInsertWaitcnts waits on
vmcnt before the LDS they wrote is read). Triton's async copies on gfx942 (TRITON_HIP_USE_ASYNC_COPY=1) are
global_load_lds_dword.

The kernel below fills three LDS regions, one per form, in two workgroups of two waves: the global load with
an offset (which moves both the global and the LDS address), a buffer load whose resource ends before the
grid does (those lanes write zero), and a scratch load of what each lane stored in its private segment. Each
lane then reads the other end of its workgroup's regions, so a wave reads what the other wave loaded.
"""
from __future__ import annotations

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc

from gpusim import api
from gpusim.errors import KernelFault

MODES = {"functional": {}, "timed": {"timing": True}, "timed-sliced": {"timing": True, "outputs": False}}

KERNEL = """; gpusim-launch: grid=2,1,1 block=128,1,1
; gpusim-arg: src buffer u32[260] init=arange
; gpusim-arg: dst buffer u32[256, 3] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl dma
\t.p2align 8
\t.type dma,@function
dma:
\ts_load_dwordx4 s[4:7], s[0:1], 0x0
\ts_lshl_b32 s3, s2, 7
\tv_add_u32_e32 v1, s3, v0
\tv_lshlrev_b32_e32 v2, 2, v1
\tv_lshrrev_b32_e32 v3, 6, v0
\tv_readfirstlane_b32 s12, v3
\ts_lshl_b32 s12, s12, 8
\tv_mul_u32_u24_e32 v4, 3, v1
\tscratch_store_dword off, v4, off
\ts_waitcnt lgkmcnt(0)
\ts_mov_b32 m0, s12
\ts_nop 0
\tglobal_load_lds_dword v2, s[4:5] offset:16
\ts_mov_b32 s8, s4
\ts_mov_b32 s9, s5
\ts_mov_b32 s10, 0x320
\ts_mov_b32 s11, 0x20000
\ts_add_u32 m0, s12, 0x210
\ts_nop 0
\tbuffer_load_dword v2, s[8:11], 0 offen lds
\ts_add_u32 m0, s12, 0x410
\ts_nop 0
\tscratch_load_lds_dword off, off
\ts_waitcnt vmcnt(0)
\ts_barrier
\tv_sub_u32_e32 v5, 0x7f, v0
\tv_lshlrev_b32_e32 v5, 2, v5
\tds_read_b32 v6, v5 offset:16
\tds_read_b32 v7, v5 offset:528
\tds_read_b32 v8, v5 offset:1040
\tv_mul_u32_u24_e32 v9, 12, v1
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dword v9, v6, s[6:7]
\tglobal_store_dword v9, v7, s[6:7] offset:4
\tglobal_store_dword v9, v8, s[6:7] offset:8
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel dma
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_enable_private_segment 1
\t\t.amdhsa_private_segment_fixed_size 4
\t\t.amdhsa_group_segment_fixed_size 1552
\t\t.amdhsa_next_free_vgpr 10
\t\t.amdhsa_next_free_sgpr 13
\t\t.amdhsa_accum_offset 12
\t.end_amdhsa_kernel
"""
# gfx90a has only the buffer form: the same kernel without the global and scratch loads (their regions keep
# the zeros the LDS starts with)
GFX90A_KERNEL = (KERNEL.replace("gfx942", "gfx90a")
                 .replace("\tscratch_store_dword off, v4, off\n", "")
                 .replace("\tglobal_load_lds_dword v2, s[4:5] offset:16\n", "")
                 .replace("\tscratch_load_lds_dword off, off\n", "")
                 .replace("\t\t.amdhsa_enable_private_segment 1\n", "")
                 .replace("\t\t.amdhsa_private_segment_fixed_size 4\n", ""))
TARGETS = {"gfx942": (KERNEL, "cdna3"), "gfx90a": (GFX90A_KERNEL, "cdna2")}


def _expected(target: str) -> np.ndarray:
    """_expected is what lane t of the grid stores: the three regions' dwords of the lane e at the other end
    of its workgroup (its element of the grid)."""
    t = np.arange(256)
    e = (t // 128) * 128 + 127 - t % 128
    out = np.stack([e + 4, np.where(e < 200, e, 0), 3 * e], axis=1).astype(np.uint32)  # 0x320 bytes: 200 dwords
    if target == "gfx90a":
        out[:, [0, 2]] = 0
    return out


def _write(tmp_path, text: str):
    path = tmp_path / "dma.s"
    path.write_text(text)
    return api.load_kernel(path)


@needs_llvm_mc
@pytest.mark.parametrize("target", TARGETS)
def test_the_kernels_assemble_with_llvm_mc(tmp_path, target):
    assert_assembles(tmp_path, TARGETS[target][0], target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", MODES)
def test_each_form_fills_the_lds_at_m0_plus_four_bytes_a_lane(tmp_path, target, mode):
    text, arch = TARGETS[target]
    r = api.simulate(_write(tmp_path, text), arch, **MODES[mode])
    if mode != "timed-sliced":
        np.testing.assert_array_equal(r.outputs["dst"], _expected(target))
    # per wave: the loads into the LDS are vector memory reads (gfx90a: the buffer one alone), the stores the
    # three global ones and (gfx942) the scratch one
    reads, writes = (3, 4) if target == "gfx942" else (1, 3)
    assert r.counters["SQ_INSTS_VMEM_RD"] == 4 * reads
    assert r.counters["SQ_INSTS_VMEM_WR"] == 4 * writes
    assert r.counters["SQ_INSTS_LDS"] == 4 * 3


def test_golden_cycles_and_the_sliced_run_agree():
    # a timing-only run leaves the loads into the LDS out of its slice (what they load feeds only stores):
    # it checks their addresses but moves no data, and must time the kernel as the full run does
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        kernel = _write(Path(d), KERNEL)
        full = api.simulate(kernel, "cdna3", timing=True)
        sliced = api.simulate(kernel, "cdna3", timing=True, outputs=False)
    assert full.cycles == sliced.cycles == 2327
    assert full.counters == sliced.counters


def test_the_load_waits_in_vmcnt(tmp_path):
    # without the s_waitcnt vmcnt(0) the barrier does not wait for the loads, and the reads of the LDS come
    # before the data do: the timed run must take fewer cycles, the functional values being in program order
    full = api.simulate(_write(tmp_path, KERNEL), "cdna3", timing=True)
    early = api.simulate(_write(tmp_path, KERNEL.replace("\ts_waitcnt vmcnt(0)\n\ts_barrier\n", "\ts_barrier\n")),
                         "cdna3", timing=True)
    assert early.cycles < full.cycles


@pytest.mark.parametrize("mode", MODES)
def test_a_lane_past_the_lds_allocation_faults_like_a_gpu(tmp_path, mode):
    # with 0x500 rather than 0x410, wave 1's M0 is 256 + 0x500 = 1536: its lanes 0-3 still fit the 1552-byte
    # allocation, lane 4's dword starts at its end (wave 0's lanes all fit)
    kernel = _write(tmp_path, KERNEL.replace("s_add_u32 m0, s12, 0x410", "s_add_u32 m0, s12, 0x500"))
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", **MODES[mode])
    msg = str(info.value)
    assert "LDS access outside the workgroup's allocation at LDS offset 1552 (allocation 1552 bytes)" in msg, msg
    assert "'scratch_load_lds_dword off, off'" in msg and "wave 1, lane 4" in msg, msg
    assert info.value.exit_code == 3


@pytest.mark.parametrize("mode", MODES)
def test_a_source_outside_every_buffer_faults_like_a_gpu(tmp_path, mode):
    # v[2:3] as a 64-bit address: the lane's byte offset in the grid, far below every buffer
    kernel = _write(tmp_path, KERNEL.replace("global_load_lds_dword v2, s[4:5] offset:16",
                                             "global_load_lds_dword v[2:3], off offset:16"))
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", **MODES[mode])
    msg = str(info.value)
    assert "'global_load_lds_dword v[2:3], off offset:16'" in msg and "wave 0, lane 0" in msg, msg
    assert info.value.exit_code == 3
