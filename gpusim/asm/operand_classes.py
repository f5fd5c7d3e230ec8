"""Operand classes: which kinds of operand each instruction slot accepts, checked at load time.

llvm-mc refuses an instruction whose operand has the wrong register file
(``global_load_dword s4, ...``), the wrong width (``s_mov_b64 s[0:1], s2``),
a constant where only a register fits (VOP2 ``src1``), a literal where the
encoding has no room for one (VOP3 on gfx9), or more scalar values than the
VALU's constant bus carries (one on gfx90a/gfx942). gpusim must refuse the
same text, or it runs the instruction with another meaning.

:func:`check_operands` derives each operand's role from the instruction's
table row (format, layout, operand types; isa/gfx9.yaml) and raises
:class:`AsmError` at the operand's column with llvm-mc's message and a hint
naming what the slot takes. It checks classes, widths, source modifiers,
encoding suffixes and constant limits; the encoder still checks register
ranges and tuple alignment.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from gpusim.asm import isa, sems
from gpusim.asm.inline_constants import INLINE_FLOATS, f16_bits, f32_bits, f64_bits, float_is_inline
from gpusim.asm.ir import FloatImm, FuncOperand, Imm, Instruction, LabelRef, Operand, Reg, Special, Waitcnt
from gpusim.errors import AsmError, SourceLoc, UnsupportedInstruction

# Class letters a role may accept:
#   s  a scalar register (SGPR, TTMP, vcc, exec, m0, ... of the right width)
#   v  a VGPR          a  an AGPR
#   i  an inline constant (integer -16..64 or one of the inline floats)
#   l  a literal constant (any other number)
#   k  an integer immediate within the role's range (SOPK simm16, SMEM offsets)
#   c  exactly vcc (the implicit carry / mask / compare operand of a VOP e32 form)
#   o  the word 'off'
#   K  any number, always encoded as a literal (the K of v_fmamk/v_fmaak)
#   h  hwreg(...) or an integer (s_getreg/s_setreg)
#   g  gpr_idx(...) or an integer (VGPR index mode's bits: s_set_gpr_idx_on)
_DESCRIBE = {"s": "an SGPR", "v": "a VGPR", "a": "an AGPR", "i": "an inline constant", "l": "a literal",
             "k": "an immediate", "c": "vcc", "o": "'off'", "K": "a constant", "h": "hwreg(...)",
             "g": "gpr_idx(...)"}

# special scalar registers: (width in dwords, writable)
_SCALAR_SPECIALS = {
    "vcc": (2, True), "vcc_lo": (1, True), "vcc_hi": (1, True), "exec": (2, True), "exec_lo": (1, True),
    "exec_hi": (1, True), "m0": (1, True), "flat_scratch": (2, True), "flat_scratch_lo": (1, True),
    "flat_scratch_hi": (1, True), "xnack_mask": (2, True), "xnack_mask_lo": (1, True),
    "xnack_mask_hi": (1, True), "src_shared_base": (2, False), "src_shared_limit": (2, False),
    "src_private_base": (2, False), "src_private_limit": (2, False), "src_pops_exiting_wave_id": (1, False),
    "src_vccz": (1, False), "src_execz": (1, False), "src_scc": (1, False),
}
# source-only specials llvm-mc accepts at any operand width
_ANY_WIDTH = ("src_vccz", "src_execz", "src_scc", "src_pops_exiting_wave_id", "src_shared_base",
              "src_shared_limit", "src_private_base", "src_private_limit")
_READ_ONLY = tuple(name for name, (_, writable) in _SCALAR_SPECIALS.items() if not writable)
_APERTURES = ("src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit")
_READ_ONLY_32 = tuple(name for name in _READ_ONLY if name not in _APERTURES)
FLOAT_TYPES = ("f16", "bf16", "f32", "f64", "v2f16", "v2f32")
_CONSTANT_BUS_LIMIT = 1  # scalar values one gfx9 VALU instruction may read (SGPRs and literals)
# VALU operations whose sources take -x and |x| although their table type is not a float
# (v_pk_* packed operations take neg_lo/neg_hi instead)
FLOAT_MODIFIER_SEMS = frozenset((sems.V_DOT2C_F32_F16, sems.V_FMA_MIX_F32, sems.V_FMA_MIXLO_F16,
                                  sems.V_FMA_MIXHI_F16))
# VALU operations that read vcc without naming it
_READS_VCC = frozenset((sems.V_DIV_FMAS_F32, sems.V_DIV_FMAS_F64))


@dataclass(frozen=True)
class Role:
    """Role is one written operand of an instruction: what it may be and how wide.

    ``classes`` are letters from the table above; ``width`` is the register
    count a register must have (0: any); ``dst`` marks a written operand;
    ``bus`` marks a VALU source read through the constant bus; ``bits`` is
    the operand's value width for deciding which constants are inline;
    ``ftype`` its floating-point type name or ''. Roles with the same
    ``group`` must all be VGPRs or all AGPRs; ``excludes`` names special
    registers the role refuses although it takes SGPRs; ``direct`` marks
    an SGPR read straight from the register file (an address or store
    data), where an aperture register is not supported; ``mods`` allows the
    ``-x`` / ``|x|`` source modifiers; ``imm_range`` bounds an immediate.
    """

    name: str
    classes: str
    width: int = 1
    dst: bool = False
    bus: bool = False
    bits: int = 32
    ftype: str = ""
    group: str = ""
    excludes: tuple[str, ...] = ()
    mods: bool = False
    direct: bool = False
    imm_range: tuple[int, int] = (-(1 << 63), 1 << 64)


def _dwords(t: str) -> int:
    return max(1, isa.type_bits(t) // 32)


def _src_role(name: str, t: str, classes: str, bus: bool = True) -> Role:
    return Role(name, classes, _dwords(t), False, bus, isa.type_bits(t), t)


# ----------------------------------------------------------------- roles
def _scalar_roles(d: isa.InstrDef) -> Optional[list[Role]]:
    dst = Role("sdst", "s", _dwords(d.dst), dst=True)
    if d.fmt in ("SOP1", "SOP2", "SOPC"):
        srcs = [_src_role(f"ssrc{k}", d.src[k], "sil", bus=False) for k in range(d.srcs)]
        if d.layout == "sdst":
            return [dst]
        if d.layout == "ssrc":
            return [Role("ssrc0", "s", _dwords(d.src[0]), excludes=_READ_ONLY_32, direct=True)]
        if d.layout == "ssrc_value":   # (s_set_gpr_idx_on then takes its mode bits)
            mode = [Role("mode", "g")] if d.sem == sems.S_SET_GPR_IDX and d.sub == 0 else []
            return [_src_role("ssrc0", d.src[0], "sil", bus=False)] + mode
        if d.sem == sems.S_MOVRELS:   # a register the M0 offset moves: no constant (llvm-mc-19)
            wide = _dwords(d.src[0]) == 2
            return [dst, Role("ssrc0", "s", _dwords(d.src[0]), excludes=("src_scc",) if wide else _APERTURES)]
        return srcs if d.fmt == "SOPC" else [dst] + srcs
    if d.fmt == "SOPK":
        unsigned = d.sem == sems.S_CMPK_U32
        imm = Role("simm16", "k", imm_range=(0, 0xFFFF) if unsigned else (-0x8000, 0xFFFF))
        if d.layout in ("sopk_mov", "sopk_acc"):
            return [dst, imm]
        if d.layout == "sopk_cmp":
            return [Role("ssrc0", "s", excludes=_APERTURES), imm]
        if d.layout == "sopk_getreg":
            return [dst, Role("hwreg", "h")]
        if d.sem == sems.S_SETREG_IMM32_B32:
            return [Role("hwreg", "h"), Role("imm32", "il")]
        return [Role("hwreg", "h"), Role("ssrc0", "s", excludes=_APERTURES)]
    if d.fmt == "SMEM":
        if d.layout == "none":
            return []
        if d.layout == "sdst":
            return [Role("sdst", "s", _dwords(d.dst), dst=True, excludes=("exec", "m0"))]
        buffer = d.sem == sems.S_BUFFER_LOAD
        base = Role("sbase", "s", 4 if buffer else 2, excludes=_READ_ONLY_32, direct=True)
        offset = Role("soffset", "sk", excludes=_APERTURES,
                      imm_range=(0, (1 << 20) - 1) if buffer else (-(1 << 20), (1 << 20) - 1))
        no_exec_m0 = ("exec", "m0")
        if d.sem == sems.S_STORE:
            return [Role("sdata", "s", _dwords(d.src[0]), excludes=no_exec_m0, direct=True), base, offset]
        return [Role("sdst", "s", _dwords(d.dst), dst=True, excludes=no_exec_m0), base, offset]
    return None


def _vector_roles(d: isa.InstrDef, form: str) -> Optional[list[Role]]:
    """_vector_roles returns the roles of a VALU instruction in encoding ``form`` ('e32', 'e64', 'dpp', 'sdwa')."""
    e32 = form in ("e32", "dpp", "sdwa")
    src0 = {"e32": "vsil", "dpp": "v"}.get(form, "vsi")
    src1 = "v" if form in ("e32", "dpp") else "vsi"
    vdst = Role("vdst", "v", _dwords(d.dst), dst=True)
    sdst2 = Role("sdst", "c" if e32 else "s", 2, dst=True)
    lay = d.layout

    def src(k: int, classes: str) -> Role:
        t = d.src[k] if k < 3 else d.src[2]
        role = _src_role(f"src{k}", t, classes)
        if form != "e32" and d.sem in FLOAT_MODIFIER_SEMS or (
                form != "e32" and d.fmt != "VOP3P" and (t in FLOAT_TYPES or lay == "cndmask")):
            role = dataclasses.replace(role, mods=True)
        return role

    if d.fmt == "VOP1":
        if lay == "none":
            return []
        if lay == "readfirstlane":
            return [Role("sdst", "s", 1, dst=True), _src_role("src0", d.src[0], "v", bus=False)]
        if d.sem == sems.V_ACCVGPR_MOV_B32:
            return [Role("vdst", "a", 1, dst=True), _src_role("src0", d.src[0], "a", bus=False)]
        if lay == "swap":   # v_swap_b32 exchanges two VGPRs: both operands are read and written
            return [Role("vdst", "v", 1, dst=True), _src_role("src0", d.src[0], "v", bus=False)]
        return [vdst, src(0, src0)]
    if d.fmt == "VOP2":
        if lay == "acc":
            return [vdst, src(0, src0), src(1, src1)]
        if lay == "vop2_k":
            if form != "e32":
                return None
            k = Role("k", "K", 1, bus=True, bits=isa.type_bits(d.src[0]), ftype=d.src[0])
            if d.name.startswith(("v_madmk", "v_fmamk")):
                return [vdst, src(0, "vsil"), k, src(1, "v")]
            return [vdst, src(0, "vsil"), src(1, "v"), k]
        if lay == "carry_out":
            return [vdst, sdst2, src(0, src0), src(1, src1)]
        if lay == "carry_inout":
            return [vdst, sdst2, src(0, src0), src(1, src1), Role("src2", "c" if e32 else "s", 2, bus=True)]
        if lay == "cndmask":
            return [vdst, src(0, src0), src(1, src1), Role("src2", "c" if e32 else "s", 2, bus=True)]
        return [vdst, src(0, src0), src(1, src1)]
    if d.fmt == "VOPC":
        if form == "sdwa":  # gfx9 SDWA compares name their SGPR-pair destination
            sdst2 = Role("sdst", "s", 2, dst=True)
        return [sdst2, src(0, src0), src(1, src1)]
    if d.fmt == "VOP3":
        if lay == "mad64":
            return [vdst, Role("sdst", "s", 2, dst=True), src(0, "vsi"), src(1, "vsi"), src(2, "vsi")]
        if lay == "readlane":
            return [Role("sdst", "s", 1, dst=True), _src_role("src0", d.src[0], "v", bus=False),
                    _src_role("src1", "b32", "si", bus=False)]
        if lay == "writelane":
            return [vdst, _src_role("src0", d.src[0], "si"),
                    Role("lane", "si", 1, bus=True)]
        return [vdst] + [src(k, "vsi") for k in range(d.srcs)]
    if d.fmt == "VOP3P":
        if d.sem == sems.V_ACCVGPR_READ_B32:
            return [Role("vdst", "v", 1, dst=True), _src_role("src0", d.src[0], "a", bus=False)]
        if d.sem == sems.V_ACCVGPR_WRITE_B32:
            return [Role("vdst", "a", 1, dst=True), _src_role("src0", d.src[0], "vsi", bus=False)]
        return [vdst] + [src(k, "vsi") for k in range(d.srcs)]
    return None


def _mfma_roles(d: isa.InstrDef) -> list[Role]:
    m, n, k, blocks = d.shape
    out_bits = 64 if d.atype == "f64" else 32
    in_bits = {"f32": 32, "xf32": 32, "f16": 16, "bf16": 16, "i8": 8, "fp8": 8, "bf8": 8, "f64": 64}
    per_lane = m * n * blocks // 64 * out_bits // 32
    a_width = max(1, m * k * blocks // 64 * in_bits[d.atype] // 32)
    b_width = max(1, n * k * blocks // 64 * in_bits[d.btype] // 32)
    if d.atype == "xf32":
        a_width = b_width = max(1, m * k * blocks // 64)
    if d.sparse:   # A holds half its K entries; src2 is the VGPR of their positions, D the accumulator
        return [Role("vdst", "va", per_lane, dst=True), Role("src0", "va", a_width // 2),
                Role("src1", "va", b_width), Role("src2", "v", 1)]
    return [Role("vdst", "va", per_lane, dst=True, group="acc"), Role("src0", "va", a_width),
            Role("src1", "va", b_width),
            Role("src2", "vai", per_lane, bits=out_bits, ftype="f64" if out_bits == 64 else "f32", group="acc")]


def _memory_form(d: isa.InstrDef, ins: Instruction) -> tuple[bool, bool, int, bool]:
    """_memory_form returns what selects a memory instruction's operand layout:
    (returns data, has an SGPR address, number of VGPR address parts of a buffer access, loads into the LDS)."""
    returning = d.sem == sems.MEM_ATOMIC and bool(ins.modifiers.get("glc") or ins.modifiers.get("sc0"))
    saddr_given = d.fmt == "GLOBAL" and len(ins.operands) >= 1 and not _is_off(ins.operands[-1])
    addr_bits = sum(bool(ins.modifiers.get(k)) for k in ("offen", "idxen"))
    to_lds = d.layout == "lds_dma" or bool(ins.modifiers.get("lds"))
    return returning, saddr_given, addr_bits, to_lds


def _memory_roles(d: isa.InstrDef, returning: bool, saddr_given: bool, addr_bits: int,
                  to_lds: bool) -> Optional[list[Role]]:
    roles = _register_memory_roles(d, returning, saddr_given, addr_bits)
    if roles is not None and to_lds and d.sem == sems.MEM_LOAD:
        return roles[1:]   # LDS DMA: no VGPR destination (the data go to the LDS at M0)
    return roles


def _register_memory_roles(d: isa.InstrDef, returning: bool, saddr_given: bool,
                           addr_bits: int) -> Optional[list[Role]]:
    data = "va"
    width = _dwords(d.data) if d.data else 1
    loads = d.sem == sems.MEM_LOAD
    if d.fmt in ("GLOBAL", "FLAT"):
        vaddr = Role("vaddr", "v", 1 if saddr_given else 2)
        saddr = [Role("saddr", "so", 2, excludes=_READ_ONLY_32, direct=True)] if d.fmt == "GLOBAL" else []
        vdata = Role("vdata", data, width, group="data")
        if loads:
            return [Role("vdst", data, width, dst=True), vaddr] + saddr
        if returning:
            # a compare-and-swap sends the new value and the compare value and returns one value
            returned = width // 2 if d.atomic == "cmpswap" else width
            return [Role("vdst", data, returned, dst=True, group="data"), vaddr, vdata] + saddr
        return [vaddr, vdata] + saddr
    if d.fmt == "SCRATCH":   # a lane's private offset: a VGPR or off, plus an SGPR or off
        vaddr = Role("vaddr", "vo", 1)
        saddr = Role("saddr", "so", 1, direct=True)   # llvm-mc takes the read-only src_scc here too
        if loads:
            return [Role("vdst", data, width, dst=True), vaddr, saddr]
        return [vaddr, Role("vdata", data, width, group="data"), saddr]
    if d.fmt == "MUBUF":
        vaddr = Role("vaddr", "v", addr_bits) if addr_bits else Role("vaddr", "o", 0)
        first = Role("vdata", data, width, dst=loads)
        return [first, vaddr, Role("srsrc", "s", 4, excludes=_READ_ONLY_32, direct=True), Role("soffset", "si", 1)]
    return None


def _ds_roles(d: isa.InstrDef) -> list[Role]:
    """_ds_roles: an LDS address is one VGPR; data and results are VGPRs or AGPRs of the data width."""
    width = _dwords(d.data) if d.data else 1
    addr = Role("vaddr", "v", 1)
    data = Role("vdata", "va", width, group="data")
    vdst = Role("vdst", "va", width, dst=True, group="data")
    s = d.sem
    if s in (sems.DS_READ, sems.DS_READ2):
        return [vdst, addr]
    if s == sems.DS_WRITE:
        return [addr, data]
    if s == sems.DS_WRITE2:   # ds_wrxchg2_rtn_*: the two replaced elements come back in one tuple
        pair = Role("vdst", "va", 2 * width, dst=True, group="data")
        return [pair, addr, data, data] if d.returns else [addr, data, data]
    if s == sems.DS_ATOMIC:
        roles = [addr, data, data] if d.layout == "ds_cmpst" else [addr, data]
        return [vdst] + roles if d.returns else roles
    if s == sems.DS_SWIZZLE:
        return [vdst, addr]
    return [vdst, addr, data]


def roles_for(d: isa.InstrDef, ins: Instruction, form: str) -> Optional[tuple[Role, ...]]:
    """roles_for returns the roles of ``ins`` written in encoding ``form``, or None when unknown."""
    memory = _memory_form(d, ins) if d.fmt in isa.VECTOR_MEMORY else None
    return _roles_of(d.name, form, memory)


@lru_cache(maxsize=4096)
def _roles_of(name: str, form: str, memory: Optional[tuple[bool, bool, int, bool]]) -> Optional[tuple[Role, ...]]:
    d = isa.lookup(name)
    if d.layout == "none":  # s_dcache_inv, v_nop, cache-control instructions: no operands
        return ()
    if d.fmt in ("SOP1", "SOP2", "SOPC", "SOPK", "SMEM"):
        roles = _scalar_roles(d)
    elif d.fmt in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
        roles = _vector_roles(d, form)
    elif d.fmt == "MFMA":
        roles = _mfma_roles(d)
    elif memory is not None:
        roles = _memory_roles(d, *memory)
    elif d.fmt == "DS":
        roles = _ds_roles(d)
    else:
        roles = None
    return None if roles is None else tuple(roles)


# ----------------------------------------------------------------- operands
def _is_off(op: Operand) -> bool:
    return isinstance(op.value, Special) and op.value.name == "off"


# integer immediates that carry an inline float's pattern (0x3118: f16 1/(2*pi))
_INLINE_PATTERNS = {bits: {convert(x) for x in INLINE_FLOATS + (0.0,)}
                    for bits, convert in ((16, f16_bits), (32, f32_bits), (64, f64_bits))}


def _is_inline(op: Operand, role: Role) -> bool:
    """_is_inline tells whether a numeric operand is one of the hardware's inline constants."""
    v = op.value
    if isinstance(v, FloatImm):
        x = -float(v.value) if op.neg else float(v.value)
        fmt = "f16" if role.bits == 16 else "f64" if role.bits == 64 and role.ftype == "f64" else "f32"
        return float_is_inline(x, fmt)
    n = -v.value if op.neg else v.value
    if -16 <= n <= 64:
        return True
    bits = 16 if role.bits == 16 else 64 if role.bits == 64 else 32
    if role.ftype == "f64" and 0 <= n < (1 << 32):
        n <<= 32  # a 32-bit literal of an f64 operand is the value's high half
    return (n & ((1 << bits) - 1)) in _INLINE_PATTERNS[bits] and n >= 0


