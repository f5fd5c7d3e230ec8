"""Compute peaks: independent MFMAs, or FP32 FMAs, on every CU keep the matrix or vector units busy.

Each CU gets one short workgroup, so the dispatchers' pace (launch.workgroup_dispatch_cycles: cdna3's 4 cycles
per workgroup per XCD start its 38th workgroup 148 cycles late) would measure the launch ramp, not the units:
these runs switch it off (gpusim.engine.kernels.cu._dispatch_at; tests/engine/test_launch_model.py pins it).
"""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"


def cdna3_without_dispatch_pace():
    return arch_overrides(load_arch("cdna3"), {"launch.workgroup_dispatch_cycles": 0})


def test_mfma_kernel_reaches_95_to_100_percent_of_matrix_peak():
    arch = cdna3_without_dispatch_pace()
    kernel = gpusim.load_kernel(DATA / "mfma_peak.s")
    run = time_kernel(kernel, arch)
    waves = 304 * 4
    flops = waves * 64 * 2 * 32 * 32 * 8
    peak_per_clk = arch.peaks.matrix_flops_per_cu_per_clk.f16 * arch.cus
    achieved = flops / run.cycles
    assert 0.95 * peak_per_clk <= achieved <= peak_per_clk
    assert run.counters["GPUSIM_MFMA_BUSY_CYCLES"] == waves * 64 * 32


# The vector FP32 peak of cdna3 is the packed rate (peaks.vector_flops_per_cu_per_clk.f32_packed = 256 per CU per
# clock, [B]: 163.4 TF at 2.1 GHz x 304 CUs): v_pk_fma_f32 does 2 FMAs = 4 FLOP per lane and holds the SIMD16 for
# 4 cycles, so 4 SIMDs x 64 lanes x 4 FLOP / 4 cycles = 256; v_fma_f32 does 2 FLOP per lane, 128 (f32 in the
# YAML). One wave per SIMD issues its 128 independent FMAs back to back (SIMD s at s, s+4, ...; s_endpgm at
# s + 512): 516 cycles.
@pytest.mark.parametrize("kernel, flop_per_lane, peak", [("valu_pk_fma_peak.s", 4, "f32_packed"),
                                                         ("valu_fma_peak.s", 2, "f32")])
def test_fp32_fma_reaches_95_to_100_percent_of_its_vector_peak(kernel, flop_per_lane, peak):
    arch = cdna3_without_dispatch_pace()
    run = time_kernel(gpusim.load_kernel(DATA / kernel), arch)
    waves = 304 * 4
    flops = waves * 128 * 64 * flop_per_lane
    peak_per_clk = getattr(arch.peaks.vector_flops_per_cu_per_clk, peak) * arch.cus
    assert 0.95 * peak_per_clk <= flops / run.cycles <= peak_per_clk
    assert run.counters["GPUSIM_VALU_BUSY_CYCLES"] == waves * 128 * 4
