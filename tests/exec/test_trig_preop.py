"""v_trig_preop_f64, the segments of 2/pi that ocml's large-argument sin, cos and tan reduce by: against an exact
big-integer reference, and through Triton's f64 sin and cos against numpy."""
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from gpusim.exec.kernels import valu_ops
from gpusim.exec.kernels.two_over_pi import FRACTION_BITS, WORDS, _fraction_bits


def test_the_bits_are_two_over_pi():
    # fdlibm's k_rem_pio2.c lists 2/pi in 24-bit words: A2F983 6E4E44 1529FC 2757D1 F534DD C0DB62 95993C 439041
    assert "".join(f"{int(w):016X}" for w in WORDS[:3]) == "A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041"
    assert abs(_fraction_bits() / (1 << FRACTION_BITS) - 2 / math.pi) < 1e-16
    assert not any(WORDS[FRACTION_BITS // 64 + 1:])          # past b0 the table reads zero


def _reference(x: float, segment: int) -> float:
    """The CDNA3 ISA's V_TRIG_PREOP_F64 in Python integers: 53 bits of 2/pi from bit 53 * segment + 1 (moved by
    the biased exponent past 1077), times 2**(-53 - shift) (2**128 more from exponent 1968 on), toward zero."""
    e = (int(np.float64(x).view(np.uint64)) >> 52) & 0x7FF
    shift = 53 * (segment & 31) + max(0, e - 1077)
    bits = _fraction_bits() << 4096
    m = (bits >> (FRACTION_BITS + 4096 - 53 - shift)) & ((1 << 53) - 1)
    scale = -53 - shift + (128 if e >= 1968 else 0)
    if scale < -1074:
        m >>= -1074 - scale
        scale = -1074
    return math.ldexp(m, scale)


@pytest.mark.parametrize("x", [1.0, -3.5, 2.0 ** 30, 1e17, 2.0 ** 54, 2.0 ** 55, 2.0 ** 200, 2.0 ** 944, 2.0 ** 945,
                               1e300, 5e-324, float("inf")])
@pytest.mark.parametrize("segment", [0, 1, 2, 5, 20, 31, 32 + 1])
def test_each_segment_is_the_exact_bits(x, segment):
    got = valu_ops.trig_preop_f64(np.uint64(np.float64(x).view(np.uint64)), np.uint64(segment))
    assert np.uint64(got).view(np.float64) == _reference(x, segment)


def test_three_segments_sum_to_two_over_pi():
    got = [np.uint64(valu_ops.trig_preop_f64(np.uint64(np.float64(1.0).view(np.uint64)), np.uint64(s))).view(np.float64)
           for s in range(3)]
    assert got[0] == 0.6366197723675813 and got[0] + got[1] == 2 / math.pi and 0 < got[2] < 2.0 ** -104


@pytest.mark.parametrize("fn", ["sin", "cos"])
def test_tritons_f64_sin_and_cos_reduce_large_arguments(fn):
    """ocml reduces |x| >= 2**30 with three trig_preop segments in double-double arithmetic (Triton's libdevice
    links it). Triton fuses multiplies and adds across ocml's code unless enable_fp_fusion is off, which
    breaks that arithmetic's error terms (on the hardware as here): with it off, every argument up to 1e300
    comes out within 2 units in the last place of numpy's."""
    pytest.importorskip("triton", reason="Triton 3.x is not installed")
    sys.path.insert(0, str(Path(__file__).parents[1] / "frontends"))
    import triton_kernels_more as km
    import gpusim.triton as gt

    x = 10.0 ** np.random.default_rng(3).uniform(-3, 300, 256)
    y = np.zeros_like(x)
    gt.simulate(km.trig_kernel, grid=(1,), args=(x, y, 256), constexprs={"BLOCK": 256, "COS": fn == "cos"},
                timing=False, options={"enable_fp_fusion": False})
    want = getattr(np, fn)(x)
    assert (x >= 2.0 ** 30).sum() > 200
    np.testing.assert_allclose(y, want, rtol=0, atol=2 * np.spacing(np.abs(want)).max())
