"""Scratch memory: scratch_* instructions (gfx942) and the private segment buffer (gfx90a) reach each lane's
private segment.

A wave's lanes keep their segments interleaved a dword at a time from the wave's FLAT_SCRATCH base
(gpusim.exec.kernels.vmem.scratch_address), every wave of the grid its own, sized by the descriptor's
``.amdhsa_private_segment_fixed_size``. The kernel below stores and loads through every addressing form
llvm-mc-19 takes (a VGPR, an SGPR, both, neither; negative offsets), four dwords at once, a byte and a
sign-extended short, in two workgroups of two waves; each lane must read back what it alone wrote.

On gfx90a a kernel reaches the same segments through buffer instructions and the swizzled V# the launch
puts in its first four user SGPRs, adding its wave's offset (the private segment wavefront offset SGPR)
to the base; a swizzled V# a kernel builds itself lays out its records by the ISA's formula.
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc

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


GFX90A_KERNEL = """; gpusim-launch: grid=2,1,1 block=128,1,1
; gpusim-arg: dst buffer u32[256, 6] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.globl private
\t.p2align 8
\t.type private,@function
private:
\ts_add_u32 s0, s0, s9
\ts_addc_u32 s1, s1, 0
\ts_load_dwordx2 s[10:11], s[4:5], 0x0
\ts_lshl_b32 s13, s8, 16
\tv_add_u32_e32 v4, s13, v0
\tv_add_u32_e32 v5, 1, v4
\ts_mov_b32 s12, 0x400
\tbuffer_store_dword v4, off, s[0:3], s12
\tbuffer_store_dword v5, off, s[0:3], s12 offset:4
\tv_mov_b32_e32 v12, 0
\tbuffer_store_dword v12, off, s[0:3], 0 offset:32
\tv_mov_b32_e32 v12, 35
\tv_or_b32_e32 v13, 0x100, v0
\tbuffer_store_byte v13, v12, s[0:3], 0 offen
\tv_and_b32_e32 v14, 3, v0
\tv_lshlrev_b32_e32 v14, 2, v14
\tbuffer_store_dword v4, v14, s[0:3], 0 offen offset:48
\tv_or_b32_e32 v17, 0x8000, v0
\tv_mov_b32_e32 v12, 40
\tbuffer_store_short v17, v12, s[0:3], 0 offen
\tbuffer_load_dword v8, off, s[0:3], 0 offset:16
\tbuffer_load_dword v9, off, s[0:3], s12 offset:4
\tbuffer_load_dword v10, off, s[0:3], 0 offset:32
\tbuffer_load_dword v11, v14, s[0:3], 0 offen offset:48
\tbuffer_load_sshort v16, v12, s[0:3], 0 offen
\ts_mul_i32 s7, s8, 0x80
\tv_add_u32_e32 v1, s7, v0
\tv_mul_u32_u24_e32 v1, 24, v1
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tglobal_store_dwordx2 v1, v[8:9], s[10:11]
\tglobal_store_dword v1, v10, s[10:11] offset:8
\tglobal_store_dword v1, v11, s[10:11] offset:12
\tglobal_store_dword v1, v16, s[10:11] offset:16
\tglobal_store_dword v1, v12, s[10:11] offset:20
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel private
\t\t.amdhsa_user_sgpr_count 8
\t\t.amdhsa_user_sgpr_private_segment_buffer 1
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_user_sgpr_flat_scratch_init 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset 1
\t\t.amdhsa_private_segment_fixed_size 64
\t\t.amdhsa_next_free_vgpr 18
\t\t.amdhsa_next_free_sgpr 14
\t\t.amdhsa_accum_offset 20
\t.end_amdhsa_kernel
"""


def _gfx90a_expected() -> np.ndarray:
    tid = np.tile(np.arange(128, dtype=np.uint32), 2)
    own = tid + (np.repeat(np.arange(2, dtype=np.uint32), 128) << 16)   # what each lane stores: its workgroup too
    out = np.zeros((256, 6), np.uint32)
    out[:, 0] = own            # stored with the SGPR offset 0x400 (private offset 16: 64 lanes' dwords apart)
    out[:, 1] = own + 1
    out[:, 2] = (tid & 0xFF) << 24                          # the byte at private offset 35
    out[:, 3] = own                                        # a private offset that differs by lane
    out[:, 4] = 0xFFFF8000 | tid                           # 0x8000 | tid as a sign-extended short
    out[:, 5] = 40
    return out


def test_a_multi_dword_access_through_the_private_segment_buffer_faults_like_a_gpu(tmp_path):
    # a swizzled V# moves one 4-byte element a lane at most (LLVM AMDGPUUsage: multi-dword private accesses are
    # for flat and scratch instructions only), so the second dword has no defined place
    path = tmp_path / "wide.s"
    path.write_text(GFX90A_KERNEL.replace("buffer_load_dword v8, off, s[0:3], 0 offset:16",
                                          "buffer_load_dwordx2 v[8:9], off, s[0:3], 0 offset:16"))
    if shutil.which("llvm-mc-19"):
        assert_assembles(tmp_path, path.read_text(), "gfx90a")
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna2")
    msg = str(info.value)
    assert ("kernel 'private' faulted: access across a 4-byte element of a swizzled buffer (8 bytes from byte 0 of "
            "an element") in msg, msg
    assert "'buffer_load_dwordx2 v[8:9], off, s[0:3], 0 offset:16'" in msg and "lane 0" in msg
    assert info.value.exit_code == 3


# A swizzled V# over an output buffer: stride 8, 60 records, INDEX_STRIDE 16 (word 3 bits 21-22 = 1),
# ADD_TID_ENABLE; lane l stores l + 1 at index l // 8 (plus its lane number) and byte offset 4 * (l & 1), then
# loads it back.
SWIZZLED_KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[256] out
; gpusim-arg: back buffer u32[64] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.globl swizzled
\t.p2align 8
\t.type swizzled,@function
swizzled:
\ts_load_dwordx4 s[12:15], s[0:1], 0x0
\ts_waitcnt lgkmcnt(0)
\ts_mov_b64 s[16:17], s[14:15]
\ts_and_b32 s13, s13, 0xffff
\ts_or_b32 s13, s13, 0x80080000
\ts_mov_b32 s14, 60
\ts_mov_b32 s15, 0xa27fac
\tv_lshrrev_b32_e32 v2, 3, v0
\tv_and_b32_e32 v3, 1, v0
\tv_lshlrev_b32_e32 v3, 2, v3
\tv_add_u32_e32 v4, 1, v0
\tbuffer_store_dword v4, v[2:3], s[12:15], 0 idxen offen
\ts_waitcnt vmcnt(0)
\tbuffer_load_dword v5, v[2:3], s[12:15], 0 idxen offen
\tv_lshlrev_b32_e32 v6, 2, v0
\ts_waitcnt vmcnt(0)
\tglobal_store_dword v6, v5, s[16:17]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel swizzled
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 8
\t\t.amdhsa_next_free_sgpr 18
\t\t.amdhsa_accum_offset 8
\t.end_amdhsa_kernel
"""


