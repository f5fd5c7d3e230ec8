"""gpusim accepts exactly the operand classes llvm-mc-19 accepts.

For every instruction of the ISA table (SOPP aside) the test writes a valid
form, then variants that swap one operand for another class: an SGPR, a
VGPR, an AGPR, a literal, an inline integer, an inline float, vcc, exec,
m0, a tuple of the wrong width and a misaligned tuple. llvm-mc-19 assembles
all variants of a target in one run (its errors name the line); gpusim
parses and encodes each one. A variant llvm-mc refuses must be refused by
gpusim, and a variant llvm-mc accepts must be accepted, unless gpusim says
the instruction is not supported yet (UnsupportedInstruction).

Skipped when llvm-mc-19 is not installed (CI installs it).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest

from gpusim.asm import isa
from gpusim.asm.encoder import Encoder
from gpusim.asm.ir import Instruction
from gpusim.asm.operand_classes import roles_for
from gpusim.asm.parser import parse_text
from gpusim.asm.program import N_MODS, N_SLOTS
from gpusim.errors import AsmError, SourceLoc, UnsupportedInstruction

LLVM_MC = shutil.which("llvm-mc-19")
pytestmark = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-19 is not installed")

_ERROR_RE = re.compile(r"^[^:\n]*:(\d+):\d+: error:", re.M)


@dataclass(frozen=True)
class Variant:
    """Variant is one instruction line and what it swaps (for failure messages)."""

    text: str
    what: str


# --------------------------------------------------------------- operand spelling
def _tuple(file: str, first: int, width: int) -> str:
    return f"{file}{first}" if width == 1 else f"{file}[{first}:{first + width - 1}]"


def _canonical_operand(role, k: int) -> str:
    """_canonical_operand spells a value the role accepts, preferring registers."""
    width = role.width or 1
    if "o" in role.classes:
        return "off"
    for c in role.classes:
        if c == "v":
            return _tuple("v", 2 + 34 * k, width)
        if c == "s":
            return _tuple("s", 8 + 16 * k if width <= 16 else 0, width) if width > 1 else f"s{4 + k}"
        if c == "a":
            return _tuple("a", 2 + 34 * k, width)
        if c == "c":
            return "vcc"
        if c == "o":
            return "off"
        if c == "k":
            return "0x1234" if role.name == "k" else "16"
        if c == "x":
            return "hwreg(HW_REG_MODE)"
        if c == "g":
            return "gpr_idx(SRC0)"
        if c == "i":
            return "1"
    return "0x1234"


# two constant-bus sources at once: what the constant-bus and one-literal limits decide
_PAIRS = {"two SGPRs": ("s40", "s41"), "one SGPR twice": ("s40", "s40"), "literal and SGPR": ("0x1234", "s40"),
          "one literal twice": ("0x1234", "0x1234"), "two literals": ("0x1234", "0x5678"),
          "SGPR and vcc_lo": ("s40", "vcc_lo"), "inline and SGPR": ("1.0", "s40")}


def _canonical_operands(roles) -> list[str]:
    """_canonical_operands spells a valid operand list: one scalar value at most on the constant bus."""
    ops = []
    scalar_used = False
    for k, role in enumerate(roles):
        if role.bus and scalar_used and "v" not in role.classes and "i" in role.classes:
            ops.append("1")
            continue
        text = _canonical_operand(role, k)
        scalar_used |= role.bus and text.startswith("s")
        ops.append(text)
    return ops


def _swaps(role) -> list[tuple[str, str]]:
    """_swaps lists (label, text) of the operand classes tried in place of ``role``."""
    width = role.width or 1
    out = [("sgpr", _tuple("s", 40, width)), ("vgpr", _tuple("v", 200, width)),
           ("agpr", _tuple("a", 200, width)), ("literal", "0x1234"), ("inline int", "7"),
           ("inline float", "1.0"), ("vcc", "vcc"), ("exec", "exec"), ("m0", "m0"), ("off", "off"),
           ("float literal", "1.5"), ("negative literal", "-0x1234"), ("vcc_lo", "vcc_lo"),
           ("ttmp", _tuple("ttmp", 4, min(width, 4))), ("scc", "src_scc"), ("aperture", "src_shared_base"),
           ("flat_scratch", "flat_scratch"), ("negated vgpr", "-" + _tuple("v", 200, width)),
           ("32-bit literal", "0x12345678")]
    letter = next((c for c in role.classes if c in "sva"), None)
    if letter is not None:
        base = {"s": 40, "v": 200, "a": 200}[letter]
        wide = 2 if width == 1 else min(width * 2, 16)
        out.append(("wide tuple", _tuple(letter, base, wide)))
        if width > 1:
            out.append(("narrow tuple", _tuple(letter, base, 1)))
            out.append(("misaligned tuple", _tuple(letter, base + 1, width)))
    return out


# --------------------------------------------------------------- instruction forms
def _modifier_sets(d: isa.InstrDef, target: str) -> list[str]:
    """_modifier_sets lists modifier strings that select the instruction's operand layouts."""
    returning = "sc0" if target == "gfx942" else "glc"
    if d.layout == "none":  # buffer_wbl2, buffer_inv: no address, so no offen/idxen
        return [""]
    if d.fmt == "MUBUF":
        forms = ["", "offen", "idxen", "idxen offen"]
        return forms + [f"{f} {returning}".strip() for f in forms] if d.sem == _sem("MEM_ATOMIC") else forms
    if d.fmt in ("GLOBAL", "FLAT") and d.sem == _sem("MEM_ATOMIC"):
        return ["", returning]
    return [""]


