"""ProgramResult: what a program run reports, for the terminal, JSON and the Python API alike.

Times are microseconds from the program's start. Every figure is derived from the run's spans
(gpusim.system.timeline), launches, collectives and the links' usage, so the parts add up: a GPU's busy
time is the union of its kernels, copies and collectives; a stream's busy time the union of its
operations other than waits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from gpusim.engine.sampling_policy import sampling_columns
from gpusim.system.timeline import Span, covered, hidden_communication, spans_of

BUSY_KINDS = ("kernel", "memcpy", "peer", "memset", "collective")


@dataclass
class ProgramResult:
    """ProgramResult is a program run: totals per GPU, stream and link, every collective with its rccl-tests
    bandwidths, compute/communication overlap, launches (and how many the memo reused) and checks.

    ``spans`` are the operations' intervals (the trace's tracks), ``outputs`` the final buffers (per-GPU ones
    stacked over their GPUs; None for a run without values), ``checks`` one CheckResult per check line.
    """

    program: str
    total_us: float
    gpus: list
    streams: list
    links: list
    collectives: list
    launches: list
    spans: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    outputs: Optional[dict] = None
    memo: dict = field(default_factory=dict)
    link_intervals: dict = field(default_factory=dict)   # link name -> [(start_us, end_us, label), ...]
    kernel_traces: list = field(default_factory=list)    # gpusim.system.runtime.KernelTrace of traced launches

    @property
    def checks_passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def sampling(self) -> dict:
        """sampling sums up the launches whose timing was projected from a sample: how many of all launches,
        the microseconds of their kernels, and ``error_us``, the sum over them of each kernel time's error
        estimate (SamplingOutcome.error_pct of its cycles): a bound on how far their projections can move the
        program's total if every kernel erred the same way on the critical path (``error_pct`` of
        ``total_us``)."""
        mine = [r for r in self.launches if r.get("sampled")]
        error_us = sum(r["kernel_time_us"] * r["sample_error_pct"] / 100.0 for r in mine)
        return {"launches": len(mine), "of_launches": len(self.launches),
                "kernel_us": sum(r["kernel_time_us"] for r in mine), "error_us": error_us,
                "error_pct": 100.0 * error_us / self.total_us if self.total_us else 0.0}

    @property
    def overlap(self) -> dict:
        """overlap sums, over GPUs, the communication time and the part of it that ran beside a kernel."""
        comm = sum(g["communication_us"] for g in self.gpus)
        hidden = sum(g["hidden_communication_us"] for g in self.gpus)
        return {"communication_us": comm, "hidden_us": hidden, "hidden_fraction": hidden / comm if comm else 0.0}

    def to_dict(self) -> dict:
        """to_dict is the JSON form: every table above plus the spans."""
        return {
            "program": self.program, "total_us": self.total_us, "gpus": self.gpus, "streams": self.streams,
            "links": self.links, "collectives": self.collectives, "overlap": self.overlap,
            "launches": self.launches, "sampling": self.sampling, "memo": self.memo,
            "checks": [{"check": f"{c.spec.lhs} {c.spec.op} {c.spec.rhs}", "passed": c.passed,
                        "elements": c.elements, "mismatches": c.mismatches,
                        "worst_rel_error": c.worst_rel_error} for c in self.checks],
            "spans": [{"kind": s.kind, "label": s.label, "gpu": s.gpu, "stream": s.stream, "start_us": s.start,
                       "end_us": s.end, **s.detail} for s in self.spans],
        }


def _launch_sampling(record) -> dict:
    """_launch_sampling is a launch row's sampling columns (gpusim.engine.sampling_policy.sampling_columns) and
    the share of its wave-instructions timed in detail (``simulated_fraction``, 1 in full)."""
    outcome = record.sampling
    return {**sampling_columns(outcome, record.cycles),
            "simulated_fraction": outcome.simulated_fraction if outcome is not None and outcome.sampled else 1.0}


def summarise(program, state, link_rows: list, memo_stats: dict, checks: list, outputs,
              link_intervals: dict) -> ProgramResult:
    """summarise turns a run's state (gpusim.system.runtime.RunState) into a ProgramResult."""
    spans: list[Span] = state.spans
    gpus = []
    for g, arch in enumerate(program.system.archs):
        mine = spans_of(spans, gpu=g)
        comm, hidden = hidden_communication(spans, g)
        gpus.append({
            "gpu": g, "arch": arch.name,
            "busy_us": covered((s.start, s.end) for s in mine if s.kind in BUSY_KINDS),
            "kernel_us": covered((s.start, s.end) for s in mine if s.kind == "kernel"),
            "copy_us": covered((s.start, s.end) for s in mine if s.kind in ("memcpy", "memset")),
            "communication_us": comm, "hidden_communication_us": hidden,
            "kernels": sum(1 for s in mine if s.kind == "kernel"),
        })
    streams = []
    for stream in program.streams:
        mine = spans_of(spans, stream=stream.name)
        streams.append({
            "stream": stream.name, "gpu": stream.gpu, "operations": len(stream.ops),
            "busy_us": covered((s.start, s.end) for s in mine if s.kind in BUSY_KINDS),
            "waiting_us": covered((s.start, s.end) for s in mine if s.kind == "wait"),
            "end_us": max((s.end for s in mine), default=0.0),
        })
    collectives = [{"kind": c.kind, "algorithm": c.algorithm, "gpus": list(c.group), "bytes": c.nbytes,
                    "start_us": c.start_us, "end_us": c.end_us, "time_us": c.end_us - c.start_us,
                    "algbw_gbps": c.algbw_gbps, "busbw_gbps": c.busbw_gbps} for c in state.collectives]
    launches = [{"kernel": r.label, "gpu": r.gpu, "stream": r.stream, "cycles": r.cycles,
                 "kernel_time_us": r.kernel_time_us, "launch_to_done_us": r.run_us, "reused": r.reused,
                 "hbm_bytes": r.hbm_bytes, **_launch_sampling(r)} for r in state.launches]
    return ProgramResult(program=program.path, total_us=state.end_us, gpus=gpus, streams=streams, links=link_rows,
                         collectives=collectives, launches=launches, spans=spans, checks=checks, outputs=outputs,
                         memo=memo_stats, link_intervals=link_intervals, kernel_traces=state.kernel_traces)
