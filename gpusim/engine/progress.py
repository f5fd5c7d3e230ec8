"""How far a timed dispatch has come, published while it runs, for a watcher on another thread.

The timing loop (``gpusim.engine.kernels.cu.run_timed``) releases the GIL and writes, once per window of
cycles, three figures into ``LaunchArrays.progress`` (int64[PUBLISHED_N]): the cycle its current window
began, the wave-instructions it has issued and the workgroups it has dispatched (a grid the grid method
samples jumps over its skipped middle). Its last writes, as the last wave ends, are the run's totals. A watcher
(``ProgressWatch``; ``gpusim.report.progress_bar`` draws one on a terminal) reads them while the loop
runs. Those reads race with the loop's writes of whole int64 words, so a watcher sees each figure as it was
at some window's end; nothing flows back: cycles and counters are the same watched or not.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Optional, Protocol

import numpy as np

from gpusim.engine.kernels.params import PUBLISHED_CYCLE, PUBLISHED_DISPATCHED, PUBLISHED_ISSUED, PUBLISHED_N


def published_array() -> np.ndarray:
    """published_array is a fresh, zeroed array for a dispatch's loop to publish into."""
    return np.zeros(PUBLISHED_N, np.int64)


@dataclass(frozen=True)
class DispatchSize:
    """DispatchSize is what a watcher knows of a dispatch before it runs.

    ``what`` names the run for a person ("gemm_f16 timed", "gemm_f16 warm-up"); ``workgroups`` is the
    grid's size; ``wave_instructions`` the dispatch's expected wave-instructions when known: the first
    workgroup's count (the runaway probe's) times the grid, exact for a grid whose workgroups run alike,
    None for one without a probe (no loop, or too few workgroups), whose progress is its workgroups.
    """

    what: str
    workgroups: int
    wave_instructions: Optional[int]


@dataclass(frozen=True)
class Progress:
    """Progress is one reading of a dispatch's published figures."""

    cycle: int
    issued: int
    dispatched: int

    @classmethod
    def read(cls, published: np.ndarray) -> "Progress":
        """read takes one reading of ``published`` (each figure as some window's end left it)."""
        return cls(int(published[PUBLISHED_CYCLE]), int(published[PUBLISHED_ISSUED]),
                   int(published[PUBLISHED_DISPATCHED]))


class ProgressWatch(Protocol):
    """ProgressWatch is what time_kernel accepts as ``progress``: called once per timed dispatch (the
    warm-up's and the timed one, never the runaway probe's) with the array the loop publishes into, it
    returns a context manager held while the dispatch runs. Leaving it with an exception means the dispatch
    did not finish (a fault, an interrupt); it must not raise itself."""

    def __call__(self, published: np.ndarray, size: DispatchSize) -> AbstractContextManager: ...
