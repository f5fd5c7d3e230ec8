"""simulate_program: load (or take) a program, run it, check it, summarise it."""
from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Callable, ContextManager, Mapping, Optional, Union

from gpusim.exec.check import run_checks
from gpusim.errors import HeaderError
from gpusim.system.program import KernelOp, Program
from gpusim.system.result import ProgramResult, summarise
from gpusim.system.kernel_launch import slice_reads_buffers
from gpusim.system.runtime import LaunchRecord, ProgramRun

# what simulate_program's ``progress`` is: called with the program's number of kernel launches, it returns a
# context manager, held while the program runs, that yields the function to call as each launch completes
ProgramWatch = Callable[[int], ContextManager[Callable[[LaunchRecord], None]]]


def simulate_program(program: Union[Program, Mapping, str, Path], *, check: bool = False,
                     overrides: Optional[Mapping[str, object]] = None, memo: bool = True,
                     values: Optional[bool] = None, trace=None, sample=None,
                     progress: Optional[ProgramWatch] = None) -> ProgramResult:
    """simulate_program runs an application program and returns its ProgramResult.

    ``program`` is a program file's path, the same structure as a dict (``{"system": ..., "buffers": ...,
    "streams": [...]}``, validated the same way) or a loaded :class:`~gpusim.system.program.Program`.
    ``overrides`` replaces dotted keys before validation (``{"system.link.bandwidth_gbps": 128}``), as
    ``gpusim sweep`` does. ``check`` evaluates the program's checks on the final buffers. ``values`` (default:
    ``check``) runs every kernel's arithmetic; without it kernels compute only what their addresses and
    branches need, and buffers written by kernels do not hold real results. ``memo`` lets repeated launches
    reuse a timed launch (gpusim.system.kernel_launch.LaunchMemo). ``trace`` (a
    gpusim.engine.timing.TraceWindow) also records the wave events of every launch on the CUs and cycles
    (counted from each kernel's dispatch) it selects, for the program's trace. ``sample`` (a sample mode
    name or a gpusim.engine.sampling_policy.SamplingPolicy; None, the API's default: off) times each launch
    as ``gpusim.simulate``'s ``sample`` would (``gpusim run app.yaml`` passes auto); ProgramResult.launches
    and ``sampling`` say which were sampled and with what error estimate. ``progress`` (a ProgramWatch such
    as gpusim.report.progress_bar.ProgramProgress) is shown each kernel launch as it completes, for a
    display; nothing of the run depends on it. Raises ProgramError for a bad program, ProgramDeadlock when
    it cannot finish and KernelFault when a kernel faults.
    """
    from gpusim.system.loader import load_program, program_from_dict
    if isinstance(program, Program):
        prog = program
    elif isinstance(program, Mapping):
        prog = program_from_dict(program, overrides=overrides)
    else:
        prog = load_program(str(program), overrides=overrides)
    if check and not prog.checks:
        raise HeaderError(f"{prog.path} has no checks to verify (a 'checks:' list)", None)
    if values is None:   # contents matter when checked, or when some kernel's addresses or branches read them
        values = check or any(slice_reads_buffers(k) for k in prog.kernels.values())
    launches = sum(isinstance(op, KernelOp) for stream in prog.streams for op in stream.ops)
    with (nullcontext() if progress is None else progress(launches)) as on_launch:
        run = ProgramRun(prog, values=values, memo=memo, keep_initial=check, trace=trace, sample=sample,
                         on_launch=on_launch)
        state = run.run()
    outputs = run.final_buffers() if values else None
    checks = run_checks(list(prog.checks), outputs, run.initial, {}) if check else []
    memo_stats = ({"enabled": True, "timed": run.memo.misses, "reused": run.memo.hits} if run.memo is not None
                  else {"enabled": False})
    links = [{"link": u.link, "bytes": u.bytes, "busy_us": u.busy_us, "utilisation": u.utilisation,
              "gbps": u.achieved_gbps} for u in run.fabric.usage(state.end_us)]
    intervals = {name: list(stats.intervals) for name, stats in run.fabric.stats.items() if stats.bytes}
    return summarise(prog, state, links, memo_stats, checks, outputs, intervals)