def _sem(name: str) -> int:
    from gpusim.asm import sems
    return getattr(sems, name)


def _suffixes(d: isa.InstrDef) -> list[str]:
    if d.fmt in ("VOP1", "VOP2", "VOPC") and d.layout != "vop2_k":
        forms = [f"_{e}" for e in d.encodings or ("e32", "e64", "sdwa", "dpp")]
        # every third instruction also in its SDWA and DPP forms, to keep the run short
        return [f for f in forms if f not in ("_sdwa", "_dpp") or _DPP_SAMPLE(d.name)] + [""]
    if d.fmt in ("VOP3", "VOP3P", "MFMA") and (_DPP_SAMPLE(d.name) or d.layout):
        return ["", "_e64"]
    return [""]


def _probed(d: isa.InstrDef, suffix: str) -> bool:
    """_probed: an encoding the instruction may lack (VOP3-only instructions with _e64, 64-bit
    operands in SDWA or DPP, compares in DPP); both assemblers must then refuse all its variants."""
    return suffix in ("_sdwa", "_dpp") or (suffix == "_e64" and d.fmt in ("VOP3", "VOP3P", "MFMA"))


def _DPP_SAMPLE(name: str) -> bool:
    return sum(map(ord, name)) % 3 == 0


_SUFFIX_MODIFIERS = {"_dpp": "quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"}


def _fake(d: isa.InstrDef, suffix: str, mods: str, n_ops: int, saddr_off: bool) -> Instruction:
    """_fake builds a stand-in Instruction so the role table can be asked about a form."""
    from gpusim.asm.ir import Operand, Special, Reg
    ops = [Operand(Reg("v", 0))] * n_ops
    if saddr_off and n_ops:
        ops[-1] = Operand(Special("off"))
    modifiers = {m: True for m in mods.split()}
    return Instruction(d.name, suffix.lstrip("_"), ops, modifiers, SourceLoc("x", 1))


def _roles(d: isa.InstrDef, suffix: str, mods: str, saddr_off: bool = True):
    form = suffix.lstrip("_") or "e32"
    for n in range(0, 7):
        roles = roles_for(d, _fake(d, suffix, mods, n, saddr_off), form)
        if roles is not None and len(roles) == n:
            return roles
    return None


def variants_of(d: isa.InstrDef, target: str) -> list[Variant]:
    """variants_of writes the valid form of ``d`` and every one-operand swap of it."""
    out: list[Variant] = []
    for suffix in _suffixes(d):
        for mods in [f"{m} {_SUFFIX_MODIFIERS.get(suffix, '')}".strip() for m in _modifier_sets(d, target)]:
            for saddr_off in ((True, False) if d.fmt == "GLOBAL" else (True,)):
                roles = _roles(d, suffix, mods, saddr_off)
                if roles is None:
                    continue
                ops = _canonical_operands(roles)
                if d.fmt == "GLOBAL" and not saddr_off:
                    ops[-1] = "s[20:21]"
                name = d.name + suffix

                def line(operands: list[str]) -> str:
                    return f"{name} {', '.join(operands)} {mods}".rstrip()

                out.append(Variant(line(ops), "probed form" if _probed(d, suffix) else "valid form"))
                for k, role in enumerate(roles):
                    for label, text in _swaps(role):
                        if text == ops[k] or (role.dst and label in READ_ONLY_SWAPS):
                            continue
                        if suffix == "_dpp" and label == "wide tuple":
                            continue  # see DPP_WIDE_TUPLE
                        swapped = list(ops)
                        swapped[k] = text
                        out.append(Variant(line(swapped), f"operand {k + 1} -> {label}"))
                sources = [k for k, r in enumerate(roles) if r.bus and not r.dst]
                for k1, k2 in zip(sources, sources[1:]):
                    for label, (a, b) in _PAIRS.items():
                        swapped = list(ops)
                        swapped[k1], swapped[k2] = a, b
                        out.append(Variant(line(swapped), f"operands {k1 + 1} and {k2 + 1} -> {label}"))
    return out


