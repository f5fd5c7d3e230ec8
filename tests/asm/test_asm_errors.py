"""Malformed assembly gives an AsmError at the right line and column with a helpful message."""
import pytest

from gpusim.asm.parser import parse_text
from gpusim.errors import AsmError, GpusimError

# (source, line, column or None, phrase in the message, phrase in the hint or None)
CASES = [
    ("unknown directive", ".text\nk:\n  .globl k\n  .p2algn 8\n", 4, 3, "unknown directive '.p2algn'", "'.p2align'"),
    ("reversed range", "k:\n v_mov_b32 v[3:1], 0\n", 2, 12, "last index is below the first", None),
    ("sgpr out of range", "k:\n s_mov_b64 s[0:1000], 0\n", 2, 12, "out of range: s[0:1000]", None),
    ("vgpr out of range", "k:\n v_mov_b32 v256, 0\n", 2, 12, "out of range: v256", None),
    ("ttmp out of range", "k:\n s_mov_b32 ttmp16, 0\n", 2, 12, "out of range: ttmp16", None),
    ("unbalanced bracket", "k:\n v_mov_b32 v[0:1, 0\n", 2, 13, "unbalanced '['", None),
    ("unbalanced paren", "k:\n s_mov_b32 s0, (1+2\n", 2, 20, "unbalanced '('", None),
    ("unbalanced abs", "k:\n v_add_f32 v0, |v1, v2\n", 2, 16, "unbalanced '|'", None),
    ("undefined symbol", ".set count, 3\nk:\n s_mov_b32 s0, cuont*2\n", 3, 16, "undefined symbol 'cuont'",
     "'count'"),
    ("too many macro args", ".macro M a, b\n s_nop \\a\n.endm\nk:\n M 1, 2, 3\n", 5, 4,
     "takes 2 arguments, got 3", None),
    ("missing macro arg", ".macro M a, b\n s_nop \\a\n.endm\nk:\n M 1\n", 5, 4, "missing 'b'", None),
    ("unknown macro keyword", ".macro M a\n s_nop \\a\n.endm\nk:\n M b=1\n", 5, 4, "has no parameter 'b'", None),
    ("unterminated block comment", "k:\n s_nop 0\n /* never closed\n s_nop 1\n", 3, 2,
     "unterminated '/*'", None),
    ("macro without endm", "\n.macro M a\n s_nop \\a\n", 2, 1, "'.macro' without '.endm'", None),
    ("rept without endr", "k:\n .rept 3\n s_nop 0\n", 2, 2, "'.rept' without '.endr'", None),
    ("kernel without end", ".text\nk:\n s_endpgm\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n", 4, 1,
     "without '.end_amdhsa_kernel'", None),
    ("duplicate label", "k:\n s_nop 0\nk:\n s_nop 1\n", 3, 1, "duplicate label 'k'", None),
    ("malformed number", "k:\n s_mov_b32 s0, 12abc\n", 2, 16, "malformed number '12abc'", None),
    ("bare hex prefix", "k:\n s_mov_b32 s0, 0x\n", 2, 16, "malformed number '0x'", None),
    ("bad octal", "k:\n s_mov_b32 s0, 09\n", 2, 16, "malformed number '09'", None),
    ("huge literal", "k:\n s_mov_b32 s0, 0x10000000000000000\n", 2, 16, "does not fit in 64 bits", None),
    ("duplicate descriptor field",
     ".amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_vgpr 8\n.end_amdhsa_kernel\n", 3, 2,
     "duplicate '.amdhsa_next_free_vgpr'", None),
    ("misspelled descriptor field", ".amdhsa_kernel k\n .amdhsa_next_fre_vgpr 4\n.end_amdhsa_kernel\n", 2, 2,
     "unknown kernel descriptor field", "'.amdhsa_next_free_vgpr'"),
    ("descriptor field without value", ".amdhsa_kernel k\n .amdhsa_next_free_vgpr\n.end_amdhsa_kernel\n",
     2, 24, "needs a value", None),
    ("descriptor field bad syntax", ".amdhsa_kernel k\n .amdhsa_next_free_vgpr 4 4\n.end_amdhsa_kernel\n",
     2, 27, "unexpected '4'", None),
    ("instruction inside descriptor", ".amdhsa_kernel k\n s_nop 0\n.end_amdhsa_kernel\n", 2, 2,
     "expected an '.amdhsa_*' directive", None),
    ("kernel label missing",
     "kern:\n s_endpgm\n.amdhsa_kernel kernel\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_sgpr 4\n"
     ".end_amdhsa_kernel\n", 3, 16, "kernel 'kernel' has no label", "'kern'"),
    ("required descriptor field",
     "k:\n s_endpgm\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n.end_amdhsa_kernel\n", 3, 1,
     "lacks the required '.amdhsa_next_free_sgpr'", None),
    ("division by zero", "k:\n s_mov_b32 s0, 1/0\n", 2, 17, "division by zero", None),
    ("undefined branch target", "k:\n s_branch .LBB0_9\n.LBB0_2:\n", 2, 11, "undefined label or symbol '.LBB0_9'",
     "'.LBB0_2'"),
    ("duplicate waitcnt counter", "k:\n s_waitcnt vmcnt(0) vmcnt(1)\n", 2, 21, "duplicate 'vmcnt'", None),
    ("duplicate modifier", "k:\n global_load_dword v0, v[0:1], off glc glc\n", 2, 40, "duplicate modifier 'glc'", None),
    ("bad omod", "k:\n v_add_f32_e64 v0, v1, v2 mul:3\n", 2, 27, "invalid output modifier", None),
    ("stray character", "k:\n v_add_f32 v0, v1 @ v2\n", 2, 19, "unexpected character '@'", None),
    ("empty operand", "k:\n v_add_f32 v0,, v2\n", 2, 15, "expected an operand before ','", None),
    ("float in expression", "k:\n v_mov_b32 v0, 1.5 + 1\n", 2, 16, "cannot be used in an expression", None),
    ("stray endm", "\n.endm\n", 2, 1, "'.endm' without a matching '.macro'", None),
    ("if without endif", ".if 1\nk:\n s_nop 0\n", 1, 1, "'.if' without '.endif'", None),
    ("else without if", "k:\n.else\n", 2, 1, "'.else' without '.if'", None),
    ("data between instructions", "k:\n s_nop 0\n.long 5\n s_nop 1\n", 3, 1, "data directive '.long'", None),
    ("instruction in data section", ".data\n s_nop 0\n", 2, 2, "outside a code section", None),
    ("unknown expression function", "k:\n v_mov_b32 v0, foo(1)\n", 2, 16, "unknown function 'foo'", None),
    ("missing modifier value", "k:\n ds_swizzle_b32 v0, v1 offset:\n", 2, 31, "expected a value after 'offset:'", None),
    ("unterminated list", "k:\n v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1\n", 2, 41, "expected ',' or ']'", None),
    ("negative rept", ".rept -1\n.endr\n", 1, 7, "must not be negative", None),
    ("recursive macro", ".macro R\n R\n.endm\n R\n", 2, 2, "nested more than 20 deep", None),
    ("dangling operator", "k:\n s_mov_b32 s0, 1 +\n", 2, 19, "expected an expression", None),
    ("abs of negation", "k:\n v_mov_b32 v0, abs(-v1)\n", 2, 16, "abs(...) of a negated", None),
    ("non-consecutive register list", "k:\n v_mov_b32 v0, [v1, v3]\n", 2, 21, "consecutive registers", None),
    ("unquoted target", ".amdgcn_target gfx942\n", 1, 16, "expected .amdgcn_target", None),
    ("unterminated string", '.ident "abc\n', 1, 8, "unterminated string", None),
    ("symbol named like a register", ".set v1, 3\n", 1, 6, "register name", None),
    ("self-referencing symbol", ".set X, X+1\nk:\n s_mov_b32 s0, X\n", 1, 1, "defined in terms of itself", None),
    ("missing forward local label", "k:\n s_branch 1f\n", 2, 11, "local label '1:'", None),
    ("macro redefined", ".macro M\n.endm\n.macro M\n.endm\n", 3, 8, "already defined", None),
    ("hash comment mid-line", "s_nop 0 # hash\n", 1, 9, "unexpected character '#'", None),
    ("unbalanced function operand", "k:\n s_sendmsg sendmsg(MSG_INTERRUPT\n", 2, 33, "unbalanced '('", None),
    ("waitcnt counter inside abs", "k:\n v_mov_b32 v0, |vmcnt(0)|\n", 2, 17, "only valid in s_waitcnt", None),
    ("metadata without end", "k:\n.amdgpu_metadata\n---\n", 2, 1, "without '.end_amdgpu_metadata'", None),
    ("conflicting targets", '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n',
     2, 1, "conflicting .amdgcn_target", None),
    ("error directive", '.error "stop here"\n', 1, 1, ".error: stop here", None),
    ("garbage statement", "k:\n ??\n", 2, 2, "expected an instruction, directive or label", None),
]


