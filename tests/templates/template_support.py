"""Helpers shared by the template tests: the real assembler, skipped where it is not installed."""
import os
import shutil
import subprocess

import pytest

LLVM_MC = shutil.which("llvm-mc-19")
needs_llvm_mc = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-19 is needed (Debian/Ubuntu: apt-get install llvm-19)")


def assembler_errors(path) -> str:
    """assembler_errors is what ``llvm-mc-19 -mcpu=gfx942`` prints when it rejects ``path`` ('' when it accepts it)."""
    proc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o", os.devnull,
                           str(path)], capture_output=True, text=True)
    return "" if proc.returncode == 0 else proc.stderr or f"llvm-mc-19 exited {proc.returncode}"
