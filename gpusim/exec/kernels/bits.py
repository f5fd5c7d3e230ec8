"""Bit-exact scalar helpers for the instruction kernels: reinterpretation,
fused multiply-add, and IEEE half / bfloat16 conversions.

All helpers work on plain integers holding register bits, so a 64-lane loop
over them vectorises once compiled; each also runs as plain Python, so the
kernels can be tested with NUMBA_DISABLE_JIT=1.
"""
import math
from fractions import Fraction

import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba import njit, types
from numba.extending import intrinsic, overload


def _bitcast(src, dst, src_np, dst_np):
    """_bitcast returns a function reinterpreting a ``src`` scalar as ``dst``.

    Compiled code gets a single LLVM bitcast; plain Python (and
    NUMBA_DISABLE_JIT=1 runs) gets the numpy equivalent.
    """
    @intrinsic
    def cast(typingctx, x):
        sig = dst(src)

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(dst))

        return sig, codegen

    def py_cast(x):
        return np.array(x, dtype=src_np).view(dst_np)[()]

    @overload(py_cast)
    def _compiled(x):
        return lambda x: cast(x)

    return py_cast


_u32_as_f32 = _bitcast(types.uint32, types.float32, np.uint32, np.float32)
_f32_as_u32 = _bitcast(types.float32, types.uint32, np.float32, np.uint32)
_u64_as_f64 = _bitcast(types.uint64, types.float64, np.uint64, np.float64)
_f64_as_u64 = _bitcast(types.float64, types.uint64, np.float64, np.uint64)


def _fma(ty, np_ty):
    """_fma returns a fused multiply-add: llvm.fma when compiled, exact rationals in plain Python."""
    @intrinsic
    def fma(typingctx, a, b, c):
        sig = ty(ty, ty, ty)

        def codegen(context, builder, signature, args):
            lty = context.get_value_type(ty)
            fnty = ir.FunctionType(lty, [lty, lty, lty])
            name = "llvm.fma.f32" if ty == types.float32 else "llvm.fma.f64"
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)
            return builder.call(fn, args)

        return sig, codegen

    def py_fma(a, b, c):
        a, b, c = float(a), float(b), float(c)
        if not all(math.isfinite(v) for v in (a, b, c)):
            return np_ty(a * b + c)
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        return np_ty(float(exact))

    @overload(py_fma)
    def _compiled(a, b, c):
        return lambda a, b, c: fma(a, b, c)

    return py_fma


fma_f32 = _fma(types.float32, np.float32)
fma_f64 = _fma(types.float64, np.float64)


@njit(_nrt=False)
def f32(bits):
    """f32 reinterprets the low 32 bits of an integer as a float32."""
    return _u32_as_f32(np.uint32(bits & 0xFFFFFFFF))


@njit(_nrt=False)
def bits32(x):
    """bits32 returns the IEEE bits of a float32 as a uint64."""
    return np.uint64(_f32_as_u32(np.float32(x)))


@njit(_nrt=False)
def f64(bits):
    """f64 reinterprets 64 integer bits as a float64."""
    return _u64_as_f64(np.uint64(bits))


@njit(_nrt=False)
def bits64(x):
    """bits64 returns the IEEE bits of a float64 as a uint64."""
    return _f64_as_u64(np.float64(x))


@njit(_nrt=False)
def sext(value, width):
    """sext sign-extends the low ``width`` bits of ``value`` to a signed int64."""
    v = np.int64(value & ((1 << width) - 1)) if width < 64 else np.int64(value)
    if width < 64 and (v >> (width - 1)) & 1:
        v -= np.int64(1) << width
    return v


@njit(_nrt=False)
def i32(bits):
    """i32 reads the low 32 bits as a signed integer."""
    v = np.int64(bits & 0xFFFFFFFF)
    return v - 0x100000000 if v >= 0x80000000 else v


@njit(_nrt=False)
def f16(bits):
    """f16 converts IEEE half bits (low 16 bits) to a float32, exactly."""
    h = np.uint32(bits & 0xFFFF)
    sign = (h >> 15) << 31
    exp = (h >> 10) & 0x1F
    man = h & 0x3FF
    if exp == 0x1F:
        out = sign | 0x7F800000 | (man << 13)
    elif exp != 0:
        out = sign | ((exp + 112) << 23) | (man << 13)
    elif man == 0:
        out = sign
    else:
        e = np.uint32(113)
        while (man & 0x400) == 0:
            man <<= 1
            e -= 1
        out = sign | (e << 23) | ((man & 0x3FF) << 13)
    return _u32_as_f32(np.uint32(out))


@njit(_nrt=False)
def half_bits(x):
    """half_bits rounds a float32 to IEEE half (nearest-even) and returns its 16 bits."""
    u = np.uint32(_f32_as_u32(np.float32(x)))
    sign = (u >> 16) & 0x8000
    exp = np.int32((u >> 23) & 0xFF)
    man = u & 0x7FFFFF
    if exp == 0xFF:
        return np.uint64(sign | 0x7C00 | (0x200 if man != 0 else 0))
    e = exp - 127 + 15
    if e >= 0x1F:
        return np.uint64(sign | 0x7C00)
    if e <= 0:
        if e < -10:
            return np.uint64(sign)
        man = man | 0x800000
        shift = np.uint32(14 - e)
        half = man >> shift
        rem = man & ((np.uint32(1) << shift) - 1)
        mid = np.uint32(1) << (shift - 1)
        if rem > mid or (rem == mid and (half & 1)):
            half += 1
        return np.uint64(sign | half)
    half = np.uint32((e << 10) | (man >> 13))
    rem = man & 0x1FFF
    if rem > 0x1000 or (rem == 0x1000 and (half & 1)):
        half += 1
    return np.uint64(sign | half)


@njit(_nrt=False)
def bf16(bits):
    """bf16 converts bfloat16 bits (low 16 bits) to a float32."""
    return _u32_as_f32(np.uint32((bits & 0xFFFF) << 16))


@njit(_nrt=False)
def bf16_bits(x):
    """bf16_bits rounds a float32 to bfloat16 (nearest-even) and returns its 16 bits."""
    u = np.uint32(_f32_as_u32(np.float32(x)))
    if (u & 0x7F800000) == 0x7F800000 and (u & 0x7FFFFF) != 0:
        return np.uint64((u >> 16) | 0x40)
    return np.uint64((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & np.uint64(0xFFFF)


@njit(_nrt=False)
def popcount(x):
    """popcount counts the set bits of an unsigned integer."""
    x = np.uint64(x)
    n = np.uint64(0)
    while x:
        x &= x - np.uint64(1)
        n += np.uint64(1)
    return n


@njit(_nrt=False)
def trailing_zeros(x):
    """trailing_zeros is the index of the lowest set bit, or 0xFFFFFFFF when x is 0 (AMD's s_ff1/v_ffbl)."""
    x = np.uint64(x)
    if x == 0:
        return np.uint64(0xFFFFFFFF)
    n = np.uint64(0)
    while (x & np.uint64(1)) == 0:
        x >>= np.uint64(1)
        n += np.uint64(1)
    return n


@njit(_nrt=False)
def leading_zeros(x, width):
    """leading_zeros counts zeros above the highest set bit of a ``width``-bit value, 0xFFFFFFFF when x is 0."""
    x = np.uint64(x)
    if x == 0:
        return np.uint64(0xFFFFFFFF)
    n = np.uint64(0)
    top = np.uint64(1) << np.uint64(width - 1)
    while (x & top) == 0:
        x <<= np.uint64(1)
        n += np.uint64(1)
    return n