# --------------------------------------------------------------- the two assemblers
def llvm_accepts(lines: list[str], target: str, tmp_path) -> list[bool]:
    """llvm_accepts runs llvm-mc-19 once over ``lines`` and tells, per line, whether it assembled."""
    src = tmp_path / f"variants_{target}.s"
    src.write_text("".join(line + "\n" for line in lines))
    run = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(src), "-filetype=obj",
                          "-o", "/dev/null"], capture_output=True, text=True, timeout=120)
    bad = {int(m.group(1)) for m in _ERROR_RE.finditer(run.stderr)}
    return [k + 1 not in bad for k in range(len(lines))]


def gpusim_verdicts(lines: list[str], target: str) -> list[str]:
    """gpusim_verdicts parses and encodes each line: 'ok', 'unsupported' or 'error: ...'."""
    out = []
    ops = np.zeros((N_SLOTS, 3), np.int64)
    mods = np.zeros(N_MODS, np.int64)
    for text in lines:
        try:
            module = parse_text(".text\n" + text + "\n", "variant.s")
            enc = Encoder(module, target, 256)
            for ins in module.instructions:
                enc.encode(ins, ops, mods)
            out.append("ok")
        except UnsupportedInstruction:
            out.append("unsupported")
        except AsmError as e:
            out.append(f"error: {e.message} ({e.hint})")
    return out


# llvm-mc-19 accepts the read-only source registers (src_scc, src_shared_base,
# ...) as the destination of any instruction that writes an SGPR; the hardware
# has no such destination, so gpusim refuses them and the test does not ask.
READ_ONLY_SWAPS = ("scc", "aperture")

# llvm-mc-19 accepts a register tuple as a 32-bit DPP source and encodes its
# first register (it prints "Invalid register, operand has 'VGPR_32' register
# class" beside the encoding); gpusim refuses it and the test does not ask.
DPP_WIDE_TUPLE = "wide tuple"

# Instructions gpusim runs that llvm-mc-19 does not know for gfx942, although
# the CDNA3 ISA guide lists them; the test cannot ask llvm-mc about them.
KNOWN_GAPS = {
    "v_dot2_f32_bf16": "CDNA3 VOP3P opcode; llvm-mc-19 has it for gfx950 only",
    "buffer_atomic_pk_add_bf16": "CDNA3 MUBUF atomic; llvm-mc-19 has the global/flat forms only",
}


def _instructions(target: str, every: int = 1) -> list[isa.InstrDef]:
    rows = [d for d in isa.table().values()
            if d.fmt != "SOPP" and target in d.targets and d.name not in KNOWN_GAPS]
    return rows[::every]


def _compare(target: str, defs: list[isa.InstrDef], tmp_path) -> list[str]:
    variants = [v for d in defs for v in variants_of(d, target)]
    lines = [v.text for v in variants]
    llvm = llvm_accepts(lines, target, tmp_path)
    ours = gpusim_verdicts(lines, target)
    problems = []
    for v, ok, verdict in zip(variants, llvm, ours):
        if verdict == "unsupported":
            continue
        if ok and verdict != "ok":
            problems.append(f"{target}: gpusim refuses what llvm-mc accepts: {v.text!r} ({v.what}): {verdict}")
        elif not ok and verdict == "ok":
            problems.append(f"{target}: gpusim accepts what llvm-mc refuses: {v.text!r} ({v.what})")
    return problems


def test_valid_forms_assemble_with_llvm(tmp_path):
    """Every instruction's generated valid form is one llvm-mc-19 accepts (else its swaps prove nothing)."""
    defs = _instructions("gfx942")
    forms = [v.text for d in defs for v in variants_of(d, "gfx942") if v.what == "valid form"]
    refused = [text for text, ok in zip(forms, llvm_accepts(forms, "gfx942", tmp_path)) if not ok]
    assert refused == []
    assert len(forms) > len(defs)


def test_gfx942_operand_classes_match_llvm(tmp_path):
    problems = _compare("gfx942", _instructions("gfx942"), tmp_path)
    assert problems == [], f"{len(problems)} disagreements:\n" + "\n".join(problems[:60])


def test_gfx90a_operand_classes_match_llvm(tmp_path):
    problems = _compare("gfx90a", _instructions("gfx90a", every=4), tmp_path)
    assert problems == [], f"{len(problems)} disagreements:\n" + "\n".join(problems[:60])


