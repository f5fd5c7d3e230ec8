"""How assembly syntax maps onto the parsed IR: operands, modifiers, directives, macros."""
import pytest

from gpusim.asm.ir import FloatImm, FuncOperand, Imm, LabelRef, Operand, Reg, Special, Waitcnt
from gpusim.asm.parser import parse_file, parse_text
from gpusim.errors import AsmError


def insts(src):
    return parse_text(src).instructions


def one(line, prelude=""):
    (inst,) = insts(prelude + "\n" + line + "\n")
    return inst


def values(inst):
    return [op.value for op in inst.operands]


# -- registers -----------------------------------------------------------------
@pytest.mark.parametrize("text, reg", [
    ("s5", Reg("s", 5)), ("v7", Reg("v", 7)), ("a3", Reg("a", 3)), ("ttmp5", Reg("ttmp", 5)),
    ("s[4:7]", Reg("s", 4, 4)), ("v[2:3]", Reg("v", 2, 2)), ("a[0:15]", Reg("a", 0, 16)),
    ("ttmp[0:1]", Reg("ttmp", 0, 2)), ("v[9]", Reg("v", 9)), ("s[2+2:(3*2)+1]", Reg("s", 4, 4)),
    ("[s2,s3]", Reg("s", 2, 2)), ("[v4, v5, v6, v7]", Reg("v", 4, 4)), ("S9", Reg("s", 9)),
    ("V[0:1]", Reg("v", 0, 2)), ("s105", Reg("s", 105)), ("v255", Reg("v", 255)),
])
def test_registers(text, reg):
    assert values(one(f"v_foo {text}")) == [reg]


def test_register_index_from_symbols():
    mod = parse_text(".set vA, 4\n.set base, 10\nv_mov_b32 v[vA+1], v[vA]\ns_mov_b64 s[base:base+1], s[2:3]")
    assert values(mod.instructions[0]) == [Reg("v", 5), Reg("v", 4)]
    assert values(mod.instructions[1]) == [Reg("s", 10, 2), Reg("s", 2, 2)]


@pytest.mark.parametrize("text, name", [
    ("vcc", "vcc"), ("vcc_lo", "vcc_lo"), ("VCC_HI", "vcc_hi"), ("exec", "exec"), ("exec_lo", "exec_lo"),
    ("m0", "m0"), ("M0", "m0"), ("off", "off"), ("null", "null"), ("flat_scratch_lo", "flat_scratch_lo"),
    ("xnack_mask_hi", "xnack_mask_hi"), ("src_shared_base", "src_shared_base"),
    ("shared_base", "src_shared_base"), ("src_private_limit", "src_private_limit"),
    ("vccz", "src_vccz"), ("src_execz", "src_execz"), ("scc", "src_scc"), ("src_scc", "src_scc"),
    ("src_lds_direct", "src_lds_direct"),
])
def test_special_registers(text, name):
    assert values(one(f"s_mov_b32 s0, {text}")) == [Reg("s", 0), Special(name)]


# -- immediates ------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("0", 0), ("42", 42), ("-1", -1), ("0x3ff", 1023), ("0X1F", 31), ("0b101", 5), ("017", 15),
    ("-0x10", -16), ("0xffffffff", 0xFFFFFFFF), ("0xffffffffffffffff", -1), ("'a'", 97),
    ("1+2*3", 7), ("(1+2)*3", 9), ("7/2", 3), ("-7/2", -3), ("-7%3", -1), ("1<<4", 16),
    ("-1>>60", 15), ("1<<64", 1), ("~0", -1), ("!0", 1), ("!5", 0), ("6&3^1", 3), ("1+2|1", 4),
    ("1<<2|1", 5), ("2==2", -1), ("1==2", 0), ("1<2", -1), ("3>2+1", 0), ("2!=3", -1),
    ("5&&3", 1), ("0||0", 0), ("5 ! 1", -1), ("max(1,9,2)", 9), ("min(4,3)", 3), ("or(1,2,4)", 7),
    ("alignto(5,4)", 8), ("totalnumvgprs(8, 13)", 24), ("totalnumvgprs(0, 13)", 13), ("+5", 5),
    ("-(1+2)", -3), ("- - 3", 3),
])
def test_integer_expressions(text, value):
    assert values(one(f"s_mov_b32 s0, {text}"))[1] == Imm(value)