def _literal_fits(op: Operand, role: Role) -> bool:
    """_literal_fits: a literal is 32 bits; a 16-bit operand takes a 16-bit value, a 64-bit integer
    operand a value that 32 bits sign- or zero-extend to, and no fractional number."""
    v = op.value
    if isinstance(v, FloatImm):
        return role.bits != 64 or role.ftype == "f64"
    n = -v.value if op.neg else v.value
    if role.bits == 16:
        return -(1 << 15) <= n < (1 << 16)
    return -(1 << 31) <= n < (1 << 32)


def _constant_kind(op: Operand, role: Role) -> tuple[str, object]:
    """_constant_kind returns ('i', None) for an inline constant, ('l', key) for a literal."""
    if _is_inline(op, role):
        return "i", None
    return "l", ("literal", op.value.value)


def _show(op: Operand) -> str:
    v = op.value
    if isinstance(v, Reg):
        prefix = v.file
        return f"{prefix}{v.first}" if v.count == 1 else f"{prefix}[{v.first}:{v.first + v.count - 1}]"
    if isinstance(v, Special):
        return v.name
    if isinstance(v, Imm):
        return f"{v.value:#x}" if abs(v.value) > 64 else str(v.value)
    if isinstance(v, FloatImm):
        return repr(float(v.value))
    return "this operand"


