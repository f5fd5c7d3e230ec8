"""What a study can measure: derived metrics, raw counters and a few short names; or, of a program, its totals.

A kernel study's ``metrics:`` list names derived metrics as gpusim.report.metrics defines them
(case does not matter: ``L2_hit_rate`` is ``L2_Hit_Rate``), raw counters by their profiler
names (``TCC_HIT_sum``, ``SQ_INSTS_MFMA``), or one of the short names in ``ALIASES``.

A program study (``workload: {program: app.yaml}``) names the figures of ``PROGRAM_METRICS``, each read
from the run's gpusim.system.result.ProgramResult; kernel metrics are not measured there, nor program
metrics of a kernel.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from gpusim.errors import did_you_mean
from gpusim.report.metrics import METRIC_BY_NAME

# short name -> (derived metric it reads, factor applied)
ALIASES = {
    "time_us": ("Kernel_Time_us", 1.0),
    "cycles": ("Kernel_Cycles", 1.0),
    "tflops": ("GFLOPs", 1e-3),
    "gflops": ("GFLOPs", 1.0),
    "hbm_gbs": ("HBM_Bandwidth", 1.0),
    "hbm_tbs": ("HBM_Bandwidth", 1e-3),
    "l2_tbs": ("L2_Bandwidth", 1e-3),
}
DEFAULT_METRICS = ("time_us", "tflops", "MFMA_Util", "VALU_Util", "L2_Hit_Rate", "HBM_Bandwidth")
COUNTER_PREFIXES = ("SQ_", "SQC_", "TCP_", "TCC_", "GRBM_", "GPUSIM_")
_BY_LOWER = {name.lower(): name for name in METRIC_BY_NAME}


def check_metric(name, program: bool = False) -> Optional[tuple]:
    """check_metric returns None for a name a study can measure, else (problem, hint).

    ``program`` says the study runs a program (PROGRAM_METRICS) rather than a kernel (the rest).
    """
    if not isinstance(name, str) or not name:
        return f"{name!r} is not a metric name", ""
    kernel_problem = _check_kernel_metric(name)
    if program:
        if name.lower() in PROGRAM_METRICS:
            return None
        known = ", ".join(PROGRAM_METRICS)
        if kernel_problem is None:
            return (f"'{name}' is a kernel metric; a program study measures the program: {known}", "")
        return f"unknown program metric '{name}'", did_you_mean(name.lower(), PROGRAM_METRICS) or f"known: {known}"
    if kernel_problem is not None and name.lower() in PROGRAM_METRICS:
        return (f"'{name}' is a program metric; it is measured by a study whose workload is a program "
                "(workload: {program: app.yaml})", "")
    return kernel_problem


def _check_kernel_metric(name: str) -> Optional[tuple]:
    if name.lower() in ALIASES or name.lower() in _BY_LOWER or name.startswith(COUNTER_PREFIXES):
        return None
    known = list(ALIASES) + list(METRIC_BY_NAME)
    return (f"unknown metric '{name}'", did_you_mean(name, known) or
            f"say a derived metric ({', '.join(list(METRIC_BY_NAME)[:6])}, ...), a counter such as "
            "TCC_HIT_sum, or one of " + ", ".join(ALIASES))


def metric_value(name: str, counters: dict, metrics: dict) -> Optional[float]:
    """metric_value reads metric ``name`` (valid per check_metric) from a run's counters and derived metrics.

    None when the run has no such value (a rate with a zero denominator, a counter it does not have).
    """
    alias = ALIASES.get(name.lower())
    if alias is not None:
        value = metrics.get(alias[0])
        return None if value is None else value * alias[1]
    derived = _BY_LOWER.get(name.lower())
    if derived is not None:
        return metrics.get(derived)
    value = counters.get(name)
    return None if value is None else float(value)


class ProgramMetric(NamedTuple):
    """ProgramMetric is one figure of a program run: its unit, what it is, and how it is read from a ProgramResult."""

    unit: str
    definition: str
    read: Callable


def _largest_collectives(result) -> list:
    """_largest_collectives are the run's collectives that move the most bytes (every one, when all are one size)."""
    if not result.collectives:
        return []
    most = max(c["bytes"] for c in result.collectives)
    return [c for c in result.collectives if c["bytes"] == most]


def _mean_of_largest(key: str):
    def read(result) -> Optional[float]:
        chosen = _largest_collectives(result)
        return sum(c[key] for c in chosen) / len(chosen) if chosen else None
    return read


PROGRAM_METRICS = {
    "total_us": ProgramMetric("us", "the program's time, start to the end of its last operation",
                              lambda r: r.total_us),
    "kernel_us": ProgramMetric("us", "the busiest GPU's kernel time: max over GPUs of the union of its kernels' "
                               "intervals", lambda r: max((g["kernel_us"] for g in r.gpus), default=0.0)),
    "comm_us": ProgramMetric("us", "the busiest GPU's communication time: max over GPUs of the union of its "
                             "collectives' and peer copies' intervals",
                             lambda r: max((g["communication_us"] for g in r.gpus), default=0.0)),
    "hidden_fraction": ProgramMetric("fraction", "communication time that ran beside a kernel on the same GPU, "
                                     "over all communication time, summed over GPUs (0 when nothing "
                                     "communicates)", lambda r: r.overlap["hidden_fraction"]),
    "busbw_gbps": ProgramMetric("GB/s", "bus bandwidth as rccl-tests reports it, mean over the collectives that "
                                "move the most bytes (None without collectives)", _mean_of_largest("busbw_gbps")),
    "algbw_gbps": ProgramMetric("GB/s", "algorithm bandwidth (bytes / time) as rccl-tests reports it, mean over "
                                "the collectives that move the most bytes (None without collectives)",
                                _mean_of_largest("algbw_gbps")),
    "link_util_max": ProgramMetric("fraction", "the busiest link's busy time over the program's time, 0..1 "
                                   "(None without links)",
                                   lambda r: max((li["utilisation"] for li in r.links), default=None)),
    "launches": ProgramMetric("count", "kernel launches the program ran", lambda r: len(r.launches)),
    "launches_reused": ProgramMetric("count", "launches whose timing the launch memo reused rather than simulated",
                                     lambda r: sum(1 for x in r.launches if x["reused"])),
}
DEFAULT_PROGRAM_METRICS = ("total_us", "kernel_us", "comm_us", "hidden_fraction", "busbw_gbps", "link_util_max")


def program_metric_value(name: str, result) -> Optional[float]:
    """program_metric_value reads metric ``name`` (a PROGRAM_METRICS key, any case) from a ProgramResult."""
    return PROGRAM_METRICS[name.lower()].read(result)
