"""A kernel beside a collective slows by the CUs or the HBM share the collective takes (gpu_compute)."""
import simpy

from gpusim.system.gpu_compute import GpuCompute


def _run(work_us, hbm_use, collective=None, cus=304):
    """_run times one kernel of ``work_us`` while an optional collective (start, end, channels, hbm share) runs."""
    env = simpy.Environment()
    gpu = GpuCompute(env, cus)
    out = {}

    def kernel():
        out["took"] = yield env.process(gpu.run(work_us, hbm_use))

    def coll(start, end, channels, share):
        yield env.timeout(start)
        gpu.occupy(channels, share)
        yield env.timeout(end - start)
        gpu.release(channels, share)

    env.process(kernel())
    if collective:
        env.process(coll(*collective))
    env.run()
    return out["took"]


def test_alone_a_kernel_takes_its_engine_time():
    assert _run(100.0, 0.9) == 100.0


def test_half_the_cus_taken_for_30_us_halve_the_compute_bound_kernels_rate_then():
    # 20 us at full rate, 30 us at half (15 us of work), the remaining 65 us of work at full rate
    assert abs(_run(100.0, 0.0, (20.0, 50.0, 152, 0.0)) - 115.0) < 1e-9


def test_a_memory_bound_kernel_gets_the_hbm_bandwidth_the_collective_leaves():
    # it used 90% of the peak alone; a collective takes 20%: 0.9 / 0.8 = 1.125 times longer while it runs
    took = _run(100.0, 0.9, (0.0, 1000.0, 1, 0.2))
    assert abs(took - 112.5) < 1e-9


def test_a_kernel_that_needs_little_bandwidth_is_not_slowed_by_the_hbm_share():
    assert _run(100.0, 0.3, (0.0, 1000.0, 0, 0.2)) == 100.0
