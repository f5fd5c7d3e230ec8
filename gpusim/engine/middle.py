"""What a sampled dispatch's timing loop leaves to others, run beside it: the grid method's skipped middle,
and the functional run.

The grid method (gpusim.engine.sampling) times a head and the last round of the grid and skips the workgroups
between them, which must still run for their faults: a timing-only run computes no values, so a bad address
or a runaway loop that only a skipped workgroup meets would otherwise go unreported
(gpusim.engine.kernels.skipped_grid). They can run in three places:

* in the timing loop, at the jump, one after another in the slot that freed (``in_loop``): always for the
  last ones when they warm the caches for a next kernel, and for all of them when the sliced run writes
  memory (gpusim.asm.value_slice.writes_memory), since a workgroup may then read what an earlier one wrote;
* in the functional run of the same dispatch (``with_functional``: a sampled run with outputs, or in a
  device space whose buffers a later kernel's addresses read), which runs every workgroup anyway, itself
  on a thread beside the timed run outside a device space (FunctionalBeside);
* otherwise on a thread beside the timing loop (MiddleRun), from the first workgroup the loop may jump
  at, so that on a machine with a second core the middle costs no host time: the loop's jump is known only
  when it happens, so the thread starts early and skips ahead once it is known.

Whatever the place, the fault reported is the one the middle run in the loop would report: a fault of the
timed run before its jump first, then the lowest skipped workgroup's, then the timed run's after the jump.
The middle's verdict does not depend on where or when it ran: without stores, each workgroup's run
depends only on the launch and on memory that nothing writes.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from gpusim import jitcache
from gpusim.asm.value_slice import writes_memory
from gpusim.engine.kernels import bundles, skip, skipped_grid, sliced_run
from gpusim.engine.kernels.params import P_WAVES_PER_WG
from gpusim.exec.kernels import memory as memk

_JOIN_POLL_S = 0.05   # how often a wait for the thread looks at the host watchdog


@dataclass(frozen=True)
class MiddlePlace:
    """Where a sampled dispatch's skipped middle runs: ``in_loop`` (every skipped workgroup, in the timing loop),
    ``beside`` (on a MiddleRun's thread) or neither (the dispatch's functional run covers it). The loop always
    runs those that warm the caches (Z_WARM_MIDDLE)."""
    in_loop: bool
    beside: bool


def middle_place(program, needed: np.ndarray, *, grid: bool, with_functional: bool) -> MiddlePlace:
    """middle_place chooses where a dispatch's skipped middle runs (see the module docstring): ``grid`` when the
    grid method samples it, ``needed`` its value slice (gpusim.asm.value_slice), ``with_functional`` when every
    workgroup also runs functionally (beside the timed run or after it)."""
    if not grid or with_functional:
        return MiddlePlace(in_loop=False, beside=False)
    if writes_memory(program, needed):
        return MiddlePlace(in_loop=True, beside=False)
    return MiddlePlace(in_loop=False, beside=True)


def one_slot(values: bundles.ValueArrays, waves: bundles.WaveArrays, scratch: bundles.ScratchArrays, wpw: int):
    """one_slot builds ValueArrays, WaveArrays, WorkgroupArrays and ScratchArrays for one workgroup slot of
    ``wpw`` wave slots, shaped like the timing loop's (registers, scoreboards, LDS, scratch of their own; the
    memory image shared)."""
    sreg = values.sreg[:wpw].copy()   # the launch value of the shared-aperture registers, zeros elsewhere
    own_values = bundles.ValueArrays(sreg, np.zeros_like(values.vreg[:wpw]), np.zeros_like(values.T),
                                     values.valid.copy(), values.mem, np.zeros_like(values.lds[:1]))
    own_waves = bundles.WaveArrays(*(np.zeros_like(a[:wpw]) for a in waves))
    own_groups = bundles.WorkgroupArrays(*(np.zeros(1, np.int64) for _ in bundles.WorkgroupArrays._fields))
    own_scratch = bundles.ScratchArrays(*(a.copy() for a in scratch))
    return own_values, own_waves, own_groups, own_scratch


class MiddleRun:
    """MiddleRun runs a grid-sampled dispatch's skipped middle (skipped_grid.run_apart) in bundles of its own,
    from the first workgroup the timing loop may jump at (Z_JUMP_AT) up to the one it resumes at
    (Z_RESUME_AT), following the loop's ``Z.out`` to skip ahead once it has jumped: on a thread beside the
    loop (``start`` before the loop, ``verdict`` after it), or on the caller's thread once the loop has
    returned (``verdict`` alone).
    """

    def __init__(self, program: bundles.ProgramArrays, launch: bundles.LaunchArrays, values: bundles.ValueArrays,
                 waves: bundles.WaveArrays, scratch: bundles.ScratchArrays, memory_args,
                 sampling: bundles.SampleArrays):
        wpw = int(launch.params[P_WAVES_PER_WG])
        self._program, self._launch, self._memory_args = program, launch, memory_args
        self._slot = one_slot(values, waves, scratch, wpw)
        self._out = sampling.out
        self._first = int(sampling.params[skip.Z_JUMP_AT])
        self._last = int(sampling.params[skip.Z_RESUME_AT])
        self._stop = np.zeros(1, np.int64)   # the thread's: set to cancel it, or when the host watchdog fires
        self._fault = np.zeros(memk.N_FAULT, np.int64)
        self._outcome = (sliced_run.FF_DONE, -1)
        self._error: Optional[BaseException] = None
        self._thread: Optional[threading.Thread] = None

    def _call(self, first: int, stop: np.ndarray, fault: np.ndarray) -> tuple[int, int]:
        values, waves, groups, scratch = self._slot
        ff, g = jitcache.compiled_call(skipped_grid.run_apart, first, self._last, self._out, self._program,
                                       self._launch._replace(stop=stop), values, waves, groups, scratch,
                                       self._memory_args, fault)
        return int(ff), int(g)

    def _run(self) -> None:
        try:
            self._outcome = self._call(self._first, self._stop, self._fault)
        except BaseException as error:   # handed to the caller's thread by verdict
            self._error = error

    def start(self) -> None:
        """start runs the middle on a thread beside the timing loop, which must start after it."""
        jitcache.ensure_fresh()   # here, not on the thread: it may drop stale cache files
        self._thread = threading.Thread(target=self._run, name="gpusim-skipped-middle", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """cancel stops the thread, if any, at its next look at its stop flag, and waits for it."""
        self._stop[0] = 1
        if self._thread is not None:
            self._thread.join()

    def verdict(self, watchdog_stop: np.ndarray) -> Optional[np.ndarray]:
        """verdict is the fault record of the lowest skipped workgroup that cannot end, None if every one ends.

        Call it once the timing loop has returned, having jumped. It waits for the thread, stopping it if
        ``watchdog_stop`` (the run's host watchdog, int64[1]) fires meanwhile, or without a thread runs the
        middle here. When the thread stopped at a workgroup the loop timed itself (one before the workgroup it
        jumped from, whose fault the timed run reports too), it runs the middle again here from there, for
        the middle's own verdict.
        """
        if self._thread is not None:
            while self._thread.is_alive():
                self._thread.join(_JOIN_POLL_S)
                if watchdog_stop[0] != 0:
                    self._stop[0] = 1
            if self._error is not None:
                raise self._error
            ff, g = self._outcome
            if ff == sliced_run.FF_DONE:
                return None
            if g >= int(self._out[skip.O_JUMP_FROM]):
                return self._fault
        fault = np.zeros(memk.N_FAULT, np.int64)
        ff, _ = self._call(int(self._out[skip.O_JUMP_FROM]), watchdog_stop, fault)
        return None if ff == sliced_run.FF_DONE else fault


class FunctionalBeside:
    """FunctionalBeside runs a sampled dispatch's functional run (gpusim.exec.launch.Dispatch.run, which computes
    the outputs and exact instruction counts the sampled timing does not) on a thread beside the timed run:
    on a machine with a second core the outputs then cost no host time on top of the timing, where they
    used to cost a second pass after it.

    ``run(stop)`` is that run, given a stop flag (int64[1]) that ``cancel`` sets. Build it before the timed
    run; then ``result`` (its FunctionalRun, or its KernelFault raised here), or ``cancel`` when the timed run
    raised first.
    """

    def __init__(self, run: Callable[[np.ndarray], object]):
        self._stop = np.zeros(1, np.int64)
        jitcache.ensure_fresh()   # here, not on the thread: it may drop stale cache files
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpusim-functional")
        self._future = pool.submit(run, self._stop)
        pool.shutdown(wait=False)

    def result(self):
        """result waits for the functional run and returns it, or raises what it raised."""
        return self._future.result()

    def cancel(self) -> None:
        """cancel stops the functional run at its next look at its watchdog flag, waits for it and drops what
        it returned or raised."""
        self._stop[0] = 1
        wait([self._future])