@pytest.mark.parametrize("text, value", [
    ("1.0", 1.0), ("-0.5", -0.5), ("0.15915494", 0.15915494), ("1e-3", 1e-3), ("1.0e+2", 100.0),
    ("1.", 1.0), (".5", 0.5), ("0x1p3", 8.0), ("-2.5E1", -25.0),
])
def test_float_literals(text, value):
    assert values(one(f"v_mov_b32 v0, {text}"))[1] == FloatImm(value)


def test_symbols_set_equ_assign_and_redefinition():
    mod = parse_text(
        ".set A, 4\n.equ B, A*2\nC = B + 1\n"
        "s_mov_b32 s0, C\n"
        ".set A, 100\n"           # later definitions override (GNU as)
        "s_mov_b32 s0, A\n"
        "s_mov_b32 s0, B\n")      # B was evaluated when defined
    assert [values(i)[1] for i in mod.instructions] == [Imm(9), Imm(100), Imm(8)]
    assert mod.symbols == {"A": 100, "B": 8, "C": 9}


def test_symbol_defined_after_use_is_resolved_at_the_end():
    mod = parse_text("s_mov_b32 s0, LATER\n.set LATER, 12\n")
    assert values(mod.instructions[0])[1] == Imm(12)


def test_set_with_forward_reference_is_evaluated_lazily():
    mod = parse_text(".set total, part * 2\n.set part, 5\ns_mov_b32 s0, total\n")
    assert values(mod.instructions[0])[1] == Imm(10)
    assert mod.symbols["total"] == 10


# -- labels and relocations --------------------------------------------------------
def test_labels_map_to_instruction_indices():
    mod = parse_text("k:\n s_nop 0\n.LBB0_2:\n s_cbranch_scc0 .LBB0_2\n s_branch k\n.Lend:\n")
    assert mod.labels == {"k": 0, ".LBB0_2": 1, ".Lend": 3}
    assert values(mod.instructions[1]) == [LabelRef(".LBB0_2")]
    assert values(mod.instructions[2]) == [LabelRef("k")]


def test_label_and_instruction_on_one_line():
    mod = parse_text("a: b: s_nop 0\n")
    assert mod.labels == {"a": 0, "b": 0}
    assert len(mod.instructions) == 1


def test_relocated_symbol_reference():
    inst = one("s_add_u32 s2, s2, _Z13get_global_idj@rel32@lo+4")
    assert values(inst)[2] == LabelRef("_Z13get_global_idj", 4, "@rel32@lo")
    inst = one("s_addc_u32 s3, s3, foo@rel32@hi+12")
    assert values(inst)[2] == LabelRef("foo", 12, "@rel32@hi")


def test_local_numeric_labels():
    mod = parse_text("1:\n s_nop 0\n s_branch 1b\n s_branch 1f\n1:\n s_nop 1\n")
    first, second = values(mod.instructions[1])[0].name, values(mod.instructions[2])[0].name
    assert mod.labels[first] == 0 and mod.labels[second] == 3


