"""msgpack decodes the MessagePack subset an AMDGPU metadata note uses, with every size bounded.

The input is untrusted (a code object from anywhere): lengths are checked
against the bytes that remain, nesting is limited, and any malformation
raises ValueError with a short reason, never an IndexError or a hang.
"""
from __future__ import annotations

import struct

MAX_DEPTH = 32


def decode(data: bytes):
    """decode returns the one MessagePack value ``data`` holds (maps become dicts with str keys kept as is)."""
    value, pos = _Reader(data).value(0, 0)
    if pos != len(data):
        raise ValueError(f"{len(data) - pos} bytes after the metadata map")
    return value


class _Reader:
    """_Reader walks a byte string; it mutates nothing but its own position results."""

    def __init__(self, data: bytes):
        self.data = data

    def take(self, pos: int, n: int) -> tuple[bytes, int]:
        if n < 0 or pos + n > len(self.data):
            raise ValueError("truncated metadata (a length runs past the note)")
        return self.data[pos:pos + n], pos + n

    def unpack(self, fmt: str, pos: int):
        raw, pos = self.take(pos, struct.calcsize(fmt))
        return struct.unpack(fmt, raw)[0], pos

    def value(self, pos: int, depth: int):
        if depth > MAX_DEPTH:
            raise ValueError("metadata nested too deeply")
        b, pos = self.unpack("B", pos)
        if b <= 0x7F:
            return b, pos
        if b >= 0xE0:
            return b - 0x100, pos
        if 0x80 <= b <= 0x8F:
            return self.map(pos, b & 0x0F, depth)
        if 0x90 <= b <= 0x9F:
            return self.array(pos, b & 0x0F, depth)
        if 0xA0 <= b <= 0xBF:
            return self.string(pos, b & 0x1F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b], pos
        fixed = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
                 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
        if b in fixed:
            return self.unpack(fixed[b], pos)
        sized = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I",
                 0xDC: ">H", 0xDD: ">I", 0xDE: ">H", 0xDF: ">I"}
        if b in sized:
            n, pos = self.unpack(sized[b], pos)
            if b in (0xD9, 0xDA, 0xDB):
                return self.string(pos, n)
            if b in (0xC4, 0xC5, 0xC6):
                return self.take(pos, n)
            if b in (0xDC, 0xDD):
                return self.array(pos, n, depth)
            return self.map(pos, n, depth)
        raise ValueError(f"unsupported MessagePack type byte 0x{b:02x}")

    def string(self, pos: int, n: int):
        raw, pos = self.take(pos, n)
        return raw.decode("utf-8", "replace"), pos

    def array(self, pos: int, n: int, depth: int):
        if n > len(self.data) - pos:  # every element takes at least one byte
            raise ValueError("truncated metadata (an array longer than the note)")
        out = []
        for _ in range(n):
            v, pos = self.value(pos, depth + 1)
            out.append(v)
        return out, pos

    def map(self, pos: int, n: int, depth: int):
        if 2 * n > len(self.data) - pos:
            raise ValueError("truncated metadata (a map longer than the note)")
        out = {}
        for _ in range(n):
            k, pos = self.value(pos, depth + 1)
            v, pos = self.value(pos, depth + 1)
            if isinstance(k, (dict, list, bytes)):
                raise ValueError("metadata map with a non-scalar key")
            out[k] = v
        return out, pos
