"""Division by run-time divisors that are usually powers of two.

Line sizes, set counts, channel counts and interleaves come from the YAML, so
numba cannot turn ``a // d`` into a shift: every one is a 64-bit integer
division of tens of cycles, and one cache-line request does about ten. These
helpers shift and mask when ``d`` is a power of two and divide otherwise, with
Python's floor semantics in both cases (``-1 >> k == -1 // 2**k``).
"""
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload


def log2_pow2(d):
    """log2_pow2 is log2 of a power of two ``d`` (one tzcnt instruction when compiled)."""
    d = int(d)
    return (d & -d).bit_length() - 1


@overload(log2_pow2)
def _log2_pow2_compiled(d):
    return lambda d: trailing_zeros(d)  # one instruction (tzcnt)


@njit(_nrt=False)
def quot(a, d):
    """quot is ``a // d`` for an integer ``a`` and ``d > 0``."""
    if d & (d - 1) == 0:
        return a >> log2_pow2(d)
    return a // d


@njit(_nrt=False)
def rem(a, d):
    """rem is ``a % d`` for an integer ``a`` and ``d > 0``."""
    if d & (d - 1) == 0:
        return a & (d - 1)
    return a % d
