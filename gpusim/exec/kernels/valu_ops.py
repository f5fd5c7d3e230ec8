"""Per-lane operations of the vector ALU, one small function each.

Every function takes and returns register bits as uint64 (32-bit results in
the low half), so the lane maps in :mod:`valu` stay type-stable and vectorise.
Float semantics follow IEEE mode as gfx9 runs OpenCL kernels: denormals kept,
min/max return the non-NaN operand.
"""
import math

import numpy as np
from numba import njit

from gpusim.exec.kernels.bits import (
    bf16, bits32, bits64, f16, f32, f64, fma_f32, fma_f64, half_bits, i32, leading_zeros, popcount,
    trailing_zeros,
)

from gpusim.exec.kernels.fp8 import fp8_bits, fp8_value
from gpusim.exec.kernels.two_over_pi import WORDS as TWO_OVER_PI

M32 = np.uint64(0xFFFFFFFF)
U = np.uint64


@njit(_nrt=False, error_model="numpy")
def u32(x):
    return U(x) & M32


# ----------------------------------------------------------------- f32
@njit(_nrt=False, error_model="numpy")
def add_f32(a, b):
    return bits32(f32(a) + f32(b))


@njit(_nrt=False, error_model="numpy")
def sub_f32(a, b):
    return bits32(f32(a) - f32(b))


@njit(_nrt=False, error_model="numpy")
def subrev_f32(a, b):
    return bits32(f32(b) - f32(a))


@njit(_nrt=False, error_model="numpy")
def mul_f32(a, b):
    return bits32(f32(a) * f32(b))


@njit(_nrt=False, error_model="numpy")
def mul_legacy_f32(a, b):
    x, y = f32(a), f32(b)
    if x == 0 or y == 0:
        return U(0)
    return bits32(x * y)


@njit(_nrt=False, error_model="numpy")
def _fmin(x, y):
    if x != x:
        return y
    if y != y:
        return x
    if x == y:
        return x if (bits32(x) >> U(31)) else y
    return x if x < y else y


@njit(_nrt=False, error_model="numpy")
def _fmax(x, y):
    if x != x:
        return y
    if y != y:
        return x
    if x == y:
        return y if (bits32(x) >> U(31)) else x
    return x if x > y else y


@njit(_nrt=False, error_model="numpy")
def _snan32(x):
    return (x & U(0x7F800000)) == U(0x7F800000) and (x & U(0x7FFFFF)) != 0 and (x & U(0x400000)) == 0


@njit(_nrt=False, error_model="numpy")
def min_f32(a, b):
    # IEEE mode: a signalling NaN operand gives that NaN, quieted
    if _snan32(a & M32):
        return (a & M32) | U(0x400000)
    if _snan32(b & M32):
        return (b & M32) | U(0x400000)
    return bits32(_fmin(f32(a), f32(b)))


@njit(_nrt=False, error_model="numpy")
def max_f32(a, b):
    if _snan32(a & M32):
        return (a & M32) | U(0x400000)
    if _snan32(b & M32):
        return (b & M32) | U(0x400000)
    return bits32(_fmax(f32(a), f32(b)))


@njit(_nrt=False, error_model="numpy")
def ldexp_f32(a, b):
    return bits32(np.float32(math.ldexp(np.float64(f32(a)), max(-400, min(400, i32(b))))))


@njit(_nrt=False, error_model="numpy")
def fma_f32_op(a, b, c):
    return bits32(fma_f32(f32(a), f32(b), f32(c)))


@njit(_nrt=False, error_model="numpy")
def mad_f32(a, b, c):
    return bits32(f32(a) * f32(b) + f32(c))


@njit(_nrt=False, error_model="numpy")
def mad_legacy_f32(a, b, c):
    """v_mad_legacy_f32 (gfx90a): v_mul_legacy_f32's product (zero when either factor is, whatever the
    other), rounded, plus c, rounded."""
    return bits32(f32(mul_legacy_f32(a, b)) + f32(c))


@njit(_nrt=False, error_model="numpy")
def _med3(x, y, z):
    """_med3 is the median of three floats as v_med3_f32 and v_med3_f16 take it, from the VALU's min and max."""
    return _fmax(_fmin(x, y), _fmin(_fmax(x, y), z))


@njit(_nrt=False, error_model="numpy")
def min3_f32(a, b, c):
    return bits32(_fmin(_fmin(f32(a), f32(b)), f32(c)))


@njit(_nrt=False, error_model="numpy")
def max3_f32(a, b, c):
    return bits32(_fmax(_fmax(f32(a), f32(b)), f32(c)))


@njit(_nrt=False, error_model="numpy")
def med3_f32(a, b, c):
    return bits32(_med3(f32(a), f32(b), f32(c)))


@njit(_nrt=False, error_model="numpy")
def exp_f32(a):
    return bits32(np.float32(2.0 ** np.float64(f32(a))))