def _swizzled_reference() -> tuple[np.ndarray, np.ndarray]:
    """The AMD ISA guides' swizzled buffer address and range check, lane by lane, for SWIZZLED_KERNEL."""
    dst = np.zeros(256, np.uint32)
    back = np.zeros(64, np.uint32)
    stride, records, index_stride, element = 8, 60, 16, 4
    for lane in range(64):
        index = lane // 8 + lane                     # the VGPR index plus the lane (ADD_TID_ENABLE)
        offset = 4 * (lane & 1)
        if index >= records or offset >= stride:     # out of range: the store is dropped, the load reads 0
            continue
        byte = ((index // index_stride) * stride + offset // element * element) * index_stride \
            + (index % index_stride) * element + offset % element
        dst[byte // 4] = lane + 1
        back[lane] = lane + 1
    return dst, back


@pytest.mark.parametrize("mode", ["functional", "timed"])
def test_a_swizzled_buffer_lays_out_its_records_by_the_isa_formula(tmp_path, mode):
    path = tmp_path / "swizzled.s"
    path.write_text(SWIZZLED_KERNEL)
    r = api.simulate(api.load_kernel(path), "cdna2", **MODES[mode])
    dst, back = _swizzled_reference()
    assert np.count_nonzero(back) == 54            # ten lanes are past the 60 records
    np.testing.assert_array_equal(r.outputs["dst"], dst)
    np.testing.assert_array_equal(r.outputs["back"], back)


# (kernel text, arch, expected outputs, VMEM reads and writes per wave): scratch_* on gfx942; on gfx90a buffer
# instructions through the private segment buffer, 6 private stores where the gfx942 kernel's dwordx4 makes 5
ROUND_TRIPS = {
    "gfx942": (KERNEL, "cdna3", _expected, 5, 5 + 5),
    "gfx90a": (GFX90A_KERNEL, "cdna2", _gfx90a_expected, 5, 6 + 5),
}


@needs_llvm_mc
@pytest.mark.parametrize("text, mcpu", [(KERNEL, "gfx942"), (GFX90A_KERNEL, "gfx90a"), (SWIZZLED_KERNEL, "gfx90a")],
                         ids=["gfx942", "gfx90a", "swizzled"])
def test_the_kernels_assemble_with_llvm_mc(tmp_path, text, mcpu):
    assert_assembles(tmp_path, text, mcpu)


@pytest.mark.parametrize("target", ROUND_TRIPS)
@pytest.mark.parametrize("mode", MODES)
def test_each_lane_reads_back_its_own_private_memory(tmp_path, target, mode):
    text, arch, expected, reads, writes = ROUND_TRIPS[target]
    path = tmp_path / "private.s"
    path.write_text(text)
    r = api.simulate(api.load_kernel(path), arch, **MODES[mode])
    if mode != "timed-sliced":
        np.testing.assert_array_equal(r.outputs["dst"], expected())
    if mode != "functional":
        assert r.cycles > 0
        # every private access is a vector memory instruction through the L1 like any other: 4 waves
        assert r.counters["SQ_INSTS_VMEM_RD"] == 4 * reads and r.counters["SQ_INSTS_VMEM_WR"] == 4 * writes


D16_KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64, 4] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl d16
\t.p2align 8
\t.type d16,@function
d16:
\ts_load_dwordx2 s[10:11], s[0:1], 0x0
\tv_mov_b32_e32 v1, 0x80f4a5b6
\tv_xor_b32_e32 v1, v1, v0
\tscratch_store_dword off, v1, off
\tv_mov_b32_e32 v7, 0
\tscratch_store_dword off, v7, off offset:4
\tscratch_store_short_d16_hi off, v1, off offset:4
\tscratch_store_byte_d16_hi off, v1, off offset:7
\tv_mov_b32_e32 v2, 0x11112222
\tv_mov_b32_e32 v3, 0x33334444
\tv_mov_b32_e32 v4, 0x55556666
\tv_mov_b32_e32 v5, 0x77778888
\tscratch_load_short_d16_hi v2, off, off offset:2
\tscratch_load_sbyte_d16 v3, off, off offset:3
\tscratch_load_ubyte_d16_hi v4, off, off offset:3
\tscratch_load_short_d16 v5, off, off offset:6
\tv_lshlrev_b32_e32 v6, 4, v0
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tglobal_store_dwordx4 v6, v[2:5], s[10:11]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel d16
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_enable_private_segment 1
\t\t.amdhsa_private_segment_fixed_size 16
\t\t.amdhsa_next_free_vgpr 8
\t\t.amdhsa_next_free_sgpr 12
\t\t.amdhsa_accum_offset 8
\t.end_amdhsa_kernel
"""


@needs_llvm_mc
def test_the_d16_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, D16_KERNEL, "gfx942")


@pytest.mark.parametrize("mode", MODES)
def test_scratch_d16_loads_fill_one_half_and_d16_hi_stores_take_the_high_one(tmp_path, mode):
    path = tmp_path / "d16.s"
    path.write_text(D16_KERNEL)
    r = api.simulate(api.load_kernel(path), "cdna3", **MODES[mode])
    if mode == "timed-sliced":
        return
    x = 0x80F4A5B6 ^ np.arange(64, dtype=np.uint32)
    hi = x >> 16
    top = (x >> 24).astype(np.int64)
    signed_top = np.where(top >= 0x80, top - 0x100, top).astype(np.int64) & 0xFFFF
    # the dword after x: bytes 4..5 hold x's high half (short_d16_hi), byte 6 zero, byte 7 bits 16..23 of x
    second = hi | ((hi & 0xFF) << 24)
    want = np.stack([
        (hi << 16) | 0x2222,                              # short_d16_hi of bytes 2..3 into the high half
        0x33330000 | signed_top.astype(np.uint32),        # sbyte_d16 of byte 3, sign-extended to 16 bits
        (top.astype(np.uint32) << 16) | 0x6666,           # ubyte_d16_hi of byte 3
        0x77770000 | (second >> 16),                      # short_d16 of bytes 6..7
    ], axis=1).astype(np.uint32)
    np.testing.assert_array_equal(r.outputs["dst"], want)
