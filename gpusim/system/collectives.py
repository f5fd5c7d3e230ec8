"""Collectives: what they compute (numpy), how long they take on a Fabric (simpy), and how rccl-tests scores them.

Functional semantics (:func:`apply_collective`). Arrays are flattened in C order; the group's order is the
order of ``group`` (default: ascending GPU index). Reductions run in the input dtype with numpy's arithmetic,
left to right in group order (``((a0 op a1) op a2) ...``), so f16 sums round after every addition, as numpy
does, and integers wrap.

- all_reduce: every GPU gets the reduction of all arrays (shape kept).
- all_gather: every GPU gets the concatenation of all flattened arrays (1-D, n x size).
- reduce_scatter: the reduction of the flattened arrays, split in n equal blocks; position k gets block k.
- all_to_all: the flattened arrays in n blocks; block j of position i becomes block i of position j.
- broadcast: the root GPU's array, on every GPU.

Sizes (:func:`rccl_size`, :func:`bandwidths`) follow rccl-tests / nccl-tests (src/*.cu ``*GetBw`` and
doc/PERFORMANCE.md of github.com/NVIDIA/nccl-tests, which ROCm/rccl-tests keeps): the size S a result is
reported at is the larger of one rank's send and receive buffers (all_gather: n x send; reduce_scatter: the
send buffer, n x receive; all_reduce, all_to_all, broadcast: the buffer); algbw = S / t and busbw = algbw x
2(n-1)/n (all_reduce), (n-1)/n (all_gather, reduce_scatter, all_to_all), 1 (broadcast).

Timing (:func:`collective_process`) moves the bytes RCCL's algorithm moves, over ``fabric``:

- ring: all_reduce is a reduce-scatter then an all-gather, 2(n-1) steps; all_gather and reduce_scatter n-1
  steps; each step every GPU sends S/n to its ring successor. The rings run at once and split the data evenly:
  on a mesh n-1 of them, ring k sending GPU i's piece to position i+k (mod n), which loads all n-1 links of
  every GPU as RCCL's channels do on an 8-GPU MI300X platform (rccl-tests' ~319 GB/s bus bandwidth is 7
  links' worth); on a ring topology two (both directions); on a switch one. A step starts on a GPU when the
  previous step's pieces have arrived there (and its reduction of them is done), plus ``step_latency_us``;
  each piece pays its link's latency. broadcast by ring is a chain from the root, pipelined in chunks.
- direct (one-shot): every GPU sends at once what each peer needs: all_reduce sends the whole buffer to every
  peer, which reduces the n inputs itself; all_gather its part; reduce_scatter and all_to_all block j to
  position j; broadcast the root to every peer. On a mesh every link works in parallel.
- tree: a binary tree over the group's positions (the root, or position 0, at the top), pipelined in chunks:
  all_reduce reduces up the tree and broadcasts down; broadcast only goes down.
- all_to_all is always direct.

A reduction also costs GPU time (:func:`reduction_cost`): reading its inputs and writing the result at the
rate ``channels`` CUs get from HBM (:func:`reduce_rate_gbps`). In a ring step it overlaps the step's sends
(RCCL reduces as the data streams through); it is serial after a direct or tree receive and after the last
ring step of a reduce_scatter.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generator, Mapping, Optional, Sequence

import numpy as np
import simpy

from gpusim.system.links import MAX_CHUNKS, Fabric
from gpusim.system.program import ALGORITHMS, COLLECTIVES

REDUCE_OPS = {"sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}
BUSBW_FACTOR = {"all_reduce": lambda n: 2 * (n - 1) / n, "all_gather": lambda n: (n - 1) / n,
                "reduce_scatter": lambda n: (n - 1) / n, "all_to_all": lambda n: (n - 1) / n,
                "broadcast": lambda n: 1.0}


# ---------------------------------------------------------------- functional semantics
def _group_of(op, send: Mapping[int, np.ndarray]) -> tuple[int, ...]:
    group = tuple(getattr(op, "group", ()) or sorted(send))
    if len(set(group)) != len(group):
        raise ValueError(f"collective group {group} names a GPU twice")
    missing = [g for g in group if g not in send]
    if missing:
        raise ValueError(f"no send array for GPU(s) {missing} of group {group}")
    return group


def apply_collective(op, send: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    """apply_collective returns what each GPU of ``op.group`` holds after collective ``op`` (anything with
    ``kind``, ``op`` and ``root``, like CollectiveOp) given each GPU's send array; it mutates nothing."""
    kind = op.kind
    if kind not in COLLECTIVES:
        raise ValueError(f"unknown collective {kind!r}; one of {', '.join(COLLECTIVES)}")
    group = _group_of(op, send)
    arrays = [np.asarray(send[g]) for g in group]
    n = len(group)
    if kind == "broadcast":
        root = getattr(op, "root", group[0])
        if root not in group:
            raise ValueError(f"broadcast root {root} is not in group {group}")
        return {g: np.array(send[root], copy=True) for g in group}
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) != 1:
        raise ValueError(f"collective {kind} over arrays of different dtypes {sorted(map(str, dtypes))}")
    if kind != "all_gather" and len({a.shape for a in arrays}) != 1:
        raise ValueError(f"collective {kind} over arrays of different shapes {[a.shape for a in arrays]}")
    flat = [a.reshape(-1) for a in arrays]
    if kind == "all_gather":
        out = np.concatenate(flat)
        return {g: out.copy() for g in group}
    if kind == "all_to_all":
        if flat[0].size % n:
            raise ValueError(f"all_to_all of {flat[0].size} elements does not split in {n} equal blocks")
        blocks = [np.split(f, n) for f in flat]
        return {g: np.concatenate([blocks[i][j] for i in range(n)]) for j, g in enumerate(group)}
    name = getattr(op, "op", "sum")
    if name not in REDUCE_OPS:
        raise ValueError(f"unknown reduction {name!r}; one of {', '.join(REDUCE_OPS)}")
    ufunc = REDUCE_OPS[name]
    acc = flat[0].copy()
    for f in flat[1:]:
        acc = ufunc(acc, f).astype(acc.dtype, copy=False)
    if kind == "all_reduce":
        out = acc.reshape(arrays[0].shape)
        return {g: out.copy() for g in group}
    if acc.size % n:
        raise ValueError(f"reduce_scatter of {acc.size} elements does not split in {n} equal blocks")
    parts = np.split(acc, n)
    return {g: parts[k].copy() for k, g in enumerate(group)}


