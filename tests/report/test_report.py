"""Derived metrics, the text report and the long table, on hand-made counters (no simulation).

The counters are what a timed run of a made-up kernel would give on cdna3
(304 CUs x 4 SIMDs at 2100 MHz), chosen so that every metric has an exact
value to compare with.
"""
import csv
import io

import pytest

from gpusim import api
from gpusim.arch import load_arch
from gpusim.report.metrics import METRICS, derived_metrics, dominant_peak
from gpusim.report.table import COLUMNS, long_rows, write_csv
from gpusim.report.text import format_run

ARCH = load_arch("cdna3")
CUS, SIMDS, MHZ = 304, 4, 2100
CYCLES = 2100  # one microsecond
CU_CYCLES = CYCLES * CUS


def timed_counters() -> dict:
    c = {name: 0 for m in METRICS for name in m.inputs}
    c.update({
        "GRBM_GUI_ACTIVE": CYCLES, "SQ_WAVES": 64, "SQ_WORKGROUPS": 16, "SQ_INSTS_VALU": 1100, "SQ_INSTS_MFMA": 1000,
        "SQ_INSTS_SALU": 3000, "SQ_INSTS_SMEM": 192, "SQ_INSTS_VMEM_RD": 100, "SQ_INSTS_VMEM_WR": 10,
        "SQ_INSTS_LDS": 50, "SQ_INSTS_BRANCH": 5, "GPUSIM_INSTS_OTHER": 7, "SQ_INSTS_VALU_TRANS": 0,
        "SQ_INSTS_VALU_MFMA_F16": 1000, "SQ_INSTS_VALU_MFMA_MOPS_F16": 32000, "SQ_INSTS_VALU_FMA_F32": 100,
        "SQ_INSTS_VALU_ADD_F32": 10,
        "GPUSIM_VALU_BUSY_CYCLES": 100 * 4, "GPUSIM_MFMA_BUSY_CYCLES": 1000 * 32,
        "GPUSIM_LDS_BUSY_CYCLES": 300, "SQ_LDS_BANK_CONFLICT": 100,
        "TCP_TOTAL_CACHE_ACCESSES_sum": 400, "GPUSIM_TCP_HIT_sum": 100, "TCC_REQ_sum": 300, "TCC_HIT_sum": 225,
        "TCC_MISS_sum": 75, "GPUSIM_MALL_REQ_sum": 75, "GPUSIM_MALL_HIT_sum": 25, "SQC_DCACHE_REQ_sum": 200,
        "SQC_DCACHE_HITS_sum": 150, "GPUSIM_HBM_READ_BYTES_sum": 3200, "GPUSIM_HBM_WRITE_BYTES_sum": 6400,
        "GPUSIM_CU_BUSY_CYCLES": 4 * CYCLES, "GPUSIM_CU_ISSUE_CYCLES": CYCLES, "GPUSIM_RAW_HAZARDS": 12,
        "GPUSIM_WAVE_ISSUE_CYCLES": 2000, "GPUSIM_STALL_WAITCNT_VM_CYCLES": 4000,
        "GPUSIM_STALL_WAITCNT_LGKM_CYCLES": 1000, "GPUSIM_STALL_BARRIER_CYCLES": 500,
        "GPUSIM_STALL_DEPENDENCY_CYCLES": 300, "GPUSIM_STALL_UNIT_BUSY_CYCLES": 1200,
        "GPUSIM_STALL_ARBITER_CYCLES": 900, "GPUSIM_STALL_NOP_CYCLES": 60, "GPUSIM_STALL_IFETCH_CYCLES": 40,
    })
    c["GPUSIM_INSTS_TOTAL"] = sum(c[n] for n in ("SQ_INSTS_VALU", "SQ_INSTS_SALU", "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD",
                                                 "SQ_INSTS_VMEM_WR", "SQ_INSTS_LDS", "SQ_INSTS_BRANCH",
                                                 "GPUSIM_INSTS_OTHER"))
    c["GPUSIM_WAVE_CYCLES"] = sum(c[n] for n in c if n.startswith("GPUSIM_STALL_")) + c["GPUSIM_WAVE_ISSUE_CYCLES"]
    return c


def result(counters: dict, cycles=CYCLES, instances=None) -> api.Result:
    return api.Result(kernel="k", target="gfx942", arch=ARCH, grid=(16, 1, 1), block=(256, 1, 1), counters=counters,
                      outputs={}, cycles=cycles, instances=instances or {})


@pytest.fixture
def m():
    return derived_metrics(timed_counters(), ARCH)


