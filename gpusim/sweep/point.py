"""Running one point of a study, in whatever process a runner sends it to.

``run_point`` takes plain data (the study's ``to_dict()`` and the point's parameters) and
returns one result row, also plain data, so it can cross process and network boundaries
(local process pools, Dask workers). It never raises for a problem of the point itself: the
row's ``status`` says what happened.

Statuses:
  ok        simulated; the metric columns hold its figures
  invalid   the template (or the program loader) refused the combination (tile over the LDS, ...); nothing ran
  fault     the kernel faulted on the modelled GPU (out-of-bounds address, deadlock, ...), or the program
            deadlocked
  error     anything else (an unexpected exception, a lost worker); ``--resume`` retries these
"""
from __future__ import annotations

import time
from functools import lru_cache

from gpusim.engine.sampling_policy import DEFAULT_SAMPLE_MODE
from gpusim.located_yaml import one_line

FINAL_STATUSES = ("ok", "invalid", "fault")   # a resumed study does not run these again
# what a kernel row says of its timing's sampling (gpusim.engine.sampling.SamplingOutcome): whether part of the
# dispatch was projected, the method (loop, grid or full) and the 95% confidence interval's half-width on
# cycles as a percentage of them (0 for a point timed in full)
SAMPLE_COLUMNS = ("sampled", "sample_method", "sample_error_pct")


@lru_cache(maxsize=8)
def _base_arch(ref: str):
    from gpusim.arch import load_arch
    return load_arch(ref)


@lru_cache(maxsize=64)
def point_arch(ref: str, overrides: tuple):
    """point_arch is the base architecture ``ref`` with a point's overrides (cached per process)."""
    from gpusim.arch.loader import arch_overrides
    base = _base_arch(ref)
    return arch_overrides(base, dict(overrides)) if overrides else base


@lru_cache(maxsize=8)
def _file_kernel(path: str):
    from gpusim.api import load_kernel
    return load_kernel(path)


def split_params(params: dict) -> tuple:
    """split_params separates a point's parameters into (architecture overrides, template values, workload).

    Architecture overrides are a sorted tuple of (key path, value) pairs; template values a dict of
    parameter name -> value; workload the file name chosen by the ``workload`` column, or None.
    """
    overrides, gen, workload = [], {}, None
    for key, value in params.items():
        if key.startswith("arch."):
            overrides.append((key[5:], value))
        elif key.startswith("gen."):
            gen[key.split(".", 2)[2]] = value
        elif key == "workload":
            workload = value
    return tuple(sorted(overrides)), gen, workload


@lru_cache(maxsize=64)
def program_archs(path: str, overrides: tuple) -> tuple:
    """program_archs are the distinct architectures of a program's GPUs under a point's overrides, in GPU order."""
    from gpusim.system.loader import load_program
    return distinct_archs(load_program(path, dict(overrides)).system.archs)


def distinct_archs(archs) -> tuple:
    """distinct_archs keeps the first of each architecture (by hash) of ``archs``, in order."""
    return tuple({a.hash(): a for a in archs}.values())


def program_arch_hash(archs) -> str:
    """program_arch_hash is a program row's ``arch_hash``: its GPUs' distinct short hashes joined with '+'."""
    return "+".join(a.hash()[:16] for a in archs)


def empty_row(metrics, status: str = "ok", error: str = "", occupancy: bool = True) -> dict:
    """empty_row is a row with ``status`` and ``error`` and no figures yet: every metric None, the
    SAMPLE_COLUMNS empty and, for a kernel (``occupancy``), its waves_per_simd and limiter."""
    row = {"status": status, "error": error, "arch_hash": "", "host_s": None}
    if occupancy:
        row.update(waves_per_simd=None, limiter="")
    row.update(sampled=None, sample_method="", sample_error_pct=None)
    row.update(dict.fromkeys(metrics))
    return row


def run_point(study: dict, params: dict) -> dict:
    """run_point simulates one point of ``study`` (Study.to_dict()) with the varied values ``params``.

    Returns ``{"status", "error", "arch_hash", "waves_per_simd", "limiter", <SAMPLE_COLUMNS>, "host_s",
    <metric>: value}`` (a program's row has no ``waves_per_simd`` or ``limiter``).
    """
    from gpusim.errors import GpusimError, KernelFault, ProgramDeadlock

    t0 = time.perf_counter()
    row = empty_row(study["metrics"], occupancy=not study.get("program"))
    try:
        if study.get("program"):
            _simulate_program_into(row, study, params)
        elif study.get("triton"):
            from gpusim.sweep.triton_study import simulate_into
            simulate_into(row, study, params)
        else:
            _simulate_into(row, study, params)
    except (KernelFault, ProgramDeadlock) as err:
        row.update(status="fault", error=one_line(err))
    except GpusimError as err:
        row.update(status="invalid", error=one_line(err))
    except Exception as err:  # a row per point, whatever happens: the study goes on
        row.update(status="error", error=f"{type(err).__name__}: {one_line(err)}")
    row["host_s"] = round(time.perf_counter() - t0, 3)
    return row


