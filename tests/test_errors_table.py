"""Every user mistake (assembly, launch header, architecture YAML, command-line
flags) is one line on stderr naming file:line where the input has one, a phrase
that says what is wrong, and exit code 2 -- never a Python traceback."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

BASE = """\
; gpusim-launch: grid=2,1,1 block=64,1,1
; gpusim-arg: out buffer u32[128] out
; gpusim-arg: n i32 128
; gpusim-check: out == np.arange(128, dtype=u32)
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl k
\t.p2align 8
\t.type k,@function
k:
\ts_load_dwordx2 s[4:5], s[0:1], 0x0
\tv_and_b32 v0, 0x3ff, v0
\tv_lshl_or_b32 v0, s2, 6, v0
\tv_lshlrev_b32 v1, 2, v0
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dword v1, v0, s[4:5]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_next_free_vgpr 2
\t\t.amdhsa_next_free_sgpr 6
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
"""


def edit(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    """line_of returns the 1-based line of the first line containing ``needle``."""
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


def asm(case_id, text, needle, *phrases, args=()):
    """asm: a case whose kernel file has a mistake on the line containing ``needle``."""
    line = line_of(text, needle) if needle else None
    return pytest.param({"k.s": text}, ["run", "k.s", *args], "k.s", line, phrases, id=case_id)


def yaml_case(case_id, text, line, *phrases, command="show"):
    args = ["arch", "show", "a.yaml"] if command == "show" else ["run", "k.s", "--arch", "a.yaml"]
    return pytest.param({"a.yaml": text, "k.s": BASE}, args, "a.yaml", line, phrases, id=case_id)


def cli(case_id, args, *phrases, files=None):
    return pytest.param(files if files is not None else {"k.s": BASE}, args, None, None, phrases, id=case_id)


CASES = [
    # ------------------------------------------------------------ assembly
    asm("unknown-mnemonic", edit("v_and_b32 v0", "and_b32 v0"), "and_b32",
        "unknown instruction 'and_b32'", "did you mean 'v_and_b32'?"),
    asm("real-but-unsupported-ds", edit("\ts_endpgm", "\tds_gws_init v1 offset:0\n\ts_endpgm"), "ds_gws_init",
        "instruction 'ds_gws_init' is not supported yet"),
    asm("undocumented-mfma-modifier", edit("\ts_endpgm", "\tv_smfmac_f32_16x16x32_f16 v[0:3], v[0:1], v[0:3], "
                                           "v1 abid:5\n\ts_endpgm"), "v_smfmac",
        "abid:5 on v_smfmac_f32_16x16x32_f16 is not supported yet"),
    asm("dot2c-source-modifier", edit("\ts_endpgm", "\tv_dot2c_f32_f16_e64 v1, -v0, v0\n\ts_endpgm"), "v_dot2c",
        "-x and |x| on v_dot2c_f32_f16 are not supported yet"),
    asm("other-target-mnemonic", edit("\ts_endpgm", "\tv_mfma_i32_32x32x8i8 v[0:15], v0, v0, "
                                      "v[0:15]\n\ts_endpgm"), "v_mfma", "does not exist on gfx942"),
    asm("too-few-operands", edit("v_and_b32 v0, 0x3ff, v0", "v_and_b32 v0, 0x3ff"), "v_and_b32",
        "v_and_b32 takes 3 operands, got 2"),
    asm("too-many-operands", edit("v_lshlrev_b32 v1, 2, v0", "v_lshlrev_b32 v1, 2, v0, v0"), "v_lshlrev",
        "takes 3 operands, got 4"),
    asm("undefined-label", edit("\ts_endpgm", "\ts_cbranch_scc1 .LBB0_7\n\ts_endpgm"), ".LBB0_7",
        "undefined label or symbol '.LBB0_7'"),
    asm("reversed-register-range", edit("s_load_dwordx2 s[4:5]", "s_load_dwordx2 s[5:4]"), "s[5:4]",
        "invalid register range s[5:4]", "last index is below the first"),
    asm("register-count", edit("s_load_dwordx2 s[4:5]", "s_load_dwordx2 s[4:6]"), "s[4:6]",
        "needs 2 data registers, got 3"),
    asm("vgpr-out-of-range", edit("v_lshlrev_b32 v1", "v_lshlrev_b32 v256"), "v256", "out of range: v256"),
    asm("vgpr-beyond-next-free-vgpr", edit("v_lshlrev_b32 v1", "v_lshlrev_b32 v5"), "v_lshlrev_b32 v5",
        "vector register 5", ".amdhsa_next_free_vgpr is 2"),
    asm("no-amdhsa-kernel", BASE.split("\t.rodata")[0], None, "no kernel found", ".amdhsa_kernel"),
    asm("unknown-directive", edit(".p2align 8", ".p2algn 8"), ".p2algn",
        "unknown directive '.p2algn'", "did you mean '.p2align'?"),
    asm("misspelt-descriptor-field", edit(".amdhsa_next_free_sgpr 6", ".amdhsa_next_fre_sgpr 6"), "next_fre_",
        "unknown kernel descriptor field", "'.amdhsa_next_free_sgpr'"),
    asm("kernel-without-label", edit(".amdhsa_kernel k", ".amdhsa_kernel kk"), ".amdhsa_kernel kk",
        "kernel 'kk' has no label"),
    # ------------------------------------------------------------ launch header
    asm("bad-dtype", edit("u32[128]", "u33[128]"), "u33", "unknown dtype 'u33'", "did you mean 'u32'?"),
    asm("unknown-init", edit("u32[128] out", "u32[128] init=unifrm(0,1) out"), "unifrm",
        "unknown init 'unifrm'", "did you mean 'uniform'?"),
    asm("init-arity", edit("u32[128] out", "u32[128] init=uniform(1) out"), "uniform(1)",
        "init 'uniform' takes 2 parameters, got 1"),
    asm("malformed-shape", edit("u32[128]", "u32[12a]"), "12a", "malformed size '12a'"),
    asm("zero-grid", edit("grid=2,1,1", "grid=2,0,1"), "grid=", "size in 'grid' must be positive"),
    asm("malformed-grid", edit("grid=2,1,1", "grid=2,x,1"), "grid=", "malformed size 'x' in 'grid'"),
    asm("block-too-large", edit("block=64,1,1", "block=2048,1,1"), "block=", "2048 work-items exceeds"),
    asm("launch-without-block", edit("grid=2,1,1 block=64,1,1", "grid=2,1,1"), "gpusim-launch",
        "needs 'block=X,Y,Z'"),
    asm("unknown-header-keyword", edit("; gpusim-check", "; gpusim-chek"), "gpusim-chek",
        "unknown header keyword 'gpusim-chek'", "did you mean 'gpusim-check'?"),
    asm("duplicate-argument", edit("; gpusim-arg: n i32 128", "; gpusim-arg: n i32 128\n; gpusim-arg: n i32 5"),
        "n i32 5", "duplicate argument 'n'"),
    asm("scalar-out-of-range", edit("n i32 128", "n i8 300"), "n i8", "out of range for i8"),
    asm("malformed-scalar", edit("n i32 128", "n i32 abc"), "n i32", "malformed i32 value 'abc'"),
    asm("check-syntax", edit("dtype=u32)", "dtype=u32) +"), "gpusim-check", "invalid check expression"),
    asm("check-unknown-name", edit("== np.arange(128, dtype=u32)", "== outt"), "gpusim-check",
        "unknown name 'outt'", "did you mean 'out'?"),
    asm("missing-launch-line", edit("; gpusim-launch: grid=2,1,1 block=64,1,1\n", ""), None,
        "has no '; gpusim-launch:", "--grid and --block"),
    asm("arg-unknown-name", BASE, None, "--arg: unknown argument 'nn'", "did you mean 'n'?", args=("--arg", "nn=3")),
    asm("arg-is-a-buffer", BASE, "gpusim-arg: out", "argument 'out' is a buffer", args=("--arg", "out=3")),
    asm("arg-malformed-value", BASE, None, "--arg n: malformed i32 value 'abc'", args=("--arg", "n=abc")),
    asm("grid-flag-zero", BASE, None, "--grid", "must be positive", args=("--grid", "0,1,1")),
    asm("grid-flag-malformed", BASE, None, "--grid", "malformed size 'a'", args=("--grid", "a,b")),
    asm("block-flag-too-large", BASE, None, "--block", "exceeds the maximum of 1024", args=("--block", "4096")),
    # ------------------------------------------------------------ architecture YAML
    yaml_case("yaml-unknown-key", "extends: cdna3\ngpu:\n  xcdz: 2\n", 3,
              "unknown key 'xcdz' in gpu", "did you mean 'xcds'?"),
    yaml_case("yaml-unknown-key-via-run", "extends: cdna3\ncu:\n  ldss:\n    size_bytes: 4\n", 3,
              "unknown key 'ldss' in cu", "did you mean 'lds'?", command="run"),
    yaml_case("yaml-negative-size", "extends: cdna3\ncu:\n  lds:\n    size_bytes: -4\n", 4,
              "cu.lds.size_bytes", "must be >= 1, got -4"),
    yaml_case("yaml-bad-extends", "extends: cdna33\nname: x\n", 1,
              "unknown architecture 'cdna33'", "did you mean 'cdna3'?"),
    yaml_case("yaml-extends-missing-file", "extends: ./nothere.yaml\n", 1, "extends: no file"),
    yaml_case("yaml-syntax", "extends: cdna3\ngpu: [\n", 3, "invalid YAML"),
    yaml_case("yaml-wrong-type", "extends: cdna3\ngpu:\n  xcds: many\n", 3, "gpu.xcds", "expected an integer"),
    # ------------------------------------------------------------ command line
    cli("unknown-flag", ["run", "k.s", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    cli("missing-file", ["run", "missing.s"], "cannot read 'missing.s'"),
    cli("missing-file-occupancy", ["occupancy", "missing.s"], "cannot read 'missing.s'"),
    cli("max-instructions-zero", ["run", "k.s", "--max-instructions", "0"], "--max-instructions must be positive"),
    cli("max-instructions-not-int", ["run", "k.s", "--max-instructions", "abc"], "invalid int value: 'abc'"),
    cli("arg-without-equals", ["run", "k.s", "--arg", "n"], "--arg expects NAME=VALUE, got 'n'"),
    cli("unknown-subcommand", ["frob"], "invalid choice: 'frob'"),
    cli("arch-without-action", ["arch"], "say 'show NAME' or 'list'"),
    cli("unknown-arch-name", ["run", "k.s", "--arch", "cdna9"], "unknown architecture 'cdna9'",
        "did you mean 'cdna3'?"),
    cli("missing-arch-file", ["arch", "show", "nope.yaml"], "no architecture file 'nope.yaml'"),
    cli("unknown-kernel-name", ["run", "k.s", "--kernel", "kk"], "no kernel 'kk'", "did you mean 'k'?"),
    cli("json-without-file", ["run", "k.s", "--json"], "--json: expected one argument"),
]


def run_cli(args, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=600)


def assert_one_line_error(proc, where, line, phrases):
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    text = lines[0]
    assert "error:" in text
    if line is not None:
        assert text.startswith(f"{where}:{line}:"), text
    for phrase in phrases:
        assert phrase in text, (phrase, text)


def test_table_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("files, args, where, line, phrases", CASES)
def test_bad_input_is_one_line_with_location(tmp_path, files, args, where, line, phrases):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert_one_line_error(run_cli(args, tmp_path), where, line, phrases)


def test_the_unedited_base_kernel_runs(tmp_path):
    (tmp_path / "k.s").write_text(BASE)
    proc = run_cli(["run", "k.s", "--check"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "PASS" in proc.stdout


# Inputs llvm-mc-19 rejects: gpusim accepts them today and simulates something
# else than the user wrote: gpusim must reject each one too.
LLVM_REJECTS = [
    pytest.param(edit("s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dwordx2 s[5:6], s[0:1], 0x0"), "s[5:6]",
                 "alignment", id="misaligned-sgpr-pair"),
    pytest.param(edit("s_load_dwordx2 s[4:5], s[0:1], 0x0",
                      "s_load_dwordx4 s[6:9], s[0:1], 0x0\n\ts_load_dwordx2 s[4:5], s[0:1], 0x0")
                 .replace(".amdhsa_next_free_sgpr 6", ".amdhsa_next_free_sgpr 10"), "s[6:9]",
                 "alignment", id="misaligned-sgpr-quad"),
    pytest.param(edit("\ts_endpgm", "\tv_lshlrev_b64 v[1:2], 2, v[0:1]\n\ts_endpgm")
                 .replace(".amdhsa_next_free_vgpr 2", ".amdhsa_next_free_vgpr 4"), "v[1:2]",
                 "align", id="misaligned-vgpr-pair-gfx90a+"),
    pytest.param(edit("global_store_dword v1, v0, s[4:5]", "global_store_dword v1, v0, s[4:5] offset:5000"),
                 "offset:5000", "offset", id="global-offset-over-13-bits"),
    pytest.param(edit("s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dwordx2 s[4:5], s[0:1], 0x200000"), "0x200000",
                 "offset", id="smem-offset-over-21-bits"),
    pytest.param(edit("v_and_b32 v0, 0x3ff, v0", "v_and_b32 v0, 0x1ffffffff, v0"), "0x1ffffffff",
                 "0x1ffffffff", id="literal-wider-than-32-bits"),
    pytest.param(edit("s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dwordx2 s[104:105], s[0:1], 0x0"),
                 "s[104:105]", "s[104:105]", id="sgpr-beyond-s101"),
]


@pytest.mark.parametrize("text, needle, phrase", LLVM_REJECTS)
def test_input_llvm_mc_rejects_is_rejected(tmp_path, text, needle, phrase):
    (tmp_path / "k.s").write_text(text)
    assert_one_line_error(run_cli(["run", "k.s"], tmp_path), "k.s", line_of(text, needle), [phrase])


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is needed")
@pytest.mark.parametrize("text", [p.values[0] for p in LLVM_REJECTS], ids=[p.id for p in LLVM_REJECTS])
def test_llvm_mc_does_reject_those_inputs(tmp_path, text):
    (tmp_path / "k.s").write_text(text)
    proc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj",
                           "-o", os.devnull, str(tmp_path / "k.s")], capture_output=True, text=True)
    assert proc.returncode != 0 and "error:" in proc.stderr


def test_misspelt_vector_mnemonic_is_called_unknown(tmp_path):
    text = edit("v_and_b32 v0", "v_andd_b32 v0")
    (tmp_path / "k.s").write_text(text)
    assert_one_line_error(run_cli(["run", "k.s"], tmp_path), "k.s", line_of(text, "v_andd_b32"),
                          ["unknown instruction 'v_andd_b32'", "did you mean 'v_and_b32'?"])
