"""A run's record, read alike from a Result, its ``to_dict()`` or the JSON file ``gpusim run --json`` wrote.

``explain`` and ``compare`` take any of the three. A dict's metrics are recomputed from its raw
counters on the architecture it records (``resolved_arch``), so two files written by different
gpusim versions are held to the same formulas (gpusim.report.metrics).
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from gpusim.errors import UsageError
from gpusim.report.metrics import derived_metrics


@dataclass(frozen=True)
class RunRecord:
    """RunRecord is what a report needs from one run: names, launch, counters, metrics, occupancy, architecture.

    ``occupancy`` is ``{"waves_per_simd": float, "limiter": str}`` or None; ``resolved_arch`` the
    architecture's nested dict (``Arch.to_dict()``); ``arch`` the Arch itself.
    """

    label: str
    kernel: str
    arch_name: str
    arch_hash: str
    grid: tuple
    block: tuple
    cycles: Optional[int]
    counters: dict
    metrics: dict
    occupancy: Optional[dict]
    resolved_arch: dict
    arch: object

    @property
    def timed(self) -> bool:
        return "GRBM_GUI_ACTIVE" in self.counters


def read_run(run, arch=None, label: Optional[str] = None) -> RunRecord:
    """read_run returns the RunRecord of a Result, a ``to_dict()`` dict or the path of a JSON file of one.

    ``arch`` (an Arch or a name) replaces the recorded architecture for the metrics; without it a dict's
    ``resolved_arch`` is rebuilt, else its ``arch`` name loaded. Raises
    UsageError for a file that is not a run's JSON. Mutates nothing.
    """
    from gpusim.arch import load_arch, load_arch_text

    if isinstance(run, (str, os.PathLike)):
        path = Path(run)
        try:
            run_dict = json.loads(path.read_text())
        except (OSError, ValueError) as err:
            raise UsageError(f"cannot read run JSON {path}: {err}") from None
        if not isinstance(run_dict, dict):
            held = {list: "a list", type(None): "null", str: "a string", bool: "a boolean"}.get(type(run_dict),
                                                                                               "a number")
            raise UsageError(f"{path} is not the JSON of a run (it holds {held}, not an object; "
                             "gpusim run --json writes one)")
        return read_run(run_dict, arch, label or str(path))
    if not isinstance(run, Mapping):
        return _from_result(run, load_arch(arch) if arch is not None else run.arch, label)
    _check_fields(run, label or "run")
    if arch is not None:
        arch = load_arch(arch)
    elif run.get("resolved_arch"):
        arch = load_arch_text(json.dumps(run["resolved_arch"]), f"<resolved arch of {label or run['kernel']}>")
    elif run.get("arch"):   # an older or trimmed record: the architecture by name
        arch = load_arch(run["arch"])
    else:
        raise UsageError(f"{label or 'run'} records no architecture; name the architecture")
    counters = dict(run["counters"])
    return RunRecord(
        label=label or run["kernel"], kernel=run["kernel"], arch_name=arch.name, arch_hash=arch.hash(),
        grid=tuple(run.get("grid") or ()), block=tuple(run.get("block") or ()), cycles=run.get("cycles"),
        counters=counters, metrics=derived_metrics(counters, arch), occupancy=run.get("occupancy"),
        resolved_arch=arch.to_dict(), arch=arch,
    )


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_fields(run: Mapping, label: str) -> None:
    """_check_fields raises UsageError, naming the field, where a run's dict (untrusted: a file someone wrote,
    or edited) holds what no ``gpusim run --json`` writes in a field a report reads."""
    def refuse(field: str, want: str) -> UsageError:
        value = run.get(field)
        shown = repr(value) if len(repr(value)) < 40 else type(value).__name__
        return UsageError(f"{label} is not the JSON of a run: '{field}' is {want}, got {shown} "
                          "(gpusim run --json writes one)")

    for key in ("counters", "kernel"):
        if key not in run:
            raise UsageError(f"{label} is not the JSON of a run (no '{key}'; gpusim run --json writes one)")
    if not isinstance(run["kernel"], str):
        raise refuse("kernel", "a name")
    counters = run["counters"]
    if not isinstance(counters, Mapping):
        raise refuse("counters", "a mapping of counter names to finite numbers")
    bad = next((k for k, v in counters.items() if not (isinstance(k, str) and _is_number(v))), None)
    if bad is not None:
        raise refuse("counters", f"a mapping of counter names to finite numbers (counter '{bad}' is not)")
    for key in ("grid", "block"):
        value = run.get(key)
        if value is not None and not (isinstance(value, list) and len(value) <= 3
                                      and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise refuse(key, "a list of up to 3 integers")
    if run.get("cycles") is not None and not _is_number(run["cycles"]):
        raise refuse("cycles", "a number")
    occupancy = run.get("occupancy")
    if occupancy is not None and not (isinstance(occupancy, Mapping) and _is_number(occupancy.get("waves_per_simd"))
                                      and isinstance(occupancy.get("limiter"), str)):
        raise refuse("occupancy", "a mapping with a number 'waves_per_simd' and a text 'limiter'")
    for key in ("resolved_arch", "arch"):
        value = run.get(key)
        if value and not isinstance(value, Mapping if key == "resolved_arch" else str):
            raise refuse(key, "an architecture (a mapping)" if key == "resolved_arch" else "an architecture name")


def _from_result(result, arch, label: Optional[str]) -> RunRecord:
    o = result.occupancy
    counters = dict(result.counters)
    return RunRecord(
        label=label or result.kernel, kernel=result.kernel, arch_name=arch.name, arch_hash=arch.hash(),
        grid=tuple(result.grid), block=tuple(result.block), cycles=result.cycles, counters=counters,
        metrics=derived_metrics(counters, arch),
        occupancy=None if o is None else {"waves_per_simd": o.waves_per_simd, "limiter": o.limiter},
        resolved_arch=arch.to_dict(), arch=arch,
    )