# -- source modifiers ----------------------------------------------------------------
@pytest.mark.parametrize("text, op", [
    ("-v1", Operand(Reg("v", 1), neg=True)),
    ("|v1|", Operand(Reg("v", 1), abs=True)),
    ("-|v1|", Operand(Reg("v", 1), neg=True, abs=True)),
    ("abs(v1)", Operand(Reg("v", 1), abs=True)),
    ("neg(v1)", Operand(Reg("v", 1), neg=True)),
    ("-abs(v1)", Operand(Reg("v", 1), neg=True, abs=True)),
    ("neg(|s3|)", Operand(Reg("s", 3), neg=True, abs=True)),
    ("sext(v1)", Operand(Reg("v", 1), sext=True)),
    ("-vcc_lo", Operand(Special("vcc_lo"), neg=True)),
    ("|-0.5|", None),
])
def test_source_modifiers(text, op):
    if op is None:
        with pytest.raises(AsmError):
            one(f"v_add_f32_e64 v0, {text}, v2")
        return
    assert one(f"v_add_f32_e64 v0, {text}, v2").operands[1] == op


def test_negative_immediate_is_a_value_not_a_modifier():
    assert one("v_add_f32 v0, -1, v2").operands[1] == Operand(Imm(-1))
    assert one("v_add_f32 v0, -0.5, v2").operands[1] == Operand(FloatImm(-0.5))


# -- instruction shape -------------------------------------------------------------------
@pytest.mark.parametrize("text, mnemonic, suffix", [
    ("v_add_f32_e32 v0, v1, v2", "v_add_f32", "e32"),
    ("v_add_f32_e64 v0, v1, v2", "v_add_f32", "e64"),
    ("v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3]", "v_mov_b32", "dpp"),
    ("v_add_u16_sdwa v0, v1, v2 dst_sel:WORD_1", "v_add_u16", "sdwa"),
    ("V_ADD_F32 v0, v1, v2", "v_add_f32", ""),
    ("s_endpgm", "s_endpgm", ""),
])
def test_mnemonic_and_suffix(text, mnemonic, suffix):
    inst = one(text)
    assert (inst.mnemonic, inst.suffix) == (mnemonic, suffix)


def test_instructions_without_operands():
    for text in ("s_endpgm", "s_barrier", "s_dcache_wb", "buffer_wbinvl1_vol"):
        inst = one(text)
        assert inst.operands == [] and inst.modifiers == {}
    assert values(one("s_nop 0")) == [Imm(0)]


def test_instruction_location():
    mod = parse_text("\n\n  k:  s_nop 0 ; hi\n")
    loc = mod.instructions[0].loc
    assert (loc.line, loc.col, loc.text) == (3, 7, "  k:  s_nop 0 ; hi")


# -- s_waitcnt ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("vmcnt(0)", Waitcnt(vmcnt=0)),
    ("lgkmcnt(0)", Waitcnt(lgkmcnt=0)),
    ("vmcnt(0) lgkmcnt(0)", Waitcnt(vmcnt=0, lgkmcnt=0)),
    ("vmcnt(1) & lgkmcnt(2) & expcnt(3)", Waitcnt(vmcnt=1, expcnt=3, lgkmcnt=2)),
    ("vmcnt(1)&lgkmcnt(2)", Waitcnt(vmcnt=1, lgkmcnt=2)),
    ("vmcnt(0), lgkmcnt(0)", Waitcnt(vmcnt=0, lgkmcnt=0)),
    ("expcnt(7) vmcnt(63)", Waitcnt(vmcnt=63, expcnt=7)),
    ("0", Imm(0)),
    ("0xc07f", Imm(0xC07F)),
])
def test_waitcnt(text, value):
    assert values(one(f"s_waitcnt {text}")) == [value]


# -- function operands -----------------------------------------------------------------------------
def test_function_operands():
    assert values(one("s_sendmsg sendmsg(MSG_INTERRUPT)")) == [FuncOperand("sendmsg", ("MSG_INTERRUPT",))]
    assert values(one("s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)"))[1] == FuncOperand("hwreg", ("HW_REG_MODE", 0, 4))
    assert values(one("s_setreg_imm32_b32 hwreg(HW_REG_MODE), 3")) == [FuncOperand("hwreg", ("HW_REG_MODE",)), Imm(3)]
    assert values(one("s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)"))[1] == FuncOperand("gpr_idx", ("SRC0", "DST"))
    assert values(one("s_set_gpr_idx_on s0, gpr_idx()"))[1] == FuncOperand("gpr_idx", ())


