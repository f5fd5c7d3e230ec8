"""What a program run did and when: one interval per operation, and the busy and overlap sums over them.

The runtime appends an :class:`Span` for every operation a stream ran (a kernel, a copy, a collective's
part on one GPU, a wait); reports, JSON and the Perfetto trace read them. Times are microseconds from the
program's start.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

COMPUTE = "kernel"
COMMUNICATION = ("collective", "peer")   # span kinds that move data between GPUs


@dataclass
class Span:
    """Span is one operation of one stream: ``kind`` (kernel, memcpy, peer, memset, collective, wait,
    host_delay, launch), what it was (``label``), where (``gpu``, ``stream``) and when [start, end)."""

    kind: str
    label: str
    gpu: int
    stream: str
    start: float
    end: float
    detail: dict = field(default_factory=dict)

    @property
    def duration(self) -> float:
        return self.end - self.start


def merged(intervals: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """merged returns the union of [start, end) intervals as disjoint, sorted intervals."""
    out: list[tuple[float, float]] = []
    for s, e in sorted(i for i in intervals if i[1] > i[0]):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def covered(intervals: Iterable[tuple[float, float]]) -> float:
    """covered is the length of the union of the intervals."""
    return sum(e - s for s, e in merged(intervals))


def overlap(a: Iterable[tuple[float, float]], b: Iterable[tuple[float, float]]) -> float:
    """overlap is the length of time covered by both ``a``'s union and ``b``'s union."""
    ma, mb = merged(a), merged(b)
    total, i, j = 0.0, 0, 0
    while i < len(ma) and j < len(mb):
        lo = max(ma[i][0], mb[j][0])
        hi = min(ma[i][1], mb[j][1])
        if hi > lo:
            total += hi - lo
        if ma[i][1] < mb[j][1]:
            i += 1
        else:
            j += 1
    return total


def spans_of(spans: Iterable[Span], *, kinds: Optional[Iterable[str]] = None, gpu: Optional[int] = None,
             stream: Optional[str] = None) -> list[Span]:
    """spans_of selects the spans of some kinds, on one GPU, of one stream (None: any)."""
    wanted = None if kinds is None else set(kinds)
    return [s for s in spans if (wanted is None or s.kind in wanted) and (gpu is None or s.gpu == gpu)
            and (stream is None or s.stream == stream)]


def hidden_communication(spans: list[Span], gpu: int) -> tuple[float, float]:
    """hidden_communication is (communication time on ``gpu``, the part of it a kernel ran beside): how much
    of the GPU's collectives and peer copies hid under compute."""
    comm = [(s.start, s.end) for s in spans_of(spans, kinds=COMMUNICATION, gpu=gpu)]
    compute = [(s.start, s.end) for s in spans_of(spans, kinds=(COMPUTE,), gpu=gpu)]
    return covered(comm), overlap(comm, compute)
