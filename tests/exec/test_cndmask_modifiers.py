"""v_cndmask_b32_e64's -x and |x| act on the f32 sign bit (tests/exec/data/cndmask_modifiers.s), functional and
timed."""
import pytest

from exec_support import assert_checks_pass


@pytest.mark.parametrize("timing", [False, True])
def test_cndmask_source_modifiers_are_f32_sign_operations(timing):
    assert_checks_pass("cndmask_modifiers.s", 3, timing)
