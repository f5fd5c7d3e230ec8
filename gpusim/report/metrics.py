"""Derived metrics: formulas over raw counters, kept in one table.

Each metric names the counters it rests on and states its formula, so the
text report, JSON, CSV and ``Result.to_frame()`` all show the same numbers
and a reader can check any of them by hand. A metric whose inputs are
missing (a functional run has no GRBM_GUI_ACTIVE, so no time-based
metric), or whose denominator is zero, is left out rather than shown as 0.

Conventions: "CU-cycles" are GRBM_GUI_ACTIVE x the architecture's CUs,
"SIMD-cycles" that x SIMDs per CU; rates use the shader clock; FLOPs count
64 lanes per wave-instruction as rocprof-compute does (gpusim.asm.flops).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from gpusim.asm.flops import FLOPS_PER_MOP, LANES, MFMA_DTYPES, VALU_DTYPES


class Metric(NamedTuple):
    """Metric is one derived quantity: its name, unit, input counters, formula (as text and as code)."""

    name: str
    unit: str
    inputs: tuple
    definition: str
    formula: Callable[[dict, "object"], Optional[float]]


def _ratio(a: float, b: float) -> Optional[float]:
    return a / b if b else None


def _pct(part: float, whole: float) -> Optional[float]:
    r = _ratio(part, whole)
    return None if r is None else 100.0 * r


def _seconds(c: dict, arch) -> float:
    return c["GRBM_GUI_ACTIVE"] / (arch.clocks.shader_mhz * 1e6)


def _per_s(amount: float, c: dict, arch) -> Optional[float]:
    return _ratio(amount, _seconds(c, arch))


def _giga_per_s(amount: float, c: dict, arch) -> Optional[float]:
    rate = _per_s(amount, c, arch)
    return None if rate is None else rate / 1e9


def _cu_cycles(c: dict, arch) -> int:
    return c["GRBM_GUI_ACTIVE"] * arch.cus


def _simd_cycles(c: dict, arch) -> int:
    return _cu_cycles(c, arch) * arch.cu.simds


def _sum(c: dict, names: tuple) -> int:
    return sum(c[n] for n in names)


# ---------------------------------------------------------------- FLOP accounting
_VALU_INPUTS = tuple(f"SQ_INSTS_VALU_{op}_{t}" for t in VALU_DTYPES for op in ("ADD", "MUL", "FMA", "TRANS"))
_MOPS = {t: f"SQ_INSTS_VALU_MFMA_MOPS_{t}" for t in MFMA_DTYPES}
_MFMA_FLOAT_INPUTS = tuple(_MOPS[t] for t in MFMA_DTYPES if t != "I8")
_FLOP_INPUTS = _VALU_INPUTS + tuple(_MOPS.values())
_HBM = ("GPUSIM_HBM_READ_BYTES_sum", "GPUSIM_HBM_WRITE_BYTES_sum")
# arch.peaks field of each MFMA counter type
_MATRIX_PEAK = {"F16": "f16", "BF16": "bf16", "F32": "f32", "F64": "f64", "I8": "i8", "F8": "fp8", "XF32": "xf32"}


def valu_flops_by_type(c: dict) -> dict:
    """valu_flops_by_type returns VALU FLOPs per type: 64 x (ADD + MUL + TRANS + 2 x FMA) of each of F16/F32/F64."""
    return {t: LANES * (c[f"SQ_INSTS_VALU_ADD_{t}"] + c[f"SQ_INSTS_VALU_MUL_{t}"] + c[f"SQ_INSTS_VALU_TRANS_{t}"]
                        + 2 * c[f"SQ_INSTS_VALU_FMA_{t}"]) for t in VALU_DTYPES}


def mfma_ops_by_type(c: dict) -> dict:
    """mfma_ops_by_type returns MFMA operations per input type: 512 x SQ_INSTS_VALU_MFMA_MOPS_<type>."""
    return {t: FLOPS_PER_MOP * c[_MOPS[t]] for t in MFMA_DTYPES}


class Peak(NamedTuple):
    """Peak is the compute rate a kernel's operations are held against: which unit and type, and OP/s."""

    unit: str   # "VALU" or "MFMA"
    dtype: str  # counter type suffix: F16, BF16, F32, F64, I8, F8, XF32
    ops_per_s: float

    @property
    def label(self) -> str:
        return f"{self.dtype.lower()} {self.unit}"


