"""Clamp saturates the integer adds, subtracts and dot products, and clamps packed float results to [0, 1]
(tests/exec/data/integer_clamp.s against numpy; about half of its lanes saturate), functional and timed."""
import numpy as np
import pytest

from exec_support import assert_checks_pass


@pytest.mark.parametrize("timing", [False, True])
def test_integer_clamp_saturates_and_packed_floats_clamp(timing):
    r = assert_checks_pass("integer_clamp.s", 11, timing)
    o = r.outputs["o"].astype(np.int64)
    assert 0 < (o[192:256] == 2**31 - 1).sum() < 64   # v_dot4c_i32_i8 clamp: some lanes saturate, some not
    assert 0 < (o[:64] == 65535).sum() < 64            # v_add_u16 clamp