# ---------------------------------------------------------------- rccl-tests sizes and bandwidths
def rccl_size(kind: str, send_bytes: int, n: int) -> int:
    """rccl_size is the size rccl-tests reports a collective at, from one GPU's send buffer bytes."""
    return send_bytes * n if kind == "all_gather" else send_bytes


def bandwidths(kind: str, nbytes: float, n: int, seconds: float) -> tuple[float, float]:
    """bandwidths returns ``(algbw, busbw)`` in GB/s as rccl-tests computes them for a collective of rccl-tests
    size ``nbytes`` (see :func:`rccl_size`) over ``n`` GPUs that took ``seconds``."""
    if kind not in BUSBW_FACTOR:
        raise ValueError(f"unknown collective {kind!r}; one of {', '.join(COLLECTIVES)}")
    algbw = nbytes / 1e9 / seconds
    return algbw, algbw * BUSBW_FACTOR[kind](n)


# ---------------------------------------------------------------- GPU-side cost
def reduce_rate_gbps(arch, channels: int) -> float:
    """reduce_rate_gbps is the HBM traffic rate (GB/s) a collective's reduction gets on ``arch`` through
    ``channels`` CUs: each CU streams at most its vector L1 rate (``cu.l1.bytes_per_clk`` per shader clock),
    and all of them at most the HBM peak times ``interconnect.d2d_hbm_efficiency`` (a streaming kernel's
    share of the peak)."""
    per_cu = arch.cu.l1.bytes_per_clk * arch.clocks.shader_mhz * 1e6
    hbm = arch.hbm_bytes_per_s * arch.interconnect.d2d_hbm_efficiency
    return min(channels * per_cu, hbm) / 1e9


