"""Links as shared bandwidth servers in a simpy model: transfers split in chunks that take turns on each link.

Time is microseconds (float) of the ``simpy.Environment``; bandwidths are GB/s = 1e3 bytes per microsecond.

Model. Each directed link of :class:`~gpusim.system.topology.Topology` is a ``simpy.Resource`` of capacity 1
served at ``bandwidth_gbps * efficiency``. A transfer first waits its route's latency (the sum of its links'
``latency_us``, paid once, not holding any link), then moves its bytes in chunks: each chunk holds each link
of the route in turn for ``chunk / usable bandwidth`` (store and forward per chunk, so a multi-hop route
pipelines: chunk k+1 crosses hop 1 while chunk k crosses hop 2). A transfer keeps at most one chunk waiting
per link, and the resource serves requests first come first served, so transfers sharing a link alternate
chunk by chunk and share it evenly; the result is deterministic.

Host cost. A transfer of more than ``MAX_CHUNKS`` chunks groups consecutive chunks into ``MAX_CHUNKS`` equal
batches (the last one shorter) and holds a link for a whole batch: its own time on the link is unchanged,
only the grain at which it alternates with other transfers coarsens. An 8-GPU all-reduce of 256 MB so costs
a few thousand link holds whatever the chunk size.

A device-to-device copy (src == dst GPU) holds the GPU's ``hbm N`` resource at
:func:`gpusim.system.topology.d2d_copy_gbps` (half the HBM peak times the measured copy efficiency), unless
the call names ``gbps``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generator, Optional

import simpy

from gpusim.system.program import SystemSpec
from gpusim.system.topology import Topology

MAX_CHUNKS = 64
DEFAULT_CHUNK_BYTES = 1 << 20


@dataclass
class LinkStats:
    """LinkStats is what one link did: bytes moved, microseconds busy and the busy intervals
    ``(start_us, end_us, label)`` (adjacent intervals of one label merged) for a trace."""

    bytes: int = 0
    busy_us: float = 0.0
    intervals: list = None

    def __post_init__(self):
        if self.intervals is None:
            self.intervals = []

    def record(self, start: float, end: float, nbytes: int, label: str) -> None:
        self.bytes += nbytes
        self.busy_us += end - start
        last = self.intervals[-1] if self.intervals else None
        if last is not None and last[2] == label and abs(last[1] - start) < 1e-9:
            self.intervals[-1] = (last[0], end, label)
        else:
            self.intervals.append((start, end, label))


@dataclass(frozen=True)
class LinkUsage:
    """LinkUsage is one row of :meth:`Fabric.usage`: a link's bytes, busy time, utilisation (busy / total)
    and achieved bandwidth (bytes / total time, GB/s)."""

    link: str
    bytes: int
    busy_us: float
    utilisation: float
    achieved_gbps: float


class Fabric:
    """Fabric moves bytes over the links of ``system`` inside ``env``; it mutates only its own link
    resources and statistics (``stats``)."""

    def __init__(self, env: simpy.Environment, system: SystemSpec):
        self.env = env
        self.system = system
        self.topology = Topology(system)
        self._rate = {link.name: link.spec.usable_gbps * 1e3 for link in self.topology.links}   # bytes per us
        self._latency = {link.name: link.spec.latency_us for link in self.topology.links}
        self._resource = {link.name: simpy.Resource(env, capacity=1) for link in self.topology.links}
        self.stats: dict[str, LinkStats] = {link.name: LinkStats() for link in self.topology.links}

    def route(self, src: int, dst: int) -> tuple[str, ...]:
        """route is the topology's route from ``src`` to ``dst`` (link names)."""
        return self.topology.route(src, dst)

    def transfer_us(self, src: int, dst: int, nbytes: int, *, gbps: Optional[float] = None) -> float:
        """transfer_us is the time of ``nbytes`` from ``src`` to ``dst`` alone on idle links with one chunk:
        the route's latency plus the bytes at its slowest link (the closed form tests compare against)."""
        route = self.route(src, dst)
        rate = gbps * 1e3 if gbps else min(self._rate[name] for name in route)
        return sum(self._latency[name] for name in route) + nbytes / rate

    def transfer(self, src: int, dst: int, nbytes: int, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES,
                 label: str = "", gbps: Optional[float] = None) -> simpy.Process:
        """transfer starts moving ``nbytes`` from ``src`` to ``dst`` (GPU index or HOST) and returns its
        process, which a caller may ``yield``; ``gbps`` overrides the rate of a device-to-device copy."""
        if nbytes < 0:
            raise ValueError(f"a transfer moves a non-negative number of bytes, not {nbytes}")
        if chunk_bytes <= 0:
            raise ValueError(f"chunk_bytes must be positive, not {chunk_bytes}")
        route = self.route(src, dst)
        if gbps is not None and not (src == dst and src >= 0):
            raise ValueError("gbps sets the rate of a device-to-device copy only (src == dst GPU)")
        return self.env.process(self._transfer(route, nbytes, chunk_bytes, label or f"{src}->{dst}", gbps))

    def _batches(self, nbytes: int, chunk_bytes: int) -> list[int]:
        chunks = max(1, -(-nbytes // chunk_bytes))
        if chunks <= MAX_CHUNKS:
            sizes = [chunk_bytes] * (chunks - 1)
            return sizes + [nbytes - sum(sizes)]
        per = -(-chunks // MAX_CHUNKS) * chunk_bytes
        sizes = [per] * (-(-nbytes // per) - 1)
        return sizes + [nbytes - sum(sizes)]

    def _transfer(self, route, nbytes, chunk_bytes, label, gbps) -> Generator:
        env = self.env
        latency = sum(self._latency[name] for name in route)
        if latency > 0:
            yield env.timeout(latency)
        if nbytes == 0:
            return
        batches = self._batches(nbytes, chunk_bytes)
        if len(route) == 1:
            yield env.process(self._hop(route[0], batches, None, None, label, gbps))
            return
        # one process per hop; hop h may send batch k once hop h-1 has delivered it
        delivered = [[env.event() for _ in batches] for _ in route]
        hops = [env.process(self._hop(name, batches, delivered[h - 1] if h else None, delivered[h], label, gbps))
                for h, name in enumerate(route)]
        yield simpy.AllOf(env, hops)

    def _hop(self, name, batches, ready, done, label, gbps) -> Generator:
        env = self.env
        rate = gbps * 1e3 if gbps else self._rate[name]
        resource, stats = self._resource[name], self.stats[name]
        for k, size in enumerate(batches):
            if ready is not None and not ready[k].triggered:
                yield ready[k]
            with resource.request() as req:
                yield req
                start = env.now
                yield env.timeout(size / rate)
                stats.record(start, env.now, size, label)
            if done is not None:
                done[k].succeed()

    def usage(self, total_us: float) -> list[LinkUsage]:
        """usage returns one row per link that moved bytes, over a run of ``total_us`` microseconds."""
        rows = []
        for link in self.topology.links:
            s = self.stats[link.name]
            if s.bytes == 0:
                continue
            util = s.busy_us / total_us if total_us > 0 else 0.0
            rows.append(LinkUsage(link.name, s.bytes, s.busy_us, util,
                                  s.bytes / total_us / 1e3 if total_us > 0 else 0.0))
        return rows