def _op_sel_variants(target: str) -> list[str]:
    """_op_sel_variants is every non-packed VALU instruction's valid VOP3 form with op_sel on its destination and
    on its first source (gfx9 takes op_sel on a handful of them only)."""
    lines = set()
    for d in _instructions(target):
        if d.fmt not in ("VOP1", "VOP2", "VOPC", "VOP3"):
            continue
        for v in variants_of(d, target):
            if v.what in ("valid form", "probed form") and (d.fmt == "VOP3" or v.text.split()[0].endswith("_e64")):
                sources = v.text.count(",")
                for sel in ([0] * sources + [1], [1] + [0] * sources):
                    lines.add(f"{v.text} op_sel:[{','.join(map(str, sel))}]")
    return sorted(lines)


@pytest.mark.parametrize("target", ["gfx942", "gfx90a"])
def test_op_sel_is_taken_where_llvm_mc_takes_it(tmp_path, target):
    lines = _op_sel_variants(target)
    llvm = llvm_accepts(lines, target, tmp_path)
    ours = gpusim_verdicts(lines, target)
    wrong = [f"{text}: llvm-mc {'takes' if ok else 'refuses'} it, gpusim: {verdict}"
             for text, ok, verdict in zip(lines, llvm, ours) if verdict != "unsupported" and ok != (verdict == "ok")]
    assert wrong == [], f"{len(wrong)} disagreements:\n" + "\n".join(wrong[:40])
    assert 10 <= sum(llvm) < len(lines) / 10   # a few take it (v_mad_f16, v_pack_b32_f16, ...), most do not


def _clamp_forms(target: str) -> list[str]:
    """_clamp_forms is each VALU and MFMA instruction's valid VOP3 form (e64 where it has one) with clamp."""
    lines = []
    for d in _instructions(target):
        if d.fmt not in ("VOP1", "VOP2", "VOP3", "VOP3P", "VOPC", "MFMA"):
            continue
        for v in variants_of(d, target):
            head = v.text.split()[0]
            if v.what in ("valid form", "probed form") and (
                    head.endswith("_e64") or (d.fmt in ("VOP3", "VOP3P", "MFMA") and not head.endswith(("_dpp",
                                                                                                    "_sdwa")))):
                lines.append(v.text + " clamp")
                break
    return lines


@pytest.mark.parametrize("target", ["gfx942", "gfx90a"])
def test_clamp_is_taken_exactly_where_llvm_mc_takes_it(target, tmp_path):
    """gpusim takes clamp where llvm-mc-19 does (refusing as not supported the integer instructions whose
    saturation it does not model) and refuses it where llvm-mc does: v_add3_u32, v_max_u32, the integer
    compares, v_cmp_class and the MFMAs among them."""
    lines = _clamp_forms(target)
    assert len(lines) > 400
    problems = [f"{line}: llvm-mc {'takes' if ok else 'refuses'} it, gpusim says {verdict}"
                for line, ok, verdict in zip(lines, llvm_accepts(lines, target, tmp_path),
                                             gpusim_verdicts(lines, target))
                if ok != (verdict in ("ok", "unsupported"))]
    assert problems == [], "\n".join(problems[:40])


_SOPP = ("s_nop", "s_endpgm", "s_barrier", "s_waitcnt", "s_setprio", "s_sleep", "s_sendmsg", "s_sendmsghalt",
         "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_setkill", "s_icache_inv", "s_trap",
         "s_set_gpr_idx_off", "s_code_end", "s_wakeup")
_SOPP_OPERANDS = ("", " 1", " 0x10000", " -1", " 65535", " 0x7fffffff", " s0", " v1", " 1, 2", " 1 2", " 1+1",
                  " sendmsg(MSG_INTERRUPT)", " sendmsg(1)", " sendmsg(MSG_GS, GS_OP_EMIT, 0)", " sendmsg(MSG_GS)",
                  " sendmsg(MSG_INTERRUPT, 1)", " sendmsg(MSG_BOGUS)", " vmcnt(0)", " vmcnt(0) lgkmcnt(0)",
                  " vmcnt(0) & lgkmcnt(0)", " lgkmcnt(0), 1")


@pytest.mark.parametrize("target", ["gfx942", "gfx90a"])
def test_sopp_operands_are_taken_exactly_where_llvm_mc_takes_them(target, tmp_path):
    """The SOPP instructions without a label take what llvm-mc-19 takes: one immediate of any value (s_nop,
    s_sleep, s_trap, ...), none (s_barrier, s_icache_inv, ...), an optional one from 0 to 65535 (s_endpgm),
    a message (s_sendmsg), counts (s_waitcnt); s_code_end is not a gfx9 instruction."""
    lines = [m + ops for m in _SOPP for ops in _SOPP_OPERANDS]
    problems = [f"{line}: llvm-mc {'takes' if ok else 'refuses'} it, gpusim says {verdict}"
                for line, ok, verdict in zip(lines, llvm_accepts(lines, target, tmp_path),
                                             gpusim_verdicts(lines, target))
                if ok != (verdict == "ok")]
    assert problems == [], "\n".join(problems[:40])
