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


def test_a_functional_run_has_no_metrics():
    r = gpusim.simulate(gpusim.load_kernel(REPO / "workloads" / "saxpy.s"), "cdna3")
    assert r.metrics == {} and r.to_dict()["metrics"] == {}


def test_csv_holds_counters_and_metrics(tmp_path):
    out = tmp_path / "r.csv"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "gpusim.cli", "run", "workloads/saxpy.s", "--timing", "--csv",
                           str(out)], capture_output=True, text=True, env=env, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open()))
    kinds = {r["name"]: r["kind"] for r in rows}
    assert kinds["SQ_WAVES"] == "counter" and kinds["L2_Hit_Rate"] == "metric"
