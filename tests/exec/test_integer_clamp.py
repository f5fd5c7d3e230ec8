"""Clamp saturates the integer adds, subtracts and dot products, and clamps packed float results to [0, 1]
(tests/exec/data/integer_clamp.s against numpy; about half of its lanes saturate), functional and timed."""
import numpy as np
import pytest

import gpusim
from exec_support import fixture_path


@pytest.mark.parametrize("timing", [False, True])
def test_integer_clamp_saturates_and_packed_floats_clamp(timing):
    r = gpusim.simulate(gpusim.load_kernel(fixture_path("integer_clamp.s")), "cdna3", check=True, timing=timing)
    assert len(r.checks) == 11 and all(c.passed for c in r.checks), [c.describe() for c in r.checks if not c.passed]
    o = r.outputs["o"].astype(np.int64)
    assert 0 < (o[192:256] == 2**31 - 1).sum() < 64   # v_dot4c_i32_i8 clamp: some lanes saturate, some not
    assert 0 < (o[:64] == 65535).sum() < 64            # v_add_u16 clamp
