"""The read-modify-write operations shared by global and LDS atomics."""
import numpy as np
from numba import njit

from gpusim.asm.fields import (
    A_ADD, A_AND, A_CMPSWAP, A_CMPSWAP_F32, A_CMPSWAP_F64, A_DEC, A_INC, A_MAX_F32, A_MAX_F64, A_MIN_F32,
    A_MIN_F64, A_MSKOR, A_OR, A_PK_ADD_BF16, A_PK_ADD_F16, A_ADD_F32, A_ADD_F64, A_RSUB, A_SMAX, A_SMIN, A_SUB,
    A_SUB_CLAMP, A_SWAP, A_UMAX, A_UMIN, A_WRAP, A_XOR,
)
from gpusim.exec.kernels.bits import bf16, bf16_bits, bits32, bits64, f16, f32, f64, half_bits

U = np.uint64



@njit(_nrt=False)
def _signed(x, size):
    if size == 4:
        v = np.int64(x & U(0xFFFFFFFF))
        return v - 0x100000000 if v >= 0x80000000 else v
    return np.int64(x)


@njit(_nrt=False)
def atomic_apply(op, old, data, cmp, size):
    """atomic_apply returns the new memory value for atomic ``op`` on ``size``-byte ``old``.

    ``cmp`` is the first data operand of the LDS operations that take two (the AMD ISA's DATA, ``data`` its
    DATA2): a compare-and-swap's compare value, ds_mskor's mask (``(old & ~cmp) | data``), ds_wrap's limit
    (``old - cmp`` if ``old >= cmp``, unsigned, else ``old + data``). The float compare-stores compare as
    floats (-0 equals +0, a NaN equals nothing); ds_rsub is ``data - old``.
    """
    mask = U(0xFFFFFFFF) if size == 4 else U(0xFFFFFFFFFFFFFFFF)
    if op == A_ADD:
        return (old + data) & mask
    if op == A_SUB:
        return (old - data) & mask
    if op == A_SMIN:
        return old if _signed(old, size) <= _signed(data, size) else data
    if op == A_UMIN:
        return min(old, data)
    if op == A_SMAX:
        return old if _signed(old, size) >= _signed(data, size) else data
    if op == A_UMAX:
        return max(old, data)
    if op == A_AND:
        return old & data
    if op == A_OR:
        return old | data
    if op == A_XOR:
        return old ^ data
    if op == A_INC:
        return U(0) if old >= data else (old + U(1)) & mask
    if op == A_DEC:
        return data if old == 0 or old > data else (old - U(1)) & mask
    if op == A_SWAP:
        return data
    if op == A_CMPSWAP:
        return data if old == cmp else old
    if op == A_ADD_F32:
        return bits32(f32(old) + f32(data))
    if op == A_MIN_F32:
        return data if f32(data) < f32(old) else old
    if op == A_MAX_F32:
        return data if f32(data) > f32(old) else old
    if op == A_ADD_F64:
        return bits64(f64(old) + f64(data))
    if op == A_MIN_F64:
        return data if f64(data) < f64(old) else old
    if op == A_MAX_F64:
        return data if f64(data) > f64(old) else old
    if op == A_PK_ADD_F16:
        lo = half_bits(f16(old) + f16(data))
        hi = half_bits(f16(old >> U(16)) + f16(data >> U(16)))
        return (lo & U(0xFFFF)) | ((hi & U(0xFFFF)) << U(16))
    if op == A_PK_ADD_BF16:
        lo = bf16_bits(bf16(old) + bf16(data))
        hi = bf16_bits(bf16(old >> U(16)) + bf16(data >> U(16)))
        return lo | (hi << U(16))
    if op == A_SUB_CLAMP:
        return old - data if old > data else U(0)
    if op == A_RSUB:
        return (data - old) & mask
    if op == A_MSKOR:
        return (old & ~cmp & mask) | data
    if op == A_WRAP:
        return (old - cmp) & mask if old >= cmp else (old + data) & mask
    if op == A_CMPSWAP_F32:
        return data if f32(old) == f32(cmp) else old
    if op == A_CMPSWAP_F64:
        return data if f64(old) == f64(cmp) else old
    return old
