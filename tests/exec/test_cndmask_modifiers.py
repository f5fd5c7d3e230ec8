"""v_cndmask_b32_e64's -x and |x| act on the f32 sign bit (tests/exec/data/cndmask_modifiers.s), functional and
timed."""
import pytest

import gpusim
from exec_support import fixture_path


@pytest.mark.parametrize("timing", [False, True])
def test_cndmask_source_modifiers_are_f32_sign_operations(timing):
    r = gpusim.simulate(gpusim.load_kernel(fixture_path("cndmask_modifiers.s")), "cdna3", check=True, timing=timing)
    assert len(r.checks) == 3 and all(c.passed for c in r.checks), [c.describe() for c in r.checks]
