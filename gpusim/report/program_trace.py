"""A program run as a Perfetto (or Chrome JSON) trace: one track per GPU stream, per link, per collective.

Uses the trace model of gpusim.report.trace, whose time axis counts integer units shown as nanoseconds;
here a unit is one nanosecond of program time. Tracks:

* group ``GPU g``: one track per stream of that GPU, a slice per operation (kernel, copy, wait, ...)
  with its details (cycles, bytes, whether the memo reused a launch, whether its timing was sampled);
* group ``links``: one track per link that moved bytes, a slice per busy interval;
* group ``collectives``: one track per collective kind, a slice per collective with its bandwidths;
* with a trace window (``gpusim run app.yaml --trace F --trace-cus 0-1``), group ``GPU g CU n``: the
  per-CU wave tracks gpusim.report.trace draws for a single kernel, for every launch on that GPU, each
  placed at its launch's time (its cycles at the GPU's shader clock).
"""
from __future__ import annotations

from pathlib import Path

from gpusim.report.trace import Slice, TraceModel, _Tracks, build_trace, write_trace


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
    dropped = 0
    for traced in result.kernel_traces:
        model = build_trace(traced.events, traced.program, traced.arch, traced.cycles)
        dropped += model.dropped
        ns_per_cycle = 1000.0 / traced.arch.clocks.shader_mhz
        origin = traced.span.start * 1000.0
        by_uid = {t.uid: t for t in model.tracks}
        for sl in model.slices:
            t = by_uid[sl.track]
            uid = tracks.get(f"GPU {traced.span.gpu} {t.group}", t.name)
            start = int(round(origin + sl.start * ns_per_cycle))
            end = max(int(round(origin + sl.end * ns_per_cycle)), start + 1)
            slices.append(Slice(uid, sl.name, start, end, {"kernel": traced.span.label, **sl.args}))
    return TraceModel(tracks=tracks.all, slices=slices, samples={}, dropped=dropped, cycles=_ns(result.total_us))


def write_program_trace(result, path) -> Path:
    """write_program_trace writes the run's trace to ``path`` (.pftrace Perfetto, .json Chrome trace events)."""
    return write_trace(build_program_trace(result), path)