def _valu_peak(arch, dtype: str) -> float:
    """FP64 against the FP64 FMA rate; FP32 and FP16 against the datasheet's packed-FP32 rate (v_pk_fma_f32),
    which is the most a VALU can do on 32-bit lanes."""
    v = arch.peaks.vector_flops_per_cu_per_clk
    per_clk = v.f64 if dtype == "F64" else max(v.f32, v.f32_packed)
    return per_clk * arch.cus * arch.clocks.shader_mhz * 1e6


def _mfma_peak(arch, dtype: str) -> float:
    per_clk = getattr(arch.peaks.matrix_flops_per_cu_per_clk, _MATRIX_PEAK[dtype])
    return per_clk * arch.cus * arch.clocks.shader_mhz * 1e6


def dominant_peak(c: dict, arch, unit: Optional[str] = None) -> Optional[Peak]:
    """dominant_peak returns the peak of the unit and type that did most of the kernel's floating-point work.

    ``unit`` "VALU" or "MFMA" restricts the choice to that unit; None takes
    both (INT8 MFMA operations are not FLOPs and only count for "MFMA").
    Returns None for a kernel without such operations.
    """
    work = []
    if unit in (None, "VALU"):
        work += [("VALU", t, n) for t, n in valu_flops_by_type(c).items()]
    if unit in (None, "MFMA"):
        work += [("MFMA", t, n) for t, n in mfma_ops_by_type(c).items() if unit == "MFMA" or t != "I8"]
    work = [w for w in work if w[2] > 0]
    if not work:
        return None
    u, t, _ = max(work, key=lambda w: w[2])
    return Peak(u, t, _valu_peak(arch, t) if u == "VALU" else _mfma_peak(arch, t))


def _valu_flops(c: dict) -> int:
    return sum(valu_flops_by_type(c).values())


def _mfma_flops(c: dict) -> int:
    return FLOPS_PER_MOP * _sum(c, _MFMA_FLOAT_INPUTS)


def _peak_pct(ops: float, c: dict, arch, unit: Optional[str]) -> Optional[float]:
    peak = dominant_peak(c, arch, unit)
    return None if peak is None or not peak.ops_per_s else _pct(_per_s(ops, c, arch), peak.ops_per_s)


def _mfma_peak_pct(c: dict, arch) -> Optional[float]:
    peak = dominant_peak(c, arch, "MFMA")
    if peak is None:
        return None
    ops = FLOPS_PER_MOP * c[_MOPS["I8"]] if peak.dtype == "I8" else _mfma_flops(c)
    return _peak_pct(ops, c, arch, "MFMA")


def _peak_g(c: dict, arch, unit: Optional[str]) -> Optional[float]:
    peak = dominant_peak(c, arch, unit)
    return None if peak is None else peak.ops_per_s / 1e9


def _lds_bytes(c: dict, arch) -> int:
    lds = arch.cu.lds
    return lds.banks * lds.bank_width_bytes * (c["GPUSIM_LDS_BUSY_CYCLES"] - c["SQ_LDS_BANK_CONFLICT"])


def _l2_peak(arch) -> float:
    xcds = arch.gpu.xcds
    return arch.l2.bytes_per_clk_per_channel * arch.l2.channels * xcds * arch.clocks.shader_mhz * 1e6