# -- modifiers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, mods", [
    ("global_load_dword v1, v[2:3], off offset:16 glc slc", {"offset": 16, "glc": True, "slc": True}),
    ("global_load_dword v1, v0, s[0:1] offset:-8 sc0 sc1 nt", {"offset": -8, "sc0": True, "sc1": True, "nt": True}),
    ("buffer_load_dword v0, v1, s[4:7], 0 offen offset:4095 lds", {"offen": True, "offset": 4095, "lds": True}),
    ("buffer_load_dword v0, off, s[4:7], 0 scc", {"scc": True}),
    ("buffer_inv sc1", {"sc1": True}),
    ("ds_read2_b32 v[0:1], v2 offset0:1 offset1:4", {"offset0": 1, "offset1": 4}),
    ("ds_read_b32 v0, v1, offset:16", {"offset": 16}),
    ("ds_write_b32 v0, v1 offset:65535 gds", {"offset": 65535, "gds": True}),
    ("v_add_f32_e64 v0, v1, v2 clamp mul:2", {"clamp": True, "omod": "mul2"}),
    ("v_add_f32_e64 v0, v1, v2 mul:4", {"omod": "mul4"}),
    ("v_add_f32_e64 v0, v1, v2 div:2", {"omod": "div2"}),
    ("v_add_f32_e64 v0, v1, v2 mul:1", {}),
    ("v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0] op_sel_hi:[1,1,0] neg_lo:[1,0,0] neg_hi:[0,0,1]",
     {"op_sel": (0, 1, 0), "op_sel_hi": (1, 1, 0), "neg_lo": (1, 0, 0), "neg_hi": (0, 0, 1)}),
    ("v_mov_b32_dpp v1, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
     {"quad_perm": (3, 2, 1, 0), "row_mask": 15, "bank_mask": 15}),
    ("v_add_u32_dpp v0, v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
     {"row_shr": 1, "row_mask": 15, "bank_mask": 15, "bound_ctrl": 1}),
    ("v_mov_b32_dpp v0, v1 row_shl:15 bound_ctrl:0", {"row_shl": 15, "bound_ctrl": 0}),
    ("v_mov_b32_dpp v0, v1 row_mirror", {"row_mirror": True}),
    ("v_mov_b32_dpp v0, v1 row_half_mirror", {"row_half_mirror": True}),
    ("v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xa", {"row_bcast": 15, "row_mask": 10}),
    ("v_mov_b32_dpp v0, v1 wave_shl:1", {"wave_shl": 1}),
    ("v_mov_b32_dpp v0, v1 row_newbcast:3 fi:1", {"row_newbcast": 3, "fi": 1}),
    ("v_add_u16_sdwa v5, v5, v7 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1",
     {"dst_sel": "DWORD", "dst_unused": "UNUSED_PAD", "src0_sel": "DWORD", "src1_sel": "WORD_1"}),
    ("v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[4:5], 0 cbsz:1 abid:2 blgp:3", {"cbsz": 1, "abid": 2, "blgp": 3}),
    ("ds_swizzle_b32 v2, v1 offset:swizzle(SWAP,1)", {"offset": FuncOperand("swizzle", ("SWAP", 1))}),
    ("ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,\"01pip\")",
     {"offset": FuncOperand("swizzle", ("BITMASK_PERM", "01pip"))}),
    ("ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,0,1,2,3)",
     {"offset": FuncOperand("swizzle", ("QUAD_PERM", 0, 1, 2, 3))}),
    ("tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]",
     {"format": ("BUF_DATA_FORMAT_32", "BUF_NUM_FORMAT_FLOAT")}),
    ("v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,0]", {"neg": (1, 0, 0)}),
])
def test_modifiers(text, mods):
    assert one(text).modifiers == mods


def test_modifier_value_from_symbol():
    assert one("ds_read_b32 v0, v1 offset:OFF+4", ".set OFF, 60").modifiers == {"offset": 64}


