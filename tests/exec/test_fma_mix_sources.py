"""v_fma_mix_f32 and v_fma_mixlo_f16 (tests/exec/data/fma_mix_sources.hip): with op_sel_hi left out, as clang-19
and llvm-objdump print [0,0,0], every source is f32, as llvm-mc encodes it; op_sel_hi:[1,0,0] reads source 0 as
f16; and the f16 division clang-19 emits for gfx942, whose v_fma_mixlo_f16 takes an f32 reciprocal, divides."""
from pathlib import Path

import pytest

import gpusim

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("timing", [False, True])
def test_fma_mix_sources_are_f32_unless_op_sel_hi_marks_them(timing):
    k = gpusim.load_kernel(DATA / "fma_mix_sources.hip")
    assert {"v_fma_mix_f32", "v_fma_mixlo_f16", "v_div_fixup_f16"} <= set(k.program.mnemonics)
    r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
    assert len(r.checks) == 4
    for c in r.checks:
        assert c.passed and c.elements == 1024, c.describe()
