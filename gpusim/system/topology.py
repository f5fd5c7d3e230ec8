"""The links of a system and the route a transfer takes over them.

``Topology(system)`` lists every directed link of a :class:`~gpusim.system.program.SystemSpec` and answers
``route(src, dst)``: the tuple of link names a transfer from ``src`` to ``dst`` holds in turn. GPUs are
0 .. n-1, the host is ``HOST`` (-1). Link names are what reports and traces show:

- ``xgmi 0->3``: GPU-GPU link (mesh: every ordered pair; ring: each GPU to i+1 and i-1)
- ``xgmi 0->switch`` / ``xgmi switch->3``: a GPU's uplink to and downlink from the switch
- ``host->2`` / ``2->host``: GPU 2's host link, each direction
- ``hbm 2``: GPU 2's own HBM, which a device-to-device copy (src == dst) holds

Routes: mesh is direct; ring goes the shorter way round, clockwise (i -> i+1) on a tie; switch is
uplink then downlink. :func:`default_links` reads an architecture's ``interconnect`` section.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from gpusim.system.program import HOST, TOPOLOGIES, LinkSpec, SystemSpec

SWITCH = "switch"


@dataclass(frozen=True)
class Link:
    """Link is one directed link: its ``name`` (the id routes use), its ends (GPU index, HOST, or None for
    the switch) and its ``spec``; ``kind`` is ``peer``, ``host`` or ``hbm``."""

    name: str
    src: Optional[int]
    dst: Optional[int]
    spec: LinkSpec
    kind: str


def default_links(arch) -> tuple[LinkSpec, LinkSpec, int]:
    """default_links returns ``(peer LinkSpec, host LinkSpec, copy_engines)`` from ``arch.interconnect``,
    latencies converted from shader cycles to microseconds at ``arch.clocks.shader_mhz``."""
    ic = arch.interconnect
    mhz = arch.clocks.shader_mhz

    def spec(link) -> LinkSpec:
        return LinkSpec(bandwidth_gbps=link.bandwidth_gbps, efficiency=link.efficiency,
                        latency_us=link.latency_cycles / mhz)

    return spec(ic.peer_link), spec(ic.host_link), ic.copy_engines


def d2d_copy_gbps(arch) -> float:
    """d2d_copy_gbps is the rate (GB/s) of a copy inside one GPU's HBM: the copy reads and writes every byte,
    so it copies at half the HBM peak times ``interconnect.d2d_hbm_efficiency`` (the fraction of peak a
    STREAM copy reaches on the chip, see archs/cdna3.yaml)."""
    return arch.hbm_bytes_per_s / 2 * arch.interconnect.d2d_hbm_efficiency / 1e9


class Topology:
    """Topology is the directed links of ``system`` and the routes over them; it is immutable once built."""

    def __init__(self, system: SystemSpec):
        if system.topology not in TOPOLOGIES:
            raise ValueError(f"unknown topology {system.topology!r}; one of {', '.join(TOPOLOGIES)}")
        self.system = system
        self.kind = system.topology
        self.n = system.gpu_count
        links: list[Link] = []
        n, peer = self.n, system.link
        if self.kind == "mesh":
            links += [Link(f"xgmi {a}->{b}", a, b, peer, "peer") for a in range(n) for b in range(n) if a != b]
        elif self.kind == "ring":
            pairs = sorted({(a, (a + d) % n) for a in range(n) for d in (1, -1) if n > 1 and (a + d) % n != a})
            links += [Link(f"xgmi {a}->{b}", a, b, peer, "peer") for a, b in pairs]
        else:
            links += [Link(f"xgmi {a}->{SWITCH}", a, None, peer, "peer") for a in range(n)]
            links += [Link(f"xgmi {SWITCH}->{b}", None, b, peer, "peer") for b in range(n)]
        for g in range(n):
            links.append(Link(f"host->{g}", HOST, g, system.host_link, "host"))
            links.append(Link(f"{g}->host", g, HOST, system.host_link, "host"))
        for g in range(n):
            gbps = d2d_copy_gbps(system.archs[g])
            links.append(Link(f"hbm {g}", g, g, LinkSpec(bandwidth_gbps=gbps), "hbm"))
        self.links: tuple[Link, ...] = tuple(links)
        self.by_name: dict[str, Link] = {link.name: link for link in links}

    def _check(self, gpu: int, what: str) -> None:
        if gpu != HOST and not 0 <= gpu < self.n:
            raise ValueError(f"{what} {gpu} is not a GPU of this system (0..{self.n - 1}) or the host ({HOST})")

    def route(self, src: int, dst: int) -> tuple[str, ...]:
        """route returns the names of the links a transfer from ``src`` to ``dst`` crosses, in order."""
        self._check(src, "source")
        self._check(dst, "destination")
        if src == HOST and dst == HOST:
            raise ValueError("a transfer from the host to the host crosses no GPU link")
        if src == HOST:
            return (f"host->{dst}",)
        if dst == HOST:
            return (f"{src}->host",)
        if src == dst:
            return (f"hbm {src}",)
        if self.kind == "mesh":
            return (f"xgmi {src}->{dst}",)
        if self.kind == "switch":
            return (f"xgmi {src}->{SWITCH}", f"xgmi {SWITCH}->{dst}")
        n = self.n
        forward = (dst - src) % n
        step = 1 if forward <= n - forward else -1
        hops, here = [], src
        while here != dst:
            nxt = (here + step) % n
            hops.append(f"xgmi {here}->{nxt}")
            here = nxt
        return tuple(hops)