@dataclass(frozen=True)
class ReductionCost:
    """ReductionCost is one reduction of ``inputs`` arrays of ``nbytes`` each into one: the HBM bytes it reads
    and writes and the microseconds it takes on the collective's CUs."""

    hbm_bytes: int
    us: float


def reduction_cost(arch, nbytes: int, channels: int, inputs: int = 2) -> ReductionCost:
    """reduction_cost is the cost of reducing ``inputs`` buffers of ``nbytes`` into one on ``arch`` through
    ``channels`` CUs: (inputs + 1) x nbytes of HBM traffic at :func:`reduce_rate_gbps`."""
    traffic = (inputs + 1) * nbytes
    return ReductionCost(traffic, traffic / (reduce_rate_gbps(arch, channels) * 1e3))


@dataclass
class GpuLoad:
    """GpuLoad is what a collective took from one GPU: bytes it sent and received over links, the HBM bytes
    of its reductions, the reduction microseconds, and HBM bytes in all (sent are read, received written,
    reductions read and write; an upper estimate, since RCCL reduces data as it arrives)."""

    sent_bytes: int = 0
    received_bytes: int = 0
    reduce_hbm_bytes: int = 0
    reduce_us: float = 0.0

    @property
    def hbm_bytes(self) -> int:
        return self.sent_bytes + self.received_bytes + self.reduce_hbm_bytes


@dataclass
class CollectiveResult:
    """CollectiveResult is one timed collective: when it ran (us), the rccl-tests size and bandwidths, the
    bytes it put on each link, and per GPU its load (:class:`GpuLoad`) and CU-microseconds (``channels`` CUs
    held for the whole collective, as RCCL's persistent kernel holds them)."""

    kind: str
    algorithm: str
    group: tuple
    send_bytes: int
    size_bytes: int
    channels: int
    start_us: float = 0.0
    end_us: float = 0.0
    link_bytes: dict = field(default_factory=dict)
    gpu: dict = field(default_factory=dict)

    @property
    def duration_us(self) -> float:
        return self.end_us - self.start_us

    @property
    def cu_us(self) -> float:
        """cu_us is the CU-microseconds the collective holds on each member GPU."""
        return self.channels * self.duration_us

    @property
    def algbw_gbps(self) -> float:
        return bandwidths(self.kind, self.size_bytes, len(self.group), self.duration_us * 1e-6)[0] \
            if self.duration_us > 0 else float("inf")

    @property
    def busbw_gbps(self) -> float:
        return bandwidths(self.kind, self.size_bytes, len(self.group), self.duration_us * 1e-6)[1] \
            if self.duration_us > 0 else float("inf")


def ring_strides(topology: str, n: int) -> tuple[int, ...]:
    """ring_strides are the rings a ring collective runs at once on ``topology``: ring k sends position i's
    piece to position i + k (mod n)."""
    if n < 2:
        return ()
    if topology == "mesh":
        return tuple(range(1, n))
    if topology == "ring" and n > 2:
        return (1, n - 1)
    return (1,)


def _split(nbytes: int, parts: int) -> list[int]:
    q, r = divmod(nbytes, parts)
    return [q + (1 if i < r else 0) for i in range(parts)]


