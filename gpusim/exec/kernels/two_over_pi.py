"""The 1201 fraction bits of 2/pi that v_trig_preop_f64 reads segments of, as 64-bit words.

The hardware holds 2/pi as 0.b1200 b1199 ... b0 (the CDNA3 ISA's V_TRIG_PREOP_F64: "2/PI[1200:0]"); bits past
b0 read as zero. The bits are computed here, exactly, from pi by Machin's formula in integer arithmetic with
guard bits, so no table is typed in; they begin A2F9836E 4E441529 FC2757D1 F534DDC0 (tests check more).

``WORDS[q]`` holds fraction bits 64q + 1 .. 64q + 64 (counted from the binary point), most significant first,
and zero words follow, far enough for the largest offset the instruction can ask for (31 * 53 + 2047 - 1077).
"""
import numpy as np

FRACTION_BITS = 1201
_GUARD = 64
_WORD_COUNT = (31 * 53 + 2047 - 1077 + 53) // 64 + 2


def _arctan_inverse(x: int, bits: int) -> int:
    """_arctan_inverse is arctan(1/x) as a fixed-point integer with ``bits`` fraction bits (its Taylor series)."""
    one = 1 << bits
    term = one // x
    total, n, sign, x2 = term, 1, -1, x * x
    while term:
        term //= x2
        n += 2
        total += sign * (term // n)
        sign = -sign
    return total


def _fraction_bits() -> int:
    """_fraction_bits is floor(2/pi * 2**FRACTION_BITS): b1200 .. b0 as one integer."""
    bits = FRACTION_BITS + _GUARD
    pi = 16 * _arctan_inverse(5, bits) - 4 * _arctan_inverse(239, bits)   # Machin: pi/4 = 4 atan(1/5) - atan(1/239)
    return ((2 << (2 * bits)) // pi) >> _GUARD


def _words() -> np.ndarray:
    value = _fraction_bits() << (64 * _WORD_COUNT - FRACTION_BITS)
    return np.array([(value >> (64 * (_WORD_COUNT - 1 - q))) & (2**64 - 1) for q in range(_WORD_COUNT)], np.uint64)


WORDS = _words()