@njit(_nrt=False, error_model="numpy")
def log_f32(a):
    x = np.float64(f32(a))
    if x < 0 or x != x:
        return bits32(np.float32(np.nan))
    if x == 0:
        return bits32(np.float32(-np.inf))
    return bits32(np.float32(math.log2(x)))


@njit(_nrt=False, error_model="numpy")
def rcp_f32(a):
    x = f32(a)
    if x == 0:
        return bits32(np.float32(math.copysign(np.inf, x)))
    return bits32(np.float32(1.0 / np.float64(x)))


@njit(_nrt=False, error_model="numpy")
def rsq_f32(a):
    x = np.float64(f32(a))
    if x == 0:
        return bits32(np.float32(math.copysign(np.inf, x)))
    if x < 0 or x != x:
        return bits32(np.float32(np.nan))
    return bits32(np.float32(1.0 / math.sqrt(x)))


@njit(_nrt=False, error_model="numpy")
def sqrt_f32(a):
    x = np.float64(f32(a))
    if x < 0 or x != x:
        return bits32(np.float32(np.nan))
    return bits32(np.float32(math.sqrt(x)))


@njit(_nrt=False, error_model="numpy")
def sin_f32(a):
    return bits32(np.float32(math.sin(2.0 * math.pi * np.float64(f32(a)))))


@njit(_nrt=False, error_model="numpy")
def cos_f32(a):
    return bits32(np.float32(math.cos(2.0 * math.pi * np.float64(f32(a)))))


@njit(_nrt=False, error_model="numpy")
def floor_f32(a):
    return bits32(np.float32(np.floor(f32(a))))


@njit(_nrt=False, error_model="numpy")
def ceil_f32(a):
    return bits32(np.float32(np.ceil(f32(a))))


@njit(_nrt=False, error_model="numpy")
def trunc_f32(a):
    return bits32(np.float32(np.trunc(f32(a))))


@njit(_nrt=False, error_model="numpy")
def rndne_f32(a):
    return bits32(np.float32(np.rint(f32(a))))


@njit(_nrt=False, error_model="numpy")
def fract_f32(a):
    x = f32(a)
    if math.isinf(x):
        return bits32(np.float32(np.nan))
    r = x - np.floor(x)
    return bits32(min(r, np.float32(0.99999994)))


@njit(_nrt=False, error_model="numpy")
def frexp_mant_f32(a):
    x = np.float64(f32(a))
    if math.isinf(x) or x != x:
        return bits32(np.float32(x))
    m, e = math.frexp(x)
    return bits32(np.float32(m))


@njit(_nrt=False, error_model="numpy")
def frexp_exp_f32(a):
    x = np.float64(f32(a))
    if math.isinf(x) or x != x:
        return U(0)
    m, e = math.frexp(x)
    return u32(e)


@njit(_nrt=False, error_model="numpy")
def _f_to_i32(x):
    if x != x:
        return U(0)
    if x >= 2147483647.0:
        return U(0x7FFFFFFF)
    if x <= -2147483648.0:
        return U(0x80000000)
    return u32(np.int64(x))


@njit(_nrt=False, error_model="numpy")
def _f_to_u32(x):
    if x != x or x <= 0:
        return U(0)
    if x >= 4294967295.0:
        return M32
    return U(np.int64(x))


