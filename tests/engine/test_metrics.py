"""Derived metrics are formulas over the raw counters, and --csv writes both."""
import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.report.metrics import METRICS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def timed():
    return gpusim.simulate(gpusim.load_kernel(REPO / "workloads" / "gemm_lds_tiled.s"), "cdna3", timing=True)


def test_metrics_follow_their_formulas(timed):
    c, m = timed.counters, timed.metrics
    assert m["L2_Hit_Rate"] == pytest.approx(100 * c["TCC_HIT_sum"] / (c["TCC_HIT_sum"] + c["TCC_MISS_sum"]))
    assert m["Kernel_Time_us"] == pytest.approx(timed.cycles / 2100)
    simd_cycles = timed.cycles * 304 * 4
    assert m["VALU_Util"] == pytest.approx(100 * c["GPUSIM_VALU_BUSY_CYCLES"] / simd_cycles)
    assert 0 <= m["Wave_Issue_Pct"] <= 100


def test_every_metric_names_counters_that_exist(timed):
    for metric in METRICS:
        for name in metric.inputs:
            assert name in timed.counters, (metric.name, name)


def test_a_functional_run_has_only_the_operation_count_metrics():
    r = gpusim.simulate(gpusim.load_kernel(REPO / "workloads" / "saxpy.s"), "cdna3")
    timed_inputs = {"GRBM_GUI_ACTIVE", "GPUSIM_WAVE_CYCLES", "GPUSIM_CU_BUSY_CYCLES"}
    assert r.metrics and r.to_dict()["metrics"] == r.metrics
    for name in r.metrics:
        metric = next(m for m in METRICS if m.name == name)
        assert not timed_inputs & set(metric.inputs) and not any(i.endswith("_sum") for i in metric.inputs), name


def test_per_instance_counters_add_up_to_their_sums(timed):
    assert len(timed.instances["TCC_HIT"]) == 8 * 16  # XCDs x L2 channels
    assert len(timed.instances["TCP_TOTAL_CACHE_ACCESSES"]) == 304  # CUs
    assert len(timed.instances["GPUSIM_HBM_READ_BYTES"]) == 128  # HBM channels
    for name, values in timed.instances.items():
        assert sum(values) == timed.counters[name + "_sum"], name


def test_stall_and_cu_cycle_shares_add_up(timed):
    m = timed.metrics
    assert sum(v for k, v in m.items() if k.startswith("Wave_")) == pytest.approx(100)
    assert m["CU_Issue_Pct"] + m["CU_No_Eligible_Wave_Pct"] + m["CU_Idle_Pct"] == pytest.approx(100)


def test_csv_holds_counters_and_metrics(tmp_path):
    out = tmp_path / "r.csv"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "gpusim.cli", "run", "workloads/saxpy.s", "--csv",
                           str(out)], capture_output=True, text=True, env=env, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open()))
    kinds = {r["name"]: r["kind"] for r in rows}
    assert kinds["SQ_WAVES"] == "counter" and kinds["L2_Hit_Rate"] == "metric"