def _expected(role: Role) -> str:
    names = [_DESCRIBE[c] for c in role.classes if c in _DESCRIBE]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if role.width > 1 and any(c in role.classes for c in "sva"):
        what += f" ({role.width} registers)"
    return what


def _wrong_class(ins: Instruction, k: int, op: Operand, role: Role) -> "_Mismatch":
    return _Mismatch(k, "invalid operand for instruction",
                     f"operand {k + 1} of {ins.mnemonic} must be {_expected(role)}, got {_show(op)}")


class _Mismatch(Exception):
    """_Mismatch carries the first operand problem of one candidate encoding."""

    def __init__(self, index: int, message: str, hint: str):
        super().__init__(message)
        self.index = index
        self.message = message
        self.hint = hint


def _check_role(ins: Instruction, k: int, op: Operand, role: Role) -> tuple[str, object]:
    """_check_role raises _Mismatch when ``op`` cannot fill ``role``; else returns its class letter
    and constant-bus key (None when it takes no constant-bus slot)."""
    v = op.value
    if (op.neg or op.abs) and not role.mods:
        raise _Mismatch(k, "invalid operand for instruction",
                        f"operand {k + 1} of {ins.mnemonic} takes no -x or |x| source modifier")
    if isinstance(v, Reg):  # the common case first: loading a kernel checks every operand
        letter = "s" if v.file in ("s", "ttmp") else v.file
        if letter not in role.classes:
            raise _wrong_class(ins, k, op, role)
        if role.width and v.count != role.width:
            what = "data registers" if role.name in ("sdst", "sdata", "vdst", "vdata") else "registers"
            raise _Mismatch(k, "invalid operand for instruction",
                            f"operand {k + 1} of {ins.mnemonic} needs {role.width} {what}, got {v.count}")
        return letter, (v.file, v.first)
    if role.classes == "h":
        if not (isinstance(v, FuncOperand) and v.name == "hwreg") and not (
                isinstance(v, Imm) and 0 <= v.value <= 0xFFFF):
            raise _Mismatch(k, "invalid operand for instruction",
                            f"operand {k + 1} of {ins.mnemonic} must be hwreg(...), got {_show(op)}")
        return "h", None
    if role.classes == "g":   # (its value range: gpusim.asm.encoder's _gpr_idx_bits)
        if not (isinstance(v, FuncOperand) and v.name == "gpr_idx") and not isinstance(v, Imm):
            raise _Mismatch(k, "invalid operand for instruction",
                            f"operand {k + 1} of {ins.mnemonic} must be gpr_idx(...), got {_show(op)}")
        return "g", None
    if role.classes == "K":
        if not isinstance(v, (Imm, FloatImm)):
            raise _Mismatch(k, "invalid operand for instruction",
                            f"operand {k + 1} of {ins.mnemonic} must be a constant, got {_show(op)}")
        if not _literal_fits(op, role):
            raise _Mismatch(k, "invalid operand for instruction",
                            f"{_show(op)} does not fit the {role.bits}-bit operand {k + 1} of {ins.mnemonic}")
        return "l", ("literal", v.value)
    if isinstance(v, (Waitcnt, FuncOperand)):
        raise _Mismatch(k, "invalid operand for instruction",
                        f"operand {k + 1} of {ins.mnemonic} must be {_expected(role)}")
    if isinstance(v, LabelRef):
        if "l" in role.classes or "k" in role.classes:
            return "x", None  # the encoder reports symbols as unsupported
        raise _Mismatch(k, "invalid operand for instruction",
                        f"operand {k + 1} of {ins.mnemonic} must be {_expected(role)}, got a symbol")
    if isinstance(v, Special):
        return _check_special(ins, k, op, role)
    letter, key = _constant_kind(op, role)
    if "k" in role.classes and isinstance(v, Imm):
        lo, hi = role.imm_range
        if not lo <= v.value <= hi:
            message = "invalid operand for instruction"
            if role.name == "soffset":
                message = "expected a 20-bit unsigned offset" if lo == 0 else "expected a 21-bit signed offset"
            raise _Mismatch(k, message, f"operand {k + 1} of {ins.mnemonic} must be in {lo:#x}..{hi:#x}, "
                                        f"got {_show(op)}")
        return "k", None
    if letter == "l" and not _literal_fits(op, role):
        raise _Mismatch(k, "invalid operand for instruction",
                        f"{_show(op)} does not fit the {role.bits}-bit operand {k + 1} of {ins.mnemonic}")
    if letter == "l" and "i" in role.classes and "l" not in role.classes and not role.dst:
        raise _Mismatch(k, "literal operands are not supported", _wrong_class(ins, k, op, role).hint)
    if letter not in role.classes:
        raise _wrong_class(ins, k, op, role)
    return letter, key


