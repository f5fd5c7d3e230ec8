"""Parity with llvm-mc-19 on one instruction line: gpusim takes the line exactly when llvm-mc does.

The line is put in a one-instruction kernel (line 8 of the file) for the target, which has v0-v127 and
a0-a127; llvm-mc-19 assembles it and
gpusim loads it. A line llvm-mc refuses must be refused at line 8, naming the instruction; a line it takes
must load, unless gpusim refuses it as not supported yet (UnsupportedInstruction) and the test allows that
by naming what the message must say.
"""
from __future__ import annotations

import shutil
import subprocess
from typing import Optional

import pytest

import gpusim
from gpusim.errors import GpusimError, UnsupportedInstruction

KERNEL = """\
; gpusim-launch: grid=1,1,1 block=64,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--{target}"
	.globl k
	.p2align 8
	.type k,@function
k:
	{line}
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 256
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 128
	.end_amdhsa_kernel
"""
needs_llvm_mc = pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is needed")


def assert_llvm_mc_verdict(tmp_path, target: str, line: str, unsupported_says: Optional[str] = None) -> None:
    """assert_llvm_mc_verdict fails unless gpusim takes ``line`` on ``target`` exactly when llvm-mc-19 does; a
    line llvm-mc takes may be refused as not supported yet when ``unsupported_says`` is in that message."""
    path = tmp_path / "k.s"
    path.write_text(KERNEL.format(target=target, line=line))
    mc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(path),
                         "-filetype=obj", "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    try:
        gpusim.load_kernel(path)
        error = None
    except UnsupportedInstruction as e:
        assert unsupported_says is not None and mc.returncode == 0, (str(e), mc.stderr)
        assert "not supported yet" in str(e) and unsupported_says in str(e), str(e)
        return
    except GpusimError as e:
        error = str(e)
    assert (error is None) == (mc.returncode == 0), (error, mc.stderr)
    if error is not None:
        assert f"{path.name}:8:" in error and line.split()[0] in error, error


def parity_test(forms, unsupported_says: Optional[str] = None):
    """parity_test is a test function, parametrized over ``forms`` on gfx942 and gfx90a, that holds each form to
    llvm-mc-19's verdict (assert_llvm_mc_verdict); a test module binds it to a ``test_`` name."""
    cases = [(t, f) for t in ("gfx942", "gfx90a") for f in forms]

    @needs_llvm_mc
    @pytest.mark.parametrize("target, line", cases, ids=[f"{t}:{f}" for t, f in cases])
    def test(tmp_path, target, line):
        assert_llvm_mc_verdict(tmp_path, target, line, unsupported_says)
    return test