def test_flops_and_percent_of_the_dominant_peak(m):
    mfma = 512 * 32000
    valu = 64 * (2 * 100 + 10)
    assert m["MFMA_FLOPs"] == mfma == 2 * 32 * 32 * 8 * 1000
    assert m["VALU_FLOPs"] == valu and m["Total_FLOPs"] == mfma + valu
    assert m["GFLOPs"] == pytest.approx((mfma + valu) / 1e-6 / 1e9)
    f16_peak = 2048 * CUS * MHZ * 1e6
    assert m["Peak_GFLOPs"] == pytest.approx(f16_peak / 1e9)
    assert m["FLOPs_Pct_of_Peak"] == pytest.approx(100 * (mfma + valu) / 1e-6 / f16_peak)
    assert m["MFMA_FLOPs_Pct_of_Peak"] == pytest.approx(100 * mfma / 1e-6 / f16_peak)
    assert m["VALU_FLOPs_Pct_of_Peak"] == pytest.approx(100 * valu / 1e-6 / (256 * CUS * MHZ * 1e6))
    peak = dominant_peak(timed_counters(), ARCH)
    assert (peak.unit, peak.dtype, peak.label) == ("MFMA", "F16", "f16 MFMA")


def test_int8_mfma_ops_are_not_flops_but_have_their_own_peak():
    c = timed_counters()
    c.update({"SQ_INSTS_VALU_MFMA_MOPS_F16": 0, "SQ_INSTS_VALU_MFMA_MOPS_I8": 8000})
    m = derived_metrics(c, ARCH)
    assert m["MFMA_FLOPs"] == 0 and m["MFMA_IOPs"] == 512 * 8000
    assert dominant_peak(c, ARCH).unit == "VALU"
    assert m["MFMA_FLOPs_Pct_of_Peak"] == pytest.approx(100 * 512 * 8000 / 1e-6 / (4096 * CUS * MHZ * 1e6))


def test_bandwidths(m):
    assert m["HBM_Bandwidth"] == pytest.approx(9600 / 1e-6 / 1e9)
    assert m["HBM_Bandwidth_Pct_of_Peak"] == pytest.approx(100 * 9600 / 1e-6 / ARCH.hbm_bytes_per_s)
    assert m["L2_Bandwidth"] == pytest.approx(300 * 128 / 1e-6 / 1e9)
    assert m["L2_Bandwidth_Pct_of_Peak"] == pytest.approx(100 * 300 * 128 / (128 * 16 * 8 * CYCLES))
    assert m["LDS_Bandwidth"] == pytest.approx(32 * 4 * (300 - 100) / 1e-6 / 1e9)
    assert m["LDS_Bandwidth_Pct_of_Peak"] == pytest.approx(100 * 32 * 4 * 200 / (128 * CU_CYCLES))
    assert m["Arithmetic_Intensity_HBM"] == pytest.approx(m["Total_FLOPs"] / 9600)


def test_utilisation_formulas(m):
    assert m["VALU_Util"] == pytest.approx(100 * 400 / (CU_CYCLES * SIMDS))
    assert m["MFMA_Util"] == pytest.approx(100 * 32000 / (CU_CYCLES * SIMDS))
    assert m["SALU_Util"] == pytest.approx(100 * (3000 + 192) / CU_CYCLES)
    assert m["LDS_Util"] == pytest.approx(100 * 300 / CU_CYCLES)
    assert m["VMEM_Util"] == pytest.approx(100 * 400 * 128 / 64 / CU_CYCLES)
    assert m["IPC"] == pytest.approx(timed_counters()["GPUSIM_INSTS_TOTAL"] / (4 * CYCLES))


def test_wave_and_cu_cycle_shares_each_add_up_to_100(m):
    waves = [v for k, v in m.items() if k.startswith("Wave_")]
    assert len(waves) == 9 and sum(waves) == pytest.approx(100)
    assert m["Wave_Stall_Arbiter_Pct"] == pytest.approx(100 * 900 / 10000)
    assert m["CU_Issue_Pct"] + m["CU_No_Eligible_Wave_Pct"] + m["CU_Idle_Pct"] == pytest.approx(100)
    assert m["CU_No_Eligible_Wave_Pct"] == pytest.approx(100 * 3 * CYCLES / CU_CYCLES)
    assert m["Achieved_Waves_per_Busy_SIMD"] == pytest.approx(10000 / (4 * CYCLES * SIMDS))


def test_cache_hit_rates(m):
    assert (m["L1_Hit_Rate"], m["L2_Hit_Rate"], m["Scalar_Cache_Hit_Rate"]) == (25, 75, 75)
    assert m["MALL_Hit_Rate"] == pytest.approx(100 / 3)
    assert m["LDS_Bank_Conflict_Cycles"] == 100 and m["RAW_Hazards"] == 12


