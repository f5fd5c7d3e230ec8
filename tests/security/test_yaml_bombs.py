"""YAML bombs are refused fast, in every YAML gpusim reads: architecture files, study files, the
``.amdgpu_metadata`` block of a kernel file and ``--set``-style architecture overrides.

A "billion laughs" document is a few lines of anchors and aliases that expand to billions of
values; composed naively it runs past gigabytes and hangs. gpusim refuses the first alias (at its
file:line:col), nesting past 64 levels and documents past the size limits. The CLI runs have a
short timeout: a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpusim.errors import ArchError, AsmError
from gpusim.located_yaml import MAX_DEPTH, MAX_NODES, load_plain, read_located, screen

REPO = Path(__file__).resolve().parents[2]
SAXPY = REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s"
TIMEOUT = 120  # seconds: far above a refusal (well under one), far below a bomb's expansion


def laughs(levels: int = 9, indent: str = "") -> str:
    """laughs is a billion-laughs document: level k holds nine aliases of level k-1 (9**levels values)."""
    lines = [f'{indent}l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for k in range(1, levels):
        lines.append(f"{indent}l{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_the_first_alias_is_refused_at_its_place():
    with pytest.raises(ArchError) as info:
        read_located(laughs(), "bomb.yaml", ArchError)
    err = info.value
    assert (err.loc.file, err.loc.line, err.loc.col) == ("bomb.yaml", 2, 10)
    assert err.message == "YAML aliases (*l0) are not supported; write the value out"


def test_a_single_harmless_alias_is_refused_too():
    with pytest.raises(ArchError, match=r"YAML aliases \(\*x\) are not supported"):
        read_located("a: &x 1\nb: *x\n", "f.yaml", ArchError)


def test_a_merge_key_keeps_its_own_message():
    with pytest.raises(ArchError, match=r"merge keys \('<<'\) are not supported; use 'extends'") as info:
        read_located("base: &b {x: 1}\ngpu:\n  <<: *b\n", "f.yaml", ArchError)
    assert (info.value.loc.line, info.value.loc.col) == (3, 3)


def test_deep_nesting_is_refused():
    text = "a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    with pytest.raises(ArchError, match=f"nested more than {MAX_DEPTH} levels"):
        read_located(text, "f.yaml", ArchError)
    read_located("a: " + "[" * 10 + "]" * 10 + "\n", "f.yaml", ArchError)


def test_too_many_values_are_refused():
    text = "a: [" + ", ".join(["1"] * (MAX_NODES + 1)) + "]\n"
    with pytest.raises(ArchError, match=f"more than {MAX_NODES} values"):
        screen(text, "f.yaml", ArchError)


def test_an_embedded_block_is_located_in_its_file():
    with pytest.raises(AsmError) as info:
        screen("a: &x 1\nb: [*x]\n", "k.s", AsmError, first_line=100)
    assert (info.value.loc.line, info.value.loc.col) == (101, 5)


def test_load_plain_reads_ordinary_values_and_refuses_aliases():
    assert load_plain("{a: [1, 2.5, x]}", "v", ArchError) == {"a": [1, 2.5, "x"]}
    assert load_plain("", "v", ArchError) is None
    with pytest.raises(ArchError, match="aliases"):
        load_plain("&a [*a]", "v", ArchError)


def test_an_override_value_cannot_be_a_bomb():
    from gpusim.arch import load_arch
    from gpusim.arch.loader import arch_overrides
    with pytest.raises(ArchError, match="aliases"):
        arch_overrides(load_arch("cdna3"), {"hbm.channels": "&a [*a, *a]"})


# --- end to end ---------------------------------------------------------------------------------

def gpusim(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """gpusim runs the CLI of this checkout in ``cwd``; a hang past TIMEOUT raises (fails the test)."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=TIMEOUT)


def _one_line_refusal(proc, where: str, phrase: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert re.match(where, lines[0]) and phrase in lines[0], lines[0]


def test_cli_refuses_a_billion_laughs_architecture(tmp_path):
    (tmp_path / "bomb.yaml").write_text("extends: cdna3\n" + laughs())
    proc = gpusim(tmp_path, "arch", "show", "bomb.yaml")
    _one_line_refusal(proc, r"\S*bomb\.yaml:3:10: error: ", "YAML aliases (*l0) are not supported")


def test_cli_refuses_a_billion_laughs_study(tmp_path):
    (tmp_path / "study.yaml").write_text("name: bomb\nworkload: {gen: stream, n: 16384}\nvary:\n"
                                         "  gen.stream.vec: [1]\n" + laughs())
    proc = gpusim(tmp_path, "sweep", "study.yaml", "--list")
    _one_line_refusal(proc, r"study\.yaml:6:10: error: ", "YAML aliases (*l0) are not supported")


def test_cli_refuses_a_billion_laughs_in_kernel_metadata(tmp_path):
    lines = SAXPY.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == "---")
    lines[start + 1:start + 1] = [laughs()]
    (tmp_path / "k.s").write_text("".join(lines))
    proc = gpusim(tmp_path, "run", "k.s", "--no-timing")
    _one_line_refusal(proc, rf"k\.s:{start + 3}:10: error: ", "YAML aliases (*l0) are not supported")
