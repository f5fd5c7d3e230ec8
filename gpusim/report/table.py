"""The long table of a run: one row per counter, per counter instance and per metric.

It is what ``gpusim run --csv`` writes and ``Result.to_frame()`` returns,
shaped for pandas (``df.pivot``, ``groupby("name")``) and for side-by-side
comparison with rocprof output:

    kind     name                instance  value     unit
    counter  SQ_WAVES                      256
    counter  TCC_HIT_sum                   18432
    counter  TCC_HIT             0         130
    counter  TCC_HIT             1         152
    metric   L2_Hit_Rate                   81.3      %

A per-instance counter keeps its rocprof name and carries its instance
number (``TCC_HIT`` instance 3 is rocprof's ``TCC_HIT[3]``); kernel-wide
counters, ``_sum`` counters and metrics have no instance.
"""
from __future__ import annotations

import csv
from typing import IO

from gpusim.report.metrics import METRIC_BY_NAME

COLUMNS = ("kind", "name", "instance", "value", "unit")


def long_rows(result) -> list:
    """long_rows returns the rows (dicts with COLUMNS as keys) of a Result: counters, instances, metrics."""
    rows = [{"kind": "counter", "name": name, "instance": None, "value": value, "unit": ""}
            for name, value in result.counters.items()]
    for name, values in result.instances.items():
        rows.extend({"kind": "counter", "name": name, "instance": i, "value": v, "unit": ""}
                    for i, v in enumerate(values))
    rows.extend({"kind": "metric", "name": name, "instance": None, "value": value, "unit": METRIC_BY_NAME[name].unit}
                for name, value in result.metrics.items())
    return rows


def write_csv(result, f: IO[str]) -> None:
    """write_csv writes the long table of ``result`` to the text stream ``f`` with a header row."""
    writer = csv.writer(f)
    writer.writerow(COLUMNS)
    for r in long_rows(result):
        value = r["value"]
        writer.writerow([r["kind"], r["name"], "" if r["instance"] is None else r["instance"],
                         f"{value:.15g}" if isinstance(value, float) else value, r["unit"]])
