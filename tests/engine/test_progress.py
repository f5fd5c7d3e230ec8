"""What a timed dispatch publishes for a watcher while it runs (gpusim.engine.progress): the run's own totals
at its end, a size known before it starts, and no effect on the cycles or counters."""
from contextlib import contextmanager
from pathlib import Path

import gpusim
from gpusim.engine.progress import Progress

ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    """Recorder is a ProgressWatch that keeps each dispatch's size and its last published reading."""

    def __init__(self):
        self.seen = []

    @contextmanager
    def __call__(self, published, size):
        yield
        self.seen.append((size, Progress.read(published)))


def test_a_dispatch_publishes_its_totals_and_the_watch_changes_nothing():
    kernel = gpusim.load_kernel(str(ROOT / "workloads" / "saxpy.s"))
    watched = Recorder()
    plain = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False)
    run = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False, progress=watched)
    assert (run.cycles, run.counters) == (plain.cycles, plain.counters)
    [(size, last)] = watched.seen
    # saxpy has no loop: no runaway probe, so its progress is counted in workgroups
    assert (size.what, size.workgroups, size.wave_instructions) == ("saxpy timed", 16, None)
    assert last.issued == run.counters["GPUSIM_INSTS_TOTAL"]
    assert last.dispatched == 16
    # the last window began before the last wave ended; the end-of-kernel release comes after it
    assert 0 < last.cycle <= run.cycles


def test_a_looping_grid_is_sized_by_its_probe_and_a_warm_up_is_watched_too():
    kernel = gpusim.load_kernel(str(ROOT / "workloads" / "gemm_lds_tiled.s"))   # 16 workgroups, a k loop
    watched = Recorder()
    run = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False, warm_up=True, progress=watched)
    assert [size.what for size, _ in watched.seen] == ["gemm_lds_tiled warm-up", "gemm_lds_tiled timed"]
    for size, last in watched.seen:
        # the probe's first workgroup times the grid: exact, as every workgroup runs the same loop
        assert size.wave_instructions == last.issued == run.counters["GPUSIM_INSTS_TOTAL"]
        assert last.dispatched == size.workgroups == 16
