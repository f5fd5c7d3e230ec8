"""Sampled timing of a program's launches: each launch is timed as ``gpusim run`` times a dispatch (the
grid method on a big grid), its outputs stay exact, the memo keeps sampled and full timings apart, and the
program's report counts the sampled launches and sums their error estimates.

The kernel is the shipped 16M-element STREAM triad (16,384 workgroups, 6.7 rounds on cdna3), sampled
under a policy that takes any rate (the default's ±0.5% interval needs a longer grid), as
tests/engine/test_sampling.py samples it alone.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gpusim.engine.sampling_policy import SamplingPolicy
from gpusim.report.program_text import format_program
from gpusim.system.simulate import simulate_program

ROOT = Path(__file__).resolve().parents[2]
TRIAD = ROOT / "workloads" / "stream_triad.s"
ANY_RATE = SamplingPolicy(mode="on", steady_pct=100.0, grid_interval_pct=100.0)

# a = b + 3 c, then d = a + 0.5 c: the second launch reads what the first wrote, from the caches it left
PROGRAM = f"""\
system:
  gpus: {{arch: cdna3, count: 1}}
buffers:
  a: {{type: "f32[16777216] zeros", gpu: 0}}
  b: {{type: "f32[16777216] uniform(-1,1) seed=2", gpu: 0}}
  c: {{type: "f32[16777216] uniform(-1,1) seed=3", gpu: 0}}
  d: {{type: "f32[16777216] zeros", gpu: 0}}
streams:
  - name: s
    gpu: 0
    ops:
      - {{kernel: {TRIAD}, args: {{a: a, b: b, c: c, s: 3.0}}, name: first}}
      - {{kernel: {TRIAD}, args: {{a: d, b: a, c: c, s: 0.5}}, name: second}}
checks:
  - "a ~= b + 3 * c rtol=1e-6 atol=1e-6"
  - "d ~= b + 3.5 * c rtol=1e-5 atol=1e-5"   # a check reads the other buffers as they were at the start
"""


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("app") / "app.yaml"
    path.write_text(PROGRAM)
    return path


@pytest.fixture(scope="module")
def full(app):
    return simulate_program(app, values=False)


@pytest.fixture(scope="module")
def sampled(app):
    return simulate_program(app, values=False, sample=ANY_RATE)


def test_each_launch_is_sampled_by_the_grid_method_near_its_full_timing(full, sampled):
    assert [r["sampled"] for r in full.launches] == [False, False]
    for f, s in zip(full.launches, sampled.launches):
        assert (s["sampled"], s["sample_method"]) == (True, "grid")
        assert 0.5 < s["simulated_fraction"] < 0.95
        # measured: +5.2% (cold caches, as the kernel alone) and +0.2% (the second finds in the MALL the lines
        # the first's detailed part and its warmed middle left, as the full run does)
        assert abs(s["cycles"] / f["cycles"] - 1) < 0.06, (s["cycles"], f["cycles"])
        assert 0 < s["sample_error_pct"] < 100
    # the program's timeline marks them too (a Perfetto annotation of each kernel slice)
    assert [s.detail["sampled"] for s in sampled.spans if s.kind == "kernel"] == [True, True]
    assert [s.detail["sampled"] for s in full.spans if s.kind == "kernel"] == [False, False]
    # the full run's second launch is faster: the MALL holds the buffers the first one read and wrote
    assert full.launches[1]["cycles"] < 0.8 * full.launches[0]["cycles"]
    assert sampled.launches[1]["cycles"] < 0.8 * sampled.launches[0]["cycles"]


def test_a_sampled_program_is_deterministic(app, sampled):
    again = simulate_program(app, values=False, sample=ANY_RATE)
    assert again.launches == sampled.launches
    assert again.total_us == sampled.total_us


def test_the_programs_sampling_sums_its_launches_and_the_report_says_so(sampled, full):
    summary = sampled.sampling
    error_us = sum(r["kernel_time_us"] * r["sample_error_pct"] / 100 for r in sampled.launches)
    assert summary["launches"] == summary["of_launches"] == 2
    assert summary["kernel_us"] == pytest.approx(sum(r["kernel_time_us"] for r in sampled.launches))
    assert summary["error_us"] == pytest.approx(error_us)
    assert summary["error_pct"] == pytest.approx(100 * error_us / sampled.total_us)
    text = format_program(sampled)
    assert (f"sampled    2 of 2 launches timed from a sample of their grid ({summary['kernel_us']:,.1f} us of "
            f"kernels); their error estimates sum to ±{error_us:,.1f} us") in text
    assert sampled.to_dict()["sampling"] == summary
    assert "sampled" not in format_program(full).split("kernels\n")[0]   # nothing to say of a full run
    assert full.sampling["launches"] == 0 and full.sampling["error_us"] == 0


def test_outputs_stay_exact_when_the_launches_are_sampled(app):
    result = simulate_program(app, check=True, sample=ANY_RATE)
    assert [r["sampled"] for r in result.launches] == [True, True]
    assert result.checks and result.checks_passed


def test_a_repeated_sampled_launch_is_reused_with_its_sampling(tmp_path):
    # GPU 1 runs what GPU 0 runs, on its own copies of the buffers at the same addresses: the memo
    # (gpusim.system.launch_memo) gives it GPU 0's sampled timing, sampling outcome and all
    path = tmp_path / "two_gpus.yaml"
    path.write_text(f"""system: {{gpus: {{arch: cdna3, count: 2}}}}
buffers:
  a: {{type: "f32[16777216] zeros", gpus: all}}
  b: {{type: "f32[16777216] uniform(-1,1) seed=2", gpus: all}}
  c: {{type: "f32[16777216] uniform(-1,1) seed=3", gpus: all}}
streams:
  - {{name: s, gpus: all, ops: [{{kernel: {TRIAD}, args: {{a: a, b: b, c: c, s: 3.0}}}}]}}
""")
    result = simulate_program(path, values=False, sample=ANY_RATE)
    gpu0, gpu1 = result.launches
    assert (gpu0["reused"], gpu1["reused"]) == (False, True)
    assert gpu1["sampled"] and gpu1["sample_method"] == "grid"
    for key in ("cycles", "simulated_fraction", "sample_error_pct"):
        assert gpu1[key] == gpu0[key]
    assert result.sampling["launches"] == 2
