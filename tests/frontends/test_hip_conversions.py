"""HIP's conversions with a named rounding (gpusim_hip_conversions.h), run on the functional and the timing model,
against rounding done exactly in Python: a float or double result is the neighbour of the exact value that the
rounding names, found by comparing Python's exact int and float values; ties go to the even neighbour."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import gpusim

DATA = Path(__file__).parent / "data"
MODES = ("rn", "rz", "rd", "ru")


def _neighbours(x, ftype) -> tuple:
    """_neighbours returns the ``ftype`` values just below-or-at and just above-or-at the exact number ``x`` (an int
    or a float, compared exactly), with infinity past the largest finite value."""
    inf = ftype(np.inf)
    guess = ftype(x) if abs(x) < 1e300 else inf
    down = guess
    while float(down) > x:
        down = np.nextafter(down, -inf)
    while float(np.nextafter(down, inf)) <= x:
        down = np.nextafter(down, inf)
    up = down if float(down) == x else np.nextafter(down, inf)
    return down, up


def rounded(x, ftype, mode: str):
    """rounded is the exact ``x`` rounded to ``ftype`` by ``mode`` (rn to nearest even, rz, rd, ru)."""
    down, up = _neighbours(x, ftype)
    if down == up or mode == "rd":
        return down
    if mode == "ru":
        return up
    if mode == "rz":
        return down if x > 0 else up
    if np.isinf(up) or np.isinf(down):   # past the largest finite value: infinity from half an ulp beyond it
        top = np.finfo(ftype).max
        edge = Fraction(float(top)) + Fraction(float(top) - float(np.nextafter(top, ftype(0)))) / 2
        finite, infinite = (down, up) if np.isinf(up) else (up, down)
        return infinite if abs(Fraction(x)) >= edge else finite
    below, above = Fraction(x) - Fraction(float(down)), Fraction(float(up)) - Fraction(x)
    if below != above:
        return down if below < above else up
    bits = np.uint32 if ftype is np.float32 else np.uint64
    return down if int(np.array(down).view(bits)) % 2 == 0 else up


def integral(x: float, mode: str) -> int:
    """integral is float ``x`` rounded to an integer by ``mode`` (rn to nearest even)."""
    return int({"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}[mode](x))


@pytest.fixture(scope="module", params=[False, True], ids=["functional", "timed"])
def run(request):
    k = gpusim.load_kernel(DATA / "rounding_conversions.hip")
    return gpusim.simulate(k, "cdna3", timing=request.param).outputs


def _blocks(values, count):
    return values.reshape(count, 256)


@pytest.mark.parametrize("source, ftype, out, first", [
    ("i", np.float32, "tof", 0), ("u", np.float32, "tof", 4), ("l", np.float32, "tof", 8),
    ("ul", np.float32, "tof", 12), ("l", np.float64, "tod", 0), ("ul", np.float64, "tod", 4)])
def test_integers_round_to_floating_point_by_each_mode(run, source, ftype, out, first):
    xs = [int(v) for v in run[source]]
    got = _blocks(run[out], len(run[out]) // 256)
    for m, mode in enumerate(MODES):
        want = np.array([rounded(x, ftype, mode) for x in xs], ftype)
        np.testing.assert_array_equal(got[first + m], want, err_msg=f"{source} {mode}")


def test_32_bit_integers_widen_to_double_exactly(run):
    got = _blocks(run["tod"], 10)
    np.testing.assert_array_equal(got[8], run["i"].astype(np.float64))
    np.testing.assert_array_equal(got[9], run["u"].astype(np.float64))


def test_the_chosen_values_round_as_ieee_says(run):
    tof = _blocks(run["tof"], 16)
    assert tof[0, 0] == 16777216.0 and tof[4, 0] == 16777220.0   # ties to the even neighbour
    assert tof[2, 0] == 16777216.0 and tof[3, 0] == 16777218.0   # 2**24 + 1 toward zero and up
    assert tof[10, 1] == np.nextafter(np.float32(2.0 ** 63), np.float32(0)) and tof[8, 1] == 2.0 ** 63
    assert tof[15, 1] == 2.0 ** 64 and tof[14, 1] < 2.0 ** 64   # the largest u64 rounds up to 2**64, down below it


def test_doubles_narrow_to_float_by_each_mode_past_its_range_and_in_its_subnormals(run):
    d = run["d"].reshape(3, 256)
    got = run["narrow"].reshape(3, 4, 256)
    for r in range(3):
        for m, mode in enumerate(MODES):
            want = np.array([rounded(float(x), np.float32, mode) for x in d[r]], np.float32)
            np.testing.assert_array_equal(got[r, m], want, err_msg=f"range {r} {mode}")
    assert np.isinf(got[1, :, :]).any() and (got[2, :, :] != 0).any() and (np.abs(got[2]) < 1.2e-38).all()
    assert np.isinf(got[1, 0, 0]) and got[1, 2, 0] == np.finfo(np.float32).max   # FLT_MAX + half an ulp
    assert got[2, 0, 0] == 0.0 and got[2, 3, 0] == np.float32(1.4e-45)            # half the least subnormal


@pytest.mark.parametrize("source, out, first", [
    ("f", "toi", 0), ("g", "toi", 4), ("fu", "tou", 0), ("gu", "tou", 4),
    ("wf", "toll", 0), ("wg", "toll", 4), ("wfu", "toull", 0), ("wgu", "toull", 4)])
def test_floating_point_rounds_to_integers_by_each_mode(run, source, out, first):
    got = _blocks(run[out], 8)
    for m, mode in enumerate(MODES):
        want = [integral(float(x), mode) for x in run[source]]
        assert [int(v) for v in got[first + m]] == want, f"{source} {mode}"
