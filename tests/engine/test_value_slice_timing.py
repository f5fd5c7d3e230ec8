"""A timing-only run (outputs=False) computes just the address/control slice and times exactly the same.

gpusim.asm.value_slice lets the timing model skip MFMA math and data moves that no address, branch or
EXEC mask depends on. For every corpus kernel (clang-19 output: divergent loops, atomics, DPP, swizzles,
gathers) and template-made kernels, both ways of running must give the same cycles, every counter and the
same per-instruction counts; a fault inside skipped data movement is reported the same way; and the
outputs of a sliced run are absent rather than wrong.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.asm.value_slice import value_slice
from gpusim.engine.timing import time_kernel
from gpusim.templates import generate

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "corpus"
CLANG = sorted((CORPUS / "gfx942").glob("*.s"))
CLANG_GFX90A = [CORPUS / "gfx90a" / n for n in ("mfma_gemm_32x32x8f16.s", "wave_scan_dpp.s", "stream_compact.s")]
TEMPLATES = {
    "gemm": dict(m=256, n=256, k=64),
    "gemm-bf16-double-buffer": dict(m=256, n=256, k=128, dtype="bf16", lds_double_buffer=True, prefetch=1),
    "gemm-f32": dict(m=128, n=128, k=32, dtype="f32", mfma="32x32x2", tile="128x128x16", vec=16),
    "softmax": dict(rows=8, cols=512),
    "reduce": dict(),
    "transpose": dict(),
    "stream": dict(),
    "chase": dict(),
}


def _timed_both_ways(kernel, arch):
    full = time_kernel(kernel, arch)
    sliced = time_kernel(kernel, arch, values=False)
    return full, sliced


def _assert_same_timing(full, sliced):
    assert sliced.cycles == full.cycles
    assert sliced.counters == full.counters
    assert np.array_equal(sliced.instruction_counts, full.instruction_counts)


@pytest.mark.parametrize("path", CLANG, ids=lambda p: p.stem)
def test_clang_kernels_time_the_same_without_their_values(path):
    _assert_same_timing(*_timed_both_ways(gpusim.load_kernel(path), load_arch("cdna3")))


@pytest.mark.parametrize("path", CLANG_GFX90A, ids=lambda p: p.stem)
def test_gfx90a_kernels_time_the_same_on_cdna2(path):
    _assert_same_timing(*_timed_both_ways(gpusim.load_kernel(path), load_arch("cdna2")))


@pytest.mark.parametrize("case", sorted(TEMPLATES), ids=str)
def test_template_kernels_time_the_same_without_their_values(case, tmp_path):
    family = case.split("-")[0]
    path = tmp_path / f"{case}.s"
    path.write_text(generate(family, **TEMPLATES[case]))
    _assert_same_timing(*_timed_both_ways(gpusim.load_kernel(path), load_arch("cdna3")))


def test_the_gemm_slice_leaves_out_the_matrix_math():
    kernel = gpusim.load_kernel(CORPUS / "gfx942" / "mfma_gemm_128x128f16.s")
    needed = value_slice(kernel.program)
    mfma = [i for i, m in enumerate(kernel.program.mnemonics) if m.startswith("v_mfma")]
    loads = [i for i, m in enumerate(kernel.program.mnemonics) if m.startswith(("global_load", "ds_read"))]
    assert mfma and loads
    assert not needed[mfma].any() and not needed[loads].any()


def test_a_sliced_run_has_no_outputs_and_a_checked_run_computes_them():
    kernel = gpusim.load_kernel(CORPUS / "gfx942" / "mfma_gemm_32x32x8f16.s")
    sliced = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False)
    assert sliced.outputs is None
    checked = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False, check=True)
    assert checked.checks_passed and checked.outputs is not None
    assert checked.cycles == sliced.cycles
