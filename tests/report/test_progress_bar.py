"""The terminal progress bar of a long timed run (gpusim.report.progress_bar), drawn from published figures."""
import io
from types import SimpleNamespace

import pytest

from gpusim.engine.progress import PUBLISHED_CYCLE, PUBLISHED_DISPATCHED, PUBLISHED_ISSUED, DispatchSize, \
    published_array
from gpusim.report.progress_bar import ProgramProgress, TerminalProgress


def _frames(text: str) -> list[str]:
    """_frames are the bar's drawings, the blank erasing one left out."""
    return [f.rstrip() for f in text.split("\r") if f.strip()]


def _publish(published, cycle, issued, dispatched):
    published[PUBLISHED_CYCLE], published[PUBLISHED_ISSUED], published[PUBLISHED_DISPATCHED] = \
        cycle, issued, dispatched


def test_a_finished_dispatch_fills_its_bar_and_then_erases_it():
    out = io.StringIO()
    published = published_array()
    with TerminalProgress(out, delay=0, interval=60)(published, DispatchSize("gemm timed", 1024, 31_711_232)):
        _publish(published, 250_000, 15_000_000, 1024)   # a sampled run skips part of its count
    frames = _frames(out.getvalue())
    assert frames[-1].startswith("gemm timed: 100%")
    assert "31.7M/31.7M wave-instructions" in frames[-1] and frames[-1].endswith("cycle 250,000")
    assert out.getvalue().endswith("\r")   # erased: the report that follows starts a clean line


def test_a_grid_without_a_count_is_counted_in_workgroups():
    out = io.StringIO()
    published = published_array()
    with TerminalProgress(out, delay=0, interval=60)(published, DispatchSize("relu timed", 4096, None)):
        _publish(published, 7_000, 90_000, 4096)
    assert "4096/4096 workgroups" in _frames(out.getvalue())[-1]


def test_a_faulting_dispatch_leaves_its_bar_where_it_stopped():
    out = io.StringIO()
    published = published_array()
    with pytest.raises(RuntimeError, match="fault"):
        with TerminalProgress(out, delay=0, interval=60)(published, DispatchSize("k timed", 64, None)):
            _publish(published, 1_234, 500, 16)
            raise RuntimeError("fault")
    assert _frames(out.getvalue())[-1].startswith("k timed:  25%|")
    assert "16/64 workgroups" in _frames(out.getvalue())[-1]


def test_nothing_is_drawn_before_the_loop_begins_or_for_a_quick_run():
    compiling = io.StringIO()   # the timing model still compiling: the loop has published nothing
    with TerminalProgress(compiling, delay=0, interval=60)(published_array(), DispatchSize("k timed", 64, None)):
        pass
    quick = io.StringIO()
    published = published_array()
    with TerminalProgress(quick, delay=60, interval=60)(published, DispatchSize("k timed", 64, None)):
        _publish(published, 1_234, 500, 64)
    assert compiling.getvalue() == quick.getvalue() == ""


def test_a_program_bar_counts_its_launches_and_names_the_last():
    out = io.StringIO()
    launch = SimpleNamespace(label="bitonic_step", gpu=0, reused=True)
    with ProgramProgress(out, delay=0)(210) as launched:
        for _ in range(3):
            launched(launch)
    frames = _frames(out.getvalue())
    assert frames[-1].startswith("program:   1%|") and "3/210 launches" in frames[-1], frames
    assert frames[-1].endswith("bitonic_step on GPU 0, reused")
    assert out.getvalue().endswith("\r")
