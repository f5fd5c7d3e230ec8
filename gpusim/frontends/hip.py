"""hip compiles a HIP source file's device code with clang-19 into assembly text for one gfx target.

gpusim's own HIP headers (include/) stand in for ROCm's on every machine: gpusim_hip.h is force-included
(threadIdx/blockIdx/blockDim/gridDim, the qualifiers, __syncthreads, atomics, wave-level functions, common
math, vector types, and the host runtime API declared so that host code compiles), and include/hip/ answers a
file's ``#include <hip/hip_runtime.h>``, ``<hip/hip_fp16.h>`` and ``<hip/hip_bf16.h>``. ROCm's own headers are
not used even where ROCm is installed: they call its device libraries (``__ockl_get_local_id``, ``__ocml_*``),
which gpusim does not link (``-nogpulib``), and a kernel then compiles the same, to the same cycles, on every
machine. Only when the user names a directory of them (``--device-libs DIR``, gpusim.frontends.device_libs)
is ROCm's math library linked, for the functions gpusim's headers cannot compute. Only the device code is
compiled; host code is checked by clang and never run. The launch header
lives in ``// gpusim-launch/arg/check`` comments of the .hip file.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Optional, Sequence

from gpusim.errors import GpusimError, SourceLoc
from gpusim.frontends import device_libs as libs
from gpusim.frontends.tools import find_tool

CLANG = ("clang-19", "clang")
COMPILE_TIMEOUT_S = 300
INCLUDE = Path(__file__).with_name("include")      # gpusim's HIP headers, and <hip/...> for #include lines
HEADER = INCLUDE / "gpusim_hip.h"
_DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$")
_NOTE = re.compile(r"^(.*?):(\d+):(\d+): note: ")
# clang's complaints about a bitcode file it cannot read (garbage, or a newer LLVM's): the rest of the line
_UNREADABLE_BITCODE = re.compile(r"(?:Invalid record|Unknown attribute kind|Invalid bitcode|could not open bitcode|"
                                 r"doesn't start with bitcode header).*")
_HEADER_COMMENT = re.compile(r"^([ \t]*)//([ \t]*gpusim-)")
_UNDECLARED_HIP = re.compile(r"use of undeclared identifier '(hip[A-Z]|__h|__float2|__half|__bfloat)")
UNDECLARED_HIP_HINT = ("gpusim's HIP headers give the common device functions and declare the common host API; "
                       "host code is never run, so a host call they lack can go under #ifndef __GPUSIM__")


class HipCompileError(GpusimError):
    """HipCompileError is HIP source clang refused, located at clang's first error."""


def clang() -> str:
    """clang returns the clang driver to use, or raises naming the missing tool."""
    return find_tool(CLANG, HipCompileError("clang-19 is needed to compile HIP source and was not found on PATH; "
                                            "install LLVM 19 (apt install clang-19)"))


def compile_args(path: str, target: str, *, output: str, emit: str = "-S",
                 include_dirs: Sequence[str] = (), device_libs: Optional[str] = None) -> list[str]:
    """compile_args is the clang command line that compiles ``path``'s device code for ``target``, searching
    ``include_dirs`` for its headers after gpusim's own (so <hip/...> is always gpusim's), and linking ROCm's
    math library from ``device_libs`` when given (gpusim.frontends.device_libs)."""
    user = [arg for d in include_dirs for arg in ("-I", str(d))]
    linked = libs.clang_flags(device_libs, target) if device_libs is not None else []
    # line tables only: the code is the same, and each instruction's .loc names the line a fault reports
    return [clang(), "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-I", str(INCLUDE), *user,
            *linked, "-include", str(HEADER), "-O3", "-gline-tables-only", emit, f"--offload-arch={target}", "-o",
            output, path]


def assembly_of(path: str, target: str, include_dirs: Sequence[str] = (), device_libs: Optional[str] = None) -> str:
    """assembly_of compiles the .hip file at ``path`` for ``target`` (its headers searched for in
    ``include_dirs`` too, ROCm's math library linked from ``device_libs`` when given) and returns clang's
    assembly text.

    Raises HipCompileError with clang's first error as ``file:line:col: error: message``, or naming an include
    directory that does not exist; DeviceLibsError for a ``device_libs`` that lacks the libraries or that
    clang-19 cannot read.
    """
    if not os.path.isfile(path):
        raise HipCompileError(f"cannot read '{path}': no such file")
    for d in include_dirs:
        if not os.path.isdir(d):
            raise HipCompileError(f"include directory '{d}' does not exist")
    try:
        done = subprocess.run(compile_args(path, target, output="-", include_dirs=include_dirs,
                                           device_libs=device_libs),
                              capture_output=True, encoding="utf-8", errors="replace", timeout=COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise HipCompileError(f"{path}: clang took longer than {COMPILE_TIMEOUT_S} s") from None
    unreadable = _UNREADABLE_BITCODE.search(done.stderr) if device_libs is not None else None
    if done.returncode != 0 and unreadable:
        raise libs.DeviceLibsError(f"--device-libs: clang-19 cannot read the bitcode in '{device_libs}': "
                                   f"{unreadable.group(0).strip()} (libraries built by an LLVM newer than 19, as "
                                   "ROCm 6.2's and later are, cannot be read; Debian's rocm-device-libs can)")
    if done.returncode != 0:
        raise _diagnostic(done.stderr, path)
    return done.stdout


def _diagnostic(stderr: str, path: str) -> HipCompileError:
    """_diagnostic turns clang's stderr into one located error (the first ``error:`` line)."""
    lines = stderr.splitlines()
    for k, line in enumerate(lines):
        m = _DIAGNOSTIC.match(line)
        if m:
            file, lineno, col, message = m.groups()
            if _in_headers(file):   # a header function refused how it was called: point at the call
                for later in lines[k + 1:]:
                    n = _NOTE.match(later)
                    if n and not _in_headers(n.group(1)):
                        file, lineno, col = n.groups()
                        break
            more = sum(1 for x in lines if _DIAGNOSTIC.match(x)) - 1
            suffix = f" (and {more} more error{'s' if more > 1 else ''})" if more > 0 else ""
            hint = UNDECLARED_HIP_HINT if _UNDECLARED_HIP.match(message) else ""
            return HipCompileError(message + suffix, SourceLoc(file, int(lineno), int(col)), hint)
    text = [x for x in lines if x.strip()]
    return HipCompileError(f"{path}: clang failed: {text[0] if text else 'no message'}")


def _in_headers(file: str) -> bool:
    """_in_headers tells whether a diagnostic's file is one of gpusim's HIP headers."""
    try:
        return Path(file).resolve().is_relative_to(INCLUDE.resolve())
    except OSError:
        return False


def header_text(source: str) -> str:
    """header_text keeps the ``// gpusim-*`` comment lines of a .hip file as ``; gpusim-*`` lines in place
    (same line numbers and columns: ``//`` becomes ``; ``), every other line blank."""
    out = []
    for line in source.split("\n"):
        m = _HEADER_COMMENT.match(line)
        out.append(f"{m.group(1)}; {line[m.end(1) + 2:]}" if m else "")
    return "\n".join(out)
