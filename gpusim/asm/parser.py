"""The parser turns AMDGCN assembly text (as llvm-mc accepts it) into an AsmModule.

It knows the syntax, not the instruction set: mnemonics are not checked here.
Entry points are :func:`parse_text` and :func:`parse_file`.

How syntax maps onto :mod:`gpusim.asm.ir`:

* ``v_add_f32_e64 v0, -|v1|, 0.5 clamp mul:2`` -> ``Instruction('v_add_f32',
  'e64', [Operand(Reg('v',0,1)), Operand(Reg('v',1,1), neg=True, abs=True),
  Operand(FloatImm(0.5))], {'clamp': True, 'omod': 'mul2'})``.
* Comma-separated operands go to ``operands``; space-separated modifiers
  (flags such as ``glc``, keyed ``offset:16``, lists ``op_sel:[0,1]``) go to
  ``modifiers``.
* ``s_waitcnt vmcnt(0) lgkmcnt(0)`` -> one ``Waitcnt`` operand; a bare
  ``s_waitcnt 0`` keeps ``Imm(0)``.
* ``sendmsg(...)``, ``hwreg(...)``, ``swizzle(...)``, ``gpr_idx(...)`` ->
  ``FuncOperand``; ``offset:swizzle(...)`` -> ``modifiers['offset']``.
"""
from __future__ import annotations

import dataclasses
import gc
import math
import os
import re
import struct
from dataclasses import dataclass
from typing import Optional

import yaml

from gpusim.asm import expr as _expr
from gpusim.asm import isa
from gpusim.asm.expr import ExprParser, Undefined, evaluate, label_form
from gpusim.asm.descriptor_rules import descriptor_problem, implied_user_sgprs
from gpusim.asm.header import parse_header_lines
from gpusim.asm.ir import (AsmModule, FloatImm, FuncOperand, Imm, Instruction, KernelSource, LabelRef,
                           Operand, Reg, Special, Waitcnt)
from gpusim.asm.lexer import Line, Preprocessed, Tok, preprocess, tokenize
from gpusim.asm.static_data import StaticDataBuilder, is_static_section
from gpusim.asm.target_id import processor_of
from gpusim.errors import AsmError, GpusimError, SourceLoc, did_you_mean
from gpusim.located_yaml import screen

# --------------------------------------------------------------------------
# Operand vocabulary
# --------------------------------------------------------------------------
REG_LIMITS = {"s": 105, "v": 255, "a": 255, "ttmp": 15}
REG_FILES = {"s": "s", "v": "v", "a": "a", "acc": "a", "ttmp": "ttmp"}  # acc0 is llvm-mc's alias of a0
_REG_RE = re.compile(r"(ttmp|acc|s|v|a)([0-9]+)$")