def _check_special(ins: Instruction, k: int, op: Operand, role: Role) -> tuple[str, object]:
    """_check_special is _check_role for a named register (vcc, exec, m0, src_scc, off, ...)."""
    name = op.value.name
    if name == "off":
        if "o" in role.classes:
            return "o", None
        if "l" in role.classes:
            # llvm-mc reads a stray 'off' here as a symbol whose address is the literal
            raise UnsupportedInstruction(f"symbol 'off' as an operand of {ins.mnemonic} is not supported "
                                         "(relocations need a linker; gpusim runs self-contained kernels)",
                                         _operand_loc(ins, k))
        raise _wrong_class(ins, k, op, role)
    if name == "null":
        raise _Mismatch(k, "'null' operand is not supported on this GPU", "null is a gfx10+ register")
    if name not in _SCALAR_SPECIALS:
        raise UnsupportedInstruction(f"register '{name}' is not supported yet", _operand_loc(ins, k))
    width, writable = _SCALAR_SPECIALS[name]
    key = ("special", name)
    base = name[:-3] if name.endswith(("_lo", "_hi")) else name
    ok = "s" in role.classes and (writable or not role.dst) and base not in role.excludes
    if not writable and not role.dst and "s" not in role.classes and "i" in role.classes:
        # llvm-mc encodes src_* registers in the constant field of an operand that takes no SGPR
        raise UnsupportedInstruction(f"{name} as operand {k + 1} of {ins.mnemonic} is not supported",
                                     _operand_loc(ins, k))
    if ok and name in _APERTURES and role.direct:
        raise UnsupportedInstruction(f"{name} as an address of {ins.mnemonic} is not supported",
                                     _operand_loc(ins, k))
    if ok and name in _ANY_WIDTH:
        return "S", key
    if "c" in role.classes and name == "vcc":
        return "S", key
    if not ok or (role.width and width != role.width):
        raise _wrong_class(ins, k, op, role)
    return "S", key


