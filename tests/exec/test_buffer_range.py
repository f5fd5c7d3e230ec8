"""A buffer instruction's lanes past its resource's range (num_records) move nothing: a load reads zero, a
store is dropped, and so is an atomic, whose lane returns zero. Triton masks its buffer loads, stores and
atomics so, giving a masked-off lane an offset past the range (its BufferOpsEmitter: "if offset[i] >
mem_desc.num_records the operation is a nop for the i-th thread"); none of them may fault.

One wave of 64 lanes, lane l at byte offset 4 * l: a load and a returning atomic add through a resource of
200 bytes (lanes 0-49 in range) over a 64-dword buffer, and a store through one of 100 bytes (lanes 0-24).
"""
from __future__ import annotations

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc

from gpusim import api

MODES = {"functional": {}, "timed": {"timing": True}, "timed-sliced": {"timing": True, "outputs": False}}

KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: data buffer u32[64] init=arange
; gpusim-arg: stored buffer u32[64] out
; gpusim-arg: loaded buffer u32[64] out
; gpusim-arg: returned buffer u32[64] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl ranged
\t.p2align 8
\t.type ranged,@function
ranged:
\ts_load_dwordx8 s[4:11], s[0:1], 0x0
\tv_lshlrev_b32_e32 v1, 2, v0
\tv_mov_b32_e32 v3, 1
\tv_add_u32_e32 v4, 0x3e8, v0
\ts_mov_b32 s14, 0xc8
\ts_mov_b32 s15, 0x20000
\ts_mov_b32 s18, 0x64
\ts_mov_b32 s19, 0x20000
\ts_waitcnt lgkmcnt(0)
\ts_mov_b32 s12, s4
\ts_mov_b32 s13, s5
\ts_mov_b32 s16, s6
\ts_mov_b32 s17, s7
\tbuffer_load_dword v2, v1, s[12:15], 0 offen
\tbuffer_atomic_add v3, v1, s[12:15], 0 offen sc0
\tbuffer_store_dword v4, v1, s[16:19], 0 offen
\ts_waitcnt vmcnt(0)
\tglobal_store_dword v1, v2, s[8:9]
\tglobal_store_dword v1, v3, s[10:11]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel ranged
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 5
\t\t.amdhsa_next_free_sgpr 20
\t\t.amdhsa_accum_offset 8
\t.end_amdhsa_kernel
"""


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, KERNEL, "gfx942")


@pytest.mark.parametrize("mode", MODES)
def test_lanes_past_the_range_read_zero_and_write_nothing(tmp_path, mode):
    path = tmp_path / "ranged.s"
    path.write_text(KERNEL)
    r = api.simulate(api.load_kernel(path), "cdna3", **MODES[mode])
    if mode == "timed-sliced":
        assert r.cycles > 0
        return
    lane = np.arange(64, dtype=np.uint32)
    inside = lane < 50
    np.testing.assert_array_equal(r.outputs["loaded"], np.where(inside, lane, 0))
    np.testing.assert_array_equal(r.outputs["returned"], np.where(inside, lane, 0))  # the old value, or zero
    np.testing.assert_array_equal(r.outputs["data"], np.where(inside, lane + 1, lane))
    np.testing.assert_array_equal(r.outputs["stored"], np.where(lane < 25, lane + 1000, 0))


def test_lanes_past_the_range_reach_no_cache(tmp_path):
    # with a range of 0 bytes every lane of the load and the atomic is past it: they must add no cache access
    # to the kernel without them (the hardware sends no request for such a lane)
    counters = {}
    for name, text in (("outside", KERNEL.replace("s_mov_b32 s14, 0xc8", "s_mov_b32 s14, 0")),
                       ("without", KERNEL.replace("\tbuffer_load_dword v2, v1, s[12:15], 0 offen\n", "")
                        .replace("\tbuffer_atomic_add v3, v1, s[12:15], 0 offen sc0\n", ""))):
        path = tmp_path / f"{name}.s"
        path.write_text(text)
        counters[name] = api.simulate(api.load_kernel(path), "cdna3", timing=True).counters
    for c in ("TCP_TOTAL_CACHE_ACCESSES_sum", "TCC_REQ_sum"):
        assert counters["outside"][c] == counters["without"][c] > 0, c
