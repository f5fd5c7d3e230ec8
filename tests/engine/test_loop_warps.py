"""When the loop method warps (gpusim.engine.kernels.skip.warp), on hand-set measuring state.

Two waves on two CUs measure the same loop (trip 40, back edge at row 3) at one rate, 100 cycles per
iteration. A warp moves both by the largest shift that leaves each its tail of 2 iterations, so the wave
with the fewest iterations left sets it; a wave already within its tail leaves no shift at all, and no warp
is made once a workgroup slot has emptied with nothing left to dispatch (the GPU drains), nor while the
waves of one workgroup are more than 2 x 4 iterations apart (they take a shared unit in turn).
"""
from types import SimpleNamespace

import numpy as np
import pytest

from gpusim.engine.kernels import skip
from gpusim.engine.sampling import SamplePlan, sample_arrays
from gpusim.engine.sampling_policy import SamplingPolicy

TRIP, EDGE, CYCLES_PER_ITERATION = 40, 3, 100


def _measuring(iterations: list[int], waves_per_workgroup: int = 1):
    """SampleArrays with one workgroup of ``waves_per_workgroup`` waves per CU, wave ``w`` inside the loop after
    ``iterations[w]`` iterations, its last 2 x 4 + 1 back edges 100 cycles apart, ending at cycle 10,000; and
    the waves' ages."""
    views = [np.zeros(1, np.int64) for _ in range(7)]
    memory = SimpleNamespace(counter_views=lambda: [(str(i), v) for i, v in enumerate(views)])
    skip_head = np.full(EDGE + 1, -1, np.int64)
    skip_head[EDGE] = 0
    trip = np.zeros(EDGE + 1, np.int64)
    trip[EDGE] = TRIP
    plan = SamplePlan("loop", "", SamplingPolicy(mode="on", loop_max_warps=0), skip_head=skip_head, trip=trip)
    waves = len(iterations)
    Z = sample_arrays(plan, rows=EDGE + 1, wave_slots=waves, workgroup_slots=waves // waves_per_workgroup,
                      slots_per_cu=waves_per_workgroup, n_counters=4, memory=memory)
    measure = plan.policy.loop_measure_iterations
    ring = 2 * measure + 1
    for w, done in enumerate(iterations):
        Z.loop_row[w] = EDGE
        Z.iters[w] = done
        Z.fresh[w] = done
        for back in range(ring):   # the back edge ``back`` iterations ago
            Z.mark[w, (done - back) % ring] = 10_000 - back * CYCLES_PER_ITERATION
    return Z, np.arange(waves, dtype=np.int64)


def test_the_wave_with_the_fewest_iterations_left_sets_the_shift():
    Z, age = _measuring([10, 12])
    skip.warp(Z, age, 10_000)
    assert Z.out[skip.O_WARPS] == 1
    assert Z.out[skip.O_SHIFT] == (TRIP - 12 - 2) * CYCLES_PER_ITERATION
    assert list(Z.todo) == [26, 26]


@pytest.mark.parametrize("iterations", [[39, 10], [10, 39]])
def test_a_wave_within_its_tail_leaves_no_warp_whatever_its_slot(iterations):
    Z, age = _measuring(iterations)
    skip.warp(Z, age, 10_000)
    assert Z.out[skip.O_WARPS] == 0
    assert Z.out[skip.O_SHIFT] == 0
    assert list(Z.todo) == [0, 0]


def test_no_warp_once_the_gpu_drains():
    Z, age = _measuring([10, 12])
    skip.slot_left_empty(Z)
    skip.warp(Z, age, 10_000)
    assert Z.out[skip.O_WARPS] == 0
    assert list(Z.todo) == [0, 0]


@pytest.mark.parametrize("iterations, warps", [([10, 18], 1), ([10, 19], 0)])
def test_no_warp_while_a_workgroups_waves_are_far_apart_in_their_loop(iterations, warps):
    Z, age = _measuring(iterations, waves_per_workgroup=2)
    skip.warp(Z, age, 10_000)
    assert Z.out[skip.O_WARPS] == warps
    assert Z.out[skip.O_APART] == 1 - warps
