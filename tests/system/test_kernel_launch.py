"""run_launch: kernel launches against one GPU's persistent buffers and warm caches, and the launch memo."""
from pathlib import Path

import numpy as np
import pytest

import gpusim
import gpusim.system.kernel_launch as kl
from gpusim.errors import KernelFault, UsageError
from gpusim.exec.buffers import make_buffer
from gpusim.system.device import DeviceMemory
from gpusim.system.kernel_launch import kernarg_bytes, run_launch, slice_reads_buffers
from gpusim.system.launch_memo import CacheSnapshot, LaunchMemo

REPO = Path(__file__).resolve().parents[2]
SAXPY = REPO / "workloads/saxpy.s"
GATHER = REPO / "tests/data/corpus/gfx942/gather.s"


@pytest.fixture(scope="module")
def arch():
    return gpusim.load_arch("cdna3")


@pytest.fixture(scope="module")
def saxpy():
    return gpusim.load_kernel(SAXPY)


@pytest.fixture(scope="module")
def gather():
    return gpusim.load_kernel(GATHER)


def device_for(kernel, arch, extra=()):
    """device_for is a GPU holding ``kernel``'s header buffers, allocated in argument order (a single-kernel
    run's addresses), then buffers ``extra`` (name, array)."""
    dev = DeviceMemory(0, arch, kernarg_bytes=kernarg_bytes(kernel))
    for spec in kernel.module.args:
        if spec.kind == "buffer":
            dev.allocate(spec.name, make_buffer(spec))
    for name, array in extra:
        dev.allocate(name, array)
    return dev


