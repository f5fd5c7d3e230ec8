"""Static data: a module's .data, .rodata and .bss sections, laid out as one image the loader places in device
memory before the kernel runs.

Compilers put constant tables (a ``__constant__`` array, a ``static const`` table) and device globals
(``__device__ int counter``) there, and reach them from code through the program counter: ``s_getpc_b64`` then
``s_add_u32``/``s_addc_u32`` of ``sym@rel32@lo+4``/``sym@rel32@hi+12``. gpusim loads code at ``CODE_BASE`` and
the image at ``STATIC_DATA_BASE`` (the first bytes of the device arena, as a loader maps a code object's data
segment beside its code), so the encoder resolves such an operand to the constant a linker would: ``S + A -
P``, the symbol's address plus the addend less the address of the instruction's literal
(``@abs32@lo``/``@hi``: ``S + A``). The sections keep their first-appearance order, each aligned to the
largest alignment asked of it; a Program carries the image only when an operand refers to it (a compiler's
unreferenced .bss marker leaves the device layout unchanged). Data that holds an address (``.quad sym`` or
``.quad sym+8``: a table of pointers to other data, or of device functions) gets it as a loader applies an
R_AMDGPU_ABS64 relocation, ``S + A``: a data label's when the image is laid out, a code label's once the
encoder knows the code's layout (``code_relocations``, gpusim.asm.encoder). Writes to .rodata are not refused
(hardware maps it read-only).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# where the Program's code and its static data live in the device's address space (gpusim.exec.launch places
# the device arena, whose first bytes hold the image, at STATIC_DATA_BASE)
CODE_BASE = 0x7E00_0000_0000
STATIC_DATA_BASE = 0x7F00_0000_0000

STATIC_SECTIONS = (".data", ".rodata", ".bss")


def is_static_section(name: str) -> bool:
    """is_static_section tells whether section ``name`` holds data a kernel may load (.data, .rodata, .bss and
    their dotted variants such as .rodata.cst32); the others (.AMDGPU.csdata, notes, debug info) are not
    loaded."""
    return any(name == s or name.startswith(s + ".") for s in STATIC_SECTIONS)


@dataclass(frozen=True)
class StaticData:
    """StaticData is the laid-out image: ``image`` its bytes, ``symbols`` each data label's offset in it, and
    ``code_relocations`` the 8-byte addresses of code labels still to write, (image offset, label, addend)."""

    image: bytes
    symbols: dict
    code_relocations: tuple = ()

    def address(self, name: str) -> int:
        """address is the device address of data label ``name``."""
        return STATIC_DATA_BASE + self.symbols[name]

    def with_code_at(self, code_pcs: dict) -> "StaticData":
        """with_code_at is the image with every code relocation written: label ``name`` of a code relocation at
        CODE_BASE + ``code_pcs[name]`` (its byte offset in the code), plus the addend."""
        if not self.code_relocations:
            return self
        image = bytearray(self.image)
        for offset, name, addend in self.code_relocations:
            image[offset:offset + 8] = ((CODE_BASE + code_pcs[name] + addend) % (1 << 64)).to_bytes(8, "little")
        return StaticData(bytes(image), self.symbols)


@dataclass
class StaticDataBuilder:
    """StaticDataBuilder collects the static sections' bytes and labels as the assembler reads them."""

    sections: dict = field(default_factory=dict)    # name -> bytearray
    alignment: dict = field(default_factory=dict)   # name -> the largest alignment asked of it
    labels: dict = field(default_factory=dict)      # label -> (section, offset)
    relocations: list = field(default_factory=list)  # (section, offset, symbol, addend): 8-byte addresses

    def _section(self, name: str) -> bytearray:
        self.alignment.setdefault(name, 1)
        return self.sections.setdefault(name, bytearray())

    def emit(self, section: str, data: bytes) -> None:
        """emit appends ``data`` to ``section``."""
        self._section(section).extend(data)

    def align(self, section: str, alignment: int, fill: int = 0) -> None:
        """align pads ``section`` with ``fill`` bytes to a multiple of ``alignment`` (a power of two)."""
        body = self._section(section)
        body.extend(bytes([fill & 0xFF]) * (-len(body) % alignment))
        self.alignment[section] = max(self.alignment[section], alignment)

    def address(self, section: str, symbol: str, addend: int) -> None:
        """address appends 8 bytes to ``section`` that will hold the address of ``symbol`` plus ``addend``."""
        self.relocations.append((section, len(self._section(section)), symbol, addend))
        self.emit(section, bytes(8))

    def label(self, section: str, name: str) -> None:
        """label defines data label ``name`` at the current end of ``section``."""
        self.labels[name] = (section, len(self._section(section)))

    def build(self) -> StaticData | None:
        """build lays the sections out one after another, each at its alignment, and writes the addresses of the
        data labels relocations name (a relocation naming any other symbol, which the caller has made sure is a
        code label, becomes a code relocation); None when the sections hold no byte and no label (a .rodata that
        only aligns the kernel descriptor), so that such a file's layout is that of a file without them."""
        if not self.labels and not any(self.sections.values()):
            return None
        image = bytearray()
        starts = {}
        for name, body in self.sections.items():
            image.extend(bytes(-len(image) % self.alignment[name]))
            starts[name] = len(image)
            image.extend(body)
        symbols = {label: starts[s] + off for label, (s, off) in self.labels.items()}
        code = []
        for section, offset, name, addend in self.relocations:
            at = starts[section] + offset
            if name in symbols:
                image[at:at + 8] = ((STATIC_DATA_BASE + symbols[name] + addend) % (1 << 64)).to_bytes(8, "little")
            else:
                code.append((at, name, addend))
        return StaticData(bytes(image), symbols, tuple(code))
