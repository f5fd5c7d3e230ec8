"""gfx942's fp8 conversions take exactly the forms llvm-mc-19 takes: v_cvt_pk_fp8_f32 and v_cvt_pk_bf8_f32
(VOP3: neg/abs sources, op_sel's last entry the destination word, no clamp), v_cvt_f32_fp8 and
v_cvt_f32_bf8 (e32, e64 with clamp or omod, SDWA picking a byte, DPP; no source modifiers, no dst_sel),
v_cvt_pk_f32_fp8 and v_cvt_pk_f32_bf8 (as those, SDWA picking a word; no DPP). gfx90a has none of them;
the stochastic-rounding v_cvt_sr_* are not modelled (not supported yet)."""
from __future__ import annotations

from llvm_mc_parity import parity_test

FORMS = [
    "v_cvt_pk_fp8_f32 v1, v2, v3", "v_cvt_pk_fp8_f32 v1, v2, v3 op_sel:[0,0,1]", "v_cvt_pk_fp8_f32 v1, v2, s3 clamp",
    "v_cvt_pk_fp8_f32 v1, -v2, |v3|", "v_cvt_pk_fp8_f32 v1, 1.0, v3", "v_cvt_pk_fp8_f32 v[1:2], v2, v3",
    "v_cvt_pk_bf8_f32 v1, v2, v3 op_sel:[0,0,1]", "v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]",
    "v_cvt_f32_fp8 v1, v2", "v_cvt_f32_fp8_e64 v1, v2 clamp", "v_cvt_f32_fp8_e64 v1, v2 mul:2",
    "v_cvt_f32_fp8_sdwa v1, v2 src0_sel:BYTE_3", "v_cvt_f32_fp8_sdwa v1, v2 dst_sel:WORD_1 src0_sel:BYTE_1",
    "v_cvt_f32_fp8_e64 v1, -v2", "v_cvt_f32_fp8_dpp v1, v2 quad_perm:[0,1,2,3]", "v_cvt_f32_bf8 v1, 0x12",
    "v_cvt_pk_f32_fp8 v[2:3], v2", "v_cvt_pk_f32_fp8_e64 v[2:3], v2 clamp",
    "v_cvt_pk_f32_fp8_sdwa v[2:3], v2 src0_sel:WORD_1", "v_cvt_pk_f32_fp8_dpp v[2:3], v2 quad_perm:[0,1,2,3]",
    "v_cvt_pk_f32_bf8 v[2:3], s2", "v_cvt_pk_f32_bf8 v2, v2",
]
test_gpusim_accepts_exactly_what_llvm_mc_accepts = parity_test(FORMS, unsupported_says="v_cvt_sr")
