"""Whatever the input, the front end either parses it or raises a GpusimError (never a traceback)."""
import os
import pathlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim.asm.parser import parse_text
from gpusim.errors import GpusimError

EXAMPLES = int(os.environ.get("GPUSIM_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SAMPLE_LINES = (pathlib.Path(__file__).parent / "data" / "dpp_gfx942.s").read_text().split("\n")

TOKENS = [
    "v0", "v1", "s[0:1]", "s[", "v[", "a[0:3]", "ttmp[0:1]", "]", "[", ":", ",", "(", ")", "|", "-", "+", "*",
    "/", "%", "<<", ">>", "&", "^", "~", "!", "==", "=", "0", "1", "3", "0x10", "255", "256", "-1", "1.5", "1e",
    "0b", "1b", "1f", "'a'", '"s"', '"', "vcc", "exec", "off", "m0", "scc", "glc", "sc0", "offset:", "offset:16",
    "op_sel:[0,1]", "quad_perm:[", "row_shr:1", "dst_sel:WORD_1", "mul:2", "div:3", "abs(", "neg(", "sext(",
    "vmcnt(0)", "lgkmcnt(", "sendmsg(", "hwreg(HW_REG_MODE,0,4)", "swizzle(SWAP,1)", "max(", "alignto(",
    "v_add_f32", "v_add_f32_e64", "s_waitcnt", "s_nop", "s_endpgm", "s_branch", "k:", "k", ".L1:", ".L1",
    ".text", ".data", ".set", "X", "X,", ".equ", ".macro", "M", ".endm", "\\a", "\\@", "\\()", ".rept",
    ".irp", ".irpc", ".endr", ".if", ".ifdef", ".else", ".elseif", ".endif", ".exitm", ".amdhsa_kernel",
    ".end_amdhsa_kernel", ".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdgpu_metadata",
    ".end_amdgpu_metadata", ".amdgcn_target", ".section", ".rodata", ".long", ".fill", ".p2align", ".include",
    ".error", ";", "; gpusim-launch:", "; gpusim-arg:", "; gpusim-check:", "grid=1", "block=64", "buffer",
    "f32[4]", "i32", "init=uniform(0,1)", "~=", "//", "/*", "*/", "#", "\t", " ", "\n", "\n", "\n",
]


def parse_or_user_error(text):
    try:
        parse_text(text, path="fuzz.s")
    except GpusimError as e:
        str(e)  # the message itself must render


@FUZZ
@given(st.text(max_size=400))
def test_random_text(text):
    parse_or_user_error(text)


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=80), st.lists(st.sampled_from([" ", "", "\n"]), max_size=80))
def test_token_soup(tokens, seps):
    out = []
    for k, tok in enumerate(tokens):
        out.append(tok)
        out.append(seps[k] if k < len(seps) else " ")
    parse_or_user_error("".join(out))


@st.composite
def mutated_sample(draw):
    lines = list(SAMPLE_LINES)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete_char", "insert", "delete_line", "dup_line", "swap", "replace"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if op == "delete_char" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + line[j + 1:]
        elif op == "insert":
            j = draw(st.integers(0, len(line)))
            ins = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=3)))
            lines[i] = line[:j] + ins + line[j:]
        elif op == "delete_line" and len(lines) > 1:
            del lines[i]
        elif op == "dup_line":
            lines.insert(i, line)
        elif op == "swap":
            k = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[k] = lines[k], lines[i]
        elif op == "replace":
            lines[i] = draw(st.sampled_from(TOKENS)) + " " + draw(st.sampled_from(TOKENS))
    return "\n".join(lines)


@FUZZ
@given(mutated_sample())
def test_mutated_clang_output(text):
    parse_or_user_error(text)


def test_unmutated_sample_parses():
    parse_text("\n".join(SAMPLE_LINES))