def _check_form(ins: Instruction, d: isa.InstrDef, roles: tuple[Role, ...], valu: bool) -> None:
    """_check_form raises _Mismatch at the first operand ``roles`` do not allow."""
    scalars: list = []
    literals: list = []
    if valu and d.sem in _READS_VCC:
        scalars.append(("special", "vcc"))
    files: dict[str, tuple[str, int]] = {}
    last_bus = 0
    for k, (op, role) in enumerate(zip(ins.operands, roles)):
        letter, key = _check_role(ins, k, op, role)
        if role.group and letter in ("v", "a"):
            seen = files.setdefault(role.group, (letter, k))
            if seen[0] != letter:
                if role.group == "data":
                    raise _Mismatch(-1, "invalid register class: data and dst should be all VGPR or AGPR",
                                    f"operands {seen[1] + 1} and {k + 1} of {ins.mnemonic} are in different "
                                    "register files")
                raise _Mismatch(k, "invalid operand for instruction",
                                f"operand {k + 1} of {ins.mnemonic} must be in the register file of operand "
                                f"{seen[1] + 1}")
        if role.dst or key is None or letter in ("v", "a"):
            continue
        if role.name == "lane" and key == ("special", "m0"):
            continue  # v_writelane reads m0 as its lane select beside the constant bus
        if letter == "l" and key not in literals:
            literals.append(key)
            if len(literals) > 1:
                raise _Mismatch(k, "only one unique literal operand is allowed",
                                f"{ins.mnemonic} can encode one 32-bit literal")
        if valu and role.bus and key not in scalars:
            scalars.append(key)
            last_bus = k
    if valu and len(scalars) > _CONSTANT_BUS_LIMIT:
        raise _Mismatch(last_bus, "invalid operand (violates constant bus restrictions)",
                        f"a gfx9 VALU instruction reads at most {_CONSTANT_BUS_LIMIT} SGPR or literal value")