def compute_peak(arch, unit: str, dtype: str) -> float:
    """compute_peak returns the OP/s peak of ``unit`` ("VALU" or "MFMA") on counter type ``dtype`` (F16, F32, ...).

    The rate Peak_GFLOPs holds a kernel against: arch.peaks x CUs x shader clock, VALU FP32 and FP16 at the
    packed-FP32 rate.
    """
    return _valu_peak(arch, dtype) if unit == "VALU" else _mfma_peak(arch, dtype)


def level_bytes(c: dict, arch) -> dict:
    """level_bytes returns the bytes each memory level moved, {"HBM", "MALL", "L2", "LDS": bytes}.

    HBM: GPUSIM_HBM_READ_BYTES_sum + GPUSIM_HBM_WRITE_BYTES_sum (HBM_Bytes); MALL, on a GPU that has one:
    GPUSIM_MALL_REQ_sum x MALL line; L2: TCC_REQ_sum x L2 line (as L2_Bandwidth); LDS: banks x bank width x
    (GPUSIM_LDS_BUSY_CYCLES - SQ_LDS_BANK_CONFLICT) (as LDS_Bandwidth). A level whose counters are missing
    is left out.
    """
    out = {}
    if all(n in c for n in _HBM):
        out["HBM"] = _sum(c, _HBM)
    if arch.mall.present and "GPUSIM_MALL_REQ_sum" in c:
        out["MALL"] = c["GPUSIM_MALL_REQ_sum"] * arch.mall.line_bytes
    if "TCC_REQ_sum" in c:
        out["L2"] = c["TCC_REQ_sum"] * arch.l2.line_bytes
    if "GPUSIM_LDS_BUSY_CYCLES" in c and "SQ_LDS_BANK_CONFLICT" in c:
        out["LDS"] = _lds_bytes(c, arch)
    return out


def level_peak_bytes_per_s(arch) -> dict:
    """level_peak_bytes_per_s returns each memory level's peak bandwidth over the whole GPU in bytes/s.

    HBM: arch.hbm_bytes_per_s; MALL (if present): channels x bytes per clock per channel x shader clock;
    L2: XCDs x channels x bytes per clock per channel x shader clock; LDS: bytes per clock x CUs x shader clock.
    """
    hz = arch.clocks.shader_mhz * 1e6
    out = {"HBM": arch.hbm_bytes_per_s}
    if arch.mall.present:
        out["MALL"] = arch.mall.channels * arch.mall.bytes_per_clk_per_channel * hz
    out["L2"] = _l2_peak(arch)
    out["LDS"] = arch.cu.lds.bytes_per_clk * arch.cus * hz
    return out


def _vmem_busy(c: dict, arch) -> float:
    return c["TCP_TOTAL_CACHE_ACCESSES_sum"] * arch.cu.l1.line_bytes / arch.cu.l1.bytes_per_clk


_T = ("GRBM_GUI_ACTIVE",)
_WAVE_STALLS = (
    ("Wave_Issue_Pct", "GPUSIM_WAVE_ISSUE_CYCLES", "issuing an instruction"),
    ("Wave_Stall_VMEM_Pct", "GPUSIM_STALL_WAITCNT_VM_CYCLES", "at s_waitcnt vmcnt (global memory)"),
    ("Wave_Stall_LGKM_Pct", "GPUSIM_STALL_WAITCNT_LGKM_CYCLES", "at s_waitcnt lgkmcnt (LDS, scalar memory)"),
    ("Wave_Stall_Barrier_Pct", "GPUSIM_STALL_BARRIER_CYCLES", "at s_barrier"),
    ("Wave_Stall_Dependency_Pct", "GPUSIM_STALL_DEPENDENCY_CYCLES", "waiting for a register a unit still writes"),
    ("Wave_Stall_Unit_Busy_Pct", "GPUSIM_STALL_UNIT_BUSY_CYCLES", "waiting for its busy execution unit"),
    ("Wave_Stall_Arbiter_Pct", "GPUSIM_STALL_ARBITER_CYCLES", "ready, but the issue port went to another wave"),
    ("Wave_Stall_Nop_Pct", "GPUSIM_STALL_NOP_CYCLES", "in s_nop or s_sleep"),
    ("Wave_Stall_Ifetch_Pct", "GPUSIM_STALL_IFETCH_CYCLES", "refilling its instruction buffer after a taken branch"),
)


