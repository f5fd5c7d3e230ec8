"""The parsed form of an assembly file, before it is encoded into a Program.

The parser (``gpusim.asm.parser``) turns text into these plain objects; the
encoder (``gpusim.asm.encoder``) checks them against the ISA table and packs
them into the struct-of-arrays :class:`gpusim.asm.program.Program`.
Nothing here knows instruction semantics.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from gpusim.asm.static_data import StaticData
from gpusim.errors import SourceLoc

# the header's element types (``x buffer f32[n]``) and the numpy type a buffer of each is stored as
# (bf16 buffers hold their raw 16-bit patterns: numpy has no bfloat16); check expressions see the same
NUMPY_DTYPES = {
    "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32,
    "i64": np.int64, "u64": np.uint64, "f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64,
}


@dataclass(frozen=True)
class Reg:
    """Reg is a register or register range: ``s5``, ``s[4:7]``, ``v[2:3]``, ``a0``, ``ttmp[0:1]``.

    ``file`` is one of ``'s' 'v' 'a' 'ttmp'``; ``first`` the first index and
    ``count`` the number of 32-bit registers.
    """

    file: str
    first: int
    count: int = 1


@dataclass(frozen=True)
class Special:
    """Special is a named hardware register operand.

    ``name`` is lower case, one of: vcc vcc_lo vcc_hi exec exec_lo exec_hi m0
    scc flat_scratch flat_scratch_lo flat_scratch_hi xnack_mask
    xnack_mask_lo xnack_mask_hi src_shared_base src_shared_limit
    src_private_base src_private_limit src_pops_exiting_wave_id
    src_vccz src_execz src_scc src_lds_direct off.
    """

    name: str


@dataclass(frozen=True)
class Imm:
    """Imm is an integer operand after symbol and expression evaluation."""

    value: int


@dataclass(frozen=True)
class FloatImm:
    """FloatImm is a floating-point literal operand such as ``1.0`` or ``-0.5``."""

    value: float


@dataclass(frozen=True)
class LabelRef:
    """LabelRef is a reference to a label, e.g. a branch target ``.LBB0_2``.

    ``addend`` is an integer added to it; ``reloc`` is an ``@rel32@lo``-style
    relocation suffix or ''.
    """

    name: str
    addend: int = 0
    reloc: str = ""


@dataclass(frozen=True)
class Waitcnt:
    """Waitcnt is the operand of ``s_waitcnt``; ``None`` means "do not wait on it"."""

    vmcnt: Optional[int] = None
    expcnt: Optional[int] = None
    lgkmcnt: Optional[int] = None


@dataclass(frozen=True)
class FuncOperand:
    """FuncOperand is a named operand function: ``sendmsg(MSG_DEALLOC_VGPRS)``,
    ``hwreg(HW_REG_MODE, 0, 4)``, ``swizzle(BITMASK_PERM, "00p11")``, ``sext(v1)``.

    ``args`` are the raw arguments: ints, strings, or nested operands.
    """

    name: str
    args: tuple


Value = Union[Reg, Special, Imm, FloatImm, LabelRef, Waitcnt, FuncOperand]


@dataclass(frozen=True)
class Operand:
    """Operand is one instruction operand with its source modifiers.

    ``neg`` is a leading minus (``-v1``) or ``neg(v1)``; ``abs`` is ``|v1|`` or
    ``abs(v1)``; ``sext`` is ``sext(v1)`` (SDWA).
    """

    value: Value
    neg: bool = False
    abs: bool = False
    sext: bool = False


# Modifier values: a bare flag (glc, clamp, offen, row_mirror) is True; a
# keyed modifier (offset:16, row_shl:1, dst_sel:WORD_1, cbsz:1) holds an int
# or an upper-case name; a list modifier (op_sel:[0,1], quad_perm:[1,0,3,2])
# holds a tuple of ints. ``mul:2``/``div:2`` are stored as omod.
ModValue = Union[bool, int, str, tuple]


@dataclass
class Instruction:
    """Instruction is one parsed machine instruction.

    ``mnemonic`` is lower case without an encoding suffix (``v_add_f32``);
    ``suffix`` is '' or one of ``e32 e64 sdwa dpp``. ``operand_cols`` holds
    the 1-based column of each operand (empty when unknown), so that operand
    errors point at the operand; ``modifier_cols`` the name and column of each
    modifier in the order the line writes them (llvm-mc takes a memory
    instruction's modifiers in one order only). ``origin`` is the line of the
    program's own source the compiler's ``.loc`` directives give the
    instruction (a HIP or Triton line), or None (gpusim.asm.parser).
    """

    mnemonic: str
    suffix: str
    operands: list[Operand]
    modifiers: dict[str, ModValue]
    loc: SourceLoc
    operand_cols: tuple[int, ...] = ()
    modifier_cols: tuple[tuple[str, int], ...] = ()
    origin: Optional[SourceLoc] = None


@dataclass
class KernelSource:
    """KernelSource is one ``.amdhsa_kernel`` block and where its code starts.

    ``descriptor`` maps each ``.amdhsa_*`` field (without the ``.amdhsa_``
    prefix) to its integer value. ``entry`` is the index into
    ``AsmModule.instructions`` of the kernel's first instruction.
    ``field_locs`` maps each field to the line that set it, for errors about its value.
    """

    name: str
    descriptor: dict[str, int]
    entry: int
    loc: SourceLoc
    field_locs: dict[str, SourceLoc] = field(default_factory=dict)


@dataclass(frozen=True)
class LaunchSpec:
    """LaunchSpec is the ``; gpusim-launch: grid=X,Y,Z block=X,Y,Z`` line.

    ``grid`` counts workgroups per dimension, ``block`` work-items per workgroup; ``lds`` the
    dynamic LDS bytes per workgroup the launch adds to the kernel's static LDS (``lds=``).
    """

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    loc: Optional[SourceLoc] = None
    lds: int = 0


@dataclass(frozen=True)
class ArgSpec:
    """ArgSpec is one ``; gpusim-arg:`` line: a buffer or a scalar kernel argument.

    For a buffer: ``dtype`` is the element type, ``shape`` its dimensions,
    ``init`` the initialiser name and ``init_params`` its numeric arguments,
    ``seed`` the RNG seed and ``out`` whether it is an output.
    ``shape_exprs`` holds, for a buffer whose shape names scalar arguments (``f32[n]``), the text of
    each dimension, so that ``shape`` can be computed again when ``--arg`` changes them; it is empty
    for a shape of plain sizes.
    For a scalar: ``value`` holds the number.
    ``data`` holds, for a buffer whose initial contents a caller of the Python API supplies
    (``init`` "data"; gpusim.frontends.triton), its bytes; the header grammar never sets it.
    """

    name: str
    kind: str  # 'buffer' | 'scalar'
    dtype: str
    shape: tuple[int, ...] = ()
    shape_exprs: tuple[str, ...] = ()
    init: str = "zeros"
    init_params: tuple[float, ...] = ()
    seed: int = 0
    out: bool = False
    value: Union[int, float, None] = None
    loc: Optional[SourceLoc] = None
    data: Optional[bytes] = field(default=None, repr=False)


@dataclass(frozen=True)
class CheckSpec:
    """CheckSpec is one ``; gpusim-check: LHS ~= RHS [rtol=.. atol=..]`` or ``LHS == RHS`` line."""

    lhs: str
    op: str  # '~=' | '=='
    rhs: str
    rtol: float = 1e-5
    atol: float = 1e-8
    loc: Optional[SourceLoc] = None


@dataclass
class AsmModule:
    """AsmModule is everything read from one ``.s`` file.

    ``instructions`` holds every instruction of the text section in order;
    ``labels`` maps a label to the index of the instruction that follows it
    (``len(instructions)`` for a label at the end); ``symbols`` holds
    ``.set``/``.equ`` values; ``metadata`` is the raw YAML text of the
    ``.amdgpu_metadata`` block or ''; ``target`` the ``.amdgcn_target`` string;
    ``static_data`` what its .data, .rodata and .bss sections hold (None: nothing);
    ``text_alignments`` maps an instruction's index to the (alignment, most padding bytes) pairs
    of the alignment directives just before it (the encoder pads the pcs as llvm-mc pads the text).
    """

    path: str
    instructions: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    symbols: dict[str, int] = field(default_factory=dict)
    kernels: list[KernelSource] = field(default_factory=list)
    target: str = ""
    metadata: str = ""
    launch: Optional[LaunchSpec] = None
    args: list[ArgSpec] = field(default_factory=list)
    checks: list[CheckSpec] = field(default_factory=list)
    static_data: Optional[StaticData] = None
    text_alignments: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
