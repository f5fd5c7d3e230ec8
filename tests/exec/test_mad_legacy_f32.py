"""gfx90a's v_mad_legacy_f32 (gfx940 dropped it): the legacy product, zero when either factor is zero whatever
the other (an infinity or NaN too), rounded to f32, then the sum rounded again, against numpy."""
from __future__ import annotations

import numpy as np
from exec_support import assert_assembles, needs_llvm_mc, run_kernel

KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer f32[64] init=zeros
; gpusim-arg: b buffer f32[64] init=zeros
; gpusim-arg: c buffer f32[64] init=zeros
; gpusim-arg: d buffer f32[64] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.globl mad_legacy
\t.p2align 8
\t.type mad_legacy,@function
mad_legacy:
\ts_load_dwordx8 s[4:11], s[0:1], 0x0
\tv_lshlrev_b32_e32 v0, 2, v0
\ts_waitcnt lgkmcnt(0)
\tglobal_load_dword v1, v0, s[4:5]
\tglobal_load_dword v2, v0, s[6:7]
\tglobal_load_dword v3, v0, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mad_legacy_f32 v4, v1, v2, v3
\tglobal_store_dword v0, v4, s[10:11]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel mad_legacy
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 5
\t\t.amdhsa_next_free_sgpr 12
\t\t.amdhsa_accum_offset 8
\t.end_amdhsa_kernel
"""


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, KERNEL, "gfx90a")


def test_mad_legacy_f32_rounds_the_legacy_product_then_the_sum(tmp_path):
    rng = np.random.default_rng(90)
    a = rng.uniform(-3, 3, 64).astype(np.float32)
    b = rng.uniform(-3, 3, 64).astype(np.float32)
    c = rng.uniform(-3, 3, 64).astype(np.float32)
    a[:4], b[:4] = [0.0, np.inf, np.nan, -0.0], [np.inf, 0.0, 0.0, np.nan]   # a zero factor wins
    a[4], b[4], c[4] = 1 + 2.0 ** -12, 1 + 2.0 ** -12, -1.0    # the product's 2^-24 term is lost in its rounding
    path = tmp_path / "mad_legacy.s"
    path.write_text(KERNEL)
    got = run_kernel(path, {"a": a, "b": b, "c": c})["d"]
    product = (a * b).astype(np.float32)
    product[(a == 0) | (b == 0)] = 0.0
    want = (product + c).astype(np.float32)
    assert want[4] == np.float32(2.0 ** -11)   # (fused, it would be 2^-11 + 2^-24)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