def _wave_share(counter: str) -> Callable:
    return lambda c, a: _pct(c[counter], c["GPUSIM_WAVE_CYCLES"])


METRICS = (
    # ---------------------------------------------------------------- time
    Metric("Kernel_Cycles", "cycles", _T, "GRBM_GUI_ACTIVE (shader-clock cycles of the dispatch)",
           lambda c, a: c["GRBM_GUI_ACTIVE"]),
    Metric("Kernel_Time_us", "us", _T, "GRBM_GUI_ACTIVE / shader MHz",
           lambda c, a: c["GRBM_GUI_ACTIVE"] / a.clocks.shader_mhz),
    # ---------------------------------------------------------------- operations (no time needed)
    Metric("VALU_FLOPs", "FLOP", _VALU_INPUTS, "64 x (ADD + MUL + TRANS + 2 x FMA) over F16, F32, F64",
           lambda c, a: _valu_flops(c)),
    Metric("MFMA_FLOPs", "FLOP", _MFMA_FLOAT_INPUTS, "512 x MFMA_MOPS over F16, BF16, F32, F64, F8, XF32",
           lambda c, a: _mfma_flops(c)),
    Metric("MFMA_IOPs", "OP", (_MOPS["I8"],), "512 x SQ_INSTS_VALU_MFMA_MOPS_I8",
           lambda c, a: FLOPS_PER_MOP * c[_MOPS["I8"]]),
    Metric("Total_FLOPs", "FLOP", _VALU_INPUTS + _MFMA_FLOAT_INPUTS, "VALU_FLOPs + MFMA_FLOPs",
           lambda c, a: _valu_flops(c) + _mfma_flops(c)),
    Metric("Peak_GFLOPs", "GFLOP/s", _FLOP_INPUTS, "peak of the unit and type with the most FLOPs "
           "(arch.peaks x CUs x shader clock; VALU FP32/FP16 at the packed-FP32 rate)",
           lambda c, a: _peak_g(c, a, None)),
    Metric("VALU_Peak_GFLOPs", "GFLOP/s", _VALU_INPUTS, "VALU peak of the type with the most VALU FLOPs",
           lambda c, a: _peak_g(c, a, "VALU")),
    Metric("MFMA_Peak_GFLOPs", "GFLOP/s", tuple(_MOPS.values()), "MFMA peak of the type with the most MFMA ops",
           lambda c, a: _peak_g(c, a, "MFMA")),
    # ---------------------------------------------------------------- compute rates
    Metric("GFLOPs", "GFLOP/s", _VALU_INPUTS + _MFMA_FLOAT_INPUTS + _T, "Total_FLOPs / kernel time",
           lambda c, a: _giga_per_s(_valu_flops(c) + _mfma_flops(c), c, a)),
    Metric("VALU_GFLOPs", "GFLOP/s", _VALU_INPUTS + _T, "VALU_FLOPs / kernel time",
           lambda c, a: _giga_per_s(_valu_flops(c), c, a)),
    Metric("MFMA_GFLOPs", "GFLOP/s", _MFMA_FLOAT_INPUTS + _T, "MFMA_FLOPs / kernel time",
           lambda c, a: _giga_per_s(_mfma_flops(c), c, a)),
    Metric("MFMA_GIOPs", "GOP/s", (_MOPS["I8"],) + _T, "MFMA_IOPs / kernel time",
           lambda c, a: _giga_per_s(FLOPS_PER_MOP * c[_MOPS["I8"]], c, a)),
    Metric("FLOPs_Pct_of_Peak", "%", _FLOP_INPUTS + _T, "100 x GFLOPs / Peak_GFLOPs",
           lambda c, a: _peak_pct(_valu_flops(c) + _mfma_flops(c), c, a, None)),
    Metric("VALU_FLOPs_Pct_of_Peak", "%", _VALU_INPUTS + _T, "100 x VALU_GFLOPs / VALU_Peak_GFLOPs",
           lambda c, a: _peak_pct(_valu_flops(c), c, a, "VALU")),
    Metric("MFMA_FLOPs_Pct_of_Peak", "%", tuple(_MOPS.values()) + _T,
           "100 x MFMA ops per second (FLOPs, or OPs when INT8 dominates) / MFMA_Peak_GFLOPs",
           lambda c, a: _mfma_peak_pct(c, a)),
    # ---------------------------------------------------------------- bandwidth
    Metric("HBM_Bytes", "B", _HBM, "GPUSIM_HBM_READ_BYTES_sum + GPUSIM_HBM_WRITE_BYTES_sum",
           lambda c, a: _sum(c, _HBM)),
    Metric("HBM_Bandwidth", "GB/s", _HBM + _T, "HBM_Bytes / kernel time",
           lambda c, a: _giga_per_s(_sum(c, _HBM), c, a)),
    Metric("HBM_Bandwidth_Pct_of_Peak", "%", _HBM + _T, "100 x HBM_Bandwidth / (HBM channels x bytes per "
           "memory clock x memory clock)",
           lambda c, a: _pct(_per_s(_sum(c, _HBM), c, a), a.hbm_bytes_per_s)),
    Metric("L2_Bandwidth", "GB/s", ("TCC_REQ_sum",) + _T, "TCC_REQ_sum x L2 line bytes / kernel time",
           lambda c, a: _giga_per_s(c["TCC_REQ_sum"] * a.l2.line_bytes, c, a)),
    Metric("L2_Bandwidth_Pct_of_Peak", "%", ("TCC_REQ_sum",) + _T,
           "100 x L2_Bandwidth / (XCDs x L2 channels x bytes per clock per channel x shader clock)",
           lambda c, a: _pct(_per_s(c["TCC_REQ_sum"] * a.l2.line_bytes, c, a), _l2_peak(a))),
    Metric("LDS_Bandwidth", "GB/s", ("GPUSIM_LDS_BUSY_CYCLES", "SQ_LDS_BANK_CONFLICT") + _T,
           "banks x bank width x (GPUSIM_LDS_BUSY_CYCLES - SQ_LDS_BANK_CONFLICT) / kernel time",
           lambda c, a: _giga_per_s(_lds_bytes(c, a), c, a)),
    Metric("LDS_Bandwidth_Pct_of_Peak", "%", ("GPUSIM_LDS_BUSY_CYCLES", "SQ_LDS_BANK_CONFLICT") + _T,
           "100 x LDS_Bandwidth / (LDS bytes per clock x CUs x shader clock)",
           lambda c, a: _pct(_lds_bytes(c, a), a.cu.lds.bytes_per_clk * _cu_cycles(c, a))),
    Metric("Arithmetic_Intensity_HBM", "FLOP/B", _VALU_INPUTS + _MFMA_FLOAT_INPUTS + _HBM,
           "Total_FLOPs / HBM_Bytes", lambda c, a: _ratio(_valu_flops(c) + _mfma_flops(c), _sum(c, _HBM))),
    # ---------------------------------------------------------------- occupancy
    Metric("Achieved_Waves_per_SIMD", "waves", ("GPUSIM_WAVE_CYCLES",) + _T,
           "GPUSIM_WAVE_CYCLES / SIMD-cycles (resident waves, averaged over every SIMD of the GPU)",
           lambda c, a: _ratio(c["GPUSIM_WAVE_CYCLES"], _simd_cycles(c, a))),
    Metric("Achieved_Waves_per_Busy_SIMD", "waves", ("GPUSIM_WAVE_CYCLES", "GPUSIM_CU_BUSY_CYCLES"),
           "GPUSIM_WAVE_CYCLES / (GPUSIM_CU_BUSY_CYCLES x SIMDs per CU) (averaged over the cycles a CU held waves)",
           lambda c, a: _ratio(c["GPUSIM_WAVE_CYCLES"], c["GPUSIM_CU_BUSY_CYCLES"] * a.cu.simds)),
    # ---------------------------------------------------------------- unit utilisation
    Metric("VALU_Util", "%", ("GPUSIM_VALU_BUSY_CYCLES",) + _T, "100 x GPUSIM_VALU_BUSY_CYCLES / SIMD-cycles",
           lambda c, a: _pct(c["GPUSIM_VALU_BUSY_CYCLES"], _simd_cycles(c, a))),
    Metric("MFMA_Util", "%", ("GPUSIM_MFMA_BUSY_CYCLES",) + _T, "100 x GPUSIM_MFMA_BUSY_CYCLES / SIMD-cycles",
           lambda c, a: _pct(c["GPUSIM_MFMA_BUSY_CYCLES"], _simd_cycles(c, a))),
    Metric("SALU_Util", "%", ("SQ_INSTS_SALU", "SQ_INSTS_SMEM") + _T,
           "100 x (SQ_INSTS_SALU + SQ_INSTS_SMEM) / CU-cycles (the scalar issue port takes one per CU-cycle)",
           lambda c, a: _pct(c["SQ_INSTS_SALU"] + c["SQ_INSTS_SMEM"], _cu_cycles(c, a))),
    Metric("LDS_Util", "%", ("GPUSIM_LDS_BUSY_CYCLES",) + _T, "100 x GPUSIM_LDS_BUSY_CYCLES / CU-cycles",
           lambda c, a: _pct(c["GPUSIM_LDS_BUSY_CYCLES"], _cu_cycles(c, a))),
    Metric("VMEM_Util", "%", ("TCP_TOTAL_CACHE_ACCESSES_sum",) + _T,
           "100 x TCP_TOTAL_CACHE_ACCESSES_sum x L1 line bytes / L1 bytes per clock / CU-cycles "
           "(share of time the vector L1 port moves lines)",
           lambda c, a: _pct(_vmem_busy(c, a), _cu_cycles(c, a))),
    Metric("IPC", "instr/cycle", ("GPUSIM_INSTS_TOTAL", "GPUSIM_CU_BUSY_CYCLES"),
           "GPUSIM_INSTS_TOTAL / GPUSIM_CU_BUSY_CYCLES (wave-instructions per CU-cycle with resident waves)",
           lambda c, a: _ratio(c["GPUSIM_INSTS_TOTAL"], c["GPUSIM_CU_BUSY_CYCLES"])),
    # ---------------------------------------------------------------- where wave-cycles went (adds up to 100)
    *(Metric(name, "%", (counter, "GPUSIM_WAVE_CYCLES"), f"100 x {counter} / GPUSIM_WAVE_CYCLES: {what}",
             _wave_share(counter)) for name, counter, what in _WAVE_STALLS),
    # ---------------------------------------------------------------- where CU-cycles went (adds up to 100)
    Metric("CU_Issue_Pct", "%", ("GPUSIM_CU_ISSUE_CYCLES",) + _T, "100 x GPUSIM_CU_ISSUE_CYCLES / CU-cycles",
           lambda c, a: _pct(c["GPUSIM_CU_ISSUE_CYCLES"], _cu_cycles(c, a))),
    Metric("CU_No_Eligible_Wave_Pct", "%", ("GPUSIM_CU_BUSY_CYCLES", "GPUSIM_CU_ISSUE_CYCLES") + _T,
           "100 x (GPUSIM_CU_BUSY_CYCLES - GPUSIM_CU_ISSUE_CYCLES) / CU-cycles (waves resident, none could issue)",
           lambda c, a: _pct(c["GPUSIM_CU_BUSY_CYCLES"] - c["GPUSIM_CU_ISSUE_CYCLES"], _cu_cycles(c, a))),
    Metric("CU_Idle_Pct", "%", ("GPUSIM_CU_BUSY_CYCLES",) + _T,
           "100 x (CU-cycles - GPUSIM_CU_BUSY_CYCLES) / CU-cycles (no resident wave)",
           lambda c, a: _pct(_cu_cycles(c, a) - c["GPUSIM_CU_BUSY_CYCLES"], _cu_cycles(c, a))),
    # ---------------------------------------------------------------- caches
    Metric("L1_Hit_Rate", "%", ("GPUSIM_TCP_HIT_sum", "TCP_TOTAL_CACHE_ACCESSES_sum"),
           "100 x GPUSIM_TCP_HIT_sum / TCP_TOTAL_CACHE_ACCESSES_sum",
           lambda c, a: _pct(c["GPUSIM_TCP_HIT_sum"], c["TCP_TOTAL_CACHE_ACCESSES_sum"])),
    Metric("L2_Hit_Rate", "%", ("TCC_HIT_sum", "TCC_MISS_sum"), "100 x TCC_HIT_sum / (TCC_HIT_sum + TCC_MISS_sum)",
           lambda c, a: _pct(c["TCC_HIT_sum"], c["TCC_HIT_sum"] + c["TCC_MISS_sum"])),
    Metric("MALL_Hit_Rate", "%", ("GPUSIM_MALL_HIT_sum", "GPUSIM_MALL_REQ_sum"),
           "100 x GPUSIM_MALL_HIT_sum / GPUSIM_MALL_REQ_sum",
           lambda c, a: _pct(c["GPUSIM_MALL_HIT_sum"], c["GPUSIM_MALL_REQ_sum"])),
    Metric("Scalar_Cache_Hit_Rate", "%", ("SQC_DCACHE_HITS_sum", "SQC_DCACHE_REQ_sum"),
           "100 x SQC_DCACHE_HITS_sum / SQC_DCACHE_REQ_sum",
           lambda c, a: _pct(c["SQC_DCACHE_HITS_sum"], c["SQC_DCACHE_REQ_sum"])),
    # ---------------------------------------------------------------- LDS and hazards
    Metric("LDS_Bank_Conflict_Cycles", "cycles", ("SQ_LDS_BANK_CONFLICT",), "SQ_LDS_BANK_CONFLICT",
           lambda c, a: c["SQ_LDS_BANK_CONFLICT"]),
    Metric("LDS_Bank_Conflict_Pct", "%", ("SQ_LDS_BANK_CONFLICT", "GPUSIM_LDS_BUSY_CYCLES"),
           "100 x SQ_LDS_BANK_CONFLICT / GPUSIM_LDS_BUSY_CYCLES",
           lambda c, a: _pct(c["SQ_LDS_BANK_CONFLICT"], c["GPUSIM_LDS_BUSY_CYCLES"])),
    Metric("RAW_Hazards", "instr", ("GPUSIM_RAW_HAZARDS",),
           "GPUSIM_RAW_HAZARDS (wave-instructions that read a register before its producer completed)",
           lambda c, a: c["GPUSIM_RAW_HAZARDS"]),
    Metric("Uninit_Reads", "instr", ("GPUSIM_UNINIT_READS",),
           "GPUSIM_UNINIT_READS (wave-instructions that read a register nothing wrote: it reads 0)",
           lambda c, a: c["GPUSIM_UNINIT_READS"]),
)

METRIC_BY_NAME = {m.name: m for m in METRICS}


def derived_metrics(counters: dict, arch) -> dict:
    """derived_metrics evaluates every metric whose input counters exist; returns {name: value}.

    Values are floats; a metric with a zero denominator is left out.
    """
    out = {}
    for m in METRICS:
        if all(name in counters for name in m.inputs):
            value = m.formula(counters, arch)
            if value is not None:
                out[m.name] = float(value)
    return out