@pytest.mark.parametrize("name, src, line, col, phrase, hint", CASES, ids=[c[0] for c in CASES])
def test_error_location_and_message(name, src, line, col, phrase, hint):
    with pytest.raises(AsmError) as info:
        parse_text(src, path="bad.s")
    err = info.value
    assert err.loc is not None and err.loc.file == "bad.s"
    assert err.loc.line == line, str(err)
    if col is not None:
        assert err.loc.col == col, str(err)
    assert phrase in err.message, str(err)
    if hint is not None:
        assert hint in err.hint, str(err)
    assert err.loc.text == src.split("\n")[line - 1]
    text = str(err)
    assert text.startswith(f"bad.s:{line}:") and "\n" not in text


def test_error_in_macro_names_the_expansion_site():
    src = ".macro LOAD dst\n v_mov_b32 \\dst, 0\n.endm\nk:\n LOAD v1\n LOAD v300\n"
    with pytest.raises(AsmError) as info:
        parse_text(src, path="m.s")
    err = info.value
    assert err.loc.line == 2 and "v300" in err.loc.text
    assert "in macro 'LOAD' expanded at m.s:6" in err.message


def test_every_error_is_a_gpusim_error():
    for _, src, *_ in CASES:
        with pytest.raises(GpusimError):
            parse_text(src)
