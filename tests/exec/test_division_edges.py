"""IEEE division where the quotient is a signed zero or subnormal (tests/exec/data/division_edges.hip): clang's
division sequence (v_div_scale, v_rcp, v_fma, v_div_fmas, v_div_fixup) gives the correctly rounded quotient, bit
for bit, on the functional and the timing model. -0 / y took y's sign and about 1 in 200 subnormal quotients
was an ulp off before v_div_fixup followed the ISA's sign rule and stood in for the hardware's scaling."""
from pathlib import Path

import pytest

import gpusim

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("timing", [False, True])
def test_zero_and_subnormal_quotients_are_correctly_rounded(timing):
    k = gpusim.load_kernel(DATA / "division_edges.hip")
    assert {"v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32", "v_div_fixup_f64"} <= set(k.program.mnemonics)
    r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
    assert len(r.checks) == 5
    for c in r.checks:
        assert c.passed and c.elements == 4096, c.describe()
