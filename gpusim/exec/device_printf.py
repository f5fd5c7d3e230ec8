"""Device printf: the lines a kernel printed, read from its printf buffer after the run.

gpusim's HIP header (gpusim/frontends/include/gpusim_hip.h) gives device code a ``printf`` that appends a record
to a static array, ``__gpusim_printf_buffer``, of BUFFER_WORDS 64-bit words: word 0 counts the words the calls
asked for, the last word the calls dropped because their record did not fit, and each record is the format
string's device address, a word holding the argument count (bits 56-63) and each argument's kind in 2 bits
(KIND_SIGNED, KIND_UNSIGNED, KIND_DOUBLE, KIND_POINTER, argument k at bit 2k), then one word per argument. The
format strings, and the strings ``%s`` prints, are read from device memory.

Format strings are data from the kernel: each conversion is checked against C's grammar and formatted by
Python's ``%`` for that one value (no field names, no attribute access); widths and precisions above MAX_WIDTH
and conversions gpusim does not know are printed as written.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Optional

import numpy as np

from gpusim.asm.static_data import STATIC_DATA_BASE, StaticData

BUFFER_SYMBOL = "__gpusim_printf_buffer"   # the static array's name (mangled for internal linkage around it)
BUFFER_WORDS = 65536
KIND_SIGNED, KIND_UNSIGNED, KIND_DOUBLE, KIND_POINTER = range(4)
KIND_TEXT = 4   # an argument that is the %s string itself (the hostcall printf sends strings inline, gpusim.exec.hostcall)
MAX_WIDTH = 4096          # a larger field width or precision is printed as written, not padded
MAX_STRING = 4096         # the most bytes a format or %s string is read for
_CONVERSION = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d+)?(?:\.(?P<prec>\d*))?(?P<len>hh|h|ll|l|j|z|t|L)?"
                         r"(?P<conv>[diouxXeEfFgGaAcsp%])")
_INT_BITS = {"hh": 8, "h": 16, None: 32, "l": 64, "ll": 64, "j": 64, "z": 64, "t": 64, "L": 64}


@dataclass(frozen=True)
class Printed:
    """Printed is what the kernel's printf calls wrote: ``lines`` the text of each call in buffer order (a call's
    text may hold several lines or none), ``dropped`` the calls that did not fit the buffer."""

    lines: list
    dropped: int


def merged(*parts: Optional[Printed]) -> Optional[Printed]:
    """merged is what several sources printed, in order, or None when none of them printed anything."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    return Printed(lines=[line for p in present for line in p.lines], dropped=sum(p.dropped for p in present))


def buffer_offset(static: Optional[StaticData]) -> Optional[int]:
    """buffer_offset is the printf buffer's offset in the static data image, or None when the code has none."""
    if static is None:
        return None
    for name, offset in static.symbols.items():
        if name.endswith(BUFFER_SYMBOL) and offset + 8 * BUFFER_WORDS <= len(static.image):
            return offset
    return None


def read_printed(static: Optional[StaticData], mem: np.ndarray) -> Optional[Printed]:
    """read_printed decodes the printf buffer of a run's memory image ``mem`` (the arena, whose first bytes hold
    the static image), or returns None when the program has no printf buffer."""
    at = buffer_offset(static)
    if at is None:
        return None
    words = mem[at:at + 8 * BUFFER_WORDS].view("<u8")
    end = min(int(words[0]) + 1, BUFFER_WORDS - 1)   # records fill words 1 .. end - 1; the last word counts drops
    texts, k = [], 1
    while k + 2 <= end:
        count, kinds = int(words[k + 1]) >> 56, int(words[k + 1]) & ((1 << 56) - 1)
        if k + 2 + count > end:
            break
        args = [(kinds >> (2 * j) & 3, int(words[k + 2 + j])) for j in range(count)]
        texts.append(format_c(_c_string(mem, int(words[k])), args, mem))
        k += 2 + count
    return Printed(lines=texts, dropped=int(words[BUFFER_WORDS - 1]))


