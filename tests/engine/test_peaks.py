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


def test_packed_fp32_fma_reaches_95_to_100_percent_of_vector_peak():
    # The vector FP32 peak of cdna3 is the packed rate (peaks.vector_flops_per_cu_per_clk.f32_packed = 256 per
    # CU per clock, [B]: 163.4 TF at 2.1 GHz x 304 CUs): v_pk_fma_f32 does 2 FMAs = 4 FLOP per lane and holds
    # the SIMD16 for 4 cycles, so 4 SIMDs x 64 lanes x 4 FLOP / 4 cycles = 256. One wave per SIMD issues its
    # 128 independent FMAs back to back (SIMD s at s, s+4, ...; s_endpgm at s + 512): 516 cycles.
    arch = load_arch("cdna3")
    run = time_kernel(gpusim.load_kernel(DATA / "valu_pk_fma_peak.s"), arch)
    waves = 304 * 4
    flops = waves * 128 * 64 * 4
    peak_per_clk = arch.peaks.vector_flops_per_cu_per_clk.f32_packed * arch.cus
    assert 0.95 * peak_per_clk <= flops / run.cycles <= peak_per_clk
    assert run.counters["GPUSIM_VALU_BUSY_CYCLES"] == waves * 128 * 4


def test_plain_fp32_fma_reaches_95_to_100_percent_of_its_vector_rate():
    # v_fma_f32: 2 FLOP per lane per 4 cycles, 4 x 64 x 2 / 4 = 128 FLOP per CU per clock (f32 in the YAML)
    arch = load_arch("cdna3")
    run = time_kernel(gpusim.load_kernel(DATA / "valu_fma_peak.s"), arch)
    waves = 304 * 4
    flops = waves * 128 * 64 * 2
    peak_per_clk = arch.peaks.vector_flops_per_cu_per_clk.f32 * arch.cus
    assert 0.95 * peak_per_clk <= flops / run.cycles <= peak_per_clk
    assert run.counters["GPUSIM_VALU_BUSY_CYCLES"] == waves * 128 * 4
