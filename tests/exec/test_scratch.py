"""Scratch memory: scratch_* instructions reach each lane's private segment.

A wave's lanes keep their segments interleaved a dword at a time from the wave's FLAT_SCRATCH base
(gpusim.exec.kernels.vmem.scratch_address), every wave of the grid its own, sized by the descriptor's
``.amdhsa_private_segment_fixed_size``. The kernel below stores and loads through every addressing form
llvm-mc-19 takes (a VGPR, an SGPR, both, neither; negative offsets), four dwords at once, a byte and a
sign-extended short, in two workgroups of two waves; each lane must read back what it alone wrote.
"""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from gpusim import api
from gpusim.errors import KernelFault

MODES = {"functional": {}, "timed": {"timing": True}, "timed-sliced": {"timing": True, "outputs": False}}

KERNEL = """; gpusim-launch: grid=2,1,1 block=128,1,1
; gpusim-arg: dst buffer u32[256, 8] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl private
\t.p2align 8
\t.type private,@function
private:
\ts_load_dwordx2 s[10:11], s[0:1], 0x0
\tv_add_u32_e32 v5, 1, v0
\tv_add_u32_e32 v6, 2, v0
\tv_add_u32_e32 v7, 3, v0
\tv_mov_b32_e32 v4, v0
\ts_mov_b32 s4, 16
\tscratch_store_dwordx4 off, v[4:7], s4
\tv_mov_b32_e32 v12, 0
\tscratch_store_dword off, v12, off offset:32
\tv_mov_b32_e32 v12, 3
\tv_or_b32_e32 v13, 0x100, v0
\tscratch_store_byte v12, v13, off offset:32
\tv_and_b32_e32 v14, 3, v0
\tv_lshlrev_b32_e32 v14, 2, v14
\tscratch_store_dword v14, v0, off offset:48
\tv_or_b32_e32 v17, 0x8000, v0
\ts_mov_b32 s6, 8
\tscratch_store_short v12, v17, s6 offset:29
\tscratch_load_dwordx4 v[8:11], off, s4
\tscratch_load_dword v12, off, off offset:32
\tscratch_load_dword v13, v14, off offset:48
\ts_mov_b32 s5, 64
\tscratch_load_dword v15, off, s5 offset:-48
\tv_mov_b32_e32 v16, 40
\tscratch_load_sshort v16, v16, off
\ts_mul_i32 s7, s2, 0x80
\tv_add_u32_e32 v1, s7, v0
\tv_lshlrev_b32_e32 v1, 5, v1
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tglobal_store_dwordx4 v1, v[8:11], s[10:11]
\tglobal_store_dword v1, v12, s[10:11] offset:16
\tglobal_store_dword v1, v13, s[10:11] offset:20
\tglobal_store_dword v1, v15, s[10:11] offset:24
\tglobal_store_dword v1, v16, s[10:11] offset:28
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel private
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_enable_private_segment 1
\t\t.amdhsa_private_segment_fixed_size 64
\t\t.amdhsa_next_free_vgpr 18
\t\t.amdhsa_next_free_sgpr 12
\t\t.amdhsa_accum_offset 20
\t.end_amdhsa_kernel
"""


def _expected() -> np.ndarray:
    tid = np.tile(np.arange(128, dtype=np.uint32), 2)
    out = np.zeros((256, 8), np.uint32)
    out[:, 0:4] = tid[:, None] + np.arange(4, dtype=np.uint32)
    out[:, 4] = (tid & 0xFF) << 24                          # the byte at private offset 35
    out[:, 5] = tid                                        # a private offset that differs by lane
    out[:, 6] = tid                                        # 64 - 48: the first of the four dwords
    out[:, 7] = 0xFFFF8000 | tid                           # 0x8000 | tid as a sign-extended short
    return out


@pytest.fixture
def kernel_path(tmp_path):
    path = tmp_path / "private.s"
    path.write_text(KERNEL)
    return path


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is not installed")
def test_the_kernel_assembles_with_llvm_mc(kernel_path):
    done = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o",
                           "/dev/null", str(kernel_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("mode", MODES)
def test_each_lane_reads_back_its_own_private_memory(kernel_path, mode):
    r = api.simulate(api.load_kernel(kernel_path), "cdna3", **MODES[mode])
    if mode != "timed-sliced":
        np.testing.assert_array_equal(r.outputs["dst"], _expected())
    if mode != "functional":
        assert r.cycles > 0
        # every scratch access is a vector memory instruction through the L1 like any other
        assert r.counters["SQ_INSTS_VMEM_RD"] == 4 * 5 and r.counters["SQ_INSTS_VMEM_WR"] == 4 * (5 + 5)


def test_a_lane_past_its_private_segment_faults_like_a_gpu(tmp_path):
    path = tmp_path / "past.s"
    path.write_text(KERNEL.replace("scratch_load_dword v15, off, s5 offset:-48",
                                   "scratch_load_dword v15, off, s5 offset:-2"))
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna3")
    msg = str(info.value)
    assert ("kernel 'private' faulted: scratch access outside the lane's private segment at private offset 62 "
            "(4 bytes; a lane's segment holds 64: .amdhsa_private_segment_fixed_size)") in msg, msg
    assert "'scratch_load_dword v15, off, s5 offset:-2'" in msg and "lane 0" in msg
    assert info.value.exit_code == 3