def test_operands_versus_modifiers():
    inst = one("global_store_dwordx4 v[0:1], a[12:15], off offset:48")
    assert values(inst) == [Reg("v", 0, 2), Reg("a", 12, 4), Special("off")]
    assert inst.modifiers == {"offset": 48}
    inst = one("v_mfma_f32_32x32x8_f16 a[0:15], v[6:7], v[4:5], a[0:15]")
    assert values(inst) == [Reg("a", 0, 16), Reg("v", 6, 2), Reg("v", 4, 2), Reg("a", 0, 16)]


def test_soft_flag_names_are_labels_after_comma():
    mod = parse_text("s_branch done\ndone:\ns_endpgm\n")
    assert values(mod.instructions[0]) == [LabelRef("done")]


# -- comments -----------------------------------------------------------------------------------------
def test_comments():
    mod = parse_text(
        "# hash comment at line start\n"
        "  # indented hash comment\n"
        "// slash comment\n"
        "/* block\n comment s_nop 9\n*/ s_nop 1 /* inline */ ; trailing\n"
        "s_nop 2 // trailing slash\n"
        ".ident \"a ; string // with /* comment chars\"\n"
        "s_nop 3 /* a */ /* b */\n")
    assert [values(i) for i in mod.instructions] == [[Imm(1)], [Imm(2)], [Imm(3)]]
    assert mod.instructions[0].loc.col == 4


def test_crlf_line_endings():
    mod = parse_text("k:\r\n s_nop 0\r\n s_endpgm\r\n")
    assert [i.mnemonic for i in mod.instructions] == ["s_nop", "s_endpgm"]


# -- macros and repetition ---------------------------------------------------------------------------------
def test_macro_substitution_defaults_and_counter():
    mod = parse_text(
        ".macro ADDV dst, a, b=v9\n"
        "  v_add_f32 \\dst, \\a, \\b\n"
        "lab\\@:\n"
        ".endm\n"
        "ADDV v0, v1\n"
        "ADDV v0, v1, v2\n"
        "ADDV v0 v1 v3\n"
        "ADDV a=v5, dst=v4\n")
    assert [values(i) for i in mod.instructions] == [
        [Reg("v", 0), Reg("v", 1), Reg("v", 9)], [Reg("v", 0), Reg("v", 1), Reg("v", 2)],
        [Reg("v", 0), Reg("v", 1), Reg("v", 3)], [Reg("v", 4), Reg("v", 5), Reg("v", 9)]]
    assert {k: v for k, v in mod.labels.items()} == {"lab0": 1, "lab1": 2, "lab2": 3, "lab3": 4}
    assert mod.instructions[0].loc.line == 2


def test_macro_vararg_and_separator():
    mod = parse_text(
        ".macro MOVS base, regs:vararg\n"
        "  .irp r, \\regs\n"
        "    v_mov_b32 v\\r, \\base\\()0\n"
        "  .endr\n"
        ".endm\n"
        "MOVS 1, 4, 5, 6\n")
    assert [values(i) for i in mod.instructions] == [[Reg("v", r), Imm(10)] for r in (4, 5, 6)]


def test_nested_macros_and_exitm():
    mod = parse_text(
        ".macro INNER x\n s_nop \\x\n.endm\n"
        ".macro OUTER n\n INNER \\n\n .if \\n > 1\n .exitm\n .endif\n INNER 7\n.endm\n"
        "OUTER 1\nOUTER 2\n")
    assert [values(i) for i in mod.instructions] == [[Imm(1)], [Imm(7)], [Imm(2)]]


def test_rept_irp_irpc():
    mod = parse_text(".rept 3\n s_nop 0\n.endr\n"
                     ".irp r, 1, 2\n v_mov_b32 v\\r, 0\n.endr\n"
                     ".irpc c, 89\n s_mov_b32 s\\c, 1\n.endr\n")
    assert [values(i)[0] for i in mod.instructions] == [
        Imm(0), Imm(0), Imm(0), Reg("v", 1), Reg("v", 2), Reg("s", 8), Reg("s", 9)]


