"""Shared helpers for the executor tests: fixture paths, running a kernel on chosen inputs, the CLI."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Mapping, Optional

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def fixture_path(name: str) -> Path:
    """fixture_path returns the path of a hand-written kernel under tests/exec/data."""
    path = DATA / name
    assert path.exists(), path
    return path


def assert_checks_pass(name: str, checks: int, timing: bool):
    """assert_checks_pass simulates the fixture ``name`` on cdna3 with its gpusim-check lines and fails unless it
    has ``checks`` of them and every one passes; returns the Result."""
    import gpusim

    r = gpusim.simulate(gpusim.load_kernel(fixture_path(name)), "cdna3", check=True, timing=timing)
    assert len(r.checks) == checks and all(c.passed for c in r.checks), [c.describe() for c in r.checks]
    return r


def run_kernel(path, inputs: Optional[Mapping[str, np.ndarray]] = None, limit: int = 10_000_000) -> dict:
    """run_kernel runs a kernel functionally and returns every buffer's final contents.

    ``inputs`` replaces the initial contents of named buffers (same element
    count; the values are cast to the buffer's dtype, so pass bit patterns for
    bit-typed buffers).
    """
    from gpusim import api
    from gpusim.exec.launch import Dispatch

    kernel = api.load_kernel(path)
    module = kernel.module
    dispatch = Dispatch(module, kernel.source, kernel.program, module.launch, module.args)
    for name, values in (inputs or {}).items():
        buf = dispatch.buffers[name].initial
        values = np.asarray(values)
        assert values.size == buf.size, (name, values.size, buf.size)
        buf[...] = values.reshape(buf.shape).astype(buf.dtype)
    return dispatch.run(limit=limit).final


def run_cli(*args: str, cwd=None, env: Optional[Mapping[str, str]] = None, timeout: int = 600):
    """run_cli runs ``python -m gpusim.cli ARGS`` with the repository on PYTHONPATH."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, env=full_env, timeout=timeout)


needs_llvm_mc = pytest.mark.skipif(shutil.which("llvm-mc-19") is None,
                                   reason="llvm-mc-19 is needed (Debian/Ubuntu: apt-get install llvm-19)")


def assert_assembles(tmp_path, text: str, mcpu: str) -> None:
    """assert_assembles fails unless llvm-mc-19 assembles the kernel ``text`` for ``mcpu`` (the real assembler
    takes every kernel a test hands gpusim as valid)."""
    path = tmp_path / "assembled.s"
    path.write_text(text)
    done = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj", "-o",
                           "/dev/null", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
