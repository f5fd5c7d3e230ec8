"""Every assembly file shipped in the repo assembles with llvm-mc-19 unchanged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*REPO.glob("tests/data/corpus/**/*.s"), *REPO.glob("workloads/*.s"),
                  *REPO.glob("benchmarks/kernels/*.s"), *REPO.glob("tests/engine/data/*.s"),
                  *REPO.glob("tests/asm/data/static/*.s")])
LLVM_MC = "llvm-mc-19"

pytestmark = pytest.mark.skipif(
    shutil.which(LLVM_MC) is None,
    reason="llvm-mc-19 is needed (Debian/Ubuntu: apt-get install llvm-19)")

TARGET_RE = re.compile(r'^\s*\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx[0-9a-f]+)((?::[\w-]+[+-])*)"',
                       re.M)


def llvm_mc_args(text: str) -> list[str]:
    """llvm_mc_args returns -mcpu (and -mattr) for the file's .amdgcn_target."""
    m = TARGET_RE.search(text)
    if m is None:
        return ["-mcpu=gfx942"]
    args = [f"-mcpu={m.group(1)}"]
    features = [f[-1] + f[:-1] for f in m.group(2).split(":") if f]
    if features:
        args.append("-mattr=" + ",".join(features))
    return args


def assemble(path: Path) -> subprocess.CompletedProcess:
    cmd = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", *llvm_mc_args(path.read_text()),
           "-filetype=obj", "-o", os.devnull, str(path)]
    return subprocess.run(cmd, capture_output=True, text=True)


def test_repo_ships_assembly_files():
    assert SHIPPED, "no tests/data/corpus/**/*.s or workloads/*.s found"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_file_assembles(path):
    proc = assemble(path)
    assert proc.returncode == 0, f"{path.relative_to(REPO)}:\n{proc.stderr}"


def test_target_line_selects_the_cpu():
    assert llvm_mc_args('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n') == ["-mcpu=gfx90a"]
    assert llvm_mc_args('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack+"\n') == [
        "-mcpu=gfx90a", "-mattr=+xnack"]
    assert llvm_mc_args("\ts_endpgm\n") == ["-mcpu=gfx942"]


def test_broken_file_is_rejected(tmp_path):
    good = REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s"
    broken = tmp_path / "broken.s"
    broken.write_text(good.read_text().replace("s_endpgm", "s_endpgm_now", 1))
    proc = assemble(broken)
    assert proc.returncode != 0
    assert "s_endpgm_now" in proc.stderr or "invalid instruction" in proc.stderr


def test_gfx942_only_instruction_is_rejected_for_gfx90a(tmp_path):
    src = (REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s").read_text()
    assert "v_lshl_add_u64" in src
    retargeted = tmp_path / "retargeted.s"
    retargeted.write_text(src.replace("--gfx942", "--gfx90a"))
    assert assemble(retargeted).returncode != 0
