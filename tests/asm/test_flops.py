"""FLOP accounting of the instruction table: which profiler counters one wave-instruction adds to."""
import pytest

from gpusim.asm import isa
from gpusim.asm.flops import COUNTERS, FLOPS_PER_MOP, flop_counts, mfma_ops


def counts(mnemonic: str) -> dict:
    return dict(flop_counts(isa.lookup(mnemonic)))


MFMAS = [name for name, d in isa.table().items() if d.fmt == "MFMA"]


@pytest.mark.parametrize("name", MFMAS)
def test_every_mfma_counts_its_2mnk_operations_in_whole_mops(name):
    d = isa.lookup(name)
    m, n, k, blocks = d.shape
    assert mfma_ops(d) == 2 * m * n * k * blocks
    assert mfma_ops(d) % FLOPS_PER_MOP == 0
    c = counts(name)
    (mops,) = [v for key, v in c.items() if "_MOPS_" in key]
    assert mops * FLOPS_PER_MOP == 2 * m * n * k * blocks
    assert sum(v for key, v in c.items() if "_MOPS_" not in key) == 1


@pytest.mark.parametrize("mnemonic, expected", [
    ("v_mfma_f32_32x32x8_f16", {"SQ_INSTS_VALU_MFMA_F16": 1, "SQ_INSTS_VALU_MFMA_MOPS_F16": 32}),
    ("v_mfma_f32_16x16x16_bf16", {"SQ_INSTS_VALU_MFMA_BF16": 1, "SQ_INSTS_VALU_MFMA_MOPS_BF16": 16}),
    ("v_mfma_f32_4x4x1_16b_f32", {"SQ_INSTS_VALU_MFMA_F32": 1, "SQ_INSTS_VALU_MFMA_MOPS_F32": 1}),
    ("v_mfma_f64_16x16x4_f64", {"SQ_INSTS_VALU_MFMA_F64": 1, "SQ_INSTS_VALU_MFMA_MOPS_F64": 4}),
    ("v_mfma_i32_32x32x16_i8", {"SQ_INSTS_VALU_MFMA_I8": 1, "SQ_INSTS_VALU_MFMA_MOPS_I8": 64}),
    ("v_mfma_f32_16x16x32_bf8_fp8", {"SQ_INSTS_VALU_MFMA_F8": 1, "SQ_INSTS_VALU_MFMA_MOPS_F8": 32}),
    ("v_mfma_f32_32x32x4_xf32", {"SQ_INSTS_VALU_MFMA_XF32": 1, "SQ_INSTS_VALU_MFMA_MOPS_XF32": 16}),
    ("v_fmac_f32", {"SQ_INSTS_VALU_FMA_F32": 1}),
    ("v_fma_f32", {"SQ_INSTS_VALU_FMA_F32": 1}),
    ("v_mad_f32", {"SQ_INSTS_VALU_FMA_F32": 1}),
    ("v_pk_fma_f32", {"SQ_INSTS_VALU_FMA_F32": 2}),
    ("v_add_f32", {"SQ_INSTS_VALU_ADD_F32": 1}),
    ("v_sub_f32", {"SQ_INSTS_VALU_ADD_F32": 1}),
    ("v_mul_f32", {"SQ_INSTS_VALU_MUL_F32": 1}),
    ("v_pk_add_f16", {"SQ_INSTS_VALU_ADD_F16": 2}),
    ("v_pk_mul_f16", {"SQ_INSTS_VALU_MUL_F16": 2}),
    ("v_fma_f16", {"SQ_INSTS_VALU_FMA_F16": 1}),
    ("v_dot2_f32_f16", {"SQ_INSTS_VALU_FMA_F16": 2}),
    ("v_fma_f64", {"SQ_INSTS_VALU_FMA_F64": 1}),
    ("v_add_f64", {"SQ_INSTS_VALU_ADD_F64": 1}),
    ("v_exp_f32", {"SQ_INSTS_VALU_TRANS_F32": 1}),
    ("v_rcp_f64", {"SQ_INSTS_VALU_TRANS_F64": 1}),
    ("v_sqrt_f16", {"SQ_INSTS_VALU_TRANS_F16": 1}),
])
def test_flop_counters_of_an_instruction(mnemonic, expected):
    assert counts(mnemonic) == expected


@pytest.mark.parametrize("mnemonic", ["v_mov_b32", "v_add_u32", "v_max_f32", "v_cvt_f32_f16", "v_cmp_lt_f32",
                                      "v_mad_u32_u24", "v_dot4_i32_i8", "s_add_u32", "global_load_dword",
                                      "ds_read_b32"])
def test_no_flops_for_moves_integers_compares_and_memory(mnemonic):
    assert counts(mnemonic) == {}


def test_every_counter_named_is_declared():
    named = {key for d in isa.table().values() for key, _ in flop_counts(d)}
    assert named <= set(COUNTERS)