def test_a_metric_with_a_zero_denominator_is_left_out():
    c = timed_counters()
    c["GPUSIM_MALL_REQ_sum"] = c["GPUSIM_MALL_HIT_sum"] = 0
    assert "MALL_Hit_Rate" not in derived_metrics(c, ARCH)


def test_every_metric_states_its_formula_and_unit():
    for metric in METRICS:
        assert metric.definition and metric.unit and metric.inputs, metric.name
    assert len({metric.name for metric in METRICS}) == len(METRICS)


# ---------------------------------------------------------------- text report
def test_report_has_one_line_per_topic():
    out = format_run(result(timed_counters()), None)
    labels = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    for label in ("kernel", "launch", "executed", "time", "compute", "memory", "busy", "waves", "CUs", "caches",
                  "LDS", "hazards"):
        assert label in labels, label
    assert "2,100 cycles = 1.00 us at 2100 MHz" in out
    assert "of the f16 MFMA peak 1.31 PFLOP/s" in out
    assert "L1 hit 25%  L2 hit 75%  MALL hit 33%  scalar hit 75%" in out
    assert "100 bank-conflict cycles (33% of LDS busy cycles)" in out
    assert "12 RAW" in out
    assert "issuing 20%  vmcnt 40%  lgkmcnt 10%  barrier 5.0%  dependency 3.0%  unit busy 12%  arbitration 9.0%  " \
           "s_nop/s_sleep 0.6%  branch refill 0.4% of resident wave-cycles" in out
    assert "issuing 0.3%  no eligible wave 1.0%  idle 99% of CU-cycles" in out


def test_report_figures_are_the_metrics():
    r = result(timed_counters())
    out = format_run(r, None)
    m = r.metrics
    assert f"VALU {m['VALU_Util']:.1f}%" in out or f"VALU {m['VALU_Util']:.0f}%" in out or "VALU <0.1%" in out
    assert f"HBM {m['HBM_Bandwidth']:.3g} GB/s" in out


def test_functional_report_claims_no_cycles():
    c = {k: v for k, v in timed_counters().items() if k.startswith(("SQ_INSTS", "SQ_WAVES", "SQ_WORKGROUPS", "GPUSIM_INSTS"))}
    r = result(c, cycles=None)
    out = format_run(r, None)
    assert "cycles" not in out and "/s" not in out
    assert "compute  16.4 MFLOP (VALU 13.4 kFLOP, MFMA 16.4 MFLOP)" in out
    assert set(r.metrics) == {"VALU_FLOPs", "MFMA_FLOPs", "MFMA_IOPs", "Total_FLOPs", "Peak_GFLOPs",
                              "VALU_Peak_GFLOPs", "MFMA_Peak_GFLOPs"}


# ---------------------------------------------------------------- long table
def test_long_rows_hold_counters_instances_and_metrics():
    c = timed_counters()
    r = result(c, instances={"TCC_HIT": [200, 25]})
    rows = long_rows(r)
    assert all(set(row) == set(COLUMNS) for row in rows)
    inst = [(row["instance"], row["value"]) for row in rows if row["name"] == "TCC_HIT"]
    assert inst == [(0, 200), (1, 25)]
    by_name = {row["name"]: row for row in rows if row["instance"] is None}
    assert by_name["TCC_HIT_sum"]["kind"] == "counter" and by_name["TCC_HIT_sum"]["value"] == 225
    assert by_name["L2_Hit_Rate"]["kind"] == "metric" and by_name["L2_Hit_Rate"]["unit"] == "%"


def test_csv_round_trips_through_a_reader():
    r = result(timed_counters(), instances={"TCC_HIT": [200, 25]})
    f = io.StringIO()
    write_csv(r, f)
    rows = list(csv.DictReader(io.StringIO(f.getvalue())))
    assert tuple(rows[0]) == COLUMNS
    assert [(x["instance"], x["value"]) for x in rows if x["name"] == "TCC_HIT"] == [("0", "200"), ("1", "25")]
    metric = next(x for x in rows if x["name"] == "HBM_Bandwidth")
    assert metric["kind"] == "metric" and metric["instance"] == "" and metric["unit"] == "GB/s"
    assert float(metric["value"]) == pytest.approx(r.metrics["HBM_Bandwidth"])


def test_to_frame_is_the_long_table():
    pd = pytest.importorskip("pandas")
    r = result(timed_counters(), instances={"TCC_HIT": [200, 25]})
    frame = r.to_frame()
    assert tuple(frame.columns) == COLUMNS
    assert frame[frame["name"] == "TCC_HIT"]["value"].sum() == r.counters["TCC_HIT_sum"]
    assert frame["instance"].isna().sum() == len(frame) - 2
    assert pd.api.types.is_integer_dtype(frame["instance"])