SPECIALS = {name: name for name in (
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0",
    "flat_scratch", "flat_scratch_lo", "flat_scratch_hi",
    "xnack_mask", "xnack_mask_lo", "xnack_mask_hi",
    "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit",
    "src_pops_exiting_wave_id", "src_vccz", "src_execz", "src_scc", "src_lds_direct",
    "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "off", "null")}
# llvm-mc spells these aliases with the src_ prefix when it prints them.
SPECIALS.update({
    "scc": "src_scc", "vccz": "src_vccz", "execz": "src_execz", "lds_direct": "src_lds_direct",
    "shared_base": "src_shared_base", "shared_limit": "src_shared_limit",
    "private_base": "src_private_base", "private_limit": "src_private_limit",
    "pops_exiting_wave_id": "src_pops_exiting_wave_id"})

# Flags that are modifiers wherever they appear.
FLAGS = frozenset((
    "glc", "slc", "dlc", "sc0", "sc1", "offen", "idxen", "addr64", "tfe", "clamp", "gds",
    "row_mirror", "row_half_mirror", "unorm", "lwe"))
# Flags that may also be a label or register name: a flag only after a space,
# an operand at the start of the operand list or after a comma.
SOFT_FLAGS = frozenset(("scc", "nt", "lds", "high", "da", "r128", "a16", "d16", "done", "compr", "vm"))
FUNC_OPERANDS = frozenset(("sendmsg", "hwreg", "swizzle", "gpr_idx"))
WAITCNT_FIELDS = {"vmcnt": "vmcnt", "expcnt": "expcnt", "lgkmcnt": "lgkmcnt",
                  "vmcnt_sat": "vmcnt", "expcnt_sat": "expcnt", "lgkmcnt_sat": "lgkmcnt"}
SRC_MODIFIERS = frozenset(("abs", "neg", "sext"))
OMOD = {("mul", 1): None, ("mul", 2): "mul2", ("mul", 4): "mul4", ("div", 1): None, ("div", 2): "div2"}
SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp")
_LOCAL_REF_RE = re.compile(r"([0-9]+)([bf])$")
# Frozen dataclasses are slow to build; equal values are shared instead.
_REG_CACHE: dict[tuple[str, int, int], Reg] = {}
_IMM_CACHE: dict[int, Imm] = {}

# --------------------------------------------------------------------------
# Directives
# --------------------------------------------------------------------------
AMDHSA_FIELDS = frozenset((
    "accum_offset", "dx10_clamp", "enable_private_segment", "exception_fp_denorm_src",
    "exception_fp_ieee_div_zero", "exception_fp_ieee_inexact", "exception_fp_ieee_invalid_op",
    "exception_fp_ieee_overflow", "exception_fp_ieee_underflow", "exception_int_div_zero",
    "float_denorm_mode_16_64", "float_denorm_mode_32", "float_round_mode_16_64", "float_round_mode_32",
    "forward_progress", "fp16_overflow", "group_segment_fixed_size", "ieee_mode", "kernarg_size",
    "memory_ordered", "next_free_sgpr", "next_free_vgpr", "private_segment_fixed_size",
    "reserve_flat_scratch", "reserve_vcc", "reserve_xnack_mask", "round_robin_scheduling",
    "shared_vgpr_count", "system_sgpr_private_segment_wavefront_offset", "system_sgpr_workgroup_id_x",
    "system_sgpr_workgroup_id_y", "system_sgpr_workgroup_id_z", "system_sgpr_workgroup_info",
    "system_vgpr_workitem_id", "tg_split", "user_sgpr_count", "user_sgpr_dispatch_id",
    "user_sgpr_dispatch_ptr", "user_sgpr_flat_scratch_init", "user_sgpr_kernarg_preload_length",
    "user_sgpr_kernarg_preload_offset", "user_sgpr_kernarg_segment_ptr",
    "user_sgpr_private_segment_buffer", "user_sgpr_private_segment_size", "user_sgpr_queue_ptr",
    "uses_dynamic_stack", "wavefront_size32", "workgroup_processor_mode", "inst_pref_size"))
REQUIRED_AMDHSA_FIELDS = ("next_free_vgpr", "next_free_sgpr")

IGNORED_DIRECTIVES = frozenset((
    ".globl", ".global", ".p2align", ".p2alignl", ".p2alignw", ".align", ".balign", ".balignl",
    ".balignw", ".type", ".size", ".protected", ".hidden", ".weak", ".weak_definition", ".local",
    ".internal", ".ident", ".addrsig", ".addrsig_sym", ".no_dead_strip",
    ".amdgpu_hsa_kernel", ".amdgpu_lds", ".warning", ".print",
    ".amdhsa_code_object_version", ".amd_amdgpu_isa", ".end", ".symver", ".reloc", ".lsym"))
DATA_DIRECTIVES = frozenset((
    ".fill", ".long", ".byte", ".short", ".quad", ".zero", ".int", ".value",
    ".2byte", ".4byte", ".8byte", ".ascii", ".asciz", ".string", ".space", ".skip", ".float",
    ".double", ".octa", ".dc", ".uleb128", ".sleb128"))   # llvm-mc-19 knows no .word, .hword or .half here
ALIGN_DIRECTIVES = frozenset((".p2align", ".p2alignl", ".p2alignw", ".align", ".balign", ".balignl", ".balignw"))
# the bytes of each integer data directive, in static data (gpusim.asm.static_data)
_INTEGER_BYTES = {".byte": 1, ".short": 2, ".value": 2, ".2byte": 2, ".long": 4, ".int": 4, ".4byte": 4,
                  ".quad": 8, ".8byte": 8}
_STRINGS_RE = re.compile(r'[ \t]*"((?:[^"\\]|\\.)*)"[ \t]*(?:,|$)')
_ESCAPE_RE = re.compile(r'\\(?:([0-7]{1,3})|x([0-9A-Fa-f]+)|(.))')
_ESCAPES = {"n": 10, "t": 9, "r": 13, "b": 8, "f": 12, "v": 11, "a": 7, "\\": 92, '"': 34, "'": 39}
# Padding is harmless anywhere in .text: branch targets are instruction indices.
PADDING_DIRECTIVES = frozenset((".fill", ".zero", ".space", ".skip"))
_IF_DIRECTIVES = frozenset((
    ".if", ".ifdef", ".ifndef", ".ifnotdef", ".ifeq", ".ifne", ".ifgt", ".ifge", ".iflt", ".ifle",
    ".ifb", ".ifnb", ".ifc", ".ifnc"))
_LOOP_OPENERS = frozenset((".rept", ".rep", ".irp", ".irpc"))
_OTHER_DIRECTIVES = frozenset((
    ".text", ".data", ".bss", ".rodata", ".section", ".pushsection", ".popsection", ".previous",
    ".set", ".equ", ".equiv", ".comm", ".lcomm", ".macro", ".endm", ".endmacro", ".exitm", ".purgem", ".endr",
    ".else", ".elseif", ".endif", ".amdgcn_target", ".amdhsa_kernel", ".end_amdhsa_kernel",
    ".amdgpu_metadata", ".end_amdgpu_metadata", ".include", ".error", ".err"))
KNOWN_DIRECTIVES = IGNORED_DIRECTIVES | DATA_DIRECTIVES | _IF_DIRECTIVES | _LOOP_OPENERS | _OTHER_DIRECTIVES

MAX_MACRO_DEPTH = 20
MAX_STATIC_DATA_BYTES = 64 << 20   # a kernel file's .data, .rodata and .bss together
MAX_INCLUDE_DEPTH = 16
MAX_EXPANDED_LINES = 500_000
_OPCACHE_LIMIT = 65536

_LABEL_RE = re.compile(r"[ \t]*([A-Za-z_.$][\w.$]*|[0-9]+)[ \t]*:")
_WORD_RE = re.compile(r"[ \t]*([A-Za-z_.$][\w.$]*)")
_ASSIGN_RE = re.compile(r"[ \t]*=(?!=)")
_SET_RE = re.compile(r"[ \t]*([A-Za-z_.$][\w.$]*)[ \t]*,")
_STRING_ARG_RE = re.compile(r'[ \t]*"((?:[^"\\]|\\.)*)"[ \t]*$')
# .file N "DIR" "NAME" [md5 ...] or .file N "PATH"; .loc N LINE [COL] [flags]
_FILE_RE = re.compile(r'[ \t]*(\d{1,9})[ \t]+"([^"\\]*)"(?:[ \t]+"([^"\\]*)")?')
_LOC_RE = re.compile(r'[ \t]*(\d{1,9})[ \t]+(\d{1,9})(?:[ \t]+(\d{1,9}))?')
_SECTION_RE = re.compile(r'[ \t]*("(?:[^"\\]|\\.)*"|[^\s,]+)')
_GFX_RE = re.compile(r"gfx([0-9]+)([0-9a-f])([0-9a-f])(?![0-9a-f])")
_PARAM_RE = re.compile(r"([A-Za-z_][\w]*)(?:[ \t]*:[ \t]*(req|vararg))?(?:[ \t]*=(.*))?$", re.S)
_SUBST_RE = re.compile(r"\\(\(\)|@|[A-Za-z_][\w]*)")
_IDENT_RE = re.compile(r"[A-Za-z_.$][\w.$]*$")


@dataclass
class _Macro:
    name: str
    params: list[tuple[str, Optional[str], str]]  # (name, default, qualifier '' | 'req' | 'vararg')
    body: list[Line]
    loc: SourceLoc


class _Frame:
    """_Frame is one source of lines: a file, a macro expansion or a .rept/.irp expansion."""

    __slots__ = ("lines", "i", "kind", "name", "call", "cond_depth")

    def __init__(self, lines: list[Line], kind: str, name: str = "", call: Optional[Line] = None,
                 cond_depth: int = 0):
        self.lines = lines
        self.i = 0
        self.kind = kind
        self.name = name
        self.call = call
        self.cond_depth = cond_depth


@dataclass
class _Cond:
    parent_active: bool
    active: bool
    taken: bool
    seen_else: bool
    loc: SourceLoc


@dataclass
class _PendingKernel:
    name: str
    name_col: int
    fields: dict[str, tuple]  # field -> (node, Line, col)
    loc: SourceLoc


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------
def parse_text(text: str, path: str = "<string>", *, source_lines: bool = False,
               library_dirs: tuple[str, ...] = ()) -> AsmModule:
    """parse_text parses assembly ``text`` (named ``path`` in messages) into an AsmModule.

    With ``source_lines`` (a frontend's compiler output, whose assembly the user never wrote), a compiler's
    ``.file``/``.loc`` directives give each instruction its ``origin``, the source line it came from; a
    ``.loc`` in a file under one of ``library_dirs`` (the headers or library the frontend compiles with,
    whose inlined code the program calls) keeps the origin the program's own last line gave. Without it
    (assembly a user wrote or keeps), they are ignored and faults name the assembly's lines.
    Raises AsmError (or HeaderError for a ``; gpusim-*`` line) on bad input.
    """
    asm = _Assembler(path, library_dirs if source_lines else None)
    # The parse allocates many small objects that all stay alive; pausing the
    # cyclic collector saves about a third of the time on large files.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return asm.run(text)
    except GpusimError:
        raise
    except RecursionError:
        raise AsmError("input is nested too deeply", asm.current_loc()) from None
    finally:
        if gc_was_enabled:
            gc.enable()


def parse_file(path: str) -> AsmModule:
    """parse_file reads and parses the assembly file at ``path``."""
    return parse_text(_read_source(path, None), path)


def _read_source(path: str, loc: Optional[SourceLoc]) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise AsmError(f"cannot read '{path}': {e.strerror or e}", loc) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise AsmError("file is not UTF-8 text", SourceLoc(path, line, col)) from None


# --------------------------------------------------------------------------
# Operands
# --------------------------------------------------------------------------
class _OperandParser(ExprParser):
    """_OperandParser parses the operand and modifier part of one instruction line."""

    __slots__ = ("asm", "pure", "refs", "cols", "mod_cols")

    def __init__(self, asm: "_Assembler", toks: list[Tok], line: Line):
        super().__init__(toks, line.file, line.lineno, line.text)
        self.asm = asm
        self.pure = True
        self.refs: list[tuple[LabelRef, SourceLoc]] = []
        self.cols: list[int] = []  # 1-based column of each operand, for errors that name one
        self.mod_cols: list[tuple[str, int]] = []  # each modifier's name and 1-based column, in the line's order

    # -- symbols --------------------------------------------------------------
    def resolve(self, name: str, col: int) -> int:
        self.pure = False
        return self.asm.resolve(name, col)

    def _err(self, msg: str, col: int) -> AsmError:
        return self.error(msg, col)

    def const(self, node, col: int) -> int:
        """const evaluates ``node``, which must not contain labels."""
        if node[0] == "n":
            return node[1]
        try:
            return evaluate(node, self.resolve, self._err)
        except Undefined as u:
            raise self.asm.undefined_error(u, self) from None

    def value_of(self, node) -> object:
        """value_of evaluates an operand expression to Imm, or to LabelRef for ``label[+k]``."""
        if node[0] == "n":
            v = node[1]
            imm = _IMM_CACHE.get(v)
            if imm is None:
                imm = Imm(v)
                if -64 <= v <= 4096:
                    _IMM_CACHE[v] = imm
            return imm
        try:
            return Imm(evaluate(node, self.resolve, self._err))
        except Undefined as u:
            lf = label_form(node)
            if lf is None or lf[0] != u.name:
                raise self.asm.undefined_error(u, self) from None
            name, addend_node = lf
            addend = self.const(addend_node, u.col)
            base, _, reloc = name.partition("@")
            ref = LabelRef(base, addend, "@" + reloc if reloc else "")
            self.refs.append((ref, self.loc(u.col)))
            return ref

    # -- items -------------------------------------------------------------
    def parse_items(self, flags_first: bool = False) -> tuple[list[Operand], dict]:
        """parse_items reads operands and modifiers; ``flags_first`` (a cache instruction that takes no operands)
        reads a soft flag (SOFT_FLAGS) at the start of the list as a flag, not as a label or register."""
        toks = self.toks
        n = self.n
        ops: list[Operand] = []
        mods: dict = {}
        after_comma = True
        last_waitcnt = False
        while self.i < n:
            t = toks[self.i]
            if t.kind == "op":
                if t.text == ",":
                    if after_comma:
                        raise self.error("expected an operand before ','")
                    self.i += 1
                    after_comma = True
                    continue
                if t.text == "&" and last_waitcnt:
                    self.i += 1
                    continue
            what = "operand"
            last_waitcnt = False
            if t.kind == "id":
                low = t.text.lower()
                nxt = toks[self.i + 1] if self.i + 1 < n else None
                if nxt is not None and nxt.kind == "op" and nxt.text == ":":
                    self.parse_modifier(low, t, mods)
                    what = f"'{t.text}:'"
                elif low in FLAGS or (low in SOFT_FLAGS and (flags_first or not after_comma)):
                    if low in mods:
                        raise self.error(f"duplicate modifier '{low}'", t.start)
                    mods[low] = True
                    self.mod_cols.append((low, t.start + 1))
                    self.i += 1
                    what = f"'{t.text}'"
                elif low in WAITCNT_FIELDS and nxt is not None and nxt.text == "(":
                    self.parse_waitcnt(low, t, ops, True)
                    last_waitcnt = True
                    what = f"'{t.text}(...)'"
            if what == "operand":
                self.cols.append(t.start + 1)
                ops.append(self.parse_operand())
            after_comma = False
            if self.i < n:
                t = toks[self.i]
                if t.kind == "op" and t.text != "," and not (last_waitcnt and t.text == "&"):
                    raise self.error(f"unexpected '{t.text}' after {what}; expected ',' or a modifier")
        return ops, mods

    def parse_modifier(self, name: str, t: Tok, mods: dict) -> None:
        toks = self.toks
        self.i += 2
        if self.i >= self.n:
            raise self.error(f"expected a value after '{t.text}:'")
        v = toks[self.i]
        value: object
        if v.kind == "op" and v.text == "[":
            value = self.parse_list(t.text)
        elif v.kind == "id" and self._is_plain_name(v):
            low = v.text.lower()
            if low in FUNC_OPERANDS and self.i + 1 < self.n and toks[self.i + 1].text == "(":
                value = self.parse_func(low, v)
            else:
                self.i += 1
                value = v.text
        elif v.kind == "flt":
            raise self.error(f"'{t.text}:' needs an integer, not '{v.text}'", v.start)
        else:
            value = self.const(self.parse_expr(), v.start)
        if name in ("mul", "div"):
            if not isinstance(value, int) or (name, value) not in OMOD:
                raise self.error(f"invalid output modifier '{t.text}:{value}' (use mul:2, mul:4 or div:2)", t.start)
            om = OMOD[(name, value)]
            if "omod" in mods:
                raise self.error("duplicate output modifier", t.start)
            if om is not None:
                mods["omod"] = om
            return
        if name in mods:
            raise self.error(f"duplicate modifier '{name}'", t.start)
        mods[name] = value
        self.mod_cols.append((name, t.start + 1))

    def _is_plain_name(self, v: Tok) -> bool:
        """_is_plain_name: the identifier is a name value (not a symbol, not part of an expression)."""
        nxt = self.toks[self.i + 1] if self.i + 1 < self.n else None
        if nxt is not None and nxt.kind == "op" and nxt.text not in (",", "]", ")", "("):
            return False
        if nxt is not None and nxt.text == "(" and v.text.lower() not in FUNC_OPERANDS:
            return False
        self.pure = False
        return not self.asm.has_symbol(v.text)

    def parse_list(self, key: str) -> tuple:
        open_col = self.toks[self.i].start
        self.i += 1
        items: list = []
        while True:
            if self.i >= self.n:
                raise self.error(f"unbalanced '[' in '{key}:': expected ']'", open_col)
            v = self.toks[self.i]
            if v.kind == "id" and self._is_plain_name(v):
                self.i += 1
                items.append(v.text)
            else:
                items.append(self.const(self.parse_expr(), v.start))
            if self.at_op(","):
                self.i += 1
                continue
            if self.at_op("]"):
                self.i += 1
                return tuple(items)
            raise self.error(f"expected ',' or ']' in '{key}:' list but found {self.describe()}")

    def parse_waitcnt(self, low: str, t: Tok, ops: list, merge: bool) -> None:
        self.i += 2
        node = self.parse_expr()
        if not self.at_op(")"):
            raise self.error(f"unbalanced '(': expected ')' but found {self.describe()}")
        self.i += 1
        value = self.const(node, t.start)
        field = WAITCNT_FIELDS[low]
        if merge and ops and isinstance(ops[-1].value, Waitcnt):
            prev = ops[-1].value
            if getattr(prev, field) is not None:
                raise self.error(f"duplicate '{field}' in s_waitcnt", t.start)
            ops[-1] = Operand(dataclasses.replace(prev, **{field: value}))
        else:
            self.cols.append(t.start + 1)
            ops.append(Operand(Waitcnt(**{field: value})))

    def parse_func(self, name: str, t: Tok) -> FuncOperand:
        self.i += 2  # name and '('
        args: list = []
        if not self.at_op(")"):
            while True:
                if self.i >= self.n:
                    break
                v = self.toks[self.i]
                if v.kind == "str":
                    self.i += 1
                    args.append(v.text[1:-1])
                elif v.kind == "id" and self._is_plain_name(v) and v.text.lower() not in FUNC_OPERANDS:
                    self.i += 1
                    args.append(v.text)
                else:
                    args.append(self.const(self.parse_expr(), v.start))
                if self.at_op(","):
                    self.i += 1
                    continue
                break
        if not self.at_op(")"):
            raise self.error(f"unbalanced '(' in '{name}(...)': expected ')' but found {self.describe()}")
        self.i += 1
        return FuncOperand(name, tuple(args))

    def _starts_register(self, k: int) -> bool:
        t = self.toks[k]
        if t.kind == "op":
            return t.text == "|"
        if t.kind != "id":
            return False
        low = t.text.lower()
        nxt = self.toks[k + 1] if k + 1 < self.n else None
        if low != t.text and self.asm.has_symbol(t.text):
            return False
        if low in SPECIALS or _REG_RE.match(low):
            return True
        if nxt is not None and nxt.kind == "op":
            if nxt.text == "[" and low in REG_FILES:
                return True
            if nxt.text == "(" and low in SRC_MODIFIERS:
                return True
        return False

    def parse_operand(self) -> Operand:
        """parse_operand parses one operand with its ``-``, ``|..|``, abs/neg/sext source modifiers."""
        toks = self.toks
        t = toks[self.i]
        neg = False
        if t.kind == "op" and t.text == "-" and self.i + 1 < self.n and self._starts_register(self.i + 1):
            neg = True
            self.i += 1
            t = toks[self.i]
        if t.kind == "op" and t.text == "|":
            self.i += 1
            if self.i >= self.n:
                raise self.error("expected an operand after '|'")
            inner = toks[self.i]
            if inner.kind == "op" and inner.text in ("-", "|"):
                raise self.error("negation inside '|...|' is not supported; write -|x|")
            value = self.parse_value(no_pipe=True)
            if not self.at_op("|"):
                raise self.error(f"unbalanced '|': expected a closing '|' but found {self.describe()}", t.start)
            self.i += 1
            return Operand(value, neg=neg, abs=True)
        if t.kind == "id" and self.i + 1 < self.n and toks[self.i + 1].text == "(":
            low = t.text.lower()
            if low in SRC_MODIFIERS:
                self.depth += 1
                if self.depth > _expr.MAX_DEPTH:
                    raise self.error("operand is nested too deeply")
                self.i += 2
                if self.i >= self.n:
                    raise self.error(f"expected an operand inside '{low}(...)'")
                inner = self.parse_operand()
                if not self.at_op(")"):
                    raise self.error(f"unbalanced '(' in '{low}(...)': expected ')' but found {self.describe()}",
                                     t.start)
                self.i += 1
                self.depth -= 1
                if low == "abs" and (inner.neg or inner.abs):
                    raise self.error("abs(...) of a negated or abs operand is not supported", t.start)
                flags = {"neg": inner.neg, "abs": inner.abs, "sext": inner.sext}
                if flags[low] or (low == "neg" and neg):
                    raise self.error(f"duplicate '{low}' source modifier", t.start)
                flags[low] = True
                if neg:
                    flags["neg"] = True
                return Operand(inner.value, **flags)
        value = self.parse_value()
        if neg:
            return Operand(value, neg=True)
        return Operand(value)

    def parse_value(self, no_pipe: bool = False):
        """parse_value parses a register, special register, float, label or integer expression."""
        toks = self.toks
        t = toks[self.i]
        kind = t.kind
        if kind == "id":
            low = t.text.lower()
            if low != t.text:
                self.pure = False
                if self.asm.has_symbol(t.text):
                    low = ""  # a symbol spelled like a register in another case (llvm-mc is case-sensitive)
            nxt = toks[self.i + 1] if self.i + 1 < self.n else None
            nxt_op = nxt.text if nxt is not None and nxt.kind == "op" else ""
            m = _REG_RE.match(low)
            if m is not None:
                self.i += 1
                return self._reg(REG_FILES[m.group(1)], _index(m.group(2)), 1, t)
            if nxt_op == "[" and low in REG_FILES:
                return self.parse_reg_range(REG_FILES[low], t)
            special = SPECIALS.get(low)
            if special is not None:
                self.i += 1
                return Special(special)
            if nxt_op == "(" and low in FUNC_OPERANDS:
                return self.parse_func(low, t)
            if nxt_op == "(" and low in WAITCNT_FIELDS:
                raise self.error(f"'{t.text}(...)' is only valid in s_waitcnt", t.start)
        elif kind == "op":
            if t.text == "[":
                return self.parse_reg_list(t)
            if t.text == "-" and self.i + 1 < self.n and toks[self.i + 1].kind == "flt":
                f = toks[self.i + 1]
                self.i += 1
                return FloatImm(-self._float(f))
        elif kind == "flt":
            return FloatImm(self._float(t))
        elif kind == "bad":
            m = _LOCAL_REF_RE.match(t.text)
            if m is not None:
                self.i += 1
                name = self.asm.local_label_ref(m.group(1).lstrip("0") or "0", m.group(2))
                ref = LabelRef(name)
                self.refs.append((ref, self.loc(t.start)))
                self.pure = False
                return ref
        return self.value_of(self.parse_expr(no_pipe=no_pipe))

    def _float(self, t: Tok) -> float:
        v = _expr.parse_float_literal(t.text)
        if v is None:
            raise self.error(f"malformed number '{t.text}'", t.start)
        self.i += 1
        if self.i < self.n:
            nx = self.toks[self.i]
            if nx.kind == "op" and nx.text not in (",", "|", ")", "]"):
                raise self.error(f"floating-point literal '{t.text}' cannot be used in an expression", t.start)
        return v

    def _reg(self, file: str, first: int, count: int, t: Tok) -> Reg:
        key = (file, first, count)
        reg = _REG_CACHE.get(key)
        if reg is not None:
            return reg
        limit = REG_LIMITS[file]
        last = first + count - 1
        if first < 0 or last > limit:
            shown = t.text if count == 1 else f"{t.text}[{first}:{last}]"
            raise self.error(f"register index out of range: {shown} (valid: {file}0..{file}{limit})", t.start)
        reg = _REG_CACHE[key] = Reg(file, first, count)
        return reg

    def parse_reg_range(self, file: str, t: Tok) -> Reg:
        open_col = self.toks[self.i + 1].start
        self.i += 2
        lo_node = self.parse_expr()
        lo = self.const(lo_node, t.start)
        hi = lo
        if self.at_op(":"):
            self.i += 1
            hi = self.const(self.parse_expr(), t.start)
        if not self.at_op("]"):
            raise self.error(f"unbalanced '[': expected ']' but found {self.describe()}", open_col)
        self.i += 1
        if hi < lo:
            raise self.error(f"invalid register range {t.text}[{lo}:{hi}]: the last index is below the first",
                             t.start)
        if lo < 0:
            raise self.error(f"register index out of range: {t.text}[{lo}:{hi}]", t.start)
        return self._reg(file, lo, hi - lo + 1, t)

    def parse_reg_list(self, t: Tok) -> Reg:
        self.i += 1
        regs: list[Reg] = []
        while True:
            if self.i >= self.n:
                raise self.error("unbalanced '[': expected ']'", t.start)
            v = self.toks[self.i]
            if v.kind != "id":
                raise self.error(f"expected a register in a register list but found '{v.text}'", v.start)
            low = v.text.lower()
            m = _REG_RE.match(low)
            if m is not None:
                self.i += 1
                r = self._reg(REG_FILES[m.group(1)], _index(m.group(2)), 1, v)
            elif low in REG_FILES and self.i + 1 < self.n and self.toks[self.i + 1].text == "[":
                r = self.parse_reg_range(REG_FILES[low], v)
            else:
                raise self.error(f"expected a register in a register list but found '{v.text}'", v.start)
            if regs and (r.file != regs[-1].file or r.first != regs[-1].first + regs[-1].count):
                raise self.error("a register list must name consecutive registers of one kind", v.start)
            regs.append(r)
            if self.at_op(","):
                self.i += 1
                continue
            if self.at_op("]"):
                self.i += 1
                break
            raise self.error(f"expected ',' or ']' in a register list but found {self.describe()}")
        return Reg(regs[0].file, regs[0].first, sum(r.count for r in regs))


# --------------------------------------------------------------------------
# The assembler: statements, directives, macros
# --------------------------------------------------------------------------
class _Assembler:
    """_Assembler holds the state of one parse; ``run`` fills and returns ``module``."""

    def __init__(self, path: str, library_dirs: Optional[tuple[str, ...]] = None):
        self.path = path
        self.module = AsmModule(path=path)
        self.source_lines = library_dirs is not None   # whether .file/.loc give instructions their origin
        self.library_dirs = tuple(os.path.realpath(d) for d in library_dirs or ())
        self.source_files: dict[int, Optional[str]] = {}   # .file numbers: a program file's path, None: a library's
        self.origin: Optional[SourceLoc] = None            # the program line the last .loc named
        self.symbols: dict[str, int] = {}
        self.lazy: dict[str, tuple] = {}  # name -> (node, Line)
        self.evaluating: list[str] = []
        self.macros: dict[str, _Macro] = {}
        self.label_locs: dict[str, SourceLoc] = {}
        self.data_labels: set[str] = set()
        self.local_counts: dict[str, int] = {}
        self.section = ".text"             # the section being assembled into
        self.section_stack: list[str] = []
        self.previous_section = ".text"
        self.static = StaticDataBuilder()  # what .data, .rodata and .bss hold (gpusim.asm.static_data)
        self.data_addresses: list = []   # (label, line, column) of each address static data holds
        self.conds: list[_Cond] = []
        self.frames: list[_Frame] = []
        self.macro_counter = 0
        self.expanded = 0
        self.include_depth = 0
        self.pending_kernels: list[_PendingKernel] = []
        self.refs: list[tuple[int, LabelRef, SourceLoc]] = []
        self.text_data: Optional[tuple[str, SourceLoc]] = None
        self.metadata_blocks: dict[tuple[str, int], str] = {}
        self.opcache: dict[tuple[str, bool], tuple] = {}
        self.current: Optional[Line] = None
        self.headers = []

    # -- driver ------------------------------------------------------------
    def run(self, text: str) -> AsmModule:
        pre = self._preprocess(text, self.path)
        launch, args, checks = parse_header_lines(self.headers)
        self.module.launch, self.module.args, self.module.checks = launch, args, checks
        self.frames.append(_Frame(pre.lines, "file"))
        self._loop()
        self._finish()
        return self.module

    def _preprocess(self, text: str, path: str) -> Preprocessed:
        pre = preprocess(text, path)
        self.headers.extend(pre.headers)
        for lineno, body in pre.metadata.items():
            self.metadata_blocks[(path, lineno)] = body
        return pre

    def current_loc(self) -> Optional[SourceLoc]:
        line = self.current
        return SourceLoc(line.file, line.lineno, 1, line.text) if line else None

    def _loop(self) -> None:
        frames = self.frames
        while frames:
            frame = frames[-1]
            if frame.i >= len(frame.lines):
                frames.pop()
                if frame.kind == "file":
                    self.include_depth -= 1
                continue
            line = frame.lines[frame.i]
            frame.i += 1
            self.current = line
            try:
                self._statement(line)
            except AsmError as e:
                self._add_context(e)
                raise

    def _add_context(self, e: AsmError) -> None:
        if getattr(e, "_context_added", False):
            return
        e._context_added = True
        for frame in reversed(self.frames):
            if frame.kind == "macro" and frame.call is not None:
                c = frame.call
                e.message = f"{e.message} (in macro '{frame.name}' expanded at {c.file}:{c.lineno})"
                e.args = (e.message,)
                return

    def err(self, msg: str, line: Line, col0: int = -1, hint: str = "") -> AsmError:
        """err builds an AsmError at 0-based column ``col0`` of ``line`` (default: first non-blank)."""
        if col0 < 0:
            col0 = len(line.code) - len(line.code.lstrip())
        return AsmError(msg, SourceLoc(line.file, line.lineno, col0 + 1, line.text), hint)

    # -- symbols -------------------------------------------------------------
    def has_symbol(self, name: str) -> bool:
        return name in self.symbols or name in self.lazy

    def resolve(self, name: str, col: int) -> int:
        v = self.symbols.get(name)
        if v is not None:
            return v
        ent = self.lazy.get(name)
        if ent is None:
            raise Undefined(name, col)
        node, line = ent
        if name in self.evaluating:
            raise self.err(f"symbol '{name}' is defined in terms of itself", line)
        if len(self.evaluating) > 64:
            raise self.err(f"symbol '{name}' is defined through too many other symbols", line)
        self.evaluating.append(name)
        try:
            return evaluate(node, self.resolve, lambda msg, c: self.err(msg, line, c))
        except Undefined as u:
            u2 = Undefined(u.name, col)
            u2.via = name
            raise u2 from None
        finally:
            self.evaluating.pop()

    def undefined_error(self, u: Undefined, p: ExprParser) -> AsmError:
        via = getattr(u, "via", None)
        msg = f"undefined symbol '{u.name}'" + (f" (needed by '{via}')" if via else "")
        names = list(self.symbols) + list(self.lazy) + list(self.label_locs)
        return p.error(msg, u.col, did_you_mean(u.name, names))

    def local_label_ref(self, number: str, direction: str) -> str:
        k = self.local_counts.get(number, 0)
        if direction == "f":
            k += 1
        elif k == 0:
            raise self.err(f"no previous definition of local label '{number}:' for '{number}b'", self.current)
        return f".Llocal{number}.{k}"

    def _expr_parser(self, line: Line, pos: int) -> ExprParser:
        return ExprParser(tokenize(line.code, pos, line.file, line.lineno, line.text),
                          line.file, line.lineno, line.text)

    def _const_expr(self, line: Line, pos: int, what: str) -> int:
        """_const_expr evaluates the rest of ``line`` from ``pos`` as one integer expression."""
        p = self._expr_parser(line, pos)
        if p.n == 0:
            raise self.err(f"{what} needs an expression", line, len(line.code.rstrip()))
        node = p.parse_expr()
        if p.i < p.n:
            raise p.error(f"unexpected {p.describe()} after the expression")
        try:
            return evaluate(node, self.resolve, lambda msg, c: p.error(msg, c))
        except Undefined as u:
            raise self.undefined_error(u, p) from None

    def _define_symbol(self, name: str, line: Line, pos: int, name_col: int, equiv: bool = False) -> None:
        if _REG_RE.match(name) or name in SPECIALS:
            raise self.err(f"cannot define symbol '{name}': it is a register name", line, name_col)
        if equiv and self.has_symbol(name):
            raise self.err(f"symbol '{name}' is already defined", line, name_col)
        if name in self.label_locs:
            raise self.err(f"symbol '{name}' is already defined as a label", line, name_col)
        p = self._expr_parser(line, pos)
        if p.n == 0:
            raise self.err(f"missing value for symbol '{name}'", line, len(line.code.rstrip()))
        node = p.parse_expr()
        if p.i < p.n:
            raise p.error(f"unexpected {p.describe()} after the expression")
        try:
            value = evaluate(node, self.resolve, lambda msg, c: p.error(msg, c))
        except Undefined:
            self.symbols.pop(name, None)
            self.lazy[name] = (node, line)
            return
        self.lazy.pop(name, None)
        self.symbols[name] = value

    # -- statements ----------------------------------------------------------
    def _statement(self, line: Line) -> None:
        code = line.code
        if self.conds and not self.conds[-1].active:
            m = _WORD_RE.match(code)
            if m is not None:
                d = m.group(1).lower()
                if d in _IF_DIRECTIVES or d in (".else", ".elseif", ".endif"):
                    self._conditional(d, line, m.end(), m.start(1))
            return
        pos = 0
        if ":" in code:
            while True:
                m = _LABEL_RE.match(code, pos)
                if m is None:
                    break
                self._define_label(m.group(1), line, m.start(1))
                pos = m.end()
        m = _WORD_RE.match(code, pos)
        if m is None:
            rest = code[pos:]
            if rest.strip():
                col = pos + len(rest) - len(rest.lstrip())
                raise self.err(f"expected an instruction, directive or label but found '{rest.strip()[:20]}'",
                               line, col)
            return
        word = m.group(1)
        wcol = m.start(1)
        end = m.end()
        if _ASSIGN_RE.match(code, end):
            a = _ASSIGN_RE.match(code, end)
            self._define_symbol(word, line, a.end(), wcol)
            return
        macro = self.macros.get(word)
        if macro is not None:
            self._expand_macro(macro, line, end)
            return
        if word[0] == ".":
            self._directive(word.lower(), line, end, wcol)
            return
        self._instruction(word, line, end, wcol)

    def _define_label(self, name: str, line: Line, col: int) -> None:
        if name.isdigit():
            number = name.lstrip("0") or "0"
            k = self.local_counts.get(number, 0) + 1
            self.local_counts[number] = k
            name = f".Llocal{number}.{k}"
        else:
            prev = self.label_locs.get(name)
            if prev is not None:
                raise self.err(f"duplicate label '{name}' (first defined at line {prev.line})", line, col)
            if self.has_symbol(name):
                raise self.err(f"label '{name}' is already defined as a symbol", line, col)
            if _REG_RE.match(name) or name in SPECIALS:
                raise self.err(f"'{name}' is a register name and cannot be a label", line, col)
        self.label_locs[name] = SourceLoc(line.file, line.lineno, col + 1, line.text)
        if self.in_text:
            self.module.labels[name] = len(self.module.instructions)
        else:
            self.data_labels.add(name)
            if is_static_section(self.section):
                self.static.label(self.section, name)

    def _instruction(self, word: str, line: Line, pos: int, wcol: int) -> None:
        if not self.in_text:
            raise self.err(f"instruction '{word}' outside a code section (add '.text' before it)", line, wcol)
        if self.text_data is not None:
            d, dloc = self.text_data
            raise AsmError(f"data directive '{d}' between instructions in .text is not supported "
                           "(only trailing padding after the last instruction is)", dloc)
        mnemonic = word.lower()
        suffix = ""
        if mnemonic.endswith(SUFFIXES):
            base, _, suffix = mnemonic.rpartition("_")
            mnemonic = base
        # a cache instruction with no operands (buffer_wbl2 nt) reads a leading 'nt' as its flag, not a label
        definition = isa.lookup(mnemonic)
        bare = definition is not None and definition.layout == "none" and definition.fmt == "MUBUF"
        key = (line.code[pos:], bare)
        cached = self.opcache.get(key)
        loc = SourceLoc(line.file, line.lineno, wcol + 1, line.text)
        if cached is not None:
            ops, mods, cols, mod_cols = cached
            self.module.instructions.append(Instruction(mnemonic, suffix, list(ops), dict(mods), loc, cols,
                                                        mod_cols, self.origin))
            return
        cols: tuple[int, ...] = ()
        mod_cols: tuple[tuple[str, int], ...] = ()
        toks = tokenize(line.code, pos, line.file, line.lineno, line.text)
        if toks:
            p = _OperandParser(self, toks, line)
            ops, mods = p.parse_items(flags_first=bare)
            cols = tuple(p.cols)
            mod_cols = tuple(p.mod_cols)
            if p.refs:
                index = len(self.module.instructions)
                for ref, rloc in p.refs:
                    self.refs.append((index, ref, rloc))
            elif p.pure:
                if len(self.opcache) > _OPCACHE_LIMIT:
                    self.opcache.clear()
                self.opcache[key] = (tuple(ops), dict(mods), cols, mod_cols)
        else:
            ops, mods = [], {}
        self.module.instructions.append(Instruction(mnemonic, suffix, ops, mods, loc, cols, mod_cols, self.origin))

    # -- directives ----------------------------------------------------------
    @property
    def in_text(self) -> bool:
        return self.section == ".text" or self.section.startswith(".text.")

    def _switch(self, section: str) -> None:
        self.previous_section, self.section = self.section, section

    def _directive(self, d: str, line: Line, pos: int, col: int) -> None:
        if is_static_section(self.section) and (d in DATA_DIRECTIVES or d in ALIGN_DIRECTIVES):
            self._static_data(d, line, pos, col)
            return
        if self.in_text and d in ALIGN_DIRECTIVES:
            self._text_alignment(d, line, pos)
            return
        if d in IGNORED_DIRECTIVES or d.startswith(".cfi_"):
            return
        if d in DATA_DIRECTIVES:
            if self.in_text and self.text_data is None and d not in PADDING_DIRECTIVES:
                self.text_data = (d, SourceLoc(line.file, line.lineno, col + 1, line.text))
            return
        if d in _IF_DIRECTIVES or d in (".else", ".elseif", ".endif"):
            self._conditional(d, line, pos, col)
            return
        handler = _DIRECTIVE_HANDLERS.get(d)
        if handler is None:
            raise self.err(f"unknown directive '{d}'", line, col,
                           did_you_mean(d, sorted(KNOWN_DIRECTIVES)))
        handler(self, d, line, pos, col)

    def _text_alignment(self, d: str, line: Line, pos: int) -> None:
        """_text_alignment records that the next instruction starts at a multiple of the directive's alignment
        (``.p2align 8`` before a kernel or function: llvm-mc pads the text with s_nop 0 to it), unless that
        takes more than its MAX bytes, so that gpusim's pcs are the real encoding's. A form it cannot read
        aligns nothing, as gpusim ignored text alignment before."""
        try:
            values = [v for v, _ in self._data_values(line, pos, d)]
        except AsmError:
            return
        power = d.startswith(".p2align")
        if not values or not all(isinstance(v, int) for v in values) \
                or not (0 <= values[0] <= 16 if power else 1 <= values[0] <= 1 << 16):
            return
        alignment = 1 << values[0] if power else values[0]
        if alignment & (alignment - 1) == 0 and alignment > 1:
            most = values[2] if len(values) > 2 and values[2] > 0 else alignment
            self.module.text_alignments.setdefault(len(self.module.instructions), []).append((alignment, most))

    def _d_file(self, d, line, pos, col):
        """.file N "DIR" "NAME" (or "PATH") numbers a source file for .loc; a bare .file "NAME" names the
        object's source and numbers nothing. Forms llvm-mc would refuse number nothing either."""
        m = _FILE_RE.match(line.code, pos) if self.source_lines else None
        if m is None:
            return
        path = m.group(2) if m.group(3) is None else os.path.join(m.group(2), m.group(3))
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):   # a name no file system holds: not a library's
            real = path
        library = any(real == d or real.startswith(d + os.sep) for d in self.library_dirs)
        self.source_files[int(m.group(1))] = None if library else _shown_path(path)

    def _d_loc(self, d, line, pos, col):
        """.loc N LINE [COL] ...: the instructions that follow come from line LINE of file N, unless that is a
        library's file or line 0 (no line), which keep the origin the program's last line gave."""
        m = _LOC_RE.match(line.code, pos) if self.source_lines else None
        if m is None:
            return
        path = self.source_files.get(int(m.group(1)))
        lineno = int(m.group(2))
        if path is not None and lineno > 0:
            self.origin = SourceLoc(path, lineno, max(int(m.group(3) or 1), 1))

    def _d_text(self, d, line, pos, col):
        self._switch(".text")

    def _d_data(self, d, line, pos, col):
        self._switch(d)

    def _d_section(self, d, line, pos, col):
        m = _SECTION_RE.match(line.code, pos)
        if m is None:
            raise self.err(f"'{d}' needs a section name", line, len(line.code.rstrip()))
        if d == ".pushsection":
            self.section_stack.append(self.section)
        self._switch(m.group(1).strip('"'))

    def _d_popsection(self, d, line, pos, col):
        if not self.section_stack:
            raise self.err("'.popsection' without '.pushsection'", line, col)
        self._switch(self.section_stack.pop())

    def _d_previous(self, d, line, pos, col):
        self._switch(self.previous_section)

    def _static_data(self, d: str, line: Line, pos: int, col: int) -> None:
        """_static_data adds what data or alignment directive ``d`` writes to the current static section (the
        directives and the value ranges llvm-mc-19 accepts; gpusim.asm.static_data)."""
        section = self.section
        before = (len(self.static.sections.get(section, b"")), len(self.static.relocations))
        self._static_bytes(d, section, line, pos, col)
        if section == ".bss" or section.startswith(".bss."):
            body = self.static.sections.get(section, bytearray())
            if d in (".zero", ".space", ".skip", ".p2align", ".align", ".balign"):   # llvm-mc ignores their fill here
                body[before[0]:] = bytes(len(body) - before[0])
            elif any(body[before[0]:]) or len(self.static.relocations) > before[1]:
                raise self.err(f"'{d}' writes data into {section}, which holds zeros only (llvm-mc: SHT_NOBITS "
                               "section cannot have non-zero initializers); initialised data goes in .data", line, col)
        self._check_static_size(line, col)

    def _static_bytes(self, d: str, section: str, line: Line, pos: int, col: int) -> None:
        """_static_bytes appends what data or alignment directive ``d`` writes to static section ``section``."""
        if d in _INTEGER_BYTES:
            size = _INTEGER_BYTES[d]
            for value, vcol in self._data_values(line, pos, d, addresses=size == 8):
                if isinstance(value, tuple):   # a label's address plus a constant: written once labels are placed
                    symbol, addend = value
                    self.static.address(section, symbol, addend)
                    self.data_addresses.append((symbol, line, vcol))
                    continue
                if size < 8 and not -(1 << (8 * size - 1)) <= value < (1 << (8 * size)):
                    raise self.err(f"{value} does not fit the {size}-byte '{d}'", line, vcol)
                self.static.emit(section, (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little"))
        elif d in (".float", ".double"):
            for text in line.code[pos:].split(","):
                value = _float_value(text)
                if value is None:
                    raise self.err(f"'{d}' needs numbers, got '{text.strip()}'", line, pos)
                if value != value:   # llvm-mc's NaN: every exponent and mantissa bit set, the sign as written
                    packed = struct.pack("<q" if d == ".double" else "<i", -1 if math.copysign(1, value) < 0 else
                                         (1 << (63 if d == ".double" else 31)) - 1)
                else:
                    try:
                        packed = struct.pack("<d" if d == ".double" else "<f", value)
                    except OverflowError:   # past the format's range a value is infinite, as llvm-mc makes it
                        packed = struct.pack("<f", math.copysign(math.inf, value))
                self.static.emit(section, packed)
        elif d in (".ascii", ".asciz", ".string"):
            rest = line.code[pos:]
            at = 0
            while at < len(rest) and rest[at:].strip():
                m = _STRINGS_RE.match(rest, at)
                if m is None:
                    raise self.err(f"'{d}' needs quoted strings", line, pos + at)
                body = _unescape(m.group(1))
                if body is None:
                    raise self.err("invalid octal escape sequence (out of range)", line, pos + m.start(1) - 1)
                self.static.emit(section, body + (b"" if d == ".ascii" else b"\0"))
                at = m.end()
        elif d in (".zero", ".space", ".skip", ".fill"):
            values = [v for v, _ in self._data_values(line, pos, d)]
            most = 3 if d == ".fill" else 2   # .fill COUNT[, SIZE[, VALUE]]; .zero COUNT[, FILL]
            if not values or len(values) > most:
                raise self.err(f"expected '{d} COUNT" + ("[, SIZE[, VALUE]]'" if d == ".fill" else "[, FILL]'"),
                               line, col)
            count = values[0]
            size = values[1] if d == ".fill" and len(values) > 1 else 1
            value = values[-1] if len(values) == most else 0
            if not 1 <= size <= 8 or not 0 <= count * size <= MAX_STATIC_DATA_BYTES:
                raise self.err(f"'{d}' of {count} x {size} bytes is not a size gpusim places", line, col)
            self.static.emit(section, (value & ((1 << (8 * min(size, 4))) - 1)).to_bytes(size, "little") * count)
        elif d in (".p2align", ".align", ".balign"):
            values = [v for v, _ in self._data_values(line, pos, d)]
            if not values or len(values) > 3 or not 0 <= values[0] <= (16 if d == ".p2align" else 1 << 16):
                raise self.err(f"expected '{d} ALIGNMENT[, FILL[, MAX]]'", line, col)
            alignment = 1 << values[0] if d == ".p2align" else max(values[0], 1)   # .align 0 is 1, as llvm-mc
            self._check_alignment(d, alignment, line, col)
            pad = -len(self.static.sections.get(section, b"")) % alignment
            if len(values) < 3 or pad <= values[2]:
                self.static.align(section, alignment, values[1] if len(values) > 1 else 0)
        else:   # .octa, .dc, .uleb128, .sleb128, the word-filled alignments: not what compilers emit here
            raise self.err(f"'{d}' in {section} is not supported yet", line, col)

    def _check_alignment(self, d: str, alignment: int, line: Line, col: int) -> None:
        """_check_alignment refuses an alignment of directive ``d`` that is not a power of two."""
        if alignment < 1 or alignment & (alignment - 1):
            raise self.err(f"'{d}' alignment {alignment} is not a power of two", line, col)

    def _check_static_size(self, line: Line, col: int) -> None:
        """_check_static_size refuses the directive at ``line`` once the static sections together hold more than
        MAX_STATIC_DATA_BYTES."""
        if sum(len(b) for b in self.static.sections.values()) > MAX_STATIC_DATA_BYTES:
            raise self.err(f"static data over {MAX_STATIC_DATA_BYTES >> 20} MiB", line, col)

    def _data_values(self, line: Line, pos: int, d: str, addresses: bool = False) -> list[tuple[object, int]]:
        """_data_values evaluates a data directive's comma-separated integer expressions: (value, column) pairs.

        With ``addresses`` (an 8-byte directive) an expression of a label, defined before or after, plus or minus
        constants, is that label's address: its value is (label, addend), which llvm-mc writes as an
        R_AMDGPU_ABS64 relocation; any other use of a label's address is refused, as llvm-mc refuses it
        ("expected relocatable expression"), or as not supported yet (a 4-byte address)."""
        p = self._expr_parser(line, pos)
        out = []
        while p.i < p.n:
            start = p.toks[p.i].start
            node = p.parse_expr()
            try:
                out.append((evaluate(node, self.resolve, lambda msg, c: p.error(msg, c)), start))
            except Undefined as u:
                if addresses:
                    addend = self._addend(node, u.name, p)
                    if addend is None:
                        raise self.err(f"'{d}' needs a relocatable expression here: a label plus or minus a "
                                       "constant", line, start) from None
                    out.append(((u.name, addend), start))
                elif u.name in self.label_locs or u.name in self.data_labels:
                    raise self.err(f"'{d}' of the address of '{u.name}' is not supported yet (gpusim places an "
                                   "address in 8-byte data: '.quad')", line, start) from None
                else:
                    raise self.err(f"'{d}' of '{u.name}', which is not yet defined: gpusim needs a symbol set "
                                   "before data uses it", line, start) from None
            if p.i < p.n:
                p.expect(",")
        return out

    def _addend(self, node, name: str, p) -> Optional[int]:
        """_addend is A when expression ``node`` is label ``name`` plus or minus constants (``name + A``, ``A +
        name``, ``name - A``, nested), the form llvm-mc relocates; None for any other expression."""
        tag = node[0]
        if tag == "s" and node[1] == name:
            return 0
        if tag != "b" or node[1] not in ("+", "-"):
            return None
        constant = lambda n: evaluate(n, self.resolve, lambda msg, c: p.error(msg, c))   # noqa: E731
        try:
            left = self._addend(node[2], name, p)
            if left is not None:
                return left + constant(node[3]) if node[1] == "+" else left - constant(node[3])
            right = self._addend(node[3], name, p) if node[1] == "+" else None
            return None if right is None else constant(node[2]) + right
        except Undefined:   # a second label in the expression
            return None

    def _d_common(self, d, line, pos, col):
        """.comm NAME, SIZE[, ALIGNMENT] and .lcomm NAME, SIZE: a zeroed variable the linker places in .bss (clang
        writes a static or common global this way), a data label like any other there."""
        m = _SET_RE.match(line.code, pos)
        if m is None:
            raise self.err(f"expected '{d} NAME, SIZE[, ALIGNMENT]'", line, col)
        name = m.group(1)
        parsed = self._data_values(line, m.end(), d)
        values = [v for v, _ in parsed]
        if d == ".lcomm" and len(values) > 1:   # as llvm-mc-19 for amdgcn
            raise self.err("alignment not supported on this target", line, parsed[1][1])
        if not values or len(values) > 2 or not 0 <= values[0] <= MAX_STATIC_DATA_BYTES:
            raise self.err(f"expected '{d} NAME, SIZE[, ALIGNMENT]' with a size gpusim places", line, col)
        alignment = values[1] if len(values) > 1 else 1
        self._check_alignment(d, alignment, line, col)
        if name in self.label_locs or self.has_symbol(name):
            raise self.err(f"'{name}' is already defined", line, m.start(1))
        self.label_locs[name] = SourceLoc(line.file, line.lineno, m.start(1) + 1, line.text)
        self.data_labels.add(name)
        self.static.align(".bss", alignment)
        self.static.label(".bss", name)
        self.static.emit(".bss", bytes(values[0]))
        self._check_static_size(line, col)

    def _d_set(self, d, line, pos, col):
        m = _SET_RE.match(line.code, pos)
        if m is None:
            raise self.err(f"expected '{d} NAME, EXPR'", line, col)
        self._define_symbol(m.group(1), line, m.end(), m.start(1), equiv=(d == ".equiv"))

    def _d_target(self, d, line, pos, col):
        m = _STRING_ARG_RE.match(line.code, pos)
        if m is None:
            raise self.err('expected .amdgcn_target "amdgcn-amd-amdhsa--gfxNNN"', line, _skip_ws(line.code, pos))
        target = m.group(1)
        if self.module.target and self.module.target != target:
            raise self.err(f"conflicting .amdgcn_target '{target}' (earlier: '{self.module.target}')", line, col)
        self.module.target = target
        g = _GFX_RE.search(target)
        if g is not None:
            self.symbols[".amdgcn.gfx_generation_number"] = int(g.group(1))
            self.symbols[".amdgcn.gfx_generation_minor"] = int(g.group(2), 16)
            self.symbols[".amdgcn.gfx_generation_stepping"] = int(g.group(3), 16)

    def _d_metadata(self, d, line, pos, col):
        body = self.metadata_blocks.get((line.file, line.lineno))
        if body is None:
            raise self.err("'.amdgpu_metadata' must stand alone on its line", line, col)
        try:  # untrusted YAML: refuse alias bombs and oversized blocks here, at their line
            screen(body, line.file, AsmError, first_line=line.lineno + 1)
        except yaml.YAMLError:
            pass  # malformed metadata is ignored, as before (the launch falls back to the header)
        self.module.metadata += body

    def _d_stray_end(self, d, line, pos, col):
        opener = {".end_amdhsa_kernel": ".amdhsa_kernel", ".end_amdgpu_metadata": ".amdgpu_metadata",
                  ".endm": ".macro", ".endmacro": ".macro", ".endr": ".rept"}[d]
        raise self.err(f"'{d}' without a matching '{opener}'", line, col)

    def _d_error(self, d, line, pos, col):
        m = _STRING_ARG_RE.match(line.code, pos)
        msg = m.group(1) if m else line.code[pos:].strip()
        raise self.err(f".error: {msg}" if msg else ".error directive", line, col)

    def _d_include(self, d, line, pos, col):
        m = _STRING_ARG_RE.match(line.code, pos)
        if m is None:
            raise self.err('expected .include "FILE"', line, _skip_ws(line.code, pos))
        name = m.group(1)
        base = os.path.dirname(line.file) if line.file and not line.file.startswith("<") else "."
        path = name if os.path.isabs(name) else os.path.join(base, name)
        if self.include_depth >= MAX_INCLUDE_DEPTH:
            raise self.err(f"'.include' nested more than {MAX_INCLUDE_DEPTH} deep", line, col)
        loc = SourceLoc(line.file, line.lineno, col + 1, line.text)
        pre = self._preprocess(_read_source(path, loc), path)
        if pre.headers:
            raise AsmError("gpusim header lines must be in the main file, not an included one",
                           SourceLoc(path, pre.headers[0].lineno, pre.headers[0].col, pre.headers[0].text))
        self.include_depth += 1
        self.frames.append(_Frame(pre.lines, "file", path, line))

    # -- conditionals --------------------------------------------------------
    def _conditional(self, d: str, line: Line, pos: int, col: int) -> None:
        conds = self.conds
        loc = SourceLoc(line.file, line.lineno, col + 1, line.text)
        if d in _IF_DIRECTIVES:
            parent = not conds or conds[-1].active
            value = self._if_value(d, line, pos, col) if parent else False
            conds.append(_Cond(parent, value, value, False, loc))
            return
        if not conds:
            raise self.err(f"'{d}' without '.if'", line, col)
        top = conds[-1]
        if d == ".endif":
            conds.pop()
            return
        if top.seen_else:
            raise self.err(f"'{d}' after '.else'", line, col)
        if d == ".else":
            top.seen_else = True
            top.active = top.parent_active and not top.taken
            top.taken = True
            return
        # .elseif
        if top.parent_active and not top.taken:
            value = self._const_expr(line, pos, d) != 0
            top.active = value
            top.taken = value
        else:
            top.active = False

    def _if_value(self, d: str, line: Line, pos: int, col: int) -> bool:
        rest = line.code[pos:].strip()
        if d in (".ifdef", ".ifndef", ".ifnotdef"):
            if not _IDENT_RE.match(rest):
                raise self.err(f"'{d}' needs a symbol name", line, _skip_ws(line.code, pos))
            defined = self.has_symbol(rest) or rest in self.label_locs
            return defined if d == ".ifdef" else not defined
        if d in (".ifb", ".ifnb"):
            return (rest == "") == (d == ".ifb")
        if d in (".ifc", ".ifnc"):
            parts = _split_args(rest)
            if len(parts) != 2:
                raise self.err(f"'{d}' needs two comma-separated strings", line, _skip_ws(line.code, pos))
            a, b = (p.strip().strip("'\"") for p in parts)
            return (a == b) == (d == ".ifc")
        v = self._const_expr(line, pos, d)
        return {".if": v != 0, ".ifne": v != 0, ".ifeq": v == 0, ".ifgt": v > 0, ".ifge": v >= 0,
                ".iflt": v < 0, ".ifle": v <= 0}[d]

    # -- macros and loops ----------------------------------------------------
    def _collect(self, openers, closers, line: Line, col: int, what: str, closer: str) -> list[Line]:
        frame = self.frames[-1]
        body: list[Line] = []
        depth = 1
        lines = frame.lines
        while frame.i < len(lines):
            ln = lines[frame.i]
            frame.i += 1
            m = _WORD_RE.match(ln.code)
            if m is not None:
                w = m.group(1).lower()
                if w in openers:
                    depth += 1
                elif w in closers:
                    depth -= 1
                    if depth == 0:
                        rest = ln.code[m.end():].strip()
                        if rest and w != ".endm":
                            raise self.err(f"unexpected '{rest}' after '{w}'", ln, m.end())
                        return body
            body.append(ln)
        raise self.err(f"'{what}' without '{closer}'", line, col)

    def _d_macro(self, d, line, pos, col):
        rest = line.code[pos:]
        m = _WORD_RE.match(rest)
        if m is None:
            raise self.err("'.macro' needs a name", line, _skip_ws(line.code, pos))
        name = m.group(1)
        params_text = rest[m.end():].strip()
        if params_text.startswith(","):
            params_text = params_text[1:]
        params: list[tuple[str, Optional[str], str]] = []
        seen: set[str] = set()
        for ptext in (_split_args(params_text) if params_text.strip() else []):
            ptext = ptext.strip()
            if not ptext:
                raise self.err(f"empty parameter in '.macro {name}'", line, col)
            pm = _PARAM_RE.match(ptext)
            if pm is None:
                raise self.err(f"malformed macro parameter '{ptext}'", line, col + line.code[col:].find(ptext))
            pname, qual, default = pm.group(1), pm.group(2) or "", pm.group(3)
            if pname in seen:
                raise self.err(f"duplicate macro parameter '{pname}'", line, col + line.code[col:].find(ptext))
            if params and params[-1][2] == "vararg":
                raise self.err("a ':vararg' parameter must be the last one", line, col)
            seen.add(pname)
            params.append((pname, default.strip() if default is not None else None, qual))
        body = self._collect((".macro",), (".endm", ".endmacro"), line, col, ".macro", ".endm")
        if name in self.macros:
            raise self.err(f"macro '{name}' is already defined (at line {self.macros[name].loc.line})", line,
                           pos + m.start(1))
        self.macros[name] = _Macro(name, params, body, SourceLoc(line.file, line.lineno, col + 1, line.text))

    def _d_purgem(self, d, line, pos, col):
        name = line.code[pos:].strip()
        if name not in self.macros:
            raise self.err(f"'.purgem': no macro named '{name}'", line, pos, did_you_mean(name, self.macros))
        del self.macros[name]

    def _d_exitm(self, d, line, pos, col):
        frames = self.frames
        for k in range(len(frames) - 1, -1, -1):
            if frames[k].kind == "macro":
                del self.conds[frames[k].cond_depth:]
                del frames[k:]
                return
            if frames[k].kind == "file":
                break
        raise self.err("'.exitm' outside a macro", line, col)

    def _push_expansion(self, lines: list[Line], kind: str, name: str, call: Line) -> None:
        self.expanded += len(lines)
        if self.expanded > MAX_EXPANDED_LINES:
            raise self.err(f"macro and .rept expansion exceeds {MAX_EXPANDED_LINES} lines", call)
        if kind == "macro":
            depth = sum(1 for f in self.frames if f.kind == "macro")
            if depth >= MAX_MACRO_DEPTH:
                raise self.err(f"macros nested more than {MAX_MACRO_DEPTH} deep (recursive macro '{name}'?)", call)
        self.frames.append(_Frame(lines, kind, name, call, len(self.conds)))

    def _expand_macro(self, macro: _Macro, line: Line, pos: int) -> None:
        args_text = line.code[pos:]
        values: dict[str, str] = {}
        params = macro.params
        names = [p[0] for p in params]
        acol = _skip_ws(line.code, pos)
        plural = "s" if len(params) != 1 else ""
        positional = 0
        pieces = _split_args(args_text.strip()) if args_text.strip() else []
        for k, piece in enumerate(pieces):
            piece_s = piece.strip()
            km = re.match(r"([A-Za-z_]\w*)[ \t]*=(?!=)(.*)$", piece_s, re.S)
            if km is not None and km.group(1) in names:
                pname = km.group(1)
                if pname in values:
                    raise self.err(f"macro '{macro.name}': argument '{pname}' given twice", line, acol)
                values[pname] = km.group(2).strip()
                continue
            if km is not None and not _REG_RE.match(km.group(1).lower()):
                raise self.err(f"macro '{macro.name}' has no parameter '{km.group(1)}'", line, acol,
                               did_you_mean(km.group(1), names))
            if positional >= len(params):
                raise self.err(f"macro '{macro.name}' takes {len(params)} argument{plural}, got {len(pieces)}",
                               line, acol)
            pname, _, qual = params[positional]
            if qual == "vararg":
                values[pname] = ", ".join(p.strip() for p in pieces[k:])
                positional += 1
                break
            values[pname] = _unquote(piece_s)
            positional += 1
        for pname, default, qual in params:
            if pname not in values:
                if default is not None:
                    values[pname] = default
                elif qual == "vararg":
                    values[pname] = ""
                else:
                    raise self.err(f"macro '{macro.name}' takes {len(params)} argument{plural}: missing '{pname}'",
                                   line, acol)
        counter = str(self.macro_counter)
        self.macro_counter += 1

        def sub(m: re.Match) -> str:
            key = m.group(1)
            if key == "@":
                return counter
            if key == "()":
                return ""
            v = values.get(key)
            return m.group(0) if v is None else v

        out = []
        for ln in macro.body:
            code = ln.code
            if "\\" in code:
                code = _SUBST_RE.sub(sub, code)
                out.append(Line(ln.file, ln.lineno, code, code))
            else:
                out.append(ln)
        self._push_expansion(out, "macro", macro.name, line)

    def _d_rept(self, d, line, pos, col):
        if d in (".rept", ".rep"):
            count = self._const_expr(line, pos, d)
            if count < 0:
                raise self.err(f"'{d}' count must not be negative, got {count}", line, _skip_ws(line.code, pos))
            body = self._collect(_LOOP_OPENERS, (".endr",), line, col, d, ".endr")
            if count * max(len(body), 1) > MAX_EXPANDED_LINES:
                raise self.err(f"'{d} {count}' expands to too many lines", line, col)
            self._push_expansion(body * count, "rept", d, line)
            return
        rest = line.code[pos:]
        m = re.match(r"[ \t]*([A-Za-z_]\w*)[ \t]*(?:,|(?=[ \t])|$)", rest)
        if m is None:
            raise self.err(f"expected '{d} NAME, values...'", line, _skip_ws(line.code, pos))
        var = m.group(1)
        values_text = rest[m.end():].strip()
        if d == ".irp":
            values = [_unquote(v.strip()) for v in _split_args(values_text)] if values_text else [""]
        else:
            values = list(_unquote(values_text)) or [""]
        body = self._collect(_LOOP_OPENERS, (".endr",), line, col, d, ".endr")
        pat = re.compile(r"\\(\(\)|" + re.escape(var) + r"(?!\w))")
        out: list[Line] = []
        for v in values:
            for ln in body:
                code = pat.sub(lambda mm, v=v: "" if mm.group(1) == "()" else v, ln.code)
                out.append(Line(ln.file, ln.lineno, code, code if code != ln.code else ln.text))
        self._push_expansion(out, "rept", d, line)

    # -- kernel descriptors -----------------------------------------------------
    def _d_kernel(self, d, line, pos, col):
        m = _WORD_RE.match(line.code, pos)
        if m is None:
            raise self.err("'.amdhsa_kernel' needs the kernel name", line, _skip_ws(line.code, pos))
        name = m.group(1)
        trailing = line.code[m.end():].strip()
        if trailing:
            raise self.err(f"unexpected '{trailing}' after the kernel name", line, m.end())
        for k in self.pending_kernels:
            if k.name == name:
                raise self.err(f"duplicate '.amdhsa_kernel {name}' (first at line {k.loc.line})", line, m.start(1))
        frame = self.frames[-1]
        fields: dict[str, tuple] = {}
        kloc = SourceLoc(line.file, line.lineno, col + 1, line.text)
        while frame.i < len(frame.lines):
            ln = frame.lines[frame.i]
            frame.i += 1
            self.current = ln
            fm = _WORD_RE.match(ln.code)
            word = fm.group(1).lower() if fm else ""
            if word == ".end_amdhsa_kernel":
                self.pending_kernels.append(_PendingKernel(name, m.start(1), fields, kloc))
                self.current = line
                return
            fcol = fm.start(1) if fm else len(ln.code) - len(ln.code.lstrip())
            if not word.startswith(".amdhsa_"):
                raise self.err(f"expected an '.amdhsa_*' directive inside '.amdhsa_kernel {name}' "
                               f"(missing '.end_amdhsa_kernel'?)", ln, fcol)
            fname = word[len(".amdhsa_"):]
            if fname not in AMDHSA_FIELDS:
                if word == ".amdhsa_kernel":
                    raise self.err(f"'.amdhsa_kernel' inside '.amdhsa_kernel {name}' "
                                   "(missing '.end_amdhsa_kernel'?)", ln, fcol)
                raise self.err(f"unknown kernel descriptor field '{word}'", ln, fcol,
                               did_you_mean(word, [".amdhsa_" + f for f in AMDHSA_FIELDS]))
            if fname in fields:
                first = fields[fname][1].lineno
                raise self.err(f"duplicate '{word}' (first at line {first})", ln, fcol)
            p = self._expr_parser(ln, fm.end())
            if p.n == 0:
                raise self.err(f"'{word}' needs a value", ln, len(ln.code.rstrip()))
            node = p.parse_expr()
            if p.i < p.n:
                raise p.error(f"unexpected {p.describe()} after the value of '{word}'")
            fields[fname] = (node, ln, fm.end())
        raise self.err(f"'.amdhsa_kernel {name}' without '.end_amdhsa_kernel'", line, col)

    # -- end of input --------------------------------------------------------
    def _finish(self) -> None:
        module = self.module
        if self.conds:
            c = self.conds[-1]
            raise AsmError("'.if' without '.endif'", c.loc)
        for pk in self.pending_kernels:
            descriptor: dict[str, int] = {}
            for fname, (node, ln, fpos) in pk.fields.items():
                p = ExprParser((), ln.file, ln.lineno, ln.text)
                try:
                    descriptor[fname] = evaluate(node, self.resolve, lambda msg, c, ln=ln: self.err(msg, ln, c))
                except Undefined as u:
                    raise self.undefined_error(u, p) from None
            kline = Line(pk.loc.file, pk.loc.line, pk.loc.text, pk.loc.text)
            for req in REQUIRED_AMDHSA_FIELDS:
                if req not in descriptor:
                    raise self.err(f"'.amdhsa_kernel {pk.name}' lacks the required '.amdhsa_{req}'",
                                   kline, pk.loc.col - 1)
            if "accum_offset" not in descriptor and re.search(r"gfx9(0a|4[0-9a-f])", module.target):
                raise self.err(f"'.amdhsa_kernel {pk.name}' lacks '.amdhsa_accum_offset', required for "
                               f"{module.target.rsplit('-', 1)[-1]}", kline, pk.loc.col - 1)
            problem = descriptor_problem(descriptor, processor_of(module.target) if module.target else None)
            if problem is not None:
                field, message = problem
                if field in pk.fields:
                    _, fln, fpos = pk.fields[field]
                    raise self.err(message, fln, _skip_ws(fln.code, fpos))
                raise self.err(message, kline, pk.loc.col - 1)
            # as the assembler does: without a count, the user SGPRs the enabled fields imply (the workgroup
            # ids follow them)
            descriptor.setdefault("user_sgpr_count", implied_user_sgprs(descriptor))
            entry = module.labels.get(pk.name)
            if entry is None:
                where = "is a data label, not code" if pk.name in self.data_labels else "has no label"
                raise self.err(f"kernel '{pk.name}' {where} (expected '{pk.name}:' before its first instruction)",
                               kline, pk.name_col, did_you_mean(pk.name, module.labels))
            locs = {f: SourceLoc(ln.file, ln.lineno, len(ln.code) - len(ln.code[col:].lstrip()) + 1, ln.text)
                    for f, (_, ln, col) in pk.fields.items()}   # where each value is written
            module.kernels.append(KernelSource(pk.name, descriptor, entry, pk.loc, locs))
        for index, ref, rloc in self.refs:
            name = ref.name
            if name in self.label_locs or ref.reloc:
                continue
            if self.has_symbol(name):
                dummy = ExprParser((), rloc.file, rloc.line, rloc.text)
                try:
                    value = self.resolve(name, rloc.col - 1)
                except Undefined as u:
                    raise self.undefined_error(u, dummy) from None
                inst = module.instructions[index]
                inst.operands = [dataclasses.replace(op, value=Imm(_expr.wrap64(value + ref.addend)))
                                 if op.value is ref else op for op in inst.operands]
                continue
            shown = name
            if name.startswith(".Llocal"):
                shown = name[len(".Llocal"):].split(".")[0] + "f"
                raise AsmError(f"no following definition of local label '{shown[:-1]}:' for '{shown}'", rloc)
            raise AsmError(f"undefined label or symbol '{shown}'", rloc,
                           did_you_mean(name, list(self.label_locs) + list(self.symbols) + list(self.lazy)))
        module.symbols = dict(self.symbols)
        for name, line, col in self.data_addresses:   # data labels resolve in build(), code labels in the encoder
            if name not in self.static.labels and name not in module.labels:
                where = "is not a label of static data or code" if name in self.label_locs else "is not defined"
                raise self.err(f"'{name}', whose address the data holds, {where}", line, col,
                               did_you_mean(name, list(self.static.labels) + list(module.labels)))
        module.static_data = self.static.build()
        for name, (node, ln) in self.lazy.items():
            try:
                module.symbols[name] = self.resolve(name, 0)
            except (Undefined, AsmError):
                pass


_DIRECTIVE_HANDLERS = {
    ".text": _Assembler._d_text, ".file": _Assembler._d_file, ".loc": _Assembler._d_loc,
    ".data": _Assembler._d_data, ".bss": _Assembler._d_data, ".rodata": _Assembler._d_data,
    ".section": _Assembler._d_section, ".pushsection": _Assembler._d_section,
    ".popsection": _Assembler._d_popsection, ".previous": _Assembler._d_previous,
    ".set": _Assembler._d_set, ".equ": _Assembler._d_set, ".equiv": _Assembler._d_set,
    ".comm": _Assembler._d_common, ".lcomm": _Assembler._d_common,
    ".amdgcn_target": _Assembler._d_target,
    ".amdgpu_metadata": _Assembler._d_metadata,
    ".end_amdgpu_metadata": _Assembler._d_stray_end, ".end_amdhsa_kernel": _Assembler._d_stray_end,
    ".endm": _Assembler._d_stray_end, ".endmacro": _Assembler._d_stray_end, ".endr": _Assembler._d_stray_end,
    ".amdhsa_kernel": _Assembler._d_kernel,
    ".macro": _Assembler._d_macro, ".purgem": _Assembler._d_purgem, ".exitm": _Assembler._d_exitm,
    ".rept": _Assembler._d_rept, ".rep": _Assembler._d_rept, ".irp": _Assembler._d_rept,
    ".irpc": _Assembler._d_rept,
    ".include": _Assembler._d_include, ".error": _Assembler._d_error, ".err": _Assembler._d_error,
}


def _shown_path(path: str) -> str:
    """_shown_path is a source file's path as messages show it: relative to the working directory when under it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _index(digits: str) -> int:
    """_index converts a register number; absurdly long ones are simply out of range."""
    return int(digits) if len(digits) < 10 else 1 << 40


def _unescape(text: str) -> Optional[bytes]:
    """_unescape is the bytes of a quoted string's body with its C escapes (\\n, \\101, \\x41, \\"), a hex
    escape keeping its low byte as llvm-mc does; None for an octal escape past 255, which llvm-mc refuses."""
    if any(int(m.group(1), 8) > 255 for m in _ESCAPE_RE.finditer(text) if m.group(1)):
        return None

    def one(m: re.Match) -> str:
        octal, hexa, char = m.groups()
        code = int(octal, 8) if octal else int(hexa, 16) if hexa else _ESCAPES.get(char, ord(char))
        return chr(code & 0xFF)
    return _ESCAPE_RE.sub(one, text).encode("latin-1", errors="replace")


def _float_value(text: str) -> Optional[float]:
    """_float_value reads a .float/.double operand: decimal, hexadecimal (0x1p3), inf or nan; None if it is none."""
    text = text.strip()
    for read in (float, float.fromhex):
        try:
            return read(text)
        except (ValueError, OverflowError):
            pass
    return None


def _skip_ws(code: str, pos: int) -> int:
    """_skip_ws returns the index of the first non-blank character at or after ``pos``."""
    while pos < len(code) and code[pos] in " \t":
        pos += 1
    return pos


def _unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == s[-1] == '"':
        return s[1:-1]
    return s


_ARG_OPS = set("+-*/%&|^<>=!~")


def _split_args(text: str) -> list[str]:
    """_split_args splits macro arguments on top-level commas, or on spaces between plain words.

    A space separates arguments unless an operator is next to it (``a + b``
    stays one argument), as in llvm-mc.
    """
    out: list[str] = []
    depth = 0
    cur: list[str] = []
    quote = False
    n = len(text)
    k = 0
    while k < n:
        ch = text[k]
        if quote:
            cur.append(ch)
            if ch == "\\" and k + 1 < n:
                cur.append(text[k + 1])
                k += 2
                continue
            if ch == '"':
                quote = False
        elif ch == '"':
            quote = True
            cur.append(ch)
        elif ch in "([":
            depth += 1
            cur.append(ch)
        elif ch in ")]":
            depth = max(0, depth - 1)
            cur.append(ch)
        elif ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        elif ch in " \t" and depth == 0:
            j = k
            while j < n and text[j] in " \t":
                j += 1
            prev = "".join(cur).rstrip()
            nxt = text[j] if j < n else ""
            if prev and nxt and nxt != "," and prev[-1] not in _ARG_OPS and nxt not in _ARG_OPS:
                out.append("".join(cur))
                cur = []
            else:
                cur.append(" ")
            k = j
            continue
        else:
            cur.append(ch)
        k += 1
    out.append("".join(cur))
    return out
