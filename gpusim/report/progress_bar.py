"""Progress bars for long runs on a terminal: a kernel's timed dispatch, drawn from what the timing loop
publishes (``TerminalProgress``), and an application program's kernel launches (``ProgramProgress``).

``gpusim run`` hands one of them to the model when its standard error is a terminal (``--quiet`` turns it
off): a full simulation of a big kernel, or a program of hundreds of launches, takes tens of seconds, and a
person waiting on it should see how far it has come and how long it has left. The bars are a display only
(gpusim.engine.progress): the cycles and counters are the same with them or without them.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TextIO

import numpy as np
from tqdm import tqdm

from gpusim.engine.progress import DispatchSize, Progress


class TerminalProgress:
    """TerminalProgress is a gpusim.engine.progress.ProgressWatch that draws a tqdm bar on ``file``.

    A dispatch whose loop has not begun (the timing model still compiling) or that ends within ``delay``
    host seconds draws nothing. A longer one gets a bar, redrawn every ``interval`` seconds by a daemon
    thread: the wave-instructions issued against the dispatch's expected count where its size knows it,
    else the workgroups dispatched against the grid, with the simulated cycle beside them. A dispatch that
    finishes fills its bar (a sampled one skips part of its count); one that faults leaves it where it
    stopped. Either way the bar is erased, so that the report that follows stands alone.
    """

    def __init__(self, file: TextIO, *, delay: float = 1.0, interval: float = 0.25):
        self.file = file
        self.delay = delay
        self.interval = interval

    @contextmanager
    def __call__(self, published: np.ndarray, size: DispatchSize) -> Iterator[None]:
        bar = _Bar(self.file, published, size)
        start = time.monotonic()
        done = threading.Event()

        def redraw() -> None:
            while not done.wait(self.interval):
                if time.monotonic() - start >= self.delay:
                    bar.draw()

        thread = threading.Thread(target=redraw, name="gpusim-progress", daemon=True)
        thread.start()
        finished = False
        try:
            yield
            finished = True
        finally:
            done.set()
            thread.join()
            if time.monotonic() - start >= self.delay:
                bar.draw(finished=finished)
            bar.close()


class _Bar:
    """_Bar is one dispatch's bar, drawn once the loop has published something."""

    def __init__(self, file: TextIO, published: np.ndarray, size: DispatchSize):
        self.file, self.published, self.size = file, published, size
        self.bar = None

    def draw(self, finished: bool = False) -> None:
        """draw shows the latest reading (a finished dispatch's bar full), once the loop has begun."""
        now = Progress.read(self.published)
        if now.issued == 0 and now.cycle == 0:
            return
        by_instructions = self.size.wave_instructions is not None
        total = self.size.wave_instructions if by_instructions else self.size.workgroups
        done = total if finished else min(now.issued if by_instructions else now.dispatched, total)
        if self.bar is None:
            self.bar = _new_bar(self.file, self.size.what, done, total,
                                " wave-instructions" if by_instructions else " workgroups", unit_scale=by_instructions)
        _show(self.bar, done, f"cycle {now.cycle:,}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class ProgramProgress:
    """ProgramProgress is a gpusim.system.simulate.ProgramWatch that draws a tqdm bar on ``file`` of a
    program's kernel launches completed (timed on the engine or reused from an earlier one) against its
    launches in all, with the last one's name beside them. Nothing is drawn for ``delay`` host seconds; the
    bar is erased at the end, so that the report that follows stands alone."""

    def __init__(self, file: TextIO, *, delay: float = 1.0):
        self.file = file
        self.delay = delay

    @contextmanager
    def __call__(self, launches: int) -> Iterator[Callable[[object], None]]:
        start = time.monotonic()
        bar = None
        done = 0

        def launched(record) -> None:   # a gpusim.system.runtime.LaunchRecord
            nonlocal bar, done
            done += 1
            if bar is None:
                if time.monotonic() - start < self.delay:
                    return
                bar = _new_bar(self.file, "program", done, launches, " launches")
            _show(bar, done, f"{record.label} on GPU {record.gpu}, {'reused' if record.reused else 'timed'}")

        try:
            yield launched
        finally:
            if bar is not None:
                bar.close()


def _new_bar(file: TextIO, what: str, done: int, total: int, unit: str, unit_scale: bool = False) -> tqdm:
    """_new_bar is a bar of ``total`` ``unit`` named ``what`` at ``done``, erased when it is closed."""
    return tqdm(total=total, initial=done, desc=what, file=file, leave=False, dynamic_ncols=True, unit=unit,
                unit_scale=unit_scale,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}{unit} "
                           "[{elapsed}<{remaining}]{postfix}")


def _show(bar: tqdm, done: int, postfix: str) -> None:
    """_show draws ``bar`` at ``done`` with ``postfix`` beside it."""
    bar.set_postfix_str(postfix, refresh=False)
    bar.update(done - bar.n)   # a step rather than a new n: tqdm's time left comes from its rate
    bar.refresh()