def test_conditionals():
    mod = parse_text(
        ".set X, 2\n"
        ".if X == 1\n s_nop 1\n.elseif X == 2\n s_nop 2\n.else\n s_nop 3\n.endif\n"
        ".ifdef X\n s_nop 4\n.endif\n"
        ".ifndef Y\n s_nop 5\n.else\n s_nop 6\n.endif\n"
        ".if 0\n .if 1\n s_nop 7\n .endif\n bogus_syntax [[[\n.endif\n")
    assert [values(i)[0] for i in mod.instructions] == [Imm(2), Imm(4), Imm(5)]


# -- directives ------------------------------------------------------------------------------------------------
def test_sections_and_data():
    mod = parse_text(
        ".text\nk:\n s_endpgm\n"
        ".section .rodata,\"a\",@progbits\n.p2align 2\nvalue:\n .long 500\n"
        ".text\n.p2alignl 6, 3212836864\n.fill 256, 4, 3212836864\n")
    assert len(mod.instructions) == 1
    assert "value" not in mod.labels


def test_kernel_descriptor_with_expressions():
    mod = parse_text(
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
        ".text\nk:\n s_endpgm\n"
        ".set NVGPR, 24\n"
        ".rodata\n"
        ".amdhsa_kernel k\n"
        "  .amdhsa_next_free_vgpr max(NVGPR, 8)\n"
        "  .amdhsa_next_free_sgpr LATE + 1   ; a comment\n"
        "  .amdhsa_accum_offset alignto(NVGPR, 4)\n"
        ".end_amdhsa_kernel\n"
        ".set LATE, 15\n")
    (k,) = mod.kernels
    assert (k.name, k.entry) == ("k", 0)
    # user_sgpr_count: not given, so the count the (no) enabled user SGPRs imply, as the assembler writes it
    assert k.descriptor == {"next_free_vgpr": 24, "next_free_sgpr": 16, "accum_offset": 24, "user_sgpr_count": 0}
    assert mod.target == "amdgcn-amd-amdhsa--gfx942"


def test_metadata_is_kept_raw():
    mod = parse_text(".amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k ; not a comment here\n...\n"
                     "  .end_amdgpu_metadata\n")
    assert mod.metadata == "---\namdhsa.kernels:\n  - .name: k ; not a comment here\n...\n"


def test_include(tmp_path):
    (tmp_path / "inc.s").write_text(".set FROM_INC, 3\n.macro M\n s_nop 5\n.endm\n")
    main = tmp_path / "main.s"
    main.write_text('.include "inc.s"\nk:\n s_nop FROM_INC\n M\n')
    mod = parse_file(str(main))
    assert [values(i)[0] for i in mod.instructions] == [Imm(3), Imm(5)]


def test_parse_file_missing():
    with pytest.raises(AsmError, match="cannot read"):
        parse_file("/nonexistent/x.s")


def test_parse_file_not_utf8(tmp_path):
    p = tmp_path / "bad.s"
    p.write_bytes(b"s_nop 0\ns_nop \xff\n")
    with pytest.raises(AsmError) as e:
        parse_file(str(p))
    assert e.value.loc.line == 2


def test_large_file_parses_quickly():
    import time
    lines = ["k:"]
    for i in range(20000):
        a, b = i % 240, (i * 7) % 240
        lines.append(f"\tglobal_load_dwordx2 v[{a}:{a + 1}], v[{b}:{b + 1}], off offset:{i % 4096}")
        lines.append(f"\tv_fmac_f32_e32 v{a}, {i}.5, v{b}")
    text = "\n".join(lines[:20001])
    t0 = time.perf_counter()
    mod = parse_text(text)
    assert len(mod.instructions) == 20000
    assert time.perf_counter() - t0 < 5.0