def _forms(d: isa.InstrDef, ins: Instruction) -> tuple[str, ...]:
    """_forms lists the encodings an instruction written with ``ins.suffix`` may take."""
    if d.fmt in ("VOP1", "VOP2", "VOPC"):
        if ins.suffix:
            return (ins.suffix,)
        if d.layout == "vop2_k" or d.encodings == ("e32",):   # (v_swap_b32, v_pk_fmac_f16: no VOP3 form)
            return ("e32",)
        return ("e32", "e64")
    if d.fmt in ("VOP3", "VOP3P"):
        return ("e64",)
    return ("",)


def check_operands(ins: Instruction, d: isa.InstrDef) -> None:
    """check_operands raises AsmError when an operand of ``ins`` has a class, width or constant
    that ``d`` does not accept in any encoding the text allows.

    An instruction whose operand count does not fit is left to the encoder's
    own count check.
    """
    valu = d.fmt in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "MFMA")
    _check_encoding(ins, d)
    first: Optional[_Mismatch] = None
    for form in _forms(d, ins):
        roles = roles_for(d, ins, form)
        if roles is None or len(roles) != len(ins.operands):
            return
        try:
            _check_form(ins, d, roles, valu)
            return
        except _Mismatch as m:
            if first is None or m.index > first.index:
                first = m
    if first is not None:
        raise AsmError(first.message, _operand_loc(ins, first.index), first.hint)