class CountingTimer:
    """CountingTimer wraps time_kernel to count the timed runs run_launch makes."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = kl.time_kernel

        def counted(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(kl, "time_kernel", counted)


def test_chained_launches_read_each_others_buffers(saxpy, arch):
    spec = {a.name: a for a in saxpy.module.args}
    dev = device_for(saxpy, arch, extra=[("z", make_buffer(spec["y"]) * 3)])
    x, y, z = (dev.array(n).copy() for n in ("x", "y", "z"))
    first = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, scalars={"a": 2.0})
    second = run_launch(dev, saxpy, buffers={"x": "y", "y": "z"}, scalars={"a": -1.5})
    y1 = np.float32(2.0) * x + y
    np.testing.assert_allclose(dev.array("y"), y1, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(dev.array("z"), np.float32(-1.5) * y1 + z, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(dev.array("x"), x)
    assert first.cycles > 0 and second.cycles > 0 and not first.reused and not second.reused


def test_first_launch_is_a_cold_single_kernel_run_and_the_next_runs_on_warm_caches(saxpy, arch):
    cold = gpusim.simulate(saxpy, arch, timing=True)
    dev = device_for(saxpy, arch)
    addresses = (dev.address("x"), dev.address("y"))
    first = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})
    assert first.cycles == cold.cycles
    for name in ("GRBM_GUI_ACTIVE", "TCC_HIT_sum", "TCC_MISS_sum", "GPUSIM_HBM_READ_BYTES_sum", "SQ_INSTS_VALU",
                 "SQ_WAVES"):
        assert first.counters[name] == cold.counters[name], name
    assert first.instances["TCC_HIT"] == cold.instances["TCC_HIT"]
    assert (first.kernel_time_us, first.event_time_us) == (cold.kernel_time_us, cold.event_time_us)
    second = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})
    assert second.cycles < first.cycles
    assert second.counters["GPUSIM_HBM_READ_BYTES_sum"] < first.counters["GPUSIM_HBM_READ_BYTES_sum"]
    assert second.counters["TCC_HIT_sum"] > first.counters["TCC_HIT_sum"]   # the kept L2 lines
    assert (dev.address("x"), dev.address("y")) == addresses


def test_a_memo_hit_returns_the_timed_runs_cycles_without_a_timed_run_and_still_updates_outputs(
        saxpy, arch, monkeypatch):
    plain = device_for(saxpy, arch)   # every launch timed
    truth = [run_launch(plain, saxpy, buffers={"x": "x", "y": "y"}) for _ in range(4)]
    timer = CountingTimer(monkeypatch)
    dev = device_for(saxpy, arch)
    memo = LaunchMemo()
    got = [run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, memo=memo) for _ in range(4)]
    # cold, warm, then warm again holding the same lines: the third and fourth reuse the second
    assert [o.reused for o in got] == [False, False, True, True]
    assert (memo.hits, memo.misses, timer.calls) == (2, 2, 2)
    assert [o.cycles for o in got] == [o.cycles for o in truth]
    assert got[3].counters == truth[3].counters and got[3].instances == truth[3].instances
    np.testing.assert_array_equal(dev.array("y"), plain.array("y"))   # four saxpys, reused or not
    spec = {a.name: a for a in saxpy.module.args}
    y = make_buffer(spec["y"])
    for _ in range(4):
        y = np.float32(2.5) * make_buffer(spec["x"]) + y
    np.testing.assert_allclose(dev.array("y"), y, rtol=1e-5, atol=1e-5)


def test_a_changed_scalar_is_a_different_launch(saxpy, arch, monkeypatch):
    dev = device_for(saxpy, arch)
    memo = LaunchMemo()
    for _ in range(3):
        run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, memo=memo)
    assert memo.hits == 1
    other = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, scalars={"n": 2000}, memo=memo)
    assert not other.reused and memo.misses == 3
    assert other.counters["SQ_INSTS_VMEM_WR"] < 4000 // 64 + 1


def test_restored_caches_time_the_next_kernel_as_the_originals_do(saxpy, arch):
    dev = device_for(saxpy, arch)
    run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})
    original = dev.memory
    restored = CacheSnapshot.of(original).restore(arch)
    assert CacheSnapshot.of(restored).signature == CacheSnapshot.of(original).signature
    a = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})
    dev.memory = restored
    b = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})
    assert a.cycles == b.cycles and a.counters == b.counters


def test_a_kernel_whose_addresses_read_a_buffer_is_not_reused_when_that_buffer_changes(gather, arch, monkeypatch):
    assert slice_reads_buffers(gather)
    spec = {a.name: a for a in gather.module.args}
    idx0 = make_buffer(spec["idx"])
    idx1 = np.random.default_rng(7).integers(0, 4096, idx0.shape).astype(idx0.dtype)
    bind = {"src": "src", "idx": "idx", "out": "out"}
    plain = device_for(gather, arch)
    truth = []
    for idx in (idx0, idx0, idx0, idx1):
        plain.array("idx")[:] = idx
        truth.append(run_launch(plain, gather, buffers=bind))
    timer = CountingTimer(monkeypatch)
    dev = device_for(gather, arch)
    memo = LaunchMemo()
    got = []
    for idx in (idx0, idx0, idx0, idx1):
        dev.array("idx")[:] = idx
        got.append(run_launch(dev, gather, buffers=bind, memo=memo))
    assert [o.reused for o in got] == [False, False, True, False]
    assert timer.calls == 3 and memo.hits == 1
    assert [o.cycles for o in got] == [o.cycles for o in truth]
    assert got[3].counters == truth[3].counters
    np.testing.assert_array_equal(dev.array("out"), dev.array("src")[idx1])


def test_a_fault_reports_as_a_single_kernel_fault(arch, tmp_path):
    text = SAXPY.read_text().replace("n i32 4000", "n i32 5000").replace("f32[n]", "f32[4000]")
    path = tmp_path / "saxpy.s"
    path.write_text(text)
    kernel = gpusim.load_kernel(path)
    with pytest.raises(KernelFault) as single:
        gpusim.simulate(kernel, arch, timing=True)
    dev = device_for(kernel, arch, extra=[("later", np.zeros(16, np.float32))])
    memo = LaunchMemo()
    with pytest.raises(KernelFault) as launched:
        run_launch(dev, kernel, buffers={"x": "x", "y": "y"}, memo=memo)
    assert str(launched.value) == str(single.value)
    assert "past the end of buffer" in str(launched.value)
    assert len(memo) == 0 and not dev.memory.mall_tags.any()   # nothing remembered, the caches untouched


def test_a_timing_only_launch_times_the_same_and_leaves_its_outputs_stale(saxpy, arch):
    full_dev = device_for(saxpy, arch)
    full = run_launch(full_dev, saxpy, buffers={"x": "x", "y": "y"})
    dev = device_for(saxpy, arch)
    y0 = dev.array("y").copy()
    sliced = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, values=False)
    assert sliced.cycles == full.cycles and sliced.counters == full.counters
    np.testing.assert_array_equal(dev.array("y"), y0)   # the arithmetic was skipped
    assert dev.stale == {"x", "y"}
    run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, values=False)   # contents do not matter to it
    with pytest.raises(UsageError, match="timing-only"):
        run_launch(dev, saxpy, buffers={"x": "x", "y": "y"})


def test_an_untimed_launch_computes_outputs_only(saxpy, arch):
    dev = device_for(saxpy, arch)
    spec = {a.name: a for a in saxpy.module.args}
    before = CacheSnapshot.of(dev.memory).signature
    out = run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, scalars={"a": 0.5}, timing=False)
    assert out.cycles is None and out.counters["SQ_WAVES"] == 64 and out.counters["SQ_INSTS_VALU"] > 0
    np.testing.assert_allclose(dev.array("y"), np.float32(0.5) * make_buffer(spec["x"]) + make_buffer(spec["y"]),
                               rtol=1e-6, atol=1e-6)
    assert CacheSnapshot.of(dev.memory).signature == before


def test_arguments_are_checked(saxpy, arch):
    dev = device_for(saxpy, arch)
    with pytest.raises(UsageError, match="no argument 'q'"):
        run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, scalars={"q": 1})
    with pytest.raises(UsageError, match="'y' of kernel 'saxpy' is bound to no buffer"):
        run_launch(dev, saxpy, buffers={"x": "x"})
    with pytest.raises(UsageError, match="is i32"):
        run_launch(dev, saxpy, buffers={"x": "x", "y": "y"}, scalars={"n": 2.5})
    with pytest.raises(KeyError, match="no buffer 'w'"):
        run_launch(dev, saxpy, buffers={"x": "x", "y": "w"})


def test_extra_sliced_runs_leave_a_bound_space_unchanged(arch):
    """A warm-up (or runaway probe) run computes the address slice, which holds every store of a kernel whose
    addresses come from memory: run in the device's own buffers, a histogram would count twice."""
    from gpusim.engine.timing import time_kernel
    kernel = gpusim.load_kernel(REPO / "tests/data/corpus/gfx942/hist_global_atomic.s")
    dev = device_for(kernel, arch)
    data = dev.array("data").copy()
    run = time_kernel(kernel, arch, warm_up=True, bound=dev.bound({"data": "data", "hist": "hist"}))
    assert run.warm_up
    np.testing.assert_array_equal(dev.array("hist"), np.bincount(data, minlength=64).astype(np.uint32))
