"""The 64-bit LDS atomics (ds_inc_u64, ds_dec_u64, ds_min_f64, ds_max_f64) and gfx942's ds_pk_add_bf16: 64
lanes each apply one to a shared LDS value; the final values, and the set of values the returning forms
give back (whatever order the lanes go in), against Python."""
from __future__ import annotations

import numpy as np
from exec_support import assert_assembles, needs_llvm_mc, run_kernel

KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: x buffer f64[64] init=zeros
; gpusim-arg: old buffer u64[64, 4] out
; gpusim-arg: final buffer u64[8] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl lds64
\t.p2align 8
\t.type lds64,@function
lds64:
\ts_load_dwordx4 s[4:7], s[0:1], 0x0
\ts_load_dwordx2 s[8:9], s[0:1], 0x10
\tv_lshlrev_b32_e32 v1, 3, v0
\tv_mov_b32_e32 v20, 0
\tv_cmp_eq_u32_e32 vcc, 0, v0
\ts_and_saveexec_b64 s[10:11], vcc
\tv_mov_b32_e32 v2, 5
\tv_mov_b32_e32 v3, 0
\tds_write_b64 v20, v[2:3]
\tv_mov_b32_e32 v2, 3
\tds_write_b64 v20, v[2:3] offset:8
\tv_mov_b32_e32 v2, 0
\tv_mov_b32_e32 v3, 0x3ff80000
\tds_write_b64 v20, v[2:3] offset:16
\tds_write_b64 v20, v[2:3] offset:24
\tv_mov_b32_e32 v2, 0x40003f80
\tds_write_b32 v20, v2 offset:32
\ts_or_b64 exec, exec, s[10:11]
\ts_waitcnt lgkmcnt(0)
\ts_barrier
\tglobal_load_dwordx2 v[4:5], v1, s[4:5]
\tv_mov_b32_e32 v6, 100
\tv_mov_b32_e32 v7, 0
\tv_mov_b32_e32 v8, 10
\tv_mov_b32_e32 v9, 0
\tv_mov_b32_e32 v10, 0x3e803f00
\ts_waitcnt vmcnt(0)
\tds_inc_rtn_u64 v[12:13], v20, v[6:7]
\tds_dec_rtn_u64 v[14:15], v20, v[8:9] offset:8
\tds_max_rtn_f64 v[16:17], v20, v[4:5] offset:16
\tds_min_f64 v20, v[4:5] offset:24
\tds_pk_add_rtn_bf16 v18, v20, v10 offset:32
\tv_mov_b32_e32 v19, 0
\ts_waitcnt lgkmcnt(0)
\tv_lshlrev_b32_e32 v1, 5, v0
\tglobal_store_dwordx4 v1, v[12:15], s[6:7]
\tglobal_store_dwordx4 v1, v[16:19], s[6:7] offset:16
\ts_barrier
\ts_and_saveexec_b64 s[10:11], vcc
\tds_read_b128 v[12:15], v20
\tds_read_b128 v[16:19], v20 offset:16
\tds_read_b32 v22, v20 offset:32
\tv_mov_b32_e32 v23, 0
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dwordx4 v20, v[12:15], s[8:9]
\tglobal_store_dwordx4 v20, v[16:19], s[8:9] offset:16
\tglobal_store_dwordx2 v20, v[22:23], s[8:9] offset:32
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel lds64
\t\t.amdhsa_group_segment_fixed_size 64
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 24
\t\t.amdhsa_next_free_sgpr 12
\t\t.amdhsa_accum_offset 24
\t.end_amdhsa_kernel
"""


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, KERNEL, "gfx942")


def bf16(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0]) >> 16


def test_64_bit_lds_atomics_and_bf16_pairs(tmp_path):
    x = np.random.default_rng(64).uniform(-4, 4, 64)
    path = tmp_path / "lds64.s"
    path.write_text(KERNEL)
    out = run_kernel(path, {"x": x})
    old, final = out["old"].astype(np.uint64), out["final"].astype(np.uint64)
    # inc (limit 100) from 5: 64 steps, no wrap; dec (limit 10) from 3 wraps to the limit after 0
    dec, seen = 3, []
    for _ in range(64):
        seen.append(dec)
        dec = 10 if dec == 0 or dec > 10 else dec - 1
    assert sorted(old[:, 0].tolist()) == list(range(5, 69)) and int(final[0]) == 69
    assert sorted(old[:, 1].tolist()) == sorted(seen) and int(final[1]) == dec
    assert final[2:4].view(np.float64).tolist() == [max(1.5, x.max()), min(1.5, x.min())]
    assert set(old[:, 2].view(np.float64).tolist()) <= {1.5, *x.tolist()}   # each lane saw some earlier max
    # each lane adds (0.5, 0.25) to the pair (1.0, 2.0): exact in bf16
    assert int(final[4]) == bf16(1.0 + 64 * 0.5) | bf16(2.0 + 64 * 0.25) << 16
    assert sorted(int(v) & 0xFFFF for v in old[:, 3]) == [bf16(1.0 + k * 0.5) for k in range(64)]
