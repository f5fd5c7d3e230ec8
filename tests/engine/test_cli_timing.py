"""`gpusim run` reports the timing model's figures next to the functional ones (the default; --no-timing
leaves them out)."""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def gpusim(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True, env=env,
                          cwd=REPO)


def test_run_prints_cycles_and_checks():
    proc = gpusim("run", "workloads/mfma_gemm_32x32x8f16.s", "--check")
    assert proc.returncode == 0, proc.stderr
    assert "cycles =" in proc.stdout and "us at 2100 MHz" in proc.stdout
    assert "L2 hit" in proc.stdout and "PASS" in proc.stdout
    assert "of the f16 MFMA peak" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_timing_json_has_cycles_and_memory_counters():
    proc = gpusim("run", "workloads/saxpy.s", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["cycles"] > 0 and data["time_us"] == data["cycles"] / 2100
    c = data["counters"]
    assert c["GRBM_GUI_ACTIVE"] == data["cycles"]
    assert c["TCC_HIT_sum"] + c["TCC_MISS_sum"] == c["TCC_REQ_sum"]
    per_instance = data["counters_per_instance"]
    assert all(sum(per_instance[name]) == c[name + "_sum"] for name in per_instance)
    assert not any("[" in name for name in c)


def test_without_timing_no_cycles_are_claimed():
    proc = gpusim("run", "workloads/saxpy.s", "--no-timing", "--json", "-")
    data = json.loads(proc.stdout)
    assert data["cycles"] is None and data["counters_per_instance"] == {}
    assert "cycles" not in proc.stderr  # the text report goes to stderr with --json -
    assert "GRBM_GUI_ACTIVE" not in data["counters"]
    assert set(data["metrics"]) >= {"Total_FLOPs"} and "Kernel_Time_us" not in data["metrics"]


def test_csv_rows_are_long_with_instances(tmp_path):
    out = tmp_path / "r.csv"
    proc = gpusim("run", "workloads/gemm_lds_tiled.s", "--csv", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["kind", "name", "instance", "value", "unit"]
    tcc = [r for r in rows if r["name"] == "TCC_HIT"]
    assert [int(r["instance"]) for r in tcc] == list(range(8 * 16))
    total = next(r for r in rows if r["name"] == "TCC_HIT_sum")
    assert total["instance"] == "" and sum(int(r["value"]) for r in tcc) == int(total["value"])
    flops = next(r for r in rows if r["name"] == "VALU_FLOPs")
    assert flops["kind"] == "metric" and float(flops["value"]) == 2 * 64 ** 3  # a 64x64x64 f32 GEMM on the VALU
