"""The launch model around a dispatch (gpusim.engine.launch, the architecture's ``launch:`` section).

cdna3's values (archs/cdna3.yaml): command_processor_latency_cycles 4200 (2.0 us at the 2100 MHz shader
clock), completion_signal_cycles 2730 (1.3 us), start_invalidate_cycles 500, workgroup_dispatch_cycles 4.
valu_chain (one wave: v_mov + N = 8 dependent v_add_f32, s_endpgm) takes 4(N+1)+1 = 37 cycles
(tests/engine/test_golden_cycles.py).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]
N = 8
CHAIN = 4 * (N + 1) + 1   # 37 cycles: one valu_chain wave whose first instruction issues at cycle 0


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def chain(grid="1,1,1"):
    return gpusim.load_kernel(DATA / "valu_chain.s", grid=grid)


def test_kernel_time_and_event_time_of_a_tiny_kernel(cdna3):
    run = time_kernel(chain(), cdna3)
    assert run.cycles == CHAIN
    # a profiler's kernel trace: the 500-cycle invalidate at kernel start, then the 37 cycles, at 2100 MHz
    assert run.kernel_time_us == pytest.approx((500 + 37) / 2100)                 # 0.2557 us
    # hipEvent: 4200 cycles of command-processor launch latency before it, 2730 of completion signal after it
    assert run.event_time_us == pytest.approx((4200 + 500 + 37 + 2730) / 2100)     # 3.5557 us


def test_workgroups_on_different_xcds_start_together(cdna3):
    # round_robin_xcd: workgroups 0, 1, 2 go to XCDs 0, 1, 2, each its dispatcher's first: all at cycle 0
    assert time_kernel(chain("3,1,1"), cdna3).cycles == CHAIN


# one XCD of 38 CUs: workgroup k goes to CU k, dispatched no sooner than k * gap; its wave runs on SIMD 0,
# whose turns are the cycles divisible by 4, so it issues at the first of those from its dispatch on and
# its s_endpgm 36 cycles later. A CU is busy from its workgroup's dispatch to the cycle after that s_endpgm.
@pytest.mark.parametrize("gap, cycles, cu_busy", [
    (0, CHAIN, 3 * 37),             # no dispatch limit: all three start at cycle 0
    (4, CHAIN + 8, 3 * 37),         # dispatched at 0, 4, 8, each a SIMD 0 turn: the last ends at 8 + 37
    (5, CHAIN + 12, 37 + 40 + 39),  # dispatched at 0, 5, 10, first issue at 0, 8, 12: busy 37, 8+37-5, 12+37-10
])
def test_one_xcd_dispatches_a_workgroup_per_gap(cdna3, gap, cycles, cu_busy):
    arch = arch_overrides(cdna3, {"gpu.xcds": 1, "launch.workgroup_dispatch_cycles": gap})
    run = time_kernel(chain("3,1,1"), arch)
    assert run.cycles == cycles
    assert run.counters["GPUSIM_CU_BUSY_CYCLES"] == cu_busy
    # a wave's cycles count from its first issue to its s_endpgm: the wait for the dispatcher is not the wave's
    assert run.counters["GPUSIM_WAVE_CYCLES"] == 3 * 36


def test_warm_up_leaves_the_l2_and_mall_warm_and_outputs_unchanged(cdna3):
    # saxpy's x and y (16 x 256 floats each, 32 KiB in all) fit every cache. The kernel-start invalidate keeps
    # device memory's lines in the L2 (l2.invalidate_keeps_device_memory), and each workgroup goes to the same
    # XCD in both runs, so after a warm-up every line the timed run touches is in its XCD's L2: no request
    # goes past the L2, where the cold run fetches every line from HBM
    kernel = gpusim.load_kernel(REPO / "workloads" / "saxpy.s")
    cold = gpusim.simulate(kernel, cdna3, timing=True, check=True)
    warm = gpusim.simulate(kernel, cdna3, timing=True, check=True, warm_up=True)
    assert warm.warm_up and not cold.warm_up
    c, w = cold.counters, warm.counters
    assert w["TCC_MISS_sum"] == 0 < c["TCC_MISS_sum"]
    assert w["GPUSIM_MALL_REQ_sum"] == 0 < c["GPUSIM_MALL_MISS_sum"]
    # the timed run's counters only: the same requests reach the L2 as in a cold run, less the cold run's
    # page-walk reads (the warm run finds its translations in the UTCL2s the warm-up filled)
    assert w["GPUSIM_PAGE_WALKS_sum"] == 0 < c["GPUSIM_PAGE_WALKS_sum"]
    assert w["TCC_REQ_sum"] == c["TCC_REQ_sum"] - c["GPUSIM_PAGE_WALK_READS_sum"]
    assert w["GPUSIM_INSTS_TOTAL"] == c["GPUSIM_INSTS_TOTAL"]
    assert warm.cycles < cold.cycles
    assert warm.checks_passed and cold.checks_passed
    assert warm.outputs.keys() == cold.outputs.keys()
    for name in cold.outputs:
        assert np.array_equal(warm.outputs[name], cold.outputs[name]), name


def test_warm_up_with_an_l2_invalidate_that_drops_everything_leaves_the_mall_warm(cdna3):
    # the same, with a kernel-start invalidate that empties the L2: every line the timed run misses in the
    # L2 is found in the MALL; the cold run finds few there
    arch = arch_overrides(cdna3, {"l2.invalidate_keeps_device_memory": False})
    kernel = gpusim.load_kernel(REPO / "workloads" / "saxpy.s")
    c = gpusim.simulate(kernel, arch, timing=True).counters
    w = gpusim.simulate(kernel, arch, timing=True, warm_up=True).counters
    assert w["GPUSIM_MALL_MISS_sum"] == 0 < c["GPUSIM_MALL_MISS_sum"]
    assert w["GPUSIM_MALL_HIT_sum"] > c["GPUSIM_MALL_HIT_sum"]
    assert w["TCC_MISS_sum"] > 0


def test_warm_up_needs_the_timing_model(cdna3):
    with pytest.raises(gpusim.errors.UsageError, match="warm"):
        gpusim.simulate(chain(), cdna3, warm_up=True)


def gpusim_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True, env=env,
                          cwd=REPO)


def test_run_reports_both_kernel_times():
    proc = gpusim_cli("run", str(DATA / "valu_chain.s"), "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["cycles"] == CHAIN and data["warm_up"] is False
    assert data["kernel_time_us"] == pytest.approx((500 + 37) / 2100)
    assert data["event_time_us"] == pytest.approx((4200 + 500 + 37 + 2730) / 2100)
    report = proc.stderr   # with --json -, the text report goes to stderr
    assert "0.26 us kernel time as a profiler's kernel trace measures it" in report
    assert "3.56 us as hipEvent timing around the launch measures it" in report


def test_run_warm_up_flag():
    proc = gpusim_cli("run", "workloads/saxpy.s", "--warm-up", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["warm_up"] is True and data["counters"]["GPUSIM_MALL_MISS_sum"] == 0
    assert "after a warm-up run" in proc.stderr
    assert "--warm-up" in gpusim_cli("run", "--help").stdout


def test_a_workgroup_slot_frees_only_once_its_stores_are_acknowledged(cdna3):
    # one CU that holds one workgroup at a time (64 KiB of LDS each), no dispatch gap, no end-of-kernel release:
    # each workgroup's wave stores and ends, and s_endpgm's implicit s_waitcnt 0 (CDNA3 ISA, S_ENDPGM) keeps it,
    # and so the slot the next workgroup needs, until the L2 has acknowledged the store
    arch = arch_overrides(cdna3, {"gpu.xcds": 1, "gpu.cus_per_xcd": 1, "launch.workgroup_dispatch_cycles": 0,
                                  "l2.write_back_at_kernel_end": False})
    runs = [time_kernel(gpusim.load_kernel(DATA / "store_then_end.s", grid=f"{g},1,1"), arch) for g in (1, 2, 3)]
    step = runs[1].cycles - runs[0].cycles
    assert runs[2].cycles - runs[1].cycles == step
    # a later workgroup's kernarg load hits the scalar cache, so its time is mostly its store's round trip to
    # the L2 (264 cycles; 4 when a wave ended with its store still in flight)
    assert step > arch.cu.l1.latency_cycles + arch.l2.latency_cycles
    # the wave's own cycles run from its first issue to its s_endpgm, which waits for that acknowledgement
    assert runs[0].counters["GPUSIM_WAVE_CYCLES"] == runs[0].cycles - 1