def _simulate_into(row: dict, study: dict, params: dict) -> None:
    from gpusim.api import kernel_from_text

    overrides, gen, workload = split_params(params)
    arch = point_arch(study["arch"], overrides)
    row["arch_hash"] = arch.hash()[:16]
    if study["gen_family"]:
        from gpusim.templates.registry import generate
        values = {**study["gen"], **gen}
        text = generate(study["gen_family"], arch, **values)
        kernel = kernel_from_text(text, f"<gen {study['gen_family']}>")
    else:
        files = study["files"]
        path = next((f for f in files if f.endswith("/" + workload) or f == workload), None) if workload \
            else files[0]
        kernel = _file_kernel(path)
    time_kernel_into(row, study, arch, kernel)


def _sampling(study: dict):
    """_sampling is the ``sample`` a study's point passes to simulate: its mode, or with a ``sample_interval``
    a SamplingPolicy of that mode and interval."""
    from gpusim.engine.sampling_policy import sample_with_interval
    return sample_with_interval(study.get("sample", DEFAULT_SAMPLE_MODE), study.get("sample_interval"))


def time_kernel_into(row: dict, study: dict, arch, kernel) -> None:
    """time_kernel_into times ``kernel`` on ``arch`` as a study's point does (warm-up, instruction limit and
    sampling mode from ``study``) and writes the study's metrics, occupancy, its limiter and the SAMPLE_COLUMNS
    into ``row``."""
    from gpusim.api import simulate
    from gpusim.report.metrics import derived_metrics
    from gpusim.sweep.metrics import metric_value
    result = simulate(kernel, arch, timing=True, outputs=False, max_instructions=study["max_instructions"],
                      warm_up=study.get("warm_up", False), sample=_sampling(study))
    metrics = derived_metrics(result.counters, arch)
    for name in study["metrics"]:
        row[name] = metric_value(name, result.counters, metrics)
    if result.occupancy is not None:
        row["waves_per_simd"] = float(result.occupancy.waves_per_simd)
        row["limiter"] = result.occupancy.limiter
    row.update(sampling_columns(result))


def sampling_columns(result) -> dict:
    """sampling_columns are the SAMPLE_COLUMNS of a timed Result (gpusim.engine.sampling_policy's, the error
    rounded); one whose timing model reports no SamplingOutcome was timed in full."""
    from gpusim.engine.sampling_policy import sampling_columns as outcome_columns
    columns = outcome_columns(getattr(result, "sampling", None), result.cycles or 0)
    columns["sample_error_pct"] = round(columns["sample_error_pct"], 3)
    return columns


def _simulate_program_into(row: dict, study: dict, params: dict) -> None:
    """_simulate_program_into runs the study's program with the point's values as overrides."""
    from gpusim.sweep.metrics import program_metric_value
    from gpusim.system.loader import load_program
    from gpusim.system.simulate import simulate_program

    program = load_program(study["program"], dict(params))
    row["arch_hash"] = program_arch_hash(distinct_archs(program.system.archs))
    result = simulate_program(program, sample=_sampling(study))
    for name in study["metrics"]:
        row[name] = program_metric_value(name, result)
    row.update(program_sampling_columns(result))


def program_sampling_columns(result) -> dict:
    """program_sampling_columns are the SAMPLE_COLUMNS of a ProgramResult: ``sampled`` when any launch was
    timed from a sample, ``sample_method`` the methods its launches used (``full`` when none was sampled,
    ``grid+full`` when some were), ``sample_error_pct`` the program's error estimate
    (ProgramResult.sampling's ``error_pct``: the sampled kernels' error estimates summed, over the total)."""
    methods = sorted({r["sample_method"] for r in result.launches}) or ["full"]
    summary = result.sampling
    return {"sampled": summary["launches"] > 0, "sample_method": "+".join(methods),
            "sample_error_pct": round(summary["error_pct"], 3)}
