"""elf reads the parts of an AMDGPU ELF code object gpusim needs: sections, symbols and notes.

The file is untrusted: every header field is checked against the file's size
before use, and any malformation raises CodeObjectError as one line.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from gpusim.errors import GpusimError

ELF_MAGIC = b"\x7fELF"
EM_AMDGPU = 224
NT_AMDGPU_METADATA = 32
MAX_SECTIONS = 4096
MAX_SYMBOLS = 1 << 20
# e_flags & 0xff: the processor (LLVM's EF_AMDGPU_MACH_AMDGCN_*)
MACHS = {0x3F: "gfx90a", 0x40: "gfx940", 0x4B: "gfx941", 0x4C: "gfx942", 0x2C: "gfx908", 0x30: "gfx1030",
         0x4F: "gfx950", 0x41: "gfx1100"}


class CodeObjectError(GpusimError):
    """CodeObjectError is a code object (ELF, offload bundle) gpusim cannot read."""


@dataclass(frozen=True)
class Section:
    """Section is one ELF section header."""

    name: str
    type: int
    addr: int
    offset: int
    size: int
    link: int
    info: int = 0


@dataclass(frozen=True)
class Symbol:
    """Symbol is one ELF symbol: ``kind`` is the st_info type (1 object, 2 function)."""

    name: str
    value: int
    size: int
    kind: int
    section: int


class Elf:
    """Elf is a parsed 64-bit little-endian AMDGPU ELF file held in memory; it is read-only. With
    ``any_machine`` it takes any e_machine (the host's own objects, whose symbols
    benchmarks/profile_kernels.py reads)."""

    def __init__(self, data: bytes, path: str, any_machine: bool = False):
        self.data, self.path = data, path
        if len(data) < 64 or data[:4] != ELF_MAGIC:
            raise self.error("not an ELF file")
        if data[4] != 2 or data[5] != 1:
            raise self.error("not a 64-bit little-endian ELF file")
        (self.type, found, _version, _entry, _phoff, shoff, self.flags, _ehsize, _phentsize, _phnum,
         shentsize, shnum, shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
        if not any_machine and found != EM_AMDGPU:
            raise self.error(f"ELF machine {found} is not AMDGPU ({EM_AMDGPU}): not a GPU code object")
        if shnum == 0 or shnum > MAX_SECTIONS or shentsize != 64 or shoff + shnum * 64 > len(data):
            raise self.error("truncated or malformed ELF section table")
        raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(shnum)]
        if shstrndx >= shnum:
            raise self.error("malformed ELF (section name table index out of range)")
        names = raw[shstrndx]
        self.sections = [Section(self._string(names, s[0]) if s[1] else "", s[1], s[3], s[4], s[5], s[6], s[7])
                         for s in raw]
        for s in self.sections:
            if s.type != 8 and s.offset + s.size > len(data):  # 8: SHT_NOBITS holds no file bytes
                raise self.error(f"truncated ELF (section '{s.name}' runs past the end of the file)")

    @property
    def processor(self) -> str:
        mach = self.flags & 0xFF
        return MACHS.get(mach, f"unknown processor 0x{mach:02x}")

    def error(self, message: str) -> CodeObjectError:
        return CodeObjectError(f"{self.path}: {message}")

    def _string(self, table, index: int) -> str:
        """_string reads a NUL-terminated name at ``index`` of the string table section ``table`` (raw tuple)."""
        offset, size = table[4], table[5]
        if offset + size > len(self.data) or index >= size:
            raise self.error("malformed ELF (a name lies outside its string table)")
        end = self.data.find(b"\0", offset + index, offset + size)
        if end < 0:
            raise self.error("malformed ELF (an unterminated name)")
        return self.data[offset + index:end].decode("utf-8", "replace")

    def section_bytes(self, s: Section) -> bytes:
        return self.data[s.offset:s.offset + s.size]

    def symbols(self) -> list[Symbol]:
        """symbols lists the symbol table's entries (the static .symtab, else .dynsym)."""
        tables = [s for s in self.sections if s.type == 2] or [s for s in self.sections if s.type == 11]
        if not tables:
            raise self.error("the ELF file has no symbol table")
        table = tables[0]
        if table.link >= len(self.sections):
            raise self.error("malformed ELF (symbol table names no string table)")
        strtab = self.sections[table.link]
        raw_strtab = (0, 0, 0, 0, strtab.offset, strtab.size)
        count = table.size // 24
        if count > MAX_SYMBOLS:
            raise self.error(f"absurd symbol table ({count} symbols)")
        out = []
        for i in range(1, count):
            name, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", self.data, table.offset + 24 * i)
            out.append(Symbol(self._string(raw_strtab, name), value, size, info & 0xF, shndx))
        return out

    def symbol_bytes(self, sym: Symbol, size: int) -> bytes:
        """symbol_bytes returns ``size`` bytes at a symbol's address in its section."""
        if sym.section == 0 or sym.section >= len(self.sections):
            raise self.error(f"symbol '{sym.name}' is not defined in a section")
        s = self.sections[sym.section]
        start = sym.value - s.addr
        if start < 0 or start + size > s.size:
            raise self.error(f"symbol '{sym.name}' lies outside its section '{s.name}'")
        return self.data[s.offset + start:s.offset + start + size]

    def relocations_into(self, section: int, start: int, end: int) -> list[tuple[int, str]]:
        """relocations_into lists (address, symbol name) of every relocation (SHT_RELA, SHT_REL) that patches
        bytes [start, end) of section ``section``: code a linker has yet to finish (a relocatable object's
        calls to functions defined elsewhere)."""
        out = []
        names = None
        for s in self.sections:
            if s.type not in (4, 9) or s.info != section:   # 4 SHT_RELA, 9 SHT_REL
                continue
            entry = 24 if s.type == 4 else 16
            if s.size // entry > MAX_SYMBOLS:
                raise self.error(f"absurd relocation section '{s.name}'")
            for k in range(s.size // entry):
                offset, info = struct.unpack_from("<QQ", self.data, s.offset + entry * k)
                if start <= offset < end:
                    if names is None:
                        names = [sym.name for sym in self.symbols()]
                    index = info >> 32
                    out.append((offset, names[index - 1] if 0 < index <= len(names) else f"symbol {index}"))
        return out

    def notes(self) -> list[tuple[str, int, bytes]]:
        """notes lists (owner name, type, description) of every note section."""
        out = []
        for s in self.sections:
            if s.type != 7:  # SHT_NOTE
                continue
            body, pos = self.section_bytes(s), 0
            while pos + 12 <= len(body):
                namesz, descsz, ntype = struct.unpack_from("<III", body, pos)
                name_end = pos + 12 + namesz
                desc_start = pos + 12 + ((namesz + 3) & ~3)
                desc_end = desc_start + descsz
                if name_end > len(body) or desc_end > len(body):
                    raise self.error(f"truncated note in section '{s.name}'")
                name = body[pos + 12:name_end].rstrip(b"\0").decode("utf-8", "replace")
                out.append((name, ntype, body[desc_start:desc_end]))
                pos = (desc_end + 3) & ~3
        return out
