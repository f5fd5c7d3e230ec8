"""What a study can measure: derived metrics, raw counters and a few short names.

A study's ``metrics:`` list names derived metrics as gpusim.report.metrics defines them
(case does not matter: ``L2_hit_rate`` is ``L2_Hit_Rate``), raw counters by their profiler
names (``TCC_HIT_sum``, ``SQ_INSTS_MFMA``), or one of the short names in ``ALIASES``.
"""
from __future__ import annotations

from typing import Optional

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


def check_metric(name) -> Optional[tuple]:
    """check_metric returns None for a name a study can measure, else (problem, hint)."""
    if not isinstance(name, str) or not name:
        return f"{name!r} is not a metric name", ""
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