@njit(_nrt=False, error_model="numpy")
def cvt_i32_f32(a):
    return _f_to_i32(np.float64(f32(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_u32_f32(a):
    return _f_to_u32(np.float64(f32(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_rpi_i32_f32(a):
    return _f_to_i32(np.floor(np.float64(f32(a)) + 0.5))


@njit(_nrt=False, error_model="numpy")
def cvt_flr_i32_f32(a):
    return _f_to_i32(np.floor(np.float64(f32(a))))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_i32(a):
    return bits32(np.float32(i32(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_u32(a):
    return bits32(np.float32(np.int64(a & M32)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_ubyte0(a):
    return bits32(np.float32(a & U(0xFF)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_ubyte1(a):
    return bits32(np.float32((a >> U(8)) & U(0xFF)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_ubyte2(a):
    return bits32(np.float32((a >> U(16)) & U(0xFF)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_ubyte3(a):
    return bits32(np.float32((a >> U(24)) & U(0xFF)))


@njit(_nrt=False, error_model="numpy")
def cvt_f16_f32(a):
    return half_bits(f32(a))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_f16(a):
    return bits32(f16(a))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_bf16(a):
    return bits32(bf16(a))


@njit(_nrt=False, error_model="numpy")
def cvt_f64_f32(a):
    return bits64(np.float64(f32(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_f64(a):
    return bits32(np.float32(f64(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_i32_f64(a):
    return _f_to_i32(f64(a))


@njit(_nrt=False, error_model="numpy")
def cvt_u32_f64(a):
    return _f_to_u32(f64(a))


@njit(_nrt=False, error_model="numpy")
def cvt_f64_i32(a):
    return bits64(np.float64(i32(a)))


@njit(_nrt=False, error_model="numpy")
def cvt_f64_u32(a):
    return bits64(np.float64(np.int64(a & M32)))


@njit(_nrt=False, error_model="numpy")
def cvt_pkrtz_f16_f32(a, b):
    return _rtz_half(f32(a)) | (_rtz_half(f32(b)) << U(16))


@njit(_nrt=False, error_model="numpy")
def cvt_f32_fp8(a, bf8):
    """v_cvt_f32_fp8 / v_cvt_f32_bf8: the f32 of the low byte (SDWA's src0_sel has moved the byte it picks there)."""
    return bits32(np.float32(fp8_value(a, bf8)))


@njit(_nrt=False, error_model="numpy")
def cvt_pk_f32_fp8(a, bf8):
    """v_cvt_pk_f32_fp8 / v_cvt_pk_f32_bf8: the f32s of bytes 0 and 1, in the low and high dword."""
    return U(cvt_f32_fp8(a, bf8)) | (U(cvt_f32_fp8(U(a) >> U(8), bf8)) << U(32))


@njit(_nrt=False, error_model="numpy")
def cvt_pk_fp8_f32(a, b, bf8):
    """v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32: the two f32 rounded to fp8 (fp8_bits) as one 16-bit word, a's low."""
    return fp8_bits(np.float64(f32(a)), bf8) | (fp8_bits(np.float64(f32(b)), bf8) << U(8))


@njit(_nrt=False, error_model="numpy")
def _rtz_half(x):
    h = half_bits(x)
    back = f16(h)
    if not math.isinf(x) and x == x and abs(back) > abs(x):
        h -= U(1)
    return h & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def cvt_f16_u16(a):
    return half_bits(np.float32(a & U(0xFFFF)))


@njit(_nrt=False, error_model="numpy")
def cvt_f16_i16(a):
    v = np.int64(a & U(0xFFFF))
    return half_bits(np.float32(v - 65536 if v >= 32768 else v))


@njit(_nrt=False, error_model="numpy")
def cvt_u16_f16(a):
    x = np.float64(f16(a))
    if x != x or x <= 0:
        return U(0)
    return U(min(65535, np.int64(x)))


@njit(_nrt=False, error_model="numpy")
def cvt_i16_f16(a):
    x = np.float64(f16(a))
    if x != x:
        return U(0)
    v = max(-32768, min(32767, np.int64(x)))
    return U(v & 0xFFFF)


# ----------------------------------------------------------------- f16
@njit(_nrt=False, error_model="numpy")
def add_f16(a, b):
    return half_bits(f16(a) + f16(b))


@njit(_nrt=False, error_model="numpy")
def sub_f16(a, b):
    return half_bits(f16(a) - f16(b))


@njit(_nrt=False, error_model="numpy")
def subrev_f16(a, b):
    return half_bits(f16(b) - f16(a))


@njit(_nrt=False, error_model="numpy")
def mul_f16(a, b):
    return half_bits(f16(a) * f16(b))


@njit(_nrt=False, error_model="numpy")
def fma_f16(a, b, c):
    return half_bits(np.float32(np.float64(f16(a)) * np.float64(f16(b)) + np.float64(f16(c))))


@njit(_nrt=False, error_model="numpy")
def min_f16(a, b):
    return half_bits(_fmin(f16(a), f16(b)))


@njit(_nrt=False, error_model="numpy")
def max_f16(a, b):
    return half_bits(_fmax(f16(a), f16(b)))


@njit(_nrt=False, error_model="numpy")
def ldexp_f16(a, b):
    e = np.int64(b & U(0xFFFF))
    e = e - 65536 if e >= 32768 else e
    return half_bits(np.float32(math.ldexp(np.float64(f16(a)), max(-100, min(100, e)))))


@njit(_nrt=False, error_model="numpy")
def rcp_f16(a):
    return half_bits(np.float32(1.0) / f16(a))


@njit(_nrt=False, error_model="numpy")
def sqrt_f16(a):
    return half_bits(f32(sqrt_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def rsq_f16(a):
    return half_bits(f32(rsq_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def exp_f16(a):
    return half_bits(f32(exp_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def log_f16(a):
    return half_bits(f32(log_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def sin_f16(a):
    return half_bits(f32(sin_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def cos_f16(a):
    return half_bits(f32(cos_f32(bits32(f16(a)))))


@njit(_nrt=False, error_model="numpy")
def floor_f16(a):
    return half_bits(np.floor(f16(a)))


@njit(_nrt=False, error_model="numpy")
def ceil_f16(a):
    return half_bits(np.ceil(f16(a)))


@njit(_nrt=False, error_model="numpy")
def trunc_f16(a):
    return half_bits(np.trunc(f16(a)))


@njit(_nrt=False, error_model="numpy")
def rndne_f16(a):
    return half_bits(np.rint(f16(a)))


@njit(_nrt=False, error_model="numpy")
def fract_f16(a):
    x = f16(a)
    return half_bits(min(x - np.floor(x), np.float32(0.99951171875)))


# ----------------------------------------------------------------- f64
@njit(_nrt=False, error_model="numpy")
def add_f64(a, b):
    return bits64(f64(a) + f64(b))


@njit(_nrt=False, error_model="numpy")
def mul_f64(a, b):
    return bits64(f64(a) * f64(b))


@njit(_nrt=False, error_model="numpy")
def min_f64(a, b):
    x, y = f64(a), f64(b)
    if x != x:
        return b
    if y != y:
        return a
    return a if x < y else b


@njit(_nrt=False, error_model="numpy")
def max_f64(a, b):
    x, y = f64(a), f64(b)
    if x != x:
        return b
    if y != y:
        return a
    return a if x > y else b


@njit(_nrt=False, error_model="numpy")
def fma_f64_op(a, b, c):
    return bits64(fma_f64(f64(a), f64(b), f64(c)))


@njit(_nrt=False, error_model="numpy")
def ldexp_f64(a, b):
    return bits64(math.ldexp(f64(a), max(-2200, min(2200, i32(b)))))


@njit(_nrt=False, error_model="numpy")
def trig_preop_f64(a, b):
    """trig_preop_f64 is segment b[4:0] of 2/pi for the argument a (v_trig_preop_f64): the 53 fraction bits of
    2/pi (two_over_pi) from bit 53 * segment + 1 on, moved by the argument's biased exponent past 1077, scaled
    by 2**(-53 - shift) (2**128 more where the exponent is 1968 or above) and rounded toward zero."""
    e = np.int64((U(a) >> U(52)) & U(0x7FF))
    shift = np.int64(U(b) & U(31)) * 53
    if e > 1077:
        shift += e - 1077
    q, r = shift // 64, shift % 64
    window = TWO_OVER_PI[q] << U(r)
    if r:
        window |= TWO_OVER_PI[q + 1] >> U(64 - r)
    m = window >> U(11)
    scale = -53 - shift + (128 if e >= 1968 else 0)
    if scale < -1074:   # below the smallest denormal's step: drop the bits it cannot hold (toward zero)
        m = m >> U(min(-1074 - scale, 63))
        scale = -1074
    return bits64(math.ldexp(np.float64(m), scale))


@njit(_nrt=False, error_model="numpy")
def rcp_f64(a):
    x = f64(a)
    if x == 0:
        return bits64(math.copysign(np.inf, x))
    return bits64(1.0 / x)


@njit(_nrt=False, error_model="numpy")
def rsq_f64(a):
    x = f64(a)
    if x == 0:
        return bits64(math.copysign(np.inf, x))
    if x < 0 or x != x:
        return bits64(np.nan)
    return bits64(1.0 / math.sqrt(x))


@njit(_nrt=False, error_model="numpy")
def sqrt_f64(a):
    x = f64(a)
    if x < 0 or x != x:
        return bits64(np.nan)
    return bits64(math.sqrt(x))


@njit(_nrt=False, error_model="numpy")
def floor_f64(a):
    return bits64(np.floor(f64(a)))


@njit(_nrt=False, error_model="numpy")
def ceil_f64(a):
    return bits64(np.ceil(f64(a)))


@njit(_nrt=False, error_model="numpy")
def trunc_f64(a):
    return bits64(np.trunc(f64(a)))


@njit(_nrt=False, error_model="numpy")
def rndne_f64(a):
    return bits64(np.rint(f64(a)))


@njit(_nrt=False, error_model="numpy")
def fract_f64(a):
    x = f64(a)
    if math.isinf(x):
        return bits64(np.nan)
    return bits64(min(x - np.floor(x), 0.9999999999999999))


@njit(_nrt=False, error_model="numpy")
def frexp_mant_f64(a):
    x = f64(a)
    if math.isinf(x) or x != x:
        return a
    m, e = math.frexp(x)
    return bits64(m)


@njit(_nrt=False, error_model="numpy")
def frexp_exp_f64(a):
    x = f64(a)
    if math.isinf(x) or x != x:
        return U(0)
    m, e = math.frexp(x)
    return u32(e)


# ----------------------------------------------------------- integers
@njit(_nrt=False, error_model="numpy")
def add_u32(a, b):
    return (a + b) & M32


@njit(_nrt=False, error_model="numpy")
def sub_u32(a, b):
    return (a - b) & M32


@njit(_nrt=False, error_model="numpy")
def subrev_u32(a, b):
    return (b - a) & M32


@njit(_nrt=False, error_model="numpy")
def mul_lo_u32(a, b):
    return ((a & M32) * (b & M32)) & M32


@njit(_nrt=False, error_model="numpy")
def mul_hi_u32(a, b):
    return ((a & M32) * (b & M32)) >> U(32)


@njit(_nrt=False, error_model="numpy")
def mul_hi_i32(a, b):
    return u32((i32(a) * i32(b)) >> 32)


@njit(_nrt=False, error_model="numpy")
def _i24(a):
    v = np.int64(a & U(0xFFFFFF))
    return v - 0x1000000 if v >= 0x800000 else v


@njit(_nrt=False, error_model="numpy")
def mul_u32_u24(a, b):
    return ((a & U(0xFFFFFF)) * (b & U(0xFFFFFF))) & M32


@njit(_nrt=False, error_model="numpy")
def mul_hi_u32_u24(a, b):
    return ((a & U(0xFFFFFF)) * (b & U(0xFFFFFF))) >> U(32)


@njit(_nrt=False, error_model="numpy")
def mul_i32_i24(a, b):
    return u32(_i24(a) * _i24(b))


@njit(_nrt=False, error_model="numpy")
def mul_hi_i32_i24(a, b):
    return u32((_i24(a) * _i24(b)) >> 32)


@njit(_nrt=False, error_model="numpy")
def mad_u32_u24(a, b, c):
    return (mul_u32_u24(a, b) + c) & M32


@njit(_nrt=False, error_model="numpy")
def mad_i32_i24(a, b, c):
    return u32(_i24(a) * _i24(b) + i32(c))


@njit(_nrt=False, error_model="numpy")
def min_i32(a, b):
    return a & M32 if i32(a) < i32(b) else b & M32


@njit(_nrt=False, error_model="numpy")
def max_i32(a, b):
    return a & M32 if i32(a) > i32(b) else b & M32


@njit(_nrt=False, error_model="numpy")
def min_u32(a, b):
    return min(a & M32, b & M32)


@njit(_nrt=False, error_model="numpy")
def max_u32(a, b):
    return max(a & M32, b & M32)


@njit(_nrt=False, error_model="numpy")
def min3_i32(a, b, c):
    return min_i32(min_i32(a, b), c)


@njit(_nrt=False, error_model="numpy")
def max3_i32(a, b, c):
    return max_i32(max_i32(a, b), c)


@njit(_nrt=False, error_model="numpy")
def med3_i32(a, b, c):
    return max_i32(min_i32(a, b), min_i32(max_i32(a, b), c))


@njit(_nrt=False, error_model="numpy")
def min3_u32(a, b, c):
    return min(min(a & M32, b & M32), c & M32)


@njit(_nrt=False, error_model="numpy")
def max3_u32(a, b, c):
    return max(max(a & M32, b & M32), c & M32)


@njit(_nrt=False, error_model="numpy")
def med3_u32(a, b, c):
    x, y, z = a & M32, b & M32, c & M32
    return max(min(x, y), min(max(x, y), z))


@njit(_nrt=False, error_model="numpy")
def lshlrev_b32(a, b):
    return (b << (a & U(31))) & M32


@njit(_nrt=False, error_model="numpy")
def lshrrev_b32(a, b):
    return (b & M32) >> (a & U(31))


@njit(_nrt=False, error_model="numpy")
def ashrrev_i32(a, b):
    return u32(i32(b) >> np.int64(a & U(31)))


@njit(_nrt=False, error_model="numpy")
def lshlrev_b64(a, b):
    return b << (a & U(63))


@njit(_nrt=False, error_model="numpy")
def lshrrev_b64(a, b):
    return b >> (a & U(63))


@njit(_nrt=False, error_model="numpy")
def ashrrev_i64(a, b):
    return U(np.int64(b) >> np.int64(a & U(63)))


@njit(_nrt=False, error_model="numpy")
def and_b32(a, b):
    return a & b & M32


@njit(_nrt=False, error_model="numpy")
def or_b32(a, b):
    return (a | b) & M32


@njit(_nrt=False, error_model="numpy")
def xor_b32(a, b):
    return (a ^ b) & M32


@njit(_nrt=False, error_model="numpy")
def xnor_b32(a, b):
    return ~(a ^ b) & M32


@njit(_nrt=False, error_model="numpy")
def not_b32(a):
    return ~a & M32


@njit(_nrt=False, error_model="numpy")
def mov_b32(a):
    return a & M32


@njit(_nrt=False, error_model="numpy")
def mov_b64(a):
    return a


@njit(_nrt=False, error_model="numpy")
def bfrev_b32(a):
    x = a & M32
    r = U(0)
    for _ in range(32):
        r = (r << U(1)) | (x & U(1))
        x >>= U(1)
    return r


@njit(_nrt=False, error_model="numpy")
def ffbh_u32(a):
    return leading_zeros(a & M32, 32)


@njit(_nrt=False, error_model="numpy")
def ffbl_b32(a):
    return trailing_zeros(a & M32)


@njit(_nrt=False, error_model="numpy")
def ffbh_i32(a):
    x = a & M32
    if x == 0 or x == M32:
        return M32
    if x & U(0x80000000):
        x = ~x & M32
    return ffbh_u32(x)


@njit(_nrt=False, error_model="numpy")
def bcnt_u32_b32(a, b):
    return (popcount(a & M32) + b) & M32


@njit(_nrt=False, error_model="numpy")
def bfe_u32(a, b, c):
    off = b & U(31)
    width = c & U(31)
    if width == 0:
        return U(0)
    return ((a & M32) >> off) & ((U(1) << width) - U(1))


@njit(_nrt=False, error_model="numpy")
def bfe_i32(a, b, c):
    # the source shifts arithmetically, so bits past bit 31 repeat the sign
    off = np.int64(b & U(31))
    width = np.int64(c & U(31))
    if width == 0:
        return U(0)
    v = (i32(a) >> off) & ((np.int64(1) << width) - 1)
    if (v >> (width - 1)) & 1:
        v -= np.int64(1) << width
    return u32(v)


@njit(_nrt=False, error_model="numpy")
def bfi_b32(a, b, c):
    return ((a & b) | (~a & c)) & M32


@njit(_nrt=False, error_model="numpy")
def bfm_b32(a, b):
    return (((U(1) << (a & U(31))) - U(1)) << (b & U(31))) & M32


@njit(_nrt=False, error_model="numpy")
def alignbit_b32(a, b, c):
    x = ((a & M32) << U(32)) | (b & M32)
    return (x >> (c & U(31))) & M32


@njit(_nrt=False, error_model="numpy")
def alignbyte_b32(a, b, c):
    x = ((a & M32) << U(32)) | (b & M32)
    return (x >> (U(8) * (c & U(3)))) & M32


@njit(_nrt=False, error_model="numpy")
def lshl_add_u32(a, b, c):
    return ((a << (b & U(31))) + c) & M32


@njit(_nrt=False, error_model="numpy")
def add_lshl_u32(a, b, c):
    return ((a + b) << (c & U(31))) & M32


@njit(_nrt=False, error_model="numpy")
def add3_u32(a, b, c):
    return (a + b + c) & M32


@njit(_nrt=False, error_model="numpy")
def lshl_or_b32(a, b, c):
    return ((a << (b & U(31))) | c) & M32


@njit(_nrt=False, error_model="numpy")
def and_or_b32(a, b, c):
    return ((a & b) | c) & M32


@njit(_nrt=False, error_model="numpy")
def or3_b32(a, b, c):
    return (a | b | c) & M32


@njit(_nrt=False, error_model="numpy")
def xad_u32(a, b, c):
    return ((a ^ b) + c) & M32


@njit(_nrt=False, error_model="numpy")
def lshl_add_u64(a, b, c):
    return (a << (b & U(7))) + c


@njit(_nrt=False, error_model="numpy")
def perm_b32(a, b, c):
    src = ((a & M32) << U(32)) | (b & M32)
    r = U(0)
    for k in range(4):
        sel = (c >> U(8 * k)) & U(0xFF)
        if sel < 8:
            byte = (src >> (U(8) * sel)) & U(0xFF)
        elif sel < 12:
            bitpos = U(16) * (sel - U(8)) + U(15)
            byte = U(0xFF) if (src >> bitpos) & U(1) else U(0)
        elif sel == 12:
            byte = U(0)
        else:
            byte = U(0xFF)
        r |= byte << U(8 * k)
    return r


@njit(_nrt=False, error_model="numpy")
def pack_b32_f16(a, b):
    return (a & U(0xFFFF)) | ((b & U(0xFFFF)) << U(16))


@njit(_nrt=False, error_model="numpy")
def cvt_pk_u16_u32(a, b):
    return min(a & M32, U(0xFFFF)) | (min(b & M32, U(0xFFFF)) << U(16))


@njit(_nrt=False, error_model="numpy")
def sad_bytes(a, b, n, bits, masked):
    """sad_bytes is the sum over the ``n`` ``bits``-wide unsigned fields of a and b of |a_i - b_i|; ``masked``
    (v_msad_u8) leaves out the fields where b, the reference, is zero."""
    total = np.int64(0)
    for k in range(n):
        x = np.int64((U(a) >> U(bits * k)) & ((U(1) << U(bits)) - U(1)))
        y = np.int64((U(b) >> U(bits * k)) & ((U(1) << U(bits)) - U(1)))
        if not (masked and y == 0):
            total += x - y if x > y else y - x
    return total


@njit(_nrt=False, error_model="numpy")
def sad_u8(a, b, c):
    """v_sad_u8: the four bytes' absolute differences, plus c (32 bits, wrapping)."""
    return u32(sad_bytes(a, b, 4, 8, False) + np.int64(c & M32))


@njit(_nrt=False, error_model="numpy")
def sad_hi_u8(a, b, c):
    """v_sad_hi_u8: v_sad_u8's byte sum moved to the high half, plus c."""
    return u32((sad_bytes(a, b, 4, 8, False) << 16) + np.int64(c & M32))


@njit(_nrt=False, error_model="numpy")
def sad_u16(a, b, c):
    """v_sad_u16: the two halves' absolute differences, plus c."""
    return u32(sad_bytes(a, b, 2, 16, False) + np.int64(c & M32))


@njit(_nrt=False, error_model="numpy")
def msad_u8(a, b, c):
    """v_msad_u8: v_sad_u8 leaving out the bytes where b (the reference) is zero."""
    return u32(sad_bytes(a, b, 4, 8, True) + np.int64(c & M32))


@njit(_nrt=False, error_model="numpy")
def lerp_u8(a, b, c):
    """v_lerp_u8: each byte the average of a's and b's, rounded up where bit 0 of c's byte is set."""
    out = U(0)
    for k in range(4):
        x = (U(a) >> U(8 * k)) & U(0xFF)
        y = (U(b) >> U(8 * k)) & U(0xFF)
        r = (U(c) >> U(8 * k)) & U(1)
        out |= ((x + y + r) >> U(1)) << U(8 * k)
    return out


@njit(_nrt=False, error_model="numpy")
def cvt_pk_i16_i32(a, b):
    """v_cvt_pk_i16_i32: a and b saturated to i16, a in the low half."""
    return saturate(i32(a), 16, True) | (saturate(i32(b), 16, True) << U(16))


@njit(_nrt=False, error_model="numpy")
def sad_u32(a, b, c):
    x, y = a & M32, b & M32
    return ((x - y if x > y else y - x) + c) & M32


# ------------------------------------------------------------- 16-bit int
@njit(_nrt=False, error_model="numpy")
def _i16(a):
    v = np.int64(a & U(0xFFFF))
    return v - 65536 if v >= 32768 else v


@njit(_nrt=False, error_model="numpy")
def add_u16(a, b):
    return (a + b) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def sub_u16(a, b):
    return (a - b) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def subrev_u16(a, b):
    return (b - a) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def mul_lo_u16(a, b):
    return (a * b) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def mad_u16(a, b, c):
    return (a * b + c) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def lshlrev_b16(a, b):
    return (b << (a & U(15))) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def lshrrev_b16(a, b):
    return (b & U(0xFFFF)) >> (a & U(15))


@njit(_nrt=False, error_model="numpy")
def ashrrev_i16(a, b):
    return U((_i16(b) >> np.int64(a & U(15))) & 0xFFFF)


@njit(_nrt=False, error_model="numpy")
def max_u16(a, b):
    return max(a & U(0xFFFF), b & U(0xFFFF))


@njit(_nrt=False, error_model="numpy")
def min_u16(a, b):
    return min(a & U(0xFFFF), b & U(0xFFFF))


@njit(_nrt=False, error_model="numpy")
def max_i16(a, b):
    return a & U(0xFFFF) if _i16(a) > _i16(b) else b & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def min_i16(a, b):
    return a & U(0xFFFF) if _i16(a) < _i16(b) else b & U(0xFFFF)


# ------------------------------------------------------------- dot products
@njit(_nrt=False, error_model="numpy")
def dot2_f32_f16(a, b, c):
    acc = np.float64(f16(a)) * np.float64(f16(b)) + np.float64(f16(a >> U(16))) * np.float64(f16(b >> U(16)))
    return bits32(np.float32(acc + np.float64(f32(c))))


@njit(_nrt=False, error_model="numpy")
def int_of(a, bits, signed):
    """int_of reads the low ``bits`` bits of ``a`` as an integer, signed (two's complement) or not."""
    v = np.int64(U(a) & ((U(1) << U(bits)) - U(1)))
    if signed and v >= (np.int64(1) << (bits - 1)):
        v -= np.int64(1) << bits
    return v


@njit(_nrt=False, error_model="numpy")
def saturate(x, bits, signed):
    """saturate clamps the integer ``x`` to the range of a ``bits``-wide integer, signed or not, and returns its
    bit pattern (a VALU integer result under the clamp modifier)."""
    lo = -(np.int64(1) << (bits - 1)) if signed else np.int64(0)
    hi = (np.int64(1) << (bits - 1 if signed else bits)) - 1
    x = min(max(x, lo), hi)
    return U(x) & ((U(1) << U(bits)) - U(1))


@njit(_nrt=False, error_model="numpy")
def add_sat(a, b, sign_b, bits, signed):
    """add_sat is a + sign_b * b on ``bits``-wide integers, saturated (v_add/v_sub_*_u32/i32/u16/i16 clamp)."""
    return saturate(int_of(a, bits, signed) + sign_b * int_of(b, bits, signed), bits, signed)


@njit(_nrt=False, error_model="numpy")
def dot_int(a, b, c, n, bits, signed, clamp):
    """dot_int is the integer dot product of the ``n`` ``bits``-wide elements packed in a and b, low first, plus
    the 32-bit c, all signed or all unsigned (v_dot2/4/8[c]_*): wrapped to 32 bits, or saturated with clamp."""
    acc = int_of(c, 32, signed)
    for k in range(n):
        acc += int_of(U(a) >> U(bits * k), bits, signed) * int_of(U(b) >> U(bits * k), bits, signed)
    if clamp:
        return saturate(acc, 32, signed)
    return u32(acc)


@njit(_nrt=False, error_model="numpy")
def dot2_f32_bf16(a, b, c):
    acc = np.float64(bf16(a)) * np.float64(bf16(b)) + np.float64(bf16(a >> U(16))) * np.float64(bf16(b >> U(16)))
    return bits32(np.float32(acc + np.float64(f32(c))))


# ---- gfx9's 16-bit three-operand ops, multiply-adds to 32 bits, and packing conversions

@njit(_nrt=False, error_model="numpy")
def three_f16(a, b, c, which):
    """three_f16 is the minimum (``which`` 0), maximum (1) or median (2) of three f16 values, as f16 bits."""
    x, y, z = f16(a), f16(b), f16(c)
    if which == 0:
        return half_bits(_fmin(_fmin(x, y), z))
    if which == 1:
        return half_bits(_fmax(_fmax(x, y), z))
    return half_bits(_med3(x, y, z))


@njit(_nrt=False, error_model="numpy")
def _u16(a):
    return np.int64(a & U(0xFFFF))


@njit(_nrt=False, error_model="numpy")
def three_i16(a, b, c, which, signed):
    """three_i16 is the minimum (``which`` 0), maximum (1) or median (2) of three 16-bit integers, as 16 bits."""
    x, y, z = (_i16(a), _i16(b), _i16(c)) if signed else (_u16(a), _u16(b), _u16(c))
    if which == 0:
        r = min(x, y, z)
    elif which == 1:
        r = max(x, y, z)
    else:
        r = max(min(x, y), min(max(x, y), z))
    return U(r) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def mad_u32_u16(a, b, c):
    """v_mad_u32_u16: the 16-bit unsigned product plus the 32-bit c, wrapping at 32 bits."""
    return (U(_u16(a) * _u16(b)) + c) & M32


@njit(_nrt=False, error_model="numpy")
def mad_i32_i16(a, b, c):
    """v_mad_i32_i16: the 16-bit signed product plus the 32-bit c, wrapping at 32 bits."""
    return U(_i16(a) * _i16(b) + np.int64(c & M32)) & M32


@njit(_nrt=False, error_model="numpy")
def frexp_mant_f16(a):
    x = np.float64(f16(a))
    if math.isinf(x) or x != x:
        return half_bits(np.float32(x))
    m, e = math.frexp(x)
    return half_bits(np.float32(m))


@njit(_nrt=False, error_model="numpy")
def frexp_exp_i16_f16(a):
    """v_frexp_exp_i16_f16: frexp's exponent of the f16 value, 0 for infinities and NaN."""
    x = np.float64(f16(a))
    if math.isinf(x) or x != x:
        return U(0)
    m, e = math.frexp(x)
    return U(np.int64(e)) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def norm16(x, signed):
    """norm16 converts a float to a 16-bit normalized integer (GLSL's packSnorm2x16 and packUnorm2x16, which
    Mesa lowers to v_cvt_pknorm_*): clamped to [-1, 1] (snorm) or [0, 1] (unorm), scaled by 32767 or 65535,
    rounded to nearest even; NaN gives 0."""
    v = np.float64(x)
    if v != v:
        return U(0)
    lo = -1.0 if signed else 0.0
    v = min(max(v, lo), 1.0) * (32767.0 if signed else 65535.0)
    return U(np.int64(np.rint(v))) & U(0xFFFF)


@njit(_nrt=False, error_model="numpy")
def sat_pk_u8_i16(a):
    """v_sat_pk_u8_i16: each signed 16-bit half saturated to 0..255, the two bytes packed low first."""
    lo = min(max(_i16(a), 0), 255)
    hi = min(max(_i16(a >> U(16)), 0), 255)
    return U(lo) | (U(hi) << U(8))


@njit(_nrt=False, error_model="numpy")
def cvt_off_f32_i4(a):
    """v_cvt_off_f32_i4: the low 4 bits as a signed integer, over 16 (-0.5 .. 0.4375)."""
    n = np.int64(a & U(0xF))
    return bits32(np.float32((n - 16 if n >= 8 else n) / 16.0))


@njit(_nrt=False, error_model="numpy")
def qsad_pk_u16_u8(a, b, c, masked):
    """v_qsad_pk_u16_u8 (v_mqsad_pk_u16_u8 when ``masked``): four byte SADs of the 32-bit reference b against
    the windows of the 64-bit a starting at bytes 0 to 3, each plus its 16-bit field of c, packed as four
    16-bit sums (wrapping)."""
    out = U(0)
    for k in range(4):
        window = (U(a) >> U(8 * k)) & M32
        total = sad_bytes(window, b, 4, 8, masked) + np.int64((U(c) >> U(16 * k)) & U(0xFFFF))
        out |= (U(total) & U(0xFFFF)) << U(16 * k)
    return out
