"""The hardware's inline float constants, and when a float immediate is one of them.

Besides the integers -16..64, an operand may name 0.0, +-0.5, +-1.0, +-2.0, +-4.0 and 1/(2*pi)
without a literal dword. A float immediate is that inline constant when it has the same bit
pattern in the operand's own format (f16, f32 or f64), as LLVM's assembler decides it: llvm-mc
prints 1/(2*pi) as 0.15915494, which rounds to the inline constant's bits in f16 and f32 but
not in f64.
"""
from __future__ import annotations

import struct

INV_2PI = 0.15915494309189535
INLINE_FLOATS = (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, INV_2PI)


def f16_bits(x: float) -> int:
    """f16_bits is the IEEE half-precision pattern of ``x`` (rounded to nearest even)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f32_bits(x: float) -> int:
    """f32_bits is the IEEE single-precision pattern of ``x``."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x: float) -> int:
    """f64_bits is the IEEE double-precision pattern of ``x``."""
    return struct.unpack("<Q", struct.pack("<d", x))[0]


FLOAT_BITS = {"f16": f16_bits, "f32": f32_bits, "f64": f64_bits}


def float_is_inline(x: float, fmt: str) -> bool:
    """float_is_inline tells whether float ``x`` is an inline constant of an operand in format ``fmt``
    ('f16', 'f32' or 'f64'): zero, or the same pattern there as one of INLINE_FLOATS."""
    convert = FLOAT_BITS[fmt]
    pattern = convert(x)
    return x == 0.0 or any(pattern == convert(c) for c in INLINE_FLOATS)
