"""`gpusim run --timing` reports the timing model's figures next to the functional ones."""
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


def test_run_with_timing_prints_cycles_and_checks():
    proc = gpusim("run", "workloads/mfma_gemm_32x32x8f16.s", "--check", "--timing")
    assert proc.returncode == 0, proc.stderr
    assert "cycles =" in proc.stdout and "us at 2100 MHz" in proc.stdout
    assert "L2 hit" in proc.stdout and "PASS" in proc.stdout


def test_timing_json_has_cycles_and_memory_counters():
    proc = gpusim("run", "workloads/saxpy.s", "--timing", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["cycles"] > 0 and data["time_us"] == data["cycles"] / 2100
    c = data["counters"]
    assert c["GRBM_GUI_ACTIVE"] == data["cycles"]
    assert c["TCC_HIT_sum"] + c["TCC_MISS_sum"] == c["TCC_REQ_sum"]


def test_without_timing_no_cycles_are_claimed():
    proc = gpusim("run", "workloads/saxpy.s", "--json", "-")
    assert json.loads(proc.stdout)["cycles"] is None
