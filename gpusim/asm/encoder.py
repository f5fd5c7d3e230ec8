"""The encoder: checks parsed instructions against the ISA table and packs
them into a struct-of-arrays :class:`Program`.

It resolves operand layouts (which parsed operand goes to which slot),
register numbers (AGPRs into the unified file), inline constants and
literals in each operand's type, branch targets, modifiers, and each
instruction's byte offset as the real encoding lays it out.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from gpusim.asm import isa, sems
from gpusim.asm.ir import (
    AsmModule, FloatImm, FuncOperand, Imm, Instruction, LabelRef, Operand, Reg, Special, Waitcnt,
)
from gpusim.asm.index_mode import mark_index_mode
from gpusim.asm.not_modelled import GFX942_ONLY, LDS_DMA_HINT, not_modelled_reason
from gpusim.asm.program import (
    D0, D1, K_IMM, K_NONE, K_SREG, K_VREG, KIND, M_ABID, M_ABS, M_ADDR, M_BANK_MASK, M_BLGP, M_BOUND_CTRL,
    M_CACHE, M_CBSZ, M_CLAMP, M_FAST, M_DPP, M_DST_SEL, M_DST_UNUSED, M_DTYPE, M_EXPCNT, M_LGKMCNT, M_NEG, M_NEG_HI,
    M_OFFSET, M_OFFSET1, M_OMOD, M_OPSEL, M_OPSEL_HI, M_ROW_MASK, M_SDWA, M_SEXT, M_SIGN, M_SIMM, M_SRC0_SEL,
    M_SRC1_SEL, M_SUB, M_TARGET, M_VMCNT, N_MODS, N_SLOTS, NO_DPP, PAST_END, S0, S1, S2, S3, SEL_DWORD, SREG_FILE, VAL,
    WIDTH, Program,
)
from gpusim.asm.static_data import CODE_BASE
from gpusim.errors import AsmError, SourceLoc, UnsupportedInstruction, did_you_mean
from gpusim.asm import fields
from gpusim.asm.fields import pack_shape
from gpusim.asm.inline_constants import FLOAT_BITS, float_is_inline
from gpusim.asm.operand_classes import FLOAT_MODIFIER_SEMS, FLOAT_TYPES, check_operands

SPECIAL_REGS = {
    "vcc": (106, 2), "vcc_lo": (106, 1), "vcc_hi": (107, 1), "exec": (126, 2), "exec_lo": (126, 1),
    "exec_hi": (127, 1), "m0": (124, 1), "scc": (253, 1), "src_scc": (253, 1), "flat_scratch": (102, 2),
    "flat_scratch_lo": (102, 1), "flat_scratch_hi": (103, 1), "xnack_mask": (104, 2), "xnack_mask_lo": (104, 1),
    "xnack_mask_hi": (105, 1), "src_shared_base": (235, 1), "src_shared_limit": (236, 1),
    "src_private_base": (237, 1), "src_private_limit": (238, 1), "null": (125, 1),
}
SDWA_SELS = {"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5, "DWORD": SEL_DWORD}
DST_UNUSED = {"UNUSED_PAD": 0, "UNUSED_SEXT": 1, "UNUSED_PRESERVE": 2}
ATOMIC_OPS = {
    "add": fields.A_ADD, "sub": fields.A_SUB, "smin": fields.A_SMIN, "umin": fields.A_UMIN,
    "smax": fields.A_SMAX, "umax": fields.A_UMAX, "and": fields.A_AND, "or": fields.A_OR,
    "xor": fields.A_XOR, "inc": fields.A_INC, "dec": fields.A_DEC, "swap": fields.A_SWAP,
    "cmpswap": fields.A_CMPSWAP, "add_f32": fields.A_ADD_F32, "add_f64": fields.A_ADD_F64,
    "min_f64": fields.A_MIN_F64, "max_f64": fields.A_MAX_F64, "pk_add_f16": fields.A_PK_ADD_F16,
    "pk_add_bf16": fields.A_PK_ADD_BF16, "min_f32": fields.A_MIN_F32, "max_f32": fields.A_MAX_F32,
    "rsub": fields.A_RSUB, "mskor": fields.A_MSKOR, "wrap": fields.A_WRAP, "cmpst_f32": fields.A_CMPSWAP_F32,
    "cmpst_f64": fields.A_CMPSWAP_F64,
}
MFMA_TYPES = {"f32": 0, "f16": 1, "bf16": 2, "xf32": 3, "i8": 4, "fp8": 5, "bf8": 6, "f64": 7}
# immediate offset ranges of gfx90a/gfx942 memory formats (llvm-mc's limits)
OFFSET_RANGES = {"GLOBAL": (-4096, 4095), "SCRATCH": (-4096, 4095), "FLAT": (0, 4095), "MUBUF": (0, 4095),
                 "DS": (0, 65535)}
# the cache-policy bits each target's vector memory instructions take (llvm-mc-19: gfx940 renamed glc and slc
# to sc0 and sc1 and added nt; scc is gfx90a's system-coherence bit); scalar memory takes glc on both
CACHE_POLICY_BITS = {"gfx942": ("sc0", "sc1", "nt"), "gfx90a": ("glc", "slc", "scc")}
_CACHE_BITS = ("glc", "slc", "dlc", "scc", "sc0", "sc1", "nt")
# the order llvm-mc-19 takes a vector memory or LDS instruction's modifiers in: their ranks never fall along the
# line (the cache-policy bits share one rank, so they come in any order among themselves)
_MODIFIER_RANK = {"idxen": 0, "offen": 1, "offset": 2, "offset0": 2, "offset1": 3, **dict.fromkeys(_CACHE_BITS, 4),
                  "lds": 5, "tfe": 6, "gds": 6}
# The integer VALU instructions llvm-mc-19 takes clamp on (the same on gfx90a and gfx942; every other integer one
# refuses it). Under clamp the adds, subtracts and dot products saturate to the destination's range (LLVM
# selects them so for uaddsat, saddsat, usubsat, ssubsat and the dot intrinsics' clamp argument); for the rest
# the hardware's saturation is not documented, so gpusim refuses clamp on them as not supported.
_INTEGER_CLAMP_SATURATES = frozenset((
    "v_add_u32", "v_sub_u32", "v_subrev_u32", "v_add_i32", "v_sub_i32", "v_add_u16", "v_sub_u16", "v_subrev_u16",
    "v_add_i16", "v_sub_i16", "v_pk_add_u16", "v_pk_sub_u16", "v_pk_add_i16", "v_pk_sub_i16", "v_dot2_i32_i16",
    "v_dot2_u32_u16", "v_dot4_i32_i8", "v_dot4_u32_u8", "v_dot8_i32_i4", "v_dot8_u32_u4", "v_dot2c_i32_i16",
    "v_dot4c_i32_i8", "v_dot8c_i32_i4"))
_INTEGER_CLAMP_UNMODELLED = frozenset((
    "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32",
    "v_mad_i32_i24", "v_mad_u32_u24", "v_mul_i32_i24", "v_mul_u32_u24", "v_mad_u16", "v_mad_i64_i32",
    "v_mad_u64_u32", "v_sad_u32", "v_sad_u8", "v_sad_hi_u8", "v_sad_u16", "v_msad_u8", "v_pk_ashrrev_i16",
    "v_pk_lshlrev_b16", "v_pk_lshrrev_b16", "v_pk_mad_i16", "v_pk_mad_u16", "v_pk_max_i16", "v_pk_max_u16",
    "v_pk_min_i16", "v_pk_min_u16", "v_pk_mov_b32", "v_pk_mul_lo_u16", "v_mad_i16", "v_mad_legacy_u16",
    "v_mad_legacy_i16", "v_mad_u32_u16", "v_mad_i32_i16", "v_min3_i16", "v_max3_i16", "v_med3_i16", "v_min3_u16",
    "v_max3_u16", "v_med3_u16", "v_qsad_pk_u16_u8", "v_mqsad_pk_u16_u8"))


def _takes_clamp(d: isa.InstrDef) -> bool:
    """_takes_clamp tells whether llvm-mc-19 takes the clamp modifier on ``d`` (probed over every VALU instruction
    of the table; tests/asm/test_operand_classes_llvm.py holds gpusim to it): the float VALU instructions that
    have a VOP3 form, but v_cmp[x]_class and the fp8 packs, and the integer ones of _INTEGER_CLAMP_SATURATES
    and _INTEGER_CLAMP_UNMODELLED."""
    if d.fmt not in ("VOP1", "VOP2", "VOP3", "VOP3P", "VOPC") or d.layout == "vop2_k":
        return False
    if d.encodings and "e64" not in d.encodings and d.fmt in ("VOP1", "VOP2", "VOPC"):
        return False
    if d.name in _INTEGER_CLAMP_SATURATES or d.name in _INTEGER_CLAMP_UNMODELLED:
        return True
    if d.sem in _FP8_PACKS or d.sem in (sems.V_CMP_CLASS_F16, sems.V_CMP_CLASS_F32, sems.V_CMP_CLASS_F64):
        return False
    return (_is_float_type(d.dst) or any(_is_float_type(t) for t in d.src[:max(d.srcs, 1)])
            or d.sem in FLOAT_MODIFIER_SEMS)


# an MFMA's broadcast and lane-swizzle modifiers, in llvm-mc's order, with the largest value it takes
_MFMA_MODIFIER_LIMIT = {"cbsz": 7, "abid": 15, "blgp": 7}
# the fp8 conversions: the packs take no clamp, the widenings' SDWA picks a source byte or word only (llvm-mc-19)
_FP8_PACKS = (sems.V_CVT_PK_FP8_F32, sems.V_CVT_PK_BF8_F32)
_FP8_WIDENINGS = (sems.V_CVT_F32_FP8, sems.V_CVT_F32_BF8, sems.V_CVT_PK_F32_FP8, sems.V_CVT_PK_F32_BF8)
# the VOP1/VOP2/VOPC/VOP3 instructions llvm-mc-19 takes op_sel on (gfx90a and gfx942; v_cvt_pk_*8_f32 gfx942's);
# op_sel_hi belongs to VOP3P alone
_VOP3_OPSEL = frozenset(("v_mad_f16", "v_fma_f16", "v_mad_u16", "v_div_fixup_f16", "v_pack_b32_f16",
                         "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", "v_add_i16", "v_sub_i16", "v_mad_i16",
                         "v_mad_u32_u16", "v_mad_i32_i16", "v_min3_f16", "v_max3_f16", "v_med3_f16", "v_min3_i16",
                         "v_max3_i16", "v_med3_i16", "v_min3_u16", "v_max3_u16", "v_med3_u16",
                         "v_cvt_pknorm_i16_f16", "v_cvt_pknorm_u16_f16"))
# the MUBUF loads llvm-mc takes with the lds modifier (gfx90a and gfx942)
_LDS_FORMS = ("buffer_load_ubyte", "buffer_load_sbyte", "buffer_load_ushort", "buffer_load_sshort", "buffer_load_dword")
REAL_PREFIXES = ("s_", "v_", "ds_", "global_", "flat_", "buffer_", "scratch_", "image_", "tbuffer_", "exp")

# message types of s_sendmsg (the CDNA3 ISA guide, "S_SENDMSG"): the low 4 bits of its immediate
SENDMSG_IDS = {"MSG_INTERRUPT": fields.SENDMSG_INTERRUPT, "MSG_GS": 2, "MSG_GS_DONE": 3, "MSG_SAVEWAVE": 4,
               "MSG_STALL_WAVE_GEN": 5, "MSG_HALT_WAVES": 6, "MSG_ORDERED_PS_DONE": 7, "MSG_EARLY_PRIM_DEALLOC": 8,
               "MSG_GS_ALLOC_REQ": 9, "MSG_GET_DOORBELL": 10, "MSG_SYSMSG": 15}
# the operand bits of VGPR index mode (s_set_gpr_idx_on/mode's gpr_idx(...), M0[15:12])
GPR_IDX_BITS = {"SRC0": 1, "SRC1": 2, "SRC2": 4, "DST": 8}
_SENDMSG_WITH_OPERATION = frozenset(("MSG_GS", "MSG_GS_DONE", "MSG_SYSMSG"))   # sendmsg(MSG_GS, GS_OP_EMIT, 0)

# operand layouts: the slot each parsed operand fills, in order; "=X>Y" copies
# slot X's operand into slot Y as well (a destination that is also read, a
# source that is also written).
LAYOUTS = {
    "none": (),
    "sdst": (D0,),
    "ssrc": (S0,),
    "ssrc_value": (S0,),   # a scalar source read as a value (s_set_gpr_idx_on, s_set_gpr_idx_idx)
    "sopk_mov": (D0, S0),
    "sopk_cmp": (S0, S1),
    "sopk_acc": (D0, S1, "=D0>S0"),
    "sopk_getreg": (D0, S0),
    "sopk_setreg": (S0, S1),
    "cndmask": (D0, S0, S1, S2),
    "acc": (D0, S0, S1, "=D0>S2"),
    "swap": (D0, S0, "=D0>S1", "=S0>D1"),   # v_swap_b32: each operand is also the other's destination
    "vop2_k": (D0, S0, S1, S2),
    "carry_out": (D0, D1, S0, S1),
    "carry_inout": (D0, D1, S0, S1, S2),
    "mad64": (D0, D1, S0, S1, S2),
    "readlane": (D0, S0, S1),
    "readfirstlane": (D0, S0),
    "writelane": (D0, S0, S1),
    "ds_cmpst": (S0, S1, S2),
}

_COPY_SLOTS = {"D0": D0, "D1": D1, "S0": S0, "S1": S1, "S2": S2}


def _is_float_type(t: str) -> bool:
    return t in FLOAT_TYPES


# the relocations of a static data label an operand may carry (Encoder._relocated)
_RELOCATIONS = ("@rel32@lo", "@rel32@hi", "@abs32@lo", "@abs32@hi")


def encode_constant(value, t: str) -> tuple[int, bool]:
    """encode_constant returns (bit pattern, is_literal) of an immediate in operand type ``t``.

    Integers are bit patterns (sign-extended to 64 bits for 64-bit types); a
    literal for an f64 operand is its high 32 bits, as the hardware reads it.
    Floats are converted to the operand's format.

    The hardware produces an inline constant in the operand's own format, as
    LLVM's AMDGPU backend models it: an integer is sign-extended to the
    operand's width (32 bits for 16-bit and packed 16-bit operands, 64 bits
    for 64-bit and packed-f32 operands); a float is the f16 value in bits
    0-15 (high bits zero) for f16 and packed-f16 operands, the f32 value for
    32-bit operands (16-bit integer ones included, whose low half is then
    0x0000 for 1.0), the f32 value in the low dword (high dword zero) for
    packed-f32 operands, and the f64 value for 64-bit ones.
    """
    bits = isa.type_bits(t)
    if isinstance(value, float):
        if t in ("f16", "v2f16"):
            fmt = "f16"
        elif t in ("f64",) or (bits == 64 and not t.startswith("v2")):
            fmt = "f64"
        else:
            fmt = "f32"
        return FLOAT_BITS[fmt](value), not float_is_inline(value, fmt)
    v = int(value)
    inline = -16 <= v <= 64
    if bits == 64 and t.startswith("v2"):
        return v & 0xFFFFFFFFFFFFFFFF, not inline
    if bits == 64:
        if t == "f64" and not inline:
            return (v & 0xFFFFFFFF) << 32, True
        return v & 0xFFFFFFFFFFFFFFFF, not inline
    return v & 0xFFFFFFFF, not inline


def _signed64(pattern: int) -> int:
    """_signed64 stores a 64-bit pattern in an int64 array cell."""
    return pattern - (1 << 64) if pattern >= 1 << 63 else pattern


def _sign_bit(t: str) -> int:
    return {"f16": 15, "bf16": 15, "f32": 31, "f64": 63}.get(t, 0)


def _dst_kind(t: str) -> int:
    if t in ("f32",):
        return 1
    if t == "f16":
        return 2
    if t == "f64":
        return 3
    if t in ("u16", "i16", "b16"):
        return 4
    if t == "v2f32":
        return 5
    return 0


class Encoder:
    """Encoder turns one AsmModule into a Program for a given target."""

    def __init__(self, module: AsmModule, target: str, accum_offset: int):
        self.module = module
        self.target = target
        self.accum_offset = accum_offset
        self.pc = 0   # the byte offset of the instruction being encoded (encode_module sets it)
        self.static_refs = 0   # operands resolved to static data
        # the byte offset of each code label once known (encode_module's second pass), and whether the
        # instruction being encoded named a code label before then
        self.code_pcs: Optional[dict] = None
        self.names_code = False

    # ------------------------------------------------------------ operands
    def _fail(self, ins: Instruction, msg: str, hint: str = "") -> AsmError:
        return AsmError(msg, ins.loc, hint)

    def _register(self, ins: Instruction, op: Operand, want_bits: Optional[int]):
        """_register returns (kind, index, width) of a register operand."""
        val = op.value
        if isinstance(val, Reg):
            self._check_tuple(ins, val)
            if val.file == "s":
                kind, idx = K_SREG, val.first
            elif val.file == "ttmp":
                kind, idx = K_SREG, 108 + val.first
            elif val.file == "v":
                kind, idx = K_VREG, val.first
            else:
                kind, idx = K_VREG, self.accum_offset + val.first
            return kind, idx, val.count
        if isinstance(val, Special):
            if val.name == "off":
                return K_NONE, 0, 0
            if val.name not in SPECIAL_REGS:
                raise self._fail(ins, f"register '{val.name}' is not supported yet")
            idx, width = SPECIAL_REGS[val.name]
            if want_bits == 64 and width == 1 and val.name in ("vcc_lo", "exec_lo"):
                width = 2
            if val.name == "null":
                return K_NONE, 0, 0
            return K_SREG, idx, width
        raise self._fail(ins, "expected a register operand")

    def _check_tuple(self, ins: Instruction, reg: Reg) -> None:
        """_check_tuple enforces gfx9's register limits and tuple alignment, as llvm-mc does."""
        last = reg.first + reg.count - 1
        name = f"{reg.file}[{reg.first}:{last}]" if reg.count > 1 else f"{reg.file}{reg.first}"
        if reg.file == "s":
            if last > 101:
                raise self._fail(ins, f"register {name} is not available on gfx9 (SGPRs are s0..s101)")
            align = 4 if reg.count >= 4 else reg.count if reg.count == 2 else 1
            if reg.first % align:
                raise self._fail(ins, f"invalid register alignment: SGPR tuple {name} must start at a "
                                      f"multiple of {align}")
        elif reg.file in ("v", "a") and reg.count >= 2 and reg.first % 2:
            raise self._fail(ins, f"invalid register alignment: {name}: VGPR/AGPR tuples must be 64-bit "
                                  f"aligned on {self.target}")

    def _source(self, ins: Instruction, op: Operand, t: str):
        """_source returns (kind, value, width, is_literal) of a source operand of type ``t``."""
        val = op.value
        bits = isa.type_bits(t)
        if isinstance(val, (Imm, FloatImm)):
            number = val.value
            if isinstance(val, FloatImm):
                number = float(number)
            if op.neg:
                number = -number
            if isinstance(number, int) and isa.type_bits(t) <= 32 and not -(1 << 31) <= number < (1 << 32):
                raise self._fail(ins, f"constant {val.value:#x} does not fit a 32-bit {t} operand")
            pattern, literal = encode_constant(number, t)
            return K_IMM, _signed64(pattern), max(1, bits // 32), literal
        if isinstance(val, LabelRef):
            # always a literal, as the assembler leaves one for the linker, whatever value it resolves to
            return K_IMM, _signed64(self._relocated(ins, val)), 1, True
        kind, idx, width = self._register(ins, op, bits)
        return kind, idx, width, False

    def _relocated(self, ins: Instruction, ref: LabelRef) -> int:
        """_relocated is the 32-bit constant a linker writes for ``ref`` with ``@rel32@lo``/``@hi`` (the symbol's
        address plus the addend less the address of this instruction's literal, which follows its 4-byte
        encoding) or ``@abs32@lo``/``@hi`` (its address plus the addend): a data label of the module's static
        data (gpusim.asm.static_data) or a code label, such as a device function a kernel calls through
        ``s_swappc_b64`` (code sits at CODE_BASE). A code label's address is known once every instruction's size
        is: until encode_module's second pass sets ``code_pcs``, it reads as 0 and ``names_code`` is set.
        Anything else is not supported yet."""
        data = self.module.static_data
        kind = ref.reloc.lower()
        is_data = data is not None and ref.name in data.symbols
        is_code = not is_data and ref.name in self.module.labels
        if not (is_data or is_code) or kind not in _RELOCATIONS:
            what = (f"symbol '{ref.name}{ref.reloc}'" if ref.reloc else f"symbol '{ref.name}'")
            raise UnsupportedInstruction(
                f"{what} as an operand of {ins.mnemonic} is not supported yet (gpusim resolves @rel32 and "
                "@abs32 of the file's own code labels and .data, .rodata and .bss labels; other relocations need "
                "a linker)", ins.loc)
        if is_data:
            self.static_refs += 1
            value = data.address(ref.name) + ref.addend
        elif self.code_pcs is None:
            self.names_code = True
            return 0
        else:
            value = CODE_BASE + self.code_pcs[ref.name] + ref.addend
        if kind.startswith("@rel32"):
            value -= CODE_BASE + self.pc + 4
        return (value >> 32 if kind.endswith("@hi") else value) & 0xFFFF_FFFF

    # ------------------------------------------------------------ modifiers
    def _check_memory_modifiers(self, ins: Instruction, d: isa.InstrDef) -> None:
        """_check_memory_modifiers refuses, at its column, a cache-policy bit the instruction does not take on the
        target (CACHE_POLICY_BITS) and a vector memory or LDS modifier out of llvm-mc's order (_MODIFIER_RANK)."""
        allowed = CACHE_POLICY_BITS[self.target] if d.fmt in isa.VECTOR_MEMORY else ("glc",) if d.fmt == "SMEM" else ()
        ordered = d.fmt in isa.VECTOR_MEMORY or d.fmt == "DS"
        last_rank, last_name = -1, ""
        for name, col in ins.modifier_cols:
            loc = SourceLoc(ins.loc.file, ins.loc.line, col, ins.loc.text)
            if name in _CACHE_BITS and name not in allowed:
                takes = f"it takes {', '.join(allowed)}" if allowed else "it takes none"
                raise AsmError(f"'{name}' is not a cache-policy bit of {ins.mnemonic} on {self.target} ({takes})", loc)
            rank = _MODIFIER_RANK.get(name)
            if ordered and rank is not None:
                if rank < last_rank:
                    raise AsmError(f"'{name}' must come before '{last_name}' in {ins.mnemonic}'s modifiers (llvm-mc "
                                   "takes idxen, offen, offset, the cache-policy bits, lds in that order)", loc)
                last_rank, last_name = rank, name

    def _op_sel(self, ins: Instruction, d: isa.InstrDef, bits: int) -> int:
        """_op_sel is the M_OPSEL of ``ins`` whose op_sel entries are the bits ``bits`` (entry k, bit k): for a
        non-packed VALU instruction bit k selects the high half of 16-bit source k and bit 3 the destination's,
        which is the list's last entry however many sources come before it (v_cvt_pk_fp8_f32 v1, v2, v3
        op_sel:[0,0,1] writes the high word: llvm-mc encodes bit 3); a 32-bit source ignores its bit. Refuses
        op_sel on the non-packed instructions llvm-mc-19 refuses it for, and op_sel_hi on all of them."""
        if d.fmt not in ("VOP1", "VOP2", "VOPC", "VOP3"):
            return bits
        m = ins.modifiers
        if "op_sel" in m and d.name not in _VOP3_OPSEL:
            raise self._fail(ins, f"{ins.mnemonic} takes no op_sel on gfx9",
                             f"of the non-packed VALU instructions only {', '.join(sorted(_VOP3_OPSEL))} do")
        if "op_sel_hi" in m:
            raise self._fail(ins, f"{ins.mnemonic} takes no op_sel_hi (only the packed VOP3P instructions do)")
        sel = m.get("op_sel")
        if isinstance(sel, tuple) and len(sel) == d.srcs + 1 < 4:
            bits = (bits & ((1 << d.srcs) - 1)) | (8 if sel[-1] else 0)
        for k in range(min(d.srcs, 3)):
            if isa.type_bits(d.src[k]) != 16:
                bits &= ~(1 << k)
        return bits

    def _check_clamp(self, ins: Instruction, d: isa.InstrDef) -> None:
        """_check_clamp refuses clamp where llvm-mc-19 does (_takes_clamp), at its column, and as not supported
        the integer instructions llvm-mc takes it on but gpusim cannot say how they saturate."""
        if not _takes_clamp(d):
            col = dict(ins.modifier_cols).get("clamp", ins.loc.col)
            raise AsmError(f"{ins.mnemonic} takes no clamp", SourceLoc(ins.loc.file, ins.loc.line, col, ins.loc.text),
                           "clamp belongs to the float VALU instructions and to the integer adds, subtracts, "
                           "multiply-adds and dot products")
        if d.name in _INTEGER_CLAMP_UNMODELLED:
            raise UnsupportedInstruction(
                f"clamp on {ins.mnemonic} is not supported yet", ins.loc,
                "gpusim saturates the integer adds, subtracts and dot products under clamp, as LLVM selects them "
                "for saturating arithmetic; how the others saturate is not documented")

    def _mfma_modifiers(self, ins: Instruction, d: isa.InstrDef, mods: np.ndarray) -> None:
        """_mfma_modifiers sets M_CBSZ, M_ABID and M_BLGP of an MFMA as llvm-mc-19 takes them: cbsz 0-7, abid 0-15,
        blgp 0-7, in that order, once each; on gfx942 an f64 MFMA takes neg:[A, B, C] in BLGP's bits instead.
        Values llvm-mc takes but whose effect AMD does not document (the matrix instruction calculator's limits:
        isa.InstrDef.mfma_modifiers) are refused as not supported."""
        m = ins.modifiers
        keys = [name for name, _ in ins.modifier_cols if name in _MFMA_MODIFIER_LIMIT or name == "neg"]
        if d.fmt != "MFMA":
            if keys:
                raise self._fail(ins, f"{ins.mnemonic} takes no {keys[0]} (only the v_mfma instructions do)")
            return
        takes_neg = d.atype == "f64" and self.target == "gfx942"
        order = ["cbsz", "abid"] if d.sparse else ["cbsz", "abid", "neg" if takes_neg else "blgp"]
        for name in keys:
            if name not in order:
                raise self._fail(ins, f"{ins.mnemonic} takes no {name} on {self.target}",
                                 "the sparse MFMAs take cbsz and abid only" if d.sparse else
                                 "gfx942's f64 MFMAs take neg:[A, B, C] where the others take blgp")
        if keys != sorted(keys, key=order.index) or len(set(keys)) != len(keys):
            raise self._fail(ins, f"{ins.mnemonic}'s modifiers must come once each, in the order "
                                  f"{', '.join(order)} (as llvm-mc takes them)")
        values = {}
        for name, limit in _MFMA_MODIFIER_LIMIT.items():
            v = m.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= limit:
                raise self._fail(ins, f"{name}:{v} is out of range (0..{limit})")
            values[name] = v
        if takes_neg:
            neg = m.get("neg", (0, 0, 0))
            if not isinstance(neg, tuple) or not 1 <= len(neg) <= 3 or any(x not in (0, 1) for x in neg):
                raise self._fail(ins, "neg takes one to three entries of 0 or 1, for A, B and C")
            values["blgp"] = sum(1 << k for k, x in enumerate(neg) if x)
        mods[M_CBSZ], mods[M_ABID], mods[M_BLGP] = values["cbsz"], values["abid"], values["blgp"]
        if d.sparse:   # CBSZ 0: ABID picks the set of position bits in src2; otherwise ABID is ignored
            sets = 32 // (d.shape[0] * d.shape[2] // 64)   # (a set holds one bit pair per kept entry of a lane)
            if values["cbsz"] == 0 and values["abid"] >= sets:
                raise UnsupportedInstruction(
                    f"abid:{values['abid']} on {ins.mnemonic} is not supported yet", ins.loc,
                    f"with cbsz:0 abid picks one of the {sets} sets of position bits in src2 (AMD's matrix "
                    "instruction calculator); beyond them the hardware's behaviour is not documented")
            return
        max_cbsz, takes_blgp = d.mfma_modifiers
        if values["cbsz"] > max_cbsz or values["abid"] >= 1 << values["cbsz"]:
            raise UnsupportedInstruction(
                f"cbsz:{values['cbsz']} abid:{values['abid']} on {ins.mnemonic} is not supported yet", ins.loc,
                f"its {d.shape[3]} block(s) allow cbsz 0..{max_cbsz} and abid below 2**cbsz (AMD's matrix "
                "instruction calculator); beyond that the hardware's behaviour is not documented")
        if values["blgp"] and not takes_blgp:
            raise UnsupportedInstruction(
                f"blgp:{values['blgp']} on {ins.mnemonic} is not supported yet", ins.loc,
                "AMD's matrix instruction calculator lists no BLGP for it on this target, so its effect is not "
                "documented")

    def _modifiers(self, ins: Instruction, d: isa.InstrDef, mods: np.ndarray) -> None:
        self._check_memory_modifiers(ins, d)
        m = ins.modifiers
        known = {"offset", "offset0", "offset1", "glc", "slc", "dlc", "sc0", "sc1", "nt", "lds", "offen", "idxen",
                 "addr64", "clamp", "omod", "op_sel", "op_sel_hi", "neg_lo", "neg_hi", "cbsz", "abid", "blgp", "neg",
                 "quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol", "wave_shr", "wave_ror",
                 "row_mirror", "row_half_mirror", "row_bcast", "row_mask", "bank_mask", "bound_ctrl", "fi",
                 "dst_sel", "dst_unused", "src0_sel", "src1_sel", "gds", "tfe", "high", "scc"}
        for key in m:
            if key not in known:
                raise self._fail(ins, f"modifier '{key}' is not supported yet", did_you_mean(key, known))
        off = m.get("offset", 0)
        if isinstance(off, FuncOperand):
            off = _swizzle_pattern(ins, off)
        if "offset0" in m:
            off = m["offset0"]
        mods[M_OFFSET] = int(off) if not isinstance(off, bool) else 0
        mods[M_OFFSET1] = int(m.get("offset1", 0))
        cache = 0
        if m.get("glc") or m.get("sc0"):
            cache |= 1
        if m.get("slc") or m.get("sc1"):
            cache |= 2
        if m.get("nt"):
            cache |= 4
        mods[M_CACHE] = cache
        addr = 0
        if m.get("offen"):
            addr |= fields.ADDR_OFFEN
        if m.get("idxen"):
            addr |= fields.ADDR_IDXEN
        if m.get("lds"):
            if ins.mnemonic not in _LDS_FORMS:
                raise self._fail(ins, f"{ins.mnemonic} has no lds form (only {', '.join(_LDS_FORMS)} do)")
            if ins.mnemonic != "buffer_load_dword":
                raise UnsupportedInstruction(f"the lds form of {ins.mnemonic} is not supported yet", ins.loc,
                                             LDS_DMA_HINT)
            addr |= fields.ADDR_LDS
        if d.layout == "lds_dma":
            addr |= fields.ADDR_LDS
        if m.get("gds") or m.get("addr64") or m.get("tfe"):
            raise self._fail(ins, "the gds/addr64/tfe forms are not supported yet")
        mods[M_ADDR] = addr
        mods[M_CLAMP] = 1 if m.get("clamp") else 0
        if m.get("clamp"):
            self._check_clamp(ins, d)
        if d.sem in _FP8_WIDENINGS and ("dst_sel" in m or "dst_unused" in m):
            raise self._fail(ins, f"{ins.mnemonic}'s SDWA form takes no dst_sel or dst_unused (only src0_sel)")
        mods[M_OMOD] = {"mul2": 1, "mul4": 2, "div2": 3}.get(m.get("omod", ""), 0)

        def bits_of(name: str, default: int = 0) -> int:
            v = m.get(name)
            if v is None:
                return default
            if isinstance(v, tuple):
                return sum((1 << k) for k, b in enumerate(v) if b)
            return int(v)

        mods[M_OPSEL] = self._op_sel(ins, d, bits_of("op_sel"))
        # absent, op_sel_hi is all ones on the packed ops and all zeros on v_fma_mix* (f32 sources), as llvm-mc
        # encodes it and llvm-objdump leaves it out
        mods[M_OPSEL_HI] = bits_of("op_sel_hi", 0b111 if d.fmt == "VOP3P" and d.sem not in MIX_SEMS else 0)
        if d.fmt == "VOP3P":
            mods[M_NEG] |= bits_of("neg_lo")
            mods[M_NEG_HI] |= bits_of("neg_hi")
        self._mfma_modifiers(ins, d, mods)
        # DPP
        mods[M_DPP] = NO_DPP
        if ins.suffix == "dpp" or any(k in m for k in ("quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl",
                                                        "wave_rol", "wave_shr", "wave_ror", "row_mirror",
                                                        "row_half_mirror", "row_bcast")):
            mods[M_DPP] = _dpp_control(ins)
            mods[M_ROW_MASK] = int(m.get("row_mask", 0xF))
            mods[M_BANK_MASK] = int(m.get("bank_mask", 0xF))
            bc = m.get("bound_ctrl")
            mods[M_BOUND_CTRL] = 1 if bc is not None and bc is not False else 0
        # SDWA
        if ins.suffix == "sdwa" or any(k in m for k in ("dst_sel", "src0_sel", "src1_sel", "dst_unused")):
            mods[M_SDWA] = 1
            for key, col in (("dst_sel", M_DST_SEL), ("src0_sel", M_SRC0_SEL), ("src1_sel", M_SRC1_SEL)):
                sel = str(m.get(key, "DWORD")).upper()
                if sel not in SDWA_SELS:
                    raise self._fail(ins, f"bad SDWA select {key}:{sel}", did_you_mean(sel, SDWA_SELS))
                mods[col] = SDWA_SELS[sel]
            mods[M_DST_UNUSED] = DST_UNUSED.get(str(m.get("dst_unused", "UNUSED_PRESERVE")).upper(), 2)
        else:
            mods[M_DST_SEL] = mods[M_SRC0_SEL] = mods[M_SRC1_SEL] = SEL_DWORD

    # ------------------------------------------------------------ one instruction
    def encode(self, ins: Instruction, ops: np.ndarray, mods: np.ndarray) -> tuple[isa.InstrDef, int]:
        """encode fills one row of ``ops``/``mods``; returns (definition, encoded byte size)."""
        d = isa.lookup(ins.mnemonic)
        if d is None:
            full = ins.mnemonic + (f"_{ins.suffix}" if ins.suffix else "")
            hint = did_you_mean(ins.mnemonic, isa.table().keys())
            typo = any(_one_edit_apart(ins.mnemonic, name) for name in isa.table())
            if ins.mnemonic.startswith("scratch_"):
                hint = "gpusim models scratch_load and scratch_store of dwords, bytes and shorts"
            gfx942_only = [h for prefix, h in GFX942_ONLY.items() if ins.mnemonic.startswith(prefix)]
            if gfx942_only and self.target != "gfx942":   # as llvm-mc: gfx940 added them
                raise AsmError(f"'{ins.mnemonic}' does not exist on {self.target} (only gfx942)", ins.loc)
            reason = not_modelled_reason(ins.mnemonic)
            if reason:
                raise UnsupportedInstruction(f"instruction '{full}' is not supported yet", ins.loc,
                                             gfx942_only[0] if gfx942_only else f"gpusim does not model {reason}")
            if ins.mnemonic.startswith(REAL_PREFIXES) and not typo:
                raise UnsupportedInstruction(f"instruction '{full}' is not supported yet", ins.loc, hint)
            raise AsmError(f"unknown instruction '{full}'", ins.loc, hint)
        if self.target not in d.targets and d.gfx942_name and self.target == "gfx942":
            d = isa.lookup(d.gfx942_name)   # as llvm-mc: gfx942 takes the gfx90a MFMA names for its own
        if self.target not in d.targets:
            raise AsmError(f"'{ins.mnemonic}' does not exist on {self.target} (only {', '.join(d.targets)})", ins.loc)
        check_operands(ins, d)
        gpr_idx_bits = None
        if d.sem == sems.S_SET_GPR_IDX and d.sub != 1 and ins.operands:   # s_set_gpr_idx_on/mode: the bits, last
            ins, gpr_idx_bits = self._gpr_idx_bits(ins)
        ops[:, KIND] = K_NONE
        mods[M_SUB] = d.sub
        self._modifiers(ins, d, mods)
        lo, hi = OFFSET_RANGES.get(d.fmt, (None, None))
        if lo is not None and not lo <= mods[M_OFFSET] <= hi and not isinstance(ins.modifiers.get("offset"), FuncOperand):
            raise self._fail(ins, f"offset {mods[M_OFFSET]} is out of range for {d.fmt} instructions "
                                  f"on {self.target} ({lo}..{hi})")
        literal = False
        if d.fmt == "SOPP":
            literal = self._encode_sopp(ins, d, mods)
        elif d.fmt == "SMEM":
            self._encode_smem(ins, d, ops, mods)
        elif d.fmt in isa.VECTOR_MEMORY:
            self._encode_vmem(ins, d, ops, mods)
        elif d.fmt == "DS":
            self._encode_ds(ins, d, ops, mods)
        else:
            literal = self._encode_alu(ins, d, ops, mods)
        check_register_reach(ins, d, ops, mods)
        if gpr_idx_bits is not None:
            mods[M_SIMM] = gpr_idx_bits
        return d, _encoded_size(d, ins, literal)

    def _gpr_idx_bits(self, ins: Instruction) -> tuple[Instruction, int]:
        """_gpr_idx_bits takes the VGPR index mode bits off the end of s_set_gpr_idx_on/mode: ``gpr_idx(SRC0,
        SRC1,SRC2,DST)`` (any of them, once each) or a 4-bit immediate. Returns (the instruction without that
        operand, the bits: SRC0 1, SRC1 2, SRC2 4, DST 8)."""
        last = ins.operands[-1].value
        if isinstance(last, FuncOperand) and last.name == "gpr_idx":
            bits = 0
            for arg in last.args:
                name = str(arg).upper()
                if name not in GPR_IDX_BITS:
                    raise self._fail(ins, f"invalid VGPR index mode '{arg}'", did_you_mean(name, GPR_IDX_BITS))
                if bits & GPR_IDX_BITS[name]:
                    raise self._fail(ins, f"duplicate VGPR index mode '{arg}'")
                bits |= GPR_IDX_BITS[name]
        elif isinstance(last, Imm):
            bits = int(last.value)
            if not 0 <= bits <= 15:
                raise self._fail(ins, "invalid immediate: only 4-bit values are legal")
        else:
            raise self._fail(ins, f"{ins.mnemonic} takes its VGPR index mode last: gpr_idx(SRC0,SRC1,SRC2,DST) or "
                                  "a 4-bit immediate")
        cols = ins.operand_cols[:-1] if ins.operand_cols else ins.operand_cols
        return dataclasses.replace(ins, operands=ins.operands[:-1], operand_cols=cols), bits

    def _slots_for(self, ins: Instruction, d: isa.InstrDef):
        if d.layout and d.layout in LAYOUTS:
            return LAYOUTS[d.layout]
        if d.fmt == "SOPC":
            return (S0, S1)
        n = d.srcs
        return (D0,) + (S0, S1, S2)[:n]

    def _encode_alu(self, ins, d, ops, mods) -> bool:
        slots = self._slots_for(ins, d)
        copies = [s for s in slots if isinstance(s, str)]
        slots = [s for s in slots if not isinstance(s, str)]
        if len(ins.operands) != len(slots):
            raise self._fail(ins, f"{ins.mnemonic} takes {len(slots)} operands, got {len(ins.operands)}")
        literal = False
        neg = absm = sext = 0
        for op, slot in zip(ins.operands, slots):
            if isinstance(op.value, FuncOperand) and op.value.name == "hwreg":
                continue  # s_getreg/s_setreg: the register field is not modelled (reads 0, writes nothing)
            if slot in (D0, D1):
                t = d.dst if slot == D0 else "b64"
                kind, idx, width = self._register(ins, op, isa.type_bits(t))
                if kind != K_NONE:
                    ops[slot] = (kind, idx, width)
            else:
                k = slot - S0
                t = d.src[k] if k < 3 else d.src[2]
                if slot == S2 and d.layout in ("cndmask", "carry_inout"):
                    t = "b64"
                kind, val, width, lit = self._source(ins, op, _constant_type(d, k, t, mods))
                literal |= lit
                ops[slot] = (kind, val, width)
                if op.neg and kind != K_IMM:
                    neg |= 1 << k
                if op.abs:
                    absm |= 1 << k
                if op.sext:
                    sext |= 1 << k
        for c in copies:
            src, dst = c[1:].split(">")
            ops[_COPY_SLOTS[dst]] = ops[_COPY_SLOTS[src]]
        if d.sem == sems.V_DOT2C_F32_F16 and (neg or absm):
            raise UnsupportedInstruction(f"-x and |x| on {ins.mnemonic} are not supported yet", ins.loc,
                                         "whether they act on one half of the packed source or both is not "
                                         "documented; v_dot2_f32_f16 takes neg_lo and neg_hi")
        mods[M_NEG] |= neg
        mods[M_ABS] = absm
        mods[M_SEXT] = sext
        if d.fmt not in ("VOP3P", "MFMA"):   # v_cndmask_b32's -x and |x| are f32's (LLVM selects fneg/fabs so)
            mods[M_SIGN] = _sign_bit("f32" if d.layout == "cndmask" else d.src[0])
        mods[M_DTYPE] = _dst_kind(d.dst) if d.fmt in ("VOP1", "VOP2", "VOP3", "VOPC") else 0
        if d.fmt == "MFMA":
            m_, n_, k_, b_ = d.shape
            mods[M_SUB] = pack_shape(m_, n_, k_, b_, MFMA_TYPES[d.atype], MFMA_TYPES[d.btype], d.sparse)
        mods[M_FAST] = 1 if _fast_path_eligible(d, ins, ops, mods) else 0
        if d.sem in (sems.S_MOVK_I32, sems.S_CMOVK_I32, sems.S_CMPK_I32, sems.S_CMPK_U32, sems.S_ADDK_I32,
                     sems.S_MULK_I32):
            imm_slot = S0 if d.layout == "sopk_mov" else S1
            literal = False
            mods[M_SIMM] = ops[imm_slot, VAL]
        return literal

    def _encode_sopp(self, ins, d, mods) -> bool:
        if d.layout == "label":
            if len(ins.operands) != 1 or not isinstance(ins.operands[0].value, LabelRef):
                raise self._fail(ins, f"{ins.mnemonic} takes one label operand")
            name = ins.operands[0].value.name
            if name not in self.module.labels:
                raise self._fail(ins, f"undefined label '{name}'", did_you_mean(name, self.module.labels))
            mods[M_TARGET] = self.module.labels[name]
        elif d.layout == "waitcnt":
            counts = all(isinstance(op.value, Waitcnt) for op in ins.operands)
            if not ins.operands or not (counts or len(ins.operands) == 1 and isinstance(ins.operands[0].value, Imm)):
                raise self._fail(ins, "s_waitcnt takes its counts: vmcnt(N), expcnt(N), lgkmcnt(N) or an immediate")
            vm = lg = ex = -1
            for op in ins.operands:
                v = op.value
                if isinstance(v, Waitcnt):
                    vm = v.vmcnt if v.vmcnt is not None else vm
                    lg = v.lgkmcnt if v.lgkmcnt is not None else lg
                    ex = v.expcnt if v.expcnt is not None else ex
                elif isinstance(v, Imm):
                    raw = v.value
                    vm = (raw & 0xF) | ((raw >> 10) & 0x30)
                    ex = (raw >> 4) & 0x7
                    lg = (raw >> 8) & 0xF
            if vm > 63 or lg > 15 or ex > 7:
                raise self._fail(ins, "s_waitcnt count out of range (vmcnt <= 63, lgkmcnt <= 15, expcnt <= 7)")
            mods[M_VMCNT], mods[M_LGKMCNT], mods[M_EXPCNT] = vm, lg, ex
        elif d.layout == "simm":   # one integer, as llvm-mc: any value, of which the low 16 bits are encoded
            mods[M_SIMM] = self._sopp_immediate(ins, "an immediate", 1 << 64) & 0xFFFF
        elif d.layout == "endpgm":   # an optional 16-bit immediate
            if ins.operands:
                mods[M_SIMM] = self._sopp_immediate(ins, "an immediate from 0 to 65535, or nothing", 0x10000)
        elif d.layout == "sendmsg":
            mods[M_SIMM] = self._sendmsg(ins)
        elif d.layout == "none" and ins.operands:
            raise self._fail(ins, f"{ins.mnemonic} takes no operands")
        return False

    def _sopp_immediate(self, ins, what: str, bound: int) -> int:
        """_sopp_immediate is the single integer operand of a SOPP instruction, from -bound to bound - 1 when
        the bound is the whole 64-bit range and from 0 to bound - 1 otherwise (llvm-mc-19's ranges)."""
        lo = -bound if bound == 1 << 64 else 0
        if len(ins.operands) != 1 or not isinstance(ins.operands[0].value, Imm) \
                or not lo <= ins.operands[0].value.value < bound:
            raise self._fail(ins, f"{ins.mnemonic} takes {what}")
        return ins.operands[0].value.value

    def _sendmsg(self, ins) -> int:
        """_sendmsg is the message of s_sendmsg/s_sendmsghalt: ``sendmsg(MSG_NAME[, ...])`` or its 16-bit
        immediate. Only the message type (SIMM16[3:0]) is kept where a name gives it: the executor acts on
        none but MSG_INTERRUPT."""
        if len(ins.operands) == 1 and isinstance(ins.operands[0].value, FuncOperand) \
                and ins.operands[0].value.name == "sendmsg":
            args = ins.operands[0].value.args
            if args and isinstance(args[0], str):
                name = args[0].upper()
                if name not in SENDMSG_IDS:
                    raise self._fail(ins, f"sendmsg({args[0]}) is no message of {self.target}",
                                     did_you_mean(name, SENDMSG_IDS))
                if (len(args) > 1) != (name in _SENDMSG_WITH_OPERATION):
                    raise self._fail(ins, f"sendmsg({name}, ...) takes " + (
                        "its operation" if name in _SENDMSG_WITH_OPERATION else "no operation"))
                return SENDMSG_IDS[name]
            return int(args[0]) & 0xFFFF if args else 0
        return self._sopp_immediate(ins, "sendmsg(MSG_NAME, ...) or an immediate from 0 to 65535", 0x10000)

    def _encode_smem(self, ins, d, ops, mods):
        if d.layout in ("none", "sdst"):
            if d.layout == "sdst":
                ops[D0] = self._register(ins, ins.operands[0], 64)
            return
        if len(ins.operands) != 3:
            raise self._fail(ins, f"{ins.mnemonic} takes 3 operands (data, base, offset)")
        data, base, off = ins.operands
        slot = S2 if d.sem == sems.S_STORE else D0
        ops[slot] = self._register(ins, data, isa.type_bits(d.dst if slot == D0 else d.src[0]))
        ops[S0] = self._register(ins, base, 64)
        if isinstance(off.value, Imm):
            if not -(1 << 20) <= off.value.value < (1 << 20):
                raise self._fail(ins, f"s_load offset {off.value.value:#x} is out of range: expected a 21-bit "
                                      "signed offset")
            mods[M_OFFSET] += off.value.value
        else:
            ops[S1] = self._register(ins, off, 32)
        want = isa.type_bits(d.dst if slot == D0 else d.src[0]) // 32
        if ops[slot, WIDTH] != want:
            raise self._fail(ins, f"{ins.mnemonic} needs {want} data registers, got {ops[slot, WIDTH]}")

    def _encode_vmem(self, ins, d, ops, mods):
        if d.sem == sems.MEM_CACHE:
            # as llvm-mc: only gfx942's buffer_wbl2 and buffer_inv take scope bits (sc0, sc1, nt)
            scoped = self.target == "gfx942" and d.kind in ("CACHE_WB_L2", "CACHE_INV")
            what = "only the sc0/sc1/nt scope bits" if scoped else "no operands or modifiers"
            bad = [k for k in ins.modifiers if not (scoped and k in ("sc0", "sc1", "nt"))]
            if ins.operands or bad:
                found = f"'{bad[0]}'" if bad else "an operand"
                raise self._fail(ins, f"{ins.mnemonic} takes {what} on {self.target}, got {found}")
            mods[M_SUB] = getattr(fields, d.kind)
            return
        n = len(ins.operands)
        dw = isa.type_bits(d.data) // 32
        returning = d.sem == sems.MEM_ATOMIC and bool(mods[M_CACHE] & 1)
        to_lds = bool(mods[M_ADDR] & fields.ADDR_LDS)   # LDS DMA: no VGPR destination, the data go to M0's LDS
        if d.fmt == "FLAT":
            mods[M_ADDR] |= fields.ADDR_FLAT
            if d.sem == sems.MEM_LOAD:
                layout = (D0, S0)
            elif returning:
                layout = (D0, S0, S3)
            else:
                layout = (S0, S3)
        elif d.fmt == "SCRATCH":   # a 32-bit VGPR offset or off, then a 32-bit SGPR offset or off
            mods[M_ADDR] |= fields.ADDR_SCRATCH
            layout = (D0, S0, S1) if d.sem == sems.MEM_LOAD else (S0, S3, S1)
        elif d.fmt == "GLOBAL":
            if d.sem == sems.MEM_LOAD:
                layout = (D0, S0, S1)
            elif returning:
                layout = (D0, S0, S3, S1)
            else:
                layout = (S0, S3, S1)
        else:
            mods[M_ADDR] |= fields.ADDR_BUFFER
            if d.sem == sems.MEM_LOAD:
                layout = (D0, S0, S1, S2)
            else:
                layout = (S3, S0, S1, S2)
        if to_lds:
            layout = layout[1:]
        if n != len(layout):
            raise self._fail(ins, f"{ins.mnemonic} takes {len(layout)} operands here, got {n}")
        for op, slot in zip(ins.operands, layout):
            if slot == S2:
                kind, val, width, _ = self._source(ins, op, "b32")
                ops[slot] = (kind, val, width)
            else:
                ops[slot] = self._register(ins, op, None)
        if d.fmt == "GLOBAL" and ops[S1, KIND] != K_NONE:
            mods[M_ADDR] |= fields.ADDR_SADDR
        if d.fmt == "SCRATCH" and self.target == "gfx90a" and (ops[S0, KIND] == K_NONE) == (ops[S1, KIND] == K_NONE):
            # gfx90a's scratch addresses take a VGPR or an SGPR, not both or neither (gfx940 added those: llvm-mc)
            raise self._fail(ins, f"{ins.mnemonic} takes a VGPR or an SGPR offset on gfx90a, not "
                                  f"{'both' if ops[S0, KIND] != K_NONE else 'neither'}")
        if d.fmt == "MUBUF" and returning:
            ops[D0] = ops[S3]
        data_slot = D0 if d.sem == sems.MEM_LOAD else S3
        if ops[data_slot, WIDTH] != dw and not (d.fmt == "MUBUF" and returning) and not to_lds:
            raise self._fail(ins, f"{ins.mnemonic} needs {dw} data registers, got {ops[data_slot, WIDTH]}")
        if d.sem == sems.MEM_ATOMIC:
            mods[M_SUB] = ATOMIC_OPS[d.atomic] << 8
        else:
            mods[M_SUB] = getattr(fields, d.kind)

    def _encode_ds(self, ins, d, ops, mods):
        n = len(ins.operands)
        s = d.sem
        if s in (sems.DS_READ, sems.DS_READ2):
            layout = (D0, S0)
        elif s == sems.DS_WRITE:
            layout = (S0, S1)
        elif s == sems.DS_WRITE2:
            layout = (D0, S0, S1, S2) if d.returns else (S0, S1, S2)
        elif s == sems.DS_ATOMIC:
            layout = (S0, S1, S2) if d.layout == "ds_cmpst" else (S0, S1)
            if d.returns:
                layout = (D0,) + layout
        elif s == sems.DS_SWIZZLE:
            layout = (D0, S1)
        else:
            layout = (D0, S0, S1)
        if n != len(layout):
            raise self._fail(ins, f"{ins.mnemonic} takes {len(layout)} operands, got {n}")
        for op, slot in zip(ins.operands, layout):
            ops[slot] = self._register(ins, op, None)
        if s == sems.DS_ATOMIC:
            mods[M_SUB] = ATOMIC_OPS[d.atomic] << 8
        elif s in (sems.DS_READ, sems.DS_WRITE):
            mods[M_SUB] = getattr(fields, d.kind)
        if s == sems.DS_READ2 or s == sems.DS_WRITE2:
            if not (0 <= mods[M_OFFSET] <= 255 and 0 <= mods[M_OFFSET1] <= 255):
                raise self._fail(ins, "offset0/offset1 of ds_*2 must be 0..255")
        elif mods[M_OFFSET] > 0xFFFF:
            raise self._fail(ins, "ds offset must be 0..65535")


MIX_SEMS = (sems.V_FMA_MIX_F32, sems.V_FMA_MIXLO_F16, sems.V_FMA_MIXHI_F16)


def _constant_type(d: isa.InstrDef, k: int, t: str, mods: np.ndarray) -> str:
    """_constant_type returns the format in which source ``k`` of type ``t`` receives an inline constant.

    A v_fma_mix / v_mad_mix source marked f16 by its op_sel_hi bit gets the
    f16 constant (1.0 is 0x3C00), an f32 one the f32 constant. A 64-bit
    VOP3P source (v_pk_mov_b32) is two packed dwords and gets the f32
    constant in its low dword, like the packed-f32 arithmetic. An f64 MFMA's C
    is 64 bits a value: its 1.0 is the f64 one.
    """
    if d.fmt == "MFMA" and k == 2 and d.atype == "f64":
        return "f64"
    if d.sem in MIX_SEMS:
        return "f16" if (mods[M_OPSEL_HI] >> k) & 1 else "f32"
    if d.fmt == "VOP3P" and t == "b64":
        return "v2f32"
    return t


SCALAR_FORMATS = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM")
_MFMA_BITS = {MFMA_TYPES["f16"]: 16, MFMA_TYPES["bf16"]: 16, MFMA_TYPES["i8"]: 8, MFMA_TYPES["fp8"]: 8,
              MFMA_TYPES["bf8"]: 8, MFMA_TYPES["f64"]: 64}
_SLOT_NAMES = {D0: "destination", D1: "second destination", S0: "source 0", S1: "source 1", S2: "source 2",
               S3: "data"}


def _scalar_reach(d: isa.InstrDef) -> dict:
    """_scalar_reach maps each operand slot the executor accesses in the scalar register file to how many
    32-bit registers it reaches from the operand's first (at least its written width)."""
    if d.fmt in SCALAR_FORMATS:
        reach = dict.fromkeys((D0, D1, S0, S1, S2, S3), 1)
        if d.sem in (sems.S_GETPC_B64, sems.S_SETPC_B64, sems.S_SWAPPC_B64, sems.S_MEMTIME):
            reach[D0] = reach[S0] = 2
        if d.fmt == "SMEM":
            reach[S0] = 4 if d.sem == sems.S_BUFFER_LOAD else 2   # the base pair, or the buffer resource
        return reach
    reach = {} if d.layout == "swap" else {D1: 2}   # (v_swap_b32's D1 is its source VGPR)
    if d.fmt == "VOPC" or d.layout in ("readlane", "readfirstlane"):
        reach[D0] = 2 if d.fmt == "VOPC" else 1
    if d.layout == "readlane":
        reach[S1] = 1
    if d.fmt in isa.VECTOR_MEMORY:
        # the buffer resource, the saddr pair, or a scratch instruction's one SGPR offset
        reach[S1] = 4 if d.fmt == "MUBUF" else 1 if d.fmt == "SCRATCH" else 2
        reach[S2] = 1
    return reach


def _vector_widths(d: isa.InstrDef, mods: np.ndarray) -> dict:
    """_vector_widths maps the operand slots whose vector registers the executor touches by the
    instruction's own shape (not the operand's written width) to that many registers."""
    if d.fmt == "MFMA":
        m_, n_, k_, b_ = d.shape
        a, b = MFMA_TYPES[d.atype], MFMA_TYPES[d.btype]
        # the A (B) values a lane holds, as gpusim.exec.kernels.mfma stages them: the f64 shapes one each
        kpl = k_ * m_ * b_ // 64 if a == MFMA_TYPES["f64"] else k_ if b_ > 1 else k_ * m_ // 64
        out = m_ * n_ * b_ // 64 * (2 if a == MFMA_TYPES["f64"] else 1)
        kept = kpl // 2 if d.sparse else kpl   # (a sparse A holds half its K entries, src2 their positions)
        return {D0: out, S0: max(kept * _MFMA_BITS.get(a, 32) // 32, 1),
                S1: max(kpl * _MFMA_BITS.get(b, 32) // 32, 1), S2: 1 if d.sparse else out}
    if d.sem in (sems.DS_READ2, sems.DS_WRITE2):
        element = (d.sub & 0xFF) // 4   # registers per element (gpusim.exec.kernels.lds.ds2_offsets)
        if d.sem == sems.DS_READ2:
            return {D0: 2 * element}
        return {D0: 2 * element, S1: element, S2: element} if d.returns else {S1: element, S2: element}
    if d.fmt in ("VOP1", "VOP2", "VOP3", "VOP3P") and isa.type_bits(d.dst) == 64 and not d.dst.startswith("v2"):
        return {D0: 2}
    return {}


def _vector_only(d: isa.InstrDef) -> tuple:
    """_vector_only names the operand slots the executor indexes the vector register file with, whatever
    their kind: they must be vector registers (an MFMA's C may also be an inline constant)."""
    if d.fmt == "MFMA":
        return (D0, S0, S1)
    if d.fmt in isa.VECTOR_MEMORY:
        return (D0, S3)
    if d.fmt == "DS":
        return (D0, S1, S2)
    if d.layout == "swap":
        return (D0, D1)
    if d.fmt in ("VOP1", "VOP2", "VOP3", "VOP3P") and d.layout not in ("readlane", "readfirstlane"):
        return (D0,)
    return ()


def check_register_reach(ins: Instruction, d: isa.InstrDef, ops: np.ndarray, mods: np.ndarray) -> None:
    """check_register_reach refuses an operand whose registers the executor would access outside the register
    file it reads or writes them in: a vector register where the instruction takes a scalar one, a scalar
    tuple that runs past the end of the scalar file, or a vector tuple narrower than the registers the
    instruction touches (an MFMA's A, B, C and D, a ds_read2/ds_write2 pair, a 64-bit result), or a scalar
    register or constant where the executor indexes the vector file. Raises AsmError at the instruction."""
    for slot, reach in _scalar_reach(d).items():
        kind, first, width = (int(x) for x in ops[slot])
        if kind == K_VREG:
            raise AsmError(f"{_SLOT_NAMES[slot]} of '{ins.mnemonic}' is a scalar operand: a vector register "
                           "cannot be used here", ins.loc)
        if kind == K_SREG and first + max(width, reach) > SREG_FILE:
            raise AsmError(f"{_SLOT_NAMES[slot]} of '{ins.mnemonic}' needs {max(width, reach)} scalar registers "
                           f"from register {first}, past the end of the scalar register file", ins.loc)
    for slot in _vector_only(d) + ((S2,) if d.fmt == "MFMA" else ()):
        kind = int(ops[slot, KIND])
        if kind == K_SREG or (kind == K_IMM and slot != S2):
            what = "a scalar register" if kind == K_SREG else "a constant"
            raise AsmError(f"{_SLOT_NAMES[slot]} of '{ins.mnemonic}' is a vector operand: {what} cannot be used "
                           "here", ins.loc)
    for slot, need in _vector_widths(d, mods).items():
        kind, first, width = (int(x) for x in ops[slot])
        if kind == K_VREG and width != need:
            raise AsmError(f"{_SLOT_NAMES[slot]} of '{ins.mnemonic}' must be {need} vector registers "
                           f"(v[N:N+{need - 1}]), got {width}" if need > 1 else
                           f"{_SLOT_NAMES[slot]} of '{ins.mnemonic}' must be one vector register, got {width}",
                           ins.loc)


def _one_edit_apart(a: str, b: str) -> bool:
    """_one_edit_apart tells whether b is a with one character inserted, deleted or replaced."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    k = next((i for i, (x, y) in enumerate(zip(short, long_)) if x != y), len(short))
    return short[k:] == long_[k + 1:]


def _fast_path_eligible(d: isa.InstrDef, ins: Instruction, ops: np.ndarray, mods: np.ndarray) -> bool:
    """_fast_path_eligible tells whether the executor's 32-bit fast path can run this instruction.

    It needs a FAST_SEMS operation with 32-bit operands and a VGPR destination,
    or a FAST_SEMS_64 one with a VGPR-pair destination, and no source or
    output modifier of any kind.
    """
    wide = d.sem in sems.FAST_SEMS_64
    if (d.sem not in sems.FAST_SEMS and not wide) or d.fmt not in ("VOP1", "VOP2", "VOP3", "VOP3P"):
        return False
    if mods[M_DPP] != NO_DPP or mods[M_SDWA] or mods[M_NEG] or mods[M_ABS] or mods[M_NEG_HI]:
        return False
    if mods[M_OPSEL] or mods[M_CLAMP] or mods[M_OMOD]:
        return False
    if wide:
        return ops[D0, KIND] == K_VREG and ops[D0, WIDTH] == 2 and ops[D1, KIND] == K_NONE
    if _dst_kind(d.dst) in (2, 4):
        return False
    carry = sems.V_CARRY_FIRST <= d.sem <= sems.V_CARRY_LAST
    if ops[D0, KIND] != K_VREG or ops[D0, WIDTH] != 1 or ops[D1, KIND] not in ((K_SREG, K_NONE) if carry else (K_NONE,)):
        return False
    for slot in (S0, S1, S2):
        if ops[slot, KIND] == K_NONE:
            continue
        if (d.sem == sems.V_CNDMASK_B32 or carry) and slot == S2:
            if ops[slot, KIND] != K_SREG:
                return False
        elif ops[slot, WIDTH] != 1:
            return False
    return True


def _dpp_control(ins: Instruction) -> int:
    m = ins.modifiers
    if "quad_perm" in m:
        q = m["quad_perm"]
        if not isinstance(q, tuple) or len(q) != 4 or any(not 0 <= x <= 3 for x in q):
            raise AsmError("quad_perm needs four lane numbers 0..3", ins.loc)
        return q[0] | (q[1] << 2) | (q[2] << 4) | (q[3] << 6)
    for key, base in (("row_shl", 0x100), ("row_shr", 0x110), ("row_ror", 0x120)):
        if key in m:
            n = int(m[key])
            if not 1 <= n <= 15:
                raise AsmError(f"{key} needs 1..15", ins.loc)
            return base + n
    for key, code in (("wave_shl", 0x130), ("wave_rol", 0x134), ("wave_shr", 0x138), ("wave_ror", 0x13C),
                      ("row_mirror", 0x140), ("row_half_mirror", 0x141)):
        if key in m:
            return code
    if "row_bcast" in m:
        n = int(m["row_bcast"])
        if n not in (15, 31):
            raise AsmError("row_bcast takes 15 or 31", ins.loc)
        return 0x142 if n == 15 else 0x143
    return 0xE4  # identity quad_perm:[0,1,2,3]


def _swizzle_pattern(ins: Instruction, f: FuncOperand) -> int:
    """_swizzle_pattern encodes LLVM's ``swizzle(...)`` macro into ds_swizzle_b32's offset."""
    if f.name.lower() != "swizzle" or not f.args:
        raise AsmError(f"'{f.name}(...)' is not a valid ds_swizzle offset", ins.loc)
    mode = str(f.args[0]).upper()
    args = [a for a in f.args[1:]]
    try:
        if mode == "QUAD_PERM":
            q = [int(a) for a in args]
            return 0x8000 | q[0] | (q[1] << 2) | (q[2] << 4) | (q[3] << 6)
        if mode == "SWAP":
            return (int(args[0]) << 10) | 0x1F
        if mode == "REVERSE":
            return ((int(args[0]) - 1) << 10) | 0x1F
        if mode == "BROADCAST":
            size, lane = int(args[0]), int(args[1])
            return ((0x1F & ~(size - 1)) | (lane << 5))
        if mode == "BITMASK_PERM":
            pat = str(args[0]).strip('"')
            and_m = or_m = xor_m = 0
            for k, ch in enumerate(reversed(pat)):
                bit = 1 << k
                if ch == "0":
                    pass
                elif ch == "1":
                    or_m |= bit
                elif ch == "p":
                    and_m |= bit
                elif ch == "i":
                    and_m |= bit
                    xor_m |= bit
            return and_m | (or_m << 5) | (xor_m << 10)
    except (ValueError, IndexError):
        pass
    raise AsmError(f"malformed swizzle({', '.join(map(str, f.args))})", ins.loc)


def _encoded_size(d: isa.InstrDef, ins: Instruction, literal: bool) -> int:
    if d.fmt in ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP"):
        return 8 if literal or d.name == "s_setreg_imm32_b32" else 4
    if d.fmt in ("VOP1", "VOP2", "VOPC"):
        if ins.suffix in ("e64", "dpp", "sdwa"):
            return 8
        if d.layout == "vop2_k":
            return 8
        return 8 if literal else 4
    return 12 if literal else 8


def encode_module(module: AsmModule, target: str, accum_offset: int) -> Program:
    """encode_module encodes every instruction of ``module`` for ``target`` ('gfx90a' or 'gfx942').

    The Program ends with the end-of-text sentinel (gpusim.asm.program.PAST_END) after the last instruction.
    """
    n = len(module.instructions)
    ops = np.zeros((n + 1, N_SLOTS, 3), np.int64)
    mods = np.zeros((n + 1, N_MODS), np.int64)
    sem = np.zeros(n + 1, np.int32)
    unit = np.zeros(n + 1, np.int8)
    pc_bytes = np.zeros(n + 1, np.int64)
    enc = Encoder(module, target, accum_offset)
    pc = 0
    names = []
    defs = []
    naming_code = []   # instructions whose operands name a code label: encoded again once pcs are known
    for i, ins in enumerate(module.instructions):
        for alignment, most in module.text_alignments.get(i, ()):   # llvm-mc's s_nop padding before it
            if -pc % alignment <= most:
                pc += -pc % alignment
        enc.pc = pc
        enc.names_code = False
        d, size = enc.encode(ins, ops[i], mods[i])
        if enc.names_code:
            naming_code.append(i)
        defs.append(d)
        sem[i] = d.sem
        unit[i] = isa.UNITS.index(d.unit)
        pc_bytes[i] = pc
        pc += size
        names.append(ins.mnemonic + (f"_{ins.suffix}" if ins.suffix else ""))
    pc_bytes[n] = pc
    code_pcs = {name: int(pc_bytes[row]) for name, row in module.labels.items()}
    if naming_code:   # a relocated operand is always a literal, so the sizes, and with them the pcs, stay
        enc.code_pcs = code_pcs
        for i in naming_code:
            enc.pc = int(pc_bytes[i])
            enc.encode(module.instructions[i], ops[i], mods[i])
    mark_index_mode(module, sem, mods)
    locs = [ins.loc for ins in module.instructions]
    end = isa.lookup("s_endpgm")
    ops[n, :, KIND] = K_NONE
    mods[n, M_SUB] = PAST_END
    mods[n, M_DPP] = NO_DPP
    sem[n] = end.sem
    unit[n] = isa.UNITS.index(end.unit)
    pc_bytes[n] = pc
    defs.append(end)
    names.append("(end of code)")
    last = locs[-1] if locs else SourceLoc(module.path, 1)
    locs.append(SourceLoc(last.file, last.line, last.col))
    static = None
    if enc.static_refs:   # the image, with the addresses of code labels it holds (a table of device functions)
        static = module.static_data.with_code_at(code_pcs)
    origins = [ins.origin for ins in module.instructions] + [None]   # the end-of-text sentinel has none
    return Program(sem=sem, ops=ops, mods=mods, unit=unit, pc_bytes=pc_bytes, mnemonics=names, locs=locs, defs=defs,
                   static_data=static, origins=origins)
