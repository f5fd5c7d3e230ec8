"""The MFMAs take their names and modifiers as llvm-mc-19 does, per target.

gfx942 also takes the gfx90a names of the MFMAs it kept (v_mfma_f32_32x32x8f16 is its
v_mfma_f32_32x32x8_f16); gfx90a takes none of gfx942's names, and gfx942 none of the older bf16 ones.
cbsz (0-7), abid (0-15) and blgp (0-7) come once each and in that order; gfx942's f64 MFMAs take
neg:[A, B, C] in place of blgp. Values llvm-mc takes whose effect AMD's matrix instruction calculator
does not define (a CBSZ wider than the blocks, an ABID past 2**CBSZ, BLGP where it lists none) are refused
as not supported.
"""
from __future__ import annotations

from llvm_mc_parity import parity_test

NAMES = [
    "v_mfma_f32_32x32x1_2b_f32 v[0:31], v32, v33, v[0:31]", "v_mfma_f32_32x32x1f32 v[0:31], v32, v33, v[0:31]",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15]", "v_mfma_f32_16x16x1f32 v[0:15], v32, v33, 0",
    "v_mfma_f32_32x32x4_2b_f16 a[0:31], v[32:33], v[34:35], a[0:31]",
    "v_mfma_f32_32x32x4f16 v[0:31], v[32:33], v[34:35], v[0:31]",
    "v_mfma_f32_16x16x4_4b_f16 v[0:15], v[32:33], v[34:35], v[0:15]",
    "v_mfma_f32_16x16x4f16 v[0:15], v[32:33], v[34:35], v[0:15]",
    "v_mfma_f32_32x32x4_2b_bf16 v[0:31], v[32:33], v[34:35], v[0:31]",
    "v_mfma_f32_32x32x4bf16_1k v[0:31], v[32:33], v[34:35], v[0:31]",
    "v_mfma_f32_16x16x4_4b_bf16 v[0:15], v[32:33], v[34:35], v[0:15]",
    "v_mfma_f32_4x4x4_16b_bf16 v[0:3], v[32:33], v[34:35], v[0:3]",
    "v_mfma_f32_4x4x4bf16_1k v[0:3], v[32:33], v[34:35], v[0:3]",
    "v_mfma_f32_32x32x2bf16 v[0:31], v32, v33, v[0:31]", "v_mfma_f32_16x16x2bf16 v[0:15], v32, v33, v[0:15]",
    "v_mfma_f32_4x4x2bf16 v[0:3], v32, v33, v[0:3]", "v_mfma_f32_32x32x4bf16 v[0:15], v32, v33, v[0:15]",
    "v_mfma_f32_16x16x8bf16 v[0:3], v32, v33, v[0:3]",
    "v_mfma_i32_32x32x4_2b_i8 v[0:31], v32, v33, v[0:31]", "v_mfma_i32_32x32x4i8 v[0:31], v32, v33, v[0:31]",
    "v_mfma_i32_16x16x4_4b_i8 v[0:15], v32, v33, v[0:15]", "v_mfma_i32_4x4x4_16b_i8 v[0:3], v32, v33, v[0:3]",
    "v_mfma_i32_4x4x4i8 v[0:3], v32, v33, v[0:3]", "v_mfma_i32_32x32x8i8 v[0:15], v32, v33, v[0:15]",
    "v_mfma_f32_32x32x8f16 v[0:15], v[32:33], v[34:35], v[0:15]",
    "v_mfma_f32_16x16x16bf16_1k v[0:3], v[32:33], v[34:35], v[0:3]",
    "v_mfma_f64_16x16x4f64 v[0:7], v[32:33], v[34:35], v[0:7]", "v_mfma_f64_4x4x4f64 v[0:1], v[32:33], v[34:35], 1.0",
    "v_mfma_f32_32x32x1_2b_f32 v[0:15], v32, v33, v[0:15]", "v_mfma_f32_16x16x1f32 v[0:31], v32, v33, v[0:31]",
]
MODIFIERS = [
    "v_mfma_f32_32x32x1_2b_f32 v[0:31], v32, v33, v[0:31] cbsz:1 abid:1 blgp:3",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] cbsz:2 abid:3",
    "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[32:33], v[34:35], v[0:3] cbsz:4 abid:15",
    "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[32:33], v[34:35], 0 cbsz:4 abid:3 blgp:7",
    "v_mfma_f32_4x4x4f16 v[0:3], v[32:33], v[34:35], v[0:3] blgp:5",
    "v_mfma_f32_32x32x2f32 v[0:15], v32, v33, v[0:15] blgp:2",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] cbsz:8",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] abid:16",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] blgp:8",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] abid:1 cbsz:1",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] blgp:1 cbsz:1",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] cbsz:1 cbsz:1",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] neg:[1,0,0]",
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[32:33], v[34:35], v[0:1] neg:[1,1]",
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[32:33], v[34:35], 0 neg:[0,0,1]",
    "v_mfma_f64_16x16x4_f64 v[0:7], v[32:33], v[34:35], v[0:7] neg:[1,0,1]",
    "v_mfma_f64_16x16x4f64 v[0:7], v[32:33], v[34:35], v[0:7] neg:[0,1,0]",
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[32:33], v[34:35], v[0:1] neg:[1,1,1,1]",
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[32:33], v[34:35], v[0:1] neg:[2,0,0]",
    "v_mfma_f64_16x16x4_f64 v[0:7], v[32:33], v[34:35], v[0:7] blgp:1",
    "v_mfma_f32_32x32x8_f16 v[0:15], v[32:33], v[34:35], v[0:15] neg:[1,0,0]",
    "v_add_f32 v1, v2, v3 cbsz:1", "v_pk_fma_f16 v1, v2, v3, v4 blgp:1",
]
UNDOCUMENTED = [
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] cbsz:3 abid:7",
    "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15] cbsz:1 abid:2",
    "v_mfma_f32_32x32x8_f16 v[0:15], v[32:33], v[34:35], v[0:15] cbsz:1",
    "v_mfma_f32_32x32x8_f16 v[0:15], v[32:33], v[34:35], v[0:15] blgp:1",
    "v_mfma_f64_16x16x4f64 v[0:7], v[32:33], v[34:35], v[0:7] blgp:1",
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[32:33], v[34:35], v[0:1] cbsz:1",
]
test_mfma_names_as_llvm_mc_takes_them = parity_test(NAMES)
test_mfma_modifiers_as_llvm_mc_takes_them = parity_test(MODIFIERS)
test_modifiers_of_no_documented_effect_are_refused_as_not_supported = parity_test(UNDOCUMENTED, "not documented")


def test_a_broadcast_wider_than_the_blocks_is_refused_at_its_line(tmp_path):
    """llvm-mc takes cbsz:3 on a 4-block MFMA, but the calculator defines at most cbsz:2 there: gpusim says so
    rather than guess what the hardware does."""
    import pytest

    import gpusim
    from gpusim.errors import UnsupportedInstruction
    from llvm_mc_parity import KERNEL

    path = tmp_path / "k.s"
    path.write_text(KERNEL.format(target="gfx942", line=UNDOCUMENTED[0]))
    with pytest.raises(UnsupportedInstruction, match=r"k\.s:8:.*cbsz:3 abid:7 .*allow cbsz 0\.\.2"):
        gpusim.load_kernel(path)