def _check_encoding(ins: Instruction, d: isa.InstrDef) -> None:
    """_check_encoding refuses an encoding suffix the instruction does not have."""
    if not ins.suffix:
        return
    if d.fmt in ("VOP1", "VOP2", "VOPC"):
        allowed = d.encodings or (("e32",) if d.layout == "vop2_k" else ("e32", "e64", "dpp", "sdwa"))
    elif d.fmt in ("VOP3", "VOP3P", "MFMA"):
        allowed = () if d.layout in ("readlane", "writelane") else ("e64",)
    else:
        allowed = ()
    wide = any(isa.type_bits(t) >= 64 for t in (d.dst,) + d.src[:max(d.srcs, 1)])
    if ins.suffix == "sdwa" and wide and not d.encodings:   # (a table row's own list is llvm-mc's word)
        allowed = tuple(e for e in allowed if e != "sdwa")
    if ins.suffix == "dpp" and d.fmt == "VOPC":
        allowed = tuple(e for e in allowed if e != "dpp")
    if ins.suffix == "dpp" and wide and "dpp" in allowed:
        raise AsmError("DP ALU dpp only supports row_newbcast", ins.loc,
                       "row_newbcast is not supported yet" if "row_newbcast" not in ins.modifiers else "")
    if ins.suffix not in allowed:
        raise AsmError(f"{ins.suffix} variant of this instruction is not supported", ins.loc,
                       f"{ins.mnemonic} has " + (", ".join(f"_{e}" for e in allowed) + " forms" if allowed
                                                 else "no encoding suffix"))


def _operand_loc(ins: Instruction, k: int) -> SourceLoc:
    if 0 <= k < len(ins.operand_cols):
        return SourceLoc(ins.loc.file, ins.loc.line, ins.operand_cols[k], ins.loc.text)
    return ins.loc
