"""gpusim's execution against the host CPU's: random C expressions (tests/exec/random_expressions.py) compiled by
clang-19 for gfx942 and run by gpusim, and compiled for the host and run there, agree bit for bit, lane for lane:
64-bit adds and shifts built from 32-bit halves, multiplies high and low, bit counts, conversions between 8-64-bit
signed and unsigned types, selects and signed comparisons; and float and double arithmetic (division and square
root as LLVM expands them, fma, rounding, conversions) over every bit pattern, NaNs, infinities and subnormals;
and _Float16 arithmetic through gfx942's f16 instructions (its division an f32 reciprocal in v_fma_mixlo_f16)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from random_expressions import EXPRESSIONS, LANES, run_both

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 compiles both sides")


FLAVOURS = {"integer": {}, "floating-point": {"floating": True}, "half": {"half": True}}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_random_expressions_match_the_host(tmp_path, flavour, seed):
    got, want = run_both(seed, tmp_path, **FLAVOURS[flavour])
    assert got.shape == want.shape == (EXPRESSIONS, LANES)
    wrong = sorted({int(e) for e in np.nonzero(got != want)[0]})
    assert not wrong, f"{flavour} seed {seed}: expressions {wrong} differ (see {tmp_path})"
    assert len(np.unique(want)) > LANES   # the values vary: the comparison says something


def test_the_timing_model_computes_the_same_values(tmp_path):
    got, want = run_both(7, tmp_path, timing=True)
    np.testing.assert_array_equal(got, want)
