"""KernelWriter: assembly text, one instruction at a time, with the bookkeeping a kernel file needs.

A template calls ``op("v_add_u32", "v3", "v1", "v2", note="i + j")`` for each instruction and
``label``/``comment`` for structure; the writer remembers every register the code names, so the
``.amdhsa_kernel`` block it writes at the end states exactly the VGPRs, AGPRs and SGPRs used (the
block is what gpusim and the hardware size occupancy from). Kernel arguments are declared once
(``buffer``/``scalar``): that gives their kernarg offsets (HSA layout: each argument aligned to its
size) and the ``; gpusim-arg:`` header lines, so offsets in the code and the header cannot disagree.

The output assembles with ``llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942`` (and gfx90a where the
instructions exist there) and runs in gpusim as is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

_SIZES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "f32": 4,
          "i64": 8, "u64": 8, "f64": 8}
_REG_RANGE = re.compile(r"\b([vsa])\[(\d+):(\d+)\]")
_REG_ONE = re.compile(r"(?<![\w\[:])([vsa])(\d+)\b")


def dtype_bytes(dtype: str) -> int:
    """dtype_bytes is the size in bytes of one element of a header dtype (f16, f32, ...)."""
    return _SIZES[dtype]


def reg(kind: str, first: int, count: int = 1) -> str:
    """reg spells ``count`` consecutive registers of ``kind`` ('v', 's' or 'a') from ``first``: v5, v[4:7]."""
    return f"{kind}{first}" if count == 1 else f"{kind}[{first}:{first + count - 1}]"


@dataclass
class _Arg:
    name: str
    size: int
    offset: int
    header: str


def log2_exact(x: int) -> int:
    """log2_exact is log2 of a power of two (a shift amount); anything else is a template bug."""
    assert x > 0 and x & (x - 1) == 0, x
    return x.bit_length() - 1


class RegisterBump:
    """RegisterBump hands out consecutive registers of one kind; tuples are aligned as gfx90a+ requires."""

    def __init__(self, first: int):
        self.next = first

    def take(self, count: int = 1, align: int = 1) -> int:
        """take returns the first of ``count`` fresh registers, starting at a multiple of ``align``."""
        self.next = -(-self.next // align) * align
        first = self.next
        self.next += count
        return first


@dataclass
class KernelWriter:
    """KernelWriter collects one kernel's instructions, arguments, launch and checks; ``text()`` renders it.

    ``workgroup_ids`` says which of s[2], s[3], s[4] (after the kernarg pointer in s[0:1]) hold the
    workgroup id x, y, z; v0 holds the work-item id x (blocks are one-dimensional).
    """

    name: str
    target: str = "gfx942"
    workgroup_ids: str = "x"
    lds_bytes: int = 0
    lines: list = field(default_factory=list)
    args: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    about: list = field(default_factory=list)
    grid: tuple = (1, 1, 1)
    block: int = 64
    _max: dict = field(default_factory=lambda: {"v": -1, "s": -1, "a": -1})
    _kernarg_end: int = 0

    # -- the launch header
    def buffer(self, name: str, dtype: str, shape, *, init: Optional[str] = None, seed: Optional[int] = None,
               out: bool = False) -> int:
        """buffer declares a pointer argument and returns its kernarg offset."""
        dims = ",".join(str(d) for d in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        spec = f"{name} buffer {dtype}[{dims}]"
        if init:
            spec += f" init={init}"
        if seed is not None:
            spec += f" seed={seed}"
        if out:
            spec += " out"
        return self._arg(name, 8, spec)

    def scalar(self, name: str, dtype: str, value) -> int:
        """scalar declares a by-value argument and returns its kernarg offset."""
        return self._arg(name, dtype_bytes(dtype), f"{name} {dtype} {value}")

    def _arg(self, name: str, size: int, header: str) -> int:
        offset = -(-self._kernarg_end // size) * size
        self.args.append(_Arg(name, size, offset, header))
        self._kernarg_end = offset + size
        return offset

    def check(self, expr: str) -> None:
        """check adds a ``; gpusim-check:`` line (numpy expression, see the launch header grammar)."""
        self.checks.append(expr)

    def describe(self, text: str) -> None:
        """describe adds a comment line to the file's preamble (what the kernel is, its parameters)."""
        self.about.append(text)

    # -- the code
    def comment(self, text: str) -> None:
        self.lines.append(f"\t; {text}")

    def blank(self) -> None:
        self.lines.append("")

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")

    def op(self, mnemonic: str, *operands, note: str = "") -> None:
        """op emits one instruction; operands are strings (or ints, printed as decimals)."""
        body = ", ".join(str(o) for o in operands)
        # modifiers such as offset:16 or glc follow the operands without a comma
        body = re.sub(r", (offset\d?:|glc\b|slc\b|nt\b|sc0\b|sc1\b)", r" \1", body)
        line = f"\t{mnemonic} {body}".rstrip()
        if note:
            line = f"{line:<48} ; {note}"
        self.lines.append(line)
        self._note_registers(body)

    def add_to_pointer(self, s_ptr: int, value, note: str = "", carry_note: str = "") -> None:
        """add_to_pointer adds ``value`` (an SGPR name or a constant) to the 64-bit pointer in s[s_ptr:s_ptr+1].

        Scalar ALU adds are 32-bit: the low word with s_add_u32, then its carry (SCC) into the high word.
        """
        self.op("s_add_u32", f"s{s_ptr}", f"s{s_ptr}", value, note=note)
        self.op("s_addc_u32", f"s{s_ptr + 1}", f"s{s_ptr + 1}", 0, note=carry_note)

    def mad_u32_u24(self, dst: str, a: str, const: int, b: str, note: str = "") -> None:
        """mad_u32_u24 sets dst = a * const + b (24-bit a and const). gfx9's VOP3 takes no literal, so a
        constant above 64 (the largest inline one) takes the two VOP2 forms instead."""
        if 0 <= const <= 64:
            self.op("v_mad_u32_u24", dst, a, const, b, note=note)
        else:
            self.op("v_mul_u32_u24_e32", dst, const, a, note=note)
            self.op("v_add_u32_e32", dst, b, dst)

    def _note_registers(self, text: str) -> None:
        for kind, lo, hi in _REG_RANGE.findall(text):
            self._max[kind] = max(self._max[kind], int(hi))
        for kind, n in _REG_ONE.findall(text):
            self._max[kind] = max(self._max[kind], int(n))

    # -- what the code uses
    @property
    def vgprs(self) -> int:
        """vgprs is the architectural VGPRs the code names (v0 always: it holds the work-item id)."""
        return max(self._max["v"] + 1, 1)

    @property
    def agprs(self) -> int:
        return self._max["a"] + 1

    @property
    def sgprs(self) -> int:
        return max(self._max["s"] + 1, 2 + len(self.workgroup_ids))

    @property
    def accum_offset(self) -> int:
        """accum_offset is where the AGPRs start in the unified file: the VGPRs rounded up to 4."""
        return -(-self.vgprs // 4) * 4

    @property
    def unified_vgprs(self) -> int:
        """unified_vgprs is ``.amdhsa_next_free_vgpr``: VGPRs then AGPRs in gfx90a/gfx942's unified file."""
        return self.accum_offset + self.agprs if self.agprs else self.vgprs

    @property
    def kernarg_bytes(self) -> int:
        return -(-self._kernarg_end // 8) * 8

    def text(self) -> str:
        """text renders the whole ``.s`` file: launch header, code and ``.amdhsa_kernel`` block."""
        gx, gy, gz = self.grid
        head = [f"; gpusim-launch: grid={gx},{gy},{gz} block={self.block},1,1"]
        head += [f"; gpusim-arg: {a.header}" for a in self.args]
        head += [f"; gpusim-check: {c}" for c in self.checks]
        head += [f"; {line}" if line else ";" for line in self.about]
        ids = "xyz"
        body = [
            "\t.text",
            f'\t.amdgcn_target "amdgcn-amd-amdhsa--{self.target}"',
            f"\t.globl {self.name}",
            "\t.p2align 8",
            f"\t.type {self.name},@function",
            f"{self.name}:",
            *self.lines,
            f"\t.size {self.name}, .-{self.name}",
            "",
            '\t.section .rodata,"a",@progbits',
            "\t.p2align 6, 0x0",
            f"\t.amdhsa_kernel {self.name}",
            f"\t\t.amdhsa_group_segment_fixed_size {self.lds_bytes}",
            f"\t\t.amdhsa_kernarg_size {self.kernarg_bytes}",
            "\t\t.amdhsa_user_sgpr_count 2",
            "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1",
            *[f"\t\t.amdhsa_system_sgpr_workgroup_id_{d} {int(d in self.workgroup_ids)}" for d in ids],
            "\t\t.amdhsa_system_vgpr_workitem_id 0",
            f"\t\t.amdhsa_next_free_vgpr {self.unified_vgprs}",
            f"\t\t.amdhsa_next_free_sgpr {self.sgprs}",
            f"\t\t.amdhsa_accum_offset {self.accum_offset}",
            "\t\t.amdhsa_reserve_vcc 1",
            "\t.end_amdhsa_kernel",
            "",
        ]
        return "\n".join(head + body)