def _pieces(nbytes: int, chunk_bytes: int) -> list[int]:
    chunks = max(1, -(-nbytes // chunk_bytes))
    return _split(nbytes, min(chunks, MAX_CHUNKS))


class _Run:
    """_Run is the bookkeeping of one collective in flight: its transfers, link bytes and GPU loads."""

    def __init__(self, env, fabric: Fabric, result: CollectiveResult, chunk_bytes: int, label: str):
        self.env, self.fabric, self.result = env, fabric, result
        self.chunk_bytes, self.label = chunk_bytes, label
        self.sends: list = []
        for g in result.group:
            result.gpu[g] = GpuLoad()

    def send(self, src: int, dst: int, nbytes: int, done: Optional[simpy.Event] = None) -> simpy.Process:
        for name in self.fabric.route(src, dst):
            self.result.link_bytes[name] = self.result.link_bytes.get(name, 0) + nbytes
        self.result.gpu[src].sent_bytes += nbytes
        self.result.gpu[dst].received_bytes += nbytes
        proc = self.fabric.transfer(src, dst, nbytes, chunk_bytes=self.chunk_bytes, label=self.label)
        if done is not None:
            proc.callbacks.append(lambda _e: done.succeed())
        self.sends.append(proc)
        return proc

    def reduce(self, gpu: int, nbytes: int, inputs: int) -> simpy.Event:
        if nbytes == 0 or inputs < 2:
            return self.env.timeout(0)
        arch = self.fabric.system.archs[gpu]
        cost = reduction_cost(arch, nbytes, self.result.channels, inputs)
        load = self.result.gpu[gpu]
        load.reduce_hbm_bytes += cost.hbm_bytes
        load.reduce_us += cost.us
        return self.env.timeout(cost.us)


def collective_process(env: simpy.Environment, fabric: Fabric, kind: str, algorithm: str, group: Sequence[int],
                       nbytes_per_gpu: int, chunk_bytes: int = 1 << 20, *, channels: int = 16,
                       root: Optional[int] = None, step_latency_us: float = 0.0,
                       label: str = "") -> simpy.Process:
    """collective_process starts collective ``kind`` by ``algorithm`` over ``group`` (GPU indices) whose GPUs
    each send ``nbytes_per_gpu`` (their send buffer) and returns its process; the process's value is a
    :class:`CollectiveResult`. It mutates only ``fabric``'s links and statistics."""
    if kind not in COLLECTIVES:
        raise ValueError(f"unknown collective {kind!r}; one of {', '.join(COLLECTIVES)}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; one of {', '.join(ALGORITHMS)}")
    group = tuple(group)
    if len(set(group)) != len(group):
        raise ValueError(f"collective group {group} names a GPU twice")
    if kind == "broadcast":
        root = group[0] if root is None else root
        if root not in group:
            raise ValueError(f"broadcast root {root} is not in group {group}")
    if algorithm == "tree" and kind not in ("all_reduce", "broadcast"):
        raise ValueError(f"the tree algorithm runs all_reduce and broadcast, not {kind}")
    n = len(group)
    result = CollectiveResult(kind, algorithm, group, nbytes_per_gpu, rccl_size(kind, nbytes_per_gpu, n), channels)
    run = _Run(env, fabric, result, chunk_bytes, label or f"{kind} {algorithm}")
    return env.process(_collective(run, kind, "direct" if kind == "all_to_all" else algorithm, root,
                                   step_latency_us))


def _collective(run: _Run, kind, algorithm, root, step_latency_us) -> Generator:
    env, result = run.env, run.result
    result.start_us = env.now
    if len(result.group) > 1:
        if algorithm == "ring" and kind != "broadcast":
            workers = _ring(run, kind, step_latency_us)
        elif algorithm == "direct":
            workers = _direct(run, kind, root)
        else:
            workers = _tree(run, kind, root, chain=(algorithm == "ring"))
        yield simpy.AllOf(env, workers)
        yield simpy.AllOf(env, run.sends)
    result.end_us = env.now
    return result


def _ring(run: _Run, kind, step_latency_us) -> list:
    env, group, S = run.env, run.result.group, run.result.size_bytes
    n = len(group)
    strides = ring_strides(run.fabric.topology.kind, n)
    reduce_steps = n - 1 if kind in ("all_reduce", "reduce_scatter") else 0
    steps = 2 * (n - 1) if kind == "all_reduce" else n - 1
    block = S // n
    per_ring = _split(block, len(strides))
    arrived = [[[env.event() for _ in strides] for _ in range(n)] for _ in range(steps)]

    def worker(p: int) -> Generator:
        gpu = group[p]
        reducing = None
        for s in range(steps):
            if s > 0:
                yield simpy.AllOf(env, arrived[s - 1][p])
                if reducing is not None:
                    yield reducing
                    reducing = None
            if step_latency_us:
                yield env.timeout(step_latency_us)
            for r, k in enumerate(strides):
                q = (p + k) % n
                run.send(gpu, group[q], per_ring[r], arrived[s][q][r])
            if 0 < s <= reduce_steps:
                reducing = run.reduce(gpu, block, 2)      # the pieces of step s-1, while step s sends
        yield simpy.AllOf(env, arrived[steps - 1][p])
        if reducing is not None:
            yield reducing
        if reduce_steps and steps == reduce_steps:
            yield run.reduce(gpu, block, 2)               # the last reduce-scatter step's pieces

    return [env.process(worker(p)) for p in range(n)]


def _direct(run: _Run, kind, root) -> list:
    env, group, S = run.env, run.result.group, run.result.size_bytes
    n = len(group)
    if kind == "broadcast":
        arrived = {g: env.event() for g in group if g != root}
        for g in arrived:
            run.send(root, g, S, arrived[g])
        return [arrived[g] for g in arrived]
    part = S if kind == "all_reduce" else S // n
    arrived = {(i, j): env.event() for i in range(n) for j in range(n) if i != j}
    for (i, j), ev in arrived.items():
        run.send(group[i], group[j], part, ev)

    def worker(j: int) -> Generator:
        yield simpy.AllOf(env, [arrived[(i, j)] for i in range(n) if i != j])
        if kind in ("all_reduce", "reduce_scatter"):
            yield run.reduce(group[j], part, n)

    return [env.process(worker(j)) for j in range(n)]


def _tree(run: _Run, kind, root, chain: bool) -> list:
    env, group, S = run.env, run.result.group, run.result.size_bytes
    n = len(group)
    order = list(group)
    if root is not None:
        k = order.index(root)
        order = order[k:] + order[:k]
    if chain:
        children = {p: [p + 1] if p + 1 < n else [] for p in range(n)}
    else:
        children = {p: [c for c in (2 * p + 1, 2 * p + 2) if c < n] for p in range(n)}
    parent = {c: p for p, cs in children.items() for c in cs}
    pieces = _pieces(S, run.chunk_bytes)
    up = {p: [env.event() for _ in pieces] for p in range(1, n)}      # piece k reached p's parent
    down = {p: [env.event() for _ in pieces] for p in range(1, n)}    # piece k reached p from its parent
    reduce_up = kind == "all_reduce"

    def worker(p: int) -> Generator:
        gpu = order[p]
        for k, size in enumerate(pieces):
            if reduce_up:
                if children[p]:
                    yield simpy.AllOf(env, [up[c][k] for c in children[p]])
                    yield run.reduce(gpu, size, len(children[p]) + 1)
                if p:
                    run.send(gpu, order[parent[p]], size, up[p][k])
            if p:
                continue
            for c in children[p]:
                run.send(gpu, order[c], size, down[c][k])

    def forwarder(p: int) -> Generator:
        gpu = order[p]
        for k, size in enumerate(pieces):
            yield down[p][k]
            for c in children[p]:
                run.send(gpu, order[c], size, down[c][k])

    return [env.process(worker(p)) for p in range(n)] + [env.process(forwarder(p)) for p in range(1, n)]
