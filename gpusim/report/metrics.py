"""Derived metrics: formulas over raw counters, kept in one table.

Each metric names the counters it rests on, so a report (or ``gpusim
explain`` later) can cite them. A metric whose inputs are missing (a
functional run has no cycles) is left out rather than shown as zero.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional


class Metric(NamedTuple):
    """Metric is one derived quantity: its name, unit, inputs and formula."""

    name: str
    unit: str
    inputs: tuple
    formula: Callable[[dict, "object", int], Optional[float]]


def _ratio(a: float, b: float) -> Optional[float]:
    return a / b if b else None


def _simd_cycles(arch, cycles: int) -> int:
    return cycles * arch.cus * arch.cu.simds


METRICS = (
    Metric("Kernel_Time_us", "us", ("GRBM_GUI_ACTIVE",),
           lambda c, a, t: t / a.clocks.shader_mhz),
    Metric("VALU_Util", "%", ("GPUSIM_VALU_BUSY_CYCLES", "GRBM_GUI_ACTIVE"),
           lambda c, a, t: _pct(c["GPUSIM_VALU_BUSY_CYCLES"], _simd_cycles(a, t))),
    Metric("MFMA_Util", "%", ("GPUSIM_MFMA_BUSY_CYCLES", "GRBM_GUI_ACTIVE"),
           lambda c, a, t: _pct(c["GPUSIM_MFMA_BUSY_CYCLES"], _simd_cycles(a, t))),
    Metric("L1_Hit_Rate", "%", ("GPUSIM_TCP_HIT_sum", "TCP_TOTAL_CACHE_ACCESSES_sum"),
           lambda c, a, t: _pct(c["GPUSIM_TCP_HIT_sum"], c["TCP_TOTAL_CACHE_ACCESSES_sum"])),
    Metric("L2_Hit_Rate", "%", ("TCC_HIT_sum", "TCC_MISS_sum"),
           lambda c, a, t: _pct(c["TCC_HIT_sum"], c["TCC_HIT_sum"] + c["TCC_MISS_sum"])),
    Metric("HBM_Bandwidth", "GB/s", ("GPUSIM_HBM_READ_BYTES_sum", "GPUSIM_HBM_WRITE_BYTES_sum", "GRBM_GUI_ACTIVE"),
           lambda c, a, t: (c["GPUSIM_HBM_READ_BYTES_sum"] + c["GPUSIM_HBM_WRITE_BYTES_sum"])
           / (t / (a.clocks.shader_mhz * 1e6)) / 1e9),
    Metric("HBM_Bandwidth_Pct_of_Peak", "%", ("GPUSIM_HBM_READ_BYTES_sum", "GPUSIM_HBM_WRITE_BYTES_sum",
                                              "GRBM_GUI_ACTIVE"),
           lambda c, a, t: _pct((c["GPUSIM_HBM_READ_BYTES_sum"] + c["GPUSIM_HBM_WRITE_BYTES_sum"])
                                / (t / (a.clocks.shader_mhz * 1e6)), a.hbm_bytes_per_s)),
    Metric("LDS_Bank_Conflict_Pct", "%", ("SQ_LDS_BANK_CONFLICT", "GPUSIM_LDS_BUSY_CYCLES"),
           lambda c, a, t: _pct(c["SQ_LDS_BANK_CONFLICT"], c["GPUSIM_LDS_BUSY_CYCLES"])),
    Metric("Wave_Stall_VMEM_Pct", "%", ("GPUSIM_STALL_WAITCNT_VM_CYCLES", "GPUSIM_WAVE_CYCLES"),
           lambda c, a, t: _pct(c["GPUSIM_STALL_WAITCNT_VM_CYCLES"], c["GPUSIM_WAVE_CYCLES"])),
    Metric("Wave_Issue_Pct", "%", ("GPUSIM_WAVE_ISSUE_CYCLES", "GPUSIM_WAVE_CYCLES"),
           lambda c, a, t: _pct(c["GPUSIM_WAVE_ISSUE_CYCLES"], c["GPUSIM_WAVE_CYCLES"])),
)


def _pct(part: float, whole: float) -> Optional[float]:
    r = _ratio(part, whole)
    return None if r is None else 100.0 * r


def derived_metrics(counters: dict, arch, cycles: Optional[int]) -> dict:
    """derived_metrics evaluates every metric whose input counters exist; returns {name: value}."""
    if cycles is None:
        return {}
    out = {}
    for m in METRICS:
        if all(name in counters for name in m.inputs):
            value = m.formula(counters, arch, cycles)
            if value is not None:
                out[m.name] = value
    return out
