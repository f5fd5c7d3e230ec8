"""A program run as a Perfetto (or Chrome JSON) trace: one track per GPU stream, per link, per collective.

Uses the trace model of gpusim.report.trace, whose time axis counts integer units shown as nanoseconds;
here a unit is one nanosecond of program time. Tracks:

* group ``GPU g``: one track per stream of that GPU, a slice per operation (kernel, copy, wait, ...)
  with its details (cycles, bytes, whether the memo reused a launch);
* group ``links``: one track per link that moved bytes, a slice per busy interval;
* group ``collectives``: one track per collective kind, a slice per collective with its bandwidths.
"""
from __future__ import annotations

from pathlib import Path

from gpusim.report.trace import Slice, TraceModel, _Tracks, write_trace


def _ns(us: float) -> int:
    return int(round(us * 1000))


def build_program_trace(result) -> TraceModel:
    """build_program_trace turns a ProgramResult's spans, link intervals and collectives into a TraceModel."""
    tracks = _Tracks()
    slices = []
    for s in result.spans:
        uid = tracks.get(f"GPU {s.gpu}", f"stream {s.stream}")
        slices.append(Slice(uid, s.label, _ns(s.start), max(_ns(s.end), _ns(s.start) + 1),
                            {"kind": s.kind, **{k: v for k, v in s.detail.items()}}))
    for name, intervals in sorted(result.link_intervals.items()):
        uid = tracks.get("links", name)
        for start, end, label in intervals:
            slices.append(Slice(uid, label or name, _ns(start), max(_ns(end), _ns(start) + 1), {}))
    for c in result.collectives:
        uid = tracks.get("collectives", c["kind"])
        slices.append(Slice(uid, f"{c['kind']} {c['bytes']} B", _ns(c["start_us"]), max(_ns(c["end_us"]),
                            _ns(c["start_us"]) + 1), {"algorithm": c["algorithm"], "gpus": str(c["gpus"]),
                                                       "busbw_gbps": round(c["busbw_gbps"], 2)}))
    return TraceModel(tracks=tracks.all, slices=slices, samples={}, dropped=0, cycles=_ns(result.total_us))


def write_program_trace(result, path) -> Path:
    """write_program_trace writes the run's trace to ``path`` (.pftrace Perfetto, .json Chrome trace events)."""
    return write_trace(build_program_trace(result), path)
