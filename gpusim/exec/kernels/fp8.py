"""gfx942's 8-bit floats, e4m3fnuz (fp8) and e5m2fnuz (bf8): their values and the rounding to them.

Both are FNUZ formats: no infinity, no negative zero, and the one NaN 0x80. e4m3fnuz has exponent bias 8
(largest finite 240, subnormal step 2**-10), e5m2fnuz bias 16 (largest 57344, subnormal step 2**-17).
The MFMAs read them (gpusim.exec.kernels.mfma), the v_cvt_*fp8*/*bf8* instructions convert to and from f32
(gpusim.exec.kernels.valu_ops).
"""
import math

import numpy as np
from numba import njit

from gpusim.exec.kernels.bits import bits64, f64

U = np.uint64


@njit(_nrt=False)
def fp8_value(x, bf8):
    """fp8_value decodes an 8-bit FNUZ float (the low byte of ``x``; ``bf8``: e5m2fnuz, else e4m3fnuz) to float64
    without branches.

    As for halves: a normal value's bits move into a float64's and its exponent
    is rebiased (by 1023 - 8 or 1023 - 16), a subnormal is its mantissa times
    2**-10 or 2**-17, and 0x80 (negative zero's code) is NaN.
    """
    x = U(x) & U(0xFF)
    mag = x & U(0x7F)
    if bf8:
        v = f64((mag << U(50)) + U(1007 << 52))
        if mag < U(4):
            v = np.float64(np.int64(mag)) * 7.62939453125e-06  # 2.0 ** -17
    else:
        v = f64((mag << U(49)) + U(1015 << 52))
        if mag < U(8):
            v = np.float64(np.int64(mag)) * 0.0009765625  # 2.0 ** -10
    v = f64(bits64(v) | ((x & U(0x80)) << U(56)))
    if x == U(0x80):
        v = np.nan
    return v


@njit(_nrt=False, error_model="numpy")
def fp8_bits(x, bf8):
    """fp8_bits rounds the float64 ``x`` (an f32's value) to e4m3fnuz bits (``bf8``: e5m2fnuz): to nearest, ties
    to even. A NaN, an infinity or a value past the largest finite one once rounded gives 0x80 (NaN); a value
    that rounds to zero gives 0x00, whatever its sign (the formats have no negative zero)."""
    if x != x or math.isinf(x):
        return U(0x80)
    mbits = 2 if bf8 else 3
    bias = 16 if bf8 else 8
    emax = (1 << (7 - mbits)) - 1 - bias      # the largest finite value is (2 - 2**-mbits) * 2**emax
    a = abs(x)
    exp = max(math.frexp(a)[1] - 1, 1 - bias)   # a's binade; below the normal range, the subnormal step's
    step = math.ldexp(1.0, exp - mbits)
    r = np.rint(a / step) * step               # exact: a has 24 significant bits, step is a power of two
    if r == 0.0:
        return U(0)
    if r > math.ldexp(2.0 - math.ldexp(1.0, -mbits), emax):
        return U(0x80)
    exp = math.frexp(r)[1] - 1
    if exp < 1 - bias:                         # subnormal: the mantissa field alone
        code = U(np.int64(math.ldexp(r, bias - 1 + mbits)))
    else:
        code = (U(exp + bias) << U(mbits)) | U(np.int64(math.ldexp(r, mbits - exp))) - U(1 << mbits)
    return code | (U(0x80) if x < 0.0 else U(0))