def _c_string(mem: np.ndarray, address: int) -> str:
    """_c_string is the NUL-terminated string at device ``address`` (at most MAX_STRING bytes), or a marker when
    the address is outside the device memory gpusim holds."""
    start = address - STATIC_DATA_BASE
    if not 0 <= start < mem.shape[0]:
        return f"(string at 0x{address:x} outside device memory)"
    raw = bytes(mem[start:min(start + MAX_STRING, mem.shape[0])])
    end = raw.find(b"\0")
    return raw[:end if end >= 0 else len(raw)].decode("utf-8", errors="replace")


def conversions(fmt: str) -> list[str]:
    """conversions lists the conversion letters of ``fmt`` that take an argument, in order (not ``%%``)."""
    return [m.group("conv") for m in _CONVERSION.finditer(fmt) if m.group("conv") != "%"]


def format_c(fmt: str, args: list, mem: np.ndarray) -> str:
    """format_c formats ``args`` ((kind, 64-bit word) pairs; KIND_TEXT: (kind, the string)) by the C format
    string ``fmt``, a conversion at a time; a conversion with no argument left is printed as written."""
    out, pos, next_arg = [], 0, 0
    for m in _CONVERSION.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        conv = m.group("conv")
        if conv == "%":
            out.append("%")
            continue
        width, prec = m.group("width"), m.group("prec")
        if next_arg >= len(args):
            out.append(m.group(0))
            continue
        kind, word = args[next_arg]
        next_arg += 1   # a conversion printed as written still takes its argument, as C's does
        if int(width or 0) > MAX_WIDTH or int(prec or 0) > MAX_WIDTH:
            out.append(m.group(0))
            continue
        out.append(_one(m, conv, kind, word, mem))
    out.append(fmt[pos:])
    return "".join(out)


def _one(m: re.Match, conv: str, kind: int, word: int, mem: np.ndarray) -> str:
    """_one formats one argument by one matched conversion."""
    flags = m.group("flags")
    if conv not in "dieEfFgGaA":   # C's sign flags apply to signed conversions only
        flags = flags.replace("+", "").replace(" ", "")
    if conv in "diouxX" and m.group("prec") is not None:   # and an integer's precision overrides its 0 flag
        flags = flags.replace("0", "")
    spec = "%" + flags + (m.group("width") or "") + (
        "." + m.group("prec") if m.group("prec") is not None else "")
    if conv in "diouxXc":
        bits = _INT_BITS[m.group("len")]
        value = int(struct.unpack("<d", struct.pack("<Q", word))[0]) if kind == KIND_DOUBLE else word
        value &= (1 << bits) - 1
        if conv in "di" and value >> (bits - 1):
            value -= 1 << bits
        if conv == "c":
            return (spec + "s") % chr(value & 0xFF)
        if value == 0 and m.group("prec") in ("", "0"):   # C prints no digit for a zero of precision 0
            body = "0" if conv == "o" and "#" in flags else ""
            width = int(m.group("width") or 0)
            return body.ljust(width) if "-" in flags else body.rjust(width)
        if conv in "xX" and value == 0:   # nor marks a zero as hexadecimal
            spec = spec.replace("#", "")
        if conv == "o" and "#" in flags:   # C marks octal with a leading 0 (Python's # writes 0o)
            prec = m.group("prec")
            body = ("%." + prec + "o") % value if prec is not None else "%o" % value
            body = body if body.startswith("0") else "0" + body
            width = int(m.group("width") or 0)
            if "-" in flags:
                return body.ljust(width)
            return body.rjust(width, "0" if "0" in flags and prec is None else " ")
        return (spec + ("d" if conv in "diu" else conv)) % value
    if conv in "eEfFgGaA":
        value = struct.unpack("<d", struct.pack("<Q", word))[0] if kind == KIND_DOUBLE else float(word)
        if conv in "aA":
            text = value.hex()
            return (spec + "s") % (text.upper() if conv == "A" else text)
        return (spec + conv) % value
    if conv == "s":
        if kind == KIND_TEXT:
            return (spec + "s") % word
        return (spec + "s") % (_c_string(mem, word) if kind == KIND_POINTER else "(not a string)")
    return (spec + "s") % f"0x{word:x}"   # %p
