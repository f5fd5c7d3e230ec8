"""The shipped application programs run, check and show what they are for.

The TP MLP runs on 2 of its 8 GPUs here (``system.gpus.count`` override; the launches are the same per GPU
and the memo reuses most of them), the bitonic sort on 64K keys (``params.n``); the pipeline at full size.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gpusim.system.simulate import simulate_program

WORKLOADS = Path(__file__).resolve().parents[2] / "workloads"


def test_the_two_stream_pipeline_overlaps_compute_with_copies_and_checks():
    r = simulate_program(WORKLOADS / "pipeline_2stream.yaml", check=True)
    assert r.checks_passed and len(r.checks) == 3
    compute = next(s for s in r.streams if s["stream"] == "compute")
    copy = next(s for s in r.streams if s["stream"] == "copy")
    kernels = [s for s in r.spans if s.kind == "kernel"]
    copies_in = [s for s in r.spans if s.kind == "memcpy" and "h2d" in s.label]
    # chunk c is computed while chunk c+1 comes in
    assert kernels[0].start < copies_in[1].end and kernels[0].end > copies_in[1].start
    assert compute["busy_us"] < copy["busy_us"] and r.total_us == pytest.approx(copy["end_us"])


def test_the_bitonic_sort_sorts_in_its_210_stage_pattern():
    r = simulate_program(WORKLOADS / "bitonic_sort_1m.yaml", check=True, overrides={"params.n": 65536})
    assert r.checks_passed
    assert len(r.launches) == 16 * 17 // 2   # log2(n)(log2(n)+1)/2 stages
    # every stage's stores depend on the keys (a swap stores, no swap does not): none is reused
    assert r.memo["reused"] == 0


@pytest.fixture(scope="module")
def tp_mlp():
    over = {"system.gpus.count": 2}
    return (simulate_program(WORKLOADS / "tp_mlp_8gpu.yaml", overrides=over, check=True),
            simulate_program(WORKLOADS / "tp_mlp_8gpu_serial.yaml", overrides=over))


def test_the_tensor_parallel_mlp_all_reduces_to_the_numpy_reference(tp_mlp):
    overlapped, _ = tp_mlp
    assert overlapped.checks_passed
    assert [c["kind"] for c in overlapped.collectives] == ["all_reduce", "all_reduce"]


def test_overlapping_the_all_reduce_with_the_next_gemm_hides_it_and_saves_time(tp_mlp):
    overlapped, serial = tp_mlp
    assert serial.overlap["hidden_us"] == 0 and overlapped.overlap["hidden_fraction"] > 0.3
    assert overlapped.total_us < serial.total_us
    # the same kernels ran, and the same bytes moved over the links
    assert len(overlapped.launches) == len(serial.launches) == 2 * 2 * 3
    assert sum(r["bytes"] for r in overlapped.links) == sum(r["bytes"] for r in serial.links)
    # identical launches on the two GPUs are timed once
    assert overlapped.memo["reused"] > 0
