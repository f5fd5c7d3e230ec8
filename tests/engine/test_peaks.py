"""Compute peaks: independent MFMAs on every CU keep the matrix units busy."""
from pathlib import Path

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"


def test_mfma_kernel_reaches_95_to_100_percent_of_matrix_peak():
    arch = load_arch("cdna3")
    kernel = gpusim.load_kernel(DATA / "mfma_peak.s")
    run = time_kernel(kernel, arch)
    waves = 304 * 4
    flops = waves * 64 * 2 * 32 * 32 * 8
    peak_per_clk = arch.peaks.matrix_flops_per_cu_per_clk.f16 * arch.cus
    achieved = flops / run.cycles
    assert 0.95 * peak_per_clk <= achieved <= peak_per_clk
    assert run.counters["GPUSIM_MFMA_BUSY_CYCLES"] == waves * 64 * 32
