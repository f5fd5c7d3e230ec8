"""Running a study's points in parallel: local processes by default, or an existing Dask cluster.

Both executors get the same plain-data calls (``run_point(study.to_dict(), params)``) and
their rows go to the results folder in completion order, so the same study gives the same
rows either way. A local worker process that dies (killed, out of memory) breaks its pool;
the points it had not finished are sent to a fresh pool, twice at most, and a point that
still gets no answer is recorded with status ``error``. A Dask cluster reschedules the
tasks of a lost worker by itself; a task that keeps killing workers comes back as an error row.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Optional

from gpusim.located_yaml import one_line
from gpusim.sweep.point import empty_row, point_arch, program_archs, run_point, split_params
from gpusim.sweep.results import ResultsFolder, summarize
from gpusim.sweep.study import Study, StudyError

POOL_RESTARTS = 2


@dataclass
class SweepOutcome:
    """SweepOutcome is what a finished (or interrupted) study left: its table and rows by status."""

    table: str
    counts: dict
    ran: int
    skipped: int


def default_workers() -> int:
    """default_workers is the number of local worker processes: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run_study(study: Study, out, *, workers: Optional[int] = None, scheduler: Optional[str] = None,
              resume: bool = False, fmt: str = "auto", progress: bool = True,
              on_row: Optional[Callable[[dict], None]] = None) -> SweepOutcome:
    """run_study runs every point of ``study`` not already final in ``out`` and writes the results there.

    ``scheduler`` None runs ``workers`` local processes (default: one per core); an address
    (``tcp://host:8786``) or a ``distributed.Client`` runs on that Dask cluster. ``on_row`` is
    called with each row as it is recorded. Raises StudyError for a folder that cannot be used.
    """
    folder = ResultsFolder(out, study, resume=resume, fmt=fmt)
    points = study.points()
    if not points:
        raise StudyError("the study has no points")
    todo = [p for p in points if p.key not in folder.done]
    skipped = len(points) - len(todo)
    spec = study.to_dict()
    bar = _progress(len(points), skipped, study.name, progress)

    def record(point, outcome):
        archs = _archs_of(study, point) if outcome.get("arch_hash") else ()
        row = folder.add(point, outcome, archs)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(summarize(folder.rows.values()), refresh=False)
        if on_row is not None:
            on_row(row)

    try:
        if todo:
            if scheduler is None:
                _run_local(spec, todo, workers or default_workers(), record)
            else:
                _run_dask(spec, todo, scheduler, record)
    finally:
        if bar is not None:
            bar.close()
        table = folder.close()
    return SweepOutcome(str(table), summarize(folder.rows.values()), len(todo), skipped)


def _archs_of(study: Study, point) -> tuple:
    """_archs_of are the resolved architectures a point ran on: its overridden one, or its program's GPUs'."""
    if study.program:
        return program_archs(study.program, tuple(sorted(point.params.items(), key=lambda kv: kv[0])))
    overrides, _, _ = split_params(point.params)
    return (point_arch(study.arch, overrides),)


def _progress(total: int, done: int, name: str, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=done, desc=name, unit="point", dynamic_ncols=True)


def compile_once(workers: int) -> None:
    """compile_once compiles the timing model here when its cache is stale, so that the workers load
    it from disk rather than each compiling it (minutes of CPU on every core) at once."""
    from gpusim.jitcache import timing_model_cached
    if timing_model_cached():
        return
    import sys
    print(f"gpusim: compiling the simulator's kernels once before starting {workers} worker(s) "
          "(first run after install; about a minute)...", file=sys.stderr, flush=True)
    from gpusim.api import kernel_from_text, simulate
    from gpusim.templates.registry import generate
    tiny = generate("stream", "cdna3", n=4096)
    simulate(kernel_from_text(tiny, "<compile>"), "cdna3", timing=True, outputs=False)


def _run_local(spec: dict, todo: list, workers: int, record) -> None:
    """_run_local runs points on a pool of fresh ('spawn') processes, replacing a pool a dead worker broke."""
    compile_once(workers)
    pending = list(todo)
    context = multiprocessing.get_context("spawn")
    for attempt in range(POOL_RESTARTS + 1):
        if not pending:
            return
        lost = []
        pool = ProcessPoolExecutor(max_workers=min(workers, len(pending)), mp_context=context)
        try:
            futures = {pool.submit(run_point, spec, p.params): p for p in pending}
            for fut in as_completed(futures):
                point = futures[fut]
                try:
                    outcome = fut.result()
                except BrokenProcessPool:
                    lost.append(point)
                    continue
                record(point, outcome)
        except BaseException:
            # interrupted (Ctrl-C, a failing callback): drop the queued points at once; their rows
            # are simply missing and --resume runs them
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        pending = sorted(lost, key=lambda p: p.index)
    for point in pending:
        record(point, empty_row(spec["metrics"], "error", f"its worker process died {POOL_RESTARTS + 1} times",
                                 occupancy=not spec.get("program")))


def _run_dask(spec: dict, todo: list, scheduler, record) -> None:
    """_run_dask runs points as tasks on a Dask distributed cluster (an address or a Client)."""
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise StudyError("--scheduler needs Dask: pip install distributed (or 'gpusim[sweep]')") from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout="20s") if own else scheduler
    except (OSError, TimeoutError) as err:
        raise StudyError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({err})") from None
    try:
        futures = {}
        for p in todo:
            # pure=False: each point is its own task even where two points' calls look alike
            futures[client.submit(run_point, spec, p.params, pure=False, key=f"gpusim-point-{p.index}-"
                                  f"{os.getpid()}")] = p
        for fut in dask_completed(list(futures)):
            point = futures[fut]
            try:
                outcome = fut.result()
            except Exception as err:  # KilledWorker and the like: the cluster gave up on this task
                outcome = empty_row(spec["metrics"], "error", f"{type(err).__name__}: {one_line(err)}",
                                    occupancy=not spec.get("program"))
            record(point, outcome)
            fut.release()
    finally:
        if own:
            client.close()
