"""A program: the GPUs, their links, buffers and streams of operations that an application runs.

This is the validated, in-memory form of a program file (``gpusim.system.loader`` builds it from YAML,
``gpusim.simulate_program`` from a dict) and the only thing ``gpusim.system.runtime`` reads. Every
object is frozen and carries the ``loc`` it was written at, so a mistake found while running (a deadlock,
a kernel fault) still names its line.

Numbering: GPUs are 0 .. count-1 in the order ``system.gpus`` lists them. A stream with ``gpus`` set to
several GPUs is one stream per GPU (a *replicated* stream, what a tensor-parallel rank runs); a buffer with
``per_gpu`` is one array per GPU of its group, and a name in a replicated stream means the running GPU's
copy. Times are microseconds, sizes bytes, bandwidths GB/s (1e9 bytes per second).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Optional, Union

import numpy as np

from gpusim.arch import Arch
from gpusim.asm.ir import NUMPY_DTYPES, ArgSpec, CheckSpec
from gpusim.errors import SourceLoc

HOST = -1   # the GPU index of host memory (a memcpy's source or destination)

TOPOLOGIES = ("mesh", "ring", "switch")
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast")
ALGORITHMS = ("ring", "direct", "tree")
MEMCPY_KINDS = ("h2d", "d2h", "d2d", "peer")


@dataclass(frozen=True)
class LinkSpec:
    """LinkSpec is one kind of link, per direction: its peak ``bandwidth_gbps``, the fraction of it a long
    transfer gets (``efficiency``: protocol, flow control) and the ``latency_us`` before a transfer's first
    byte arrives."""

    bandwidth_gbps: float
    efficiency: float = 1.0
    latency_us: float = 0.0
    loc: Optional[SourceLoc] = None

    @property
    def usable_gbps(self) -> float:
        return self.bandwidth_gbps * self.efficiency


@dataclass(frozen=True)
class SystemSpec:
    """SystemSpec is the machine: one Arch per GPU, how the GPUs are linked and how the host reaches them.

    ``topology`` is ``mesh`` (a link between every pair, as the 8 MI300X of a platform), ``ring`` (GPU i to
    i+1 and back) or ``switch`` (every GPU one link to a switch, which forwards at ``link`` speed);
    ``link`` is each GPU-GPU link, ``host_link`` each GPU's link to the host (PCIe or Infinity Fabric).
    ``copy_engines`` is how many copies (memcpy, memset) one GPU runs at once.
    """

    archs: tuple[Arch, ...]
    topology: str = "mesh"
    link: LinkSpec = LinkSpec(64.0)
    host_link: LinkSpec = LinkSpec(64.0)
    copy_engines: int = 2
    loc: Optional[SourceLoc] = None

    @property
    def gpu_count(self) -> int:
        return len(self.archs)


@dataclass(frozen=True)
class BufferSpec:
    """BufferSpec is a named buffer: its element type, shape and initial values as a ``gpusim-arg`` buffer
    declares them (``arg``, whose ``name`` is the buffer's), on the GPUs ``gpus`` (one copy each when
    ``per_gpu``, and then copy k's seed is the declared seed + k) or on the host (``gpus == (HOST,)``)."""

    name: str
    arg: ArgSpec
    gpus: tuple[int, ...]
    per_gpu: bool = False
    loc: Optional[SourceLoc] = None

    @property
    def nbytes(self) -> int:
        return math.prod(self.arg.shape or (1,)) * np.dtype(NUMPY_DTYPES[self.arg.dtype]).itemsize


@dataclass(frozen=True)
class BufferRef:
    """BufferRef names a buffer in an operation; ``gpu`` picks the copy of a per-GPU buffer (None: the copy of
    the GPU running the stream). ``offset``/``nbytes`` select a byte range (nbytes None: to the end)."""

    name: str
    gpu: Optional[int] = None
    offset: int = 0
    nbytes: Optional[int] = None
    loc: Optional[SourceLoc] = None


# ---------------------------------------------------------------- operations
@dataclass(frozen=True)
class KernelOp:
    """KernelOp launches ``kernel`` (a path to a ``.s`` file, or ``template:NAME`` with ``params``) with the
    given ``grid``/``block`` (None: the kernel header's) and its arguments bound: a buffer argument to a
    BufferRef, a scalar argument to a number (``args``). Arguments not bound keep the header's value."""

    kernel: str
    args: tuple[tuple[str, Union[BufferRef, int, float]], ...] = ()
    grid: Optional[tuple[int, int, int]] = None
    block: Optional[tuple[int, int, int]] = None
    params: tuple[tuple[str, object], ...] = ()
    name: Optional[str] = None       # what reports call it (default: the kernel's name)
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class MemcpyOp:
    """MemcpyOp copies ``nbytes`` (None: all of ``src``) from ``src`` to ``dst``: h2d and d2h over the GPU's host
    link, d2d inside one GPU's HBM, peer between two GPUs over the links."""

    kind: str
    src: BufferRef
    dst: BufferRef
    nbytes: Optional[int] = None
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class MemsetOp:
    """MemsetOp sets every byte of ``dst`` to ``value``."""

    dst: BufferRef
    value: int = 0
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class EventRecordOp:
    """EventRecordOp records event ``event``: it fires when every operation before it in the stream is done."""

    event: str
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class EventWaitOp:
    """EventWaitOp holds the stream until event ``event`` has been recorded (by any stream, on any GPU) and
    has fired. The k-th wait on an event waits for its k-th record in a repeat, as hipStreamWaitEvent does
    for the latest record: see gpusim.system.runtime."""

    event: str
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class HostDelayOp:
    """HostDelayOp is host-side time before the stream's next operation is enqueued (``us`` microseconds)."""

    us: float
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class CollectiveOp:
    """CollectiveOp is one RCCL-style collective over ``group`` (GPU indices, no GPU twice).

    ``send``/``recv`` are per-GPU buffers (recv None: in place, in ``send``). ``kind`` is one of COLLECTIVES,
    ``algorithm`` one of ALGORITHMS, ``chunk_bytes`` the pipelining unit, ``channels`` the CUs it occupies
    on every member GPU while it runs, ``root`` the broadcast's source GPU. ``op`` is the reduction (sum,
    max, min, prod). Every member GPU's stream holds the same collective; the k-th collective over a
    group on each member runs together (a communicator's collectives are ordered)."""

    kind: str
    send: BufferRef
    group: tuple[int, ...]
    recv: Optional[BufferRef] = None
    algorithm: str = "ring"
    chunk_bytes: int = 1 << 20
    channels: int = 16
    root: int = 0
    op: str = "sum"
    loc: Optional[SourceLoc] = None


Operation = Union[KernelOp, MemcpyOp, MemsetOp, EventRecordOp, EventWaitOp, HostDelayOp, CollectiveOp]


@dataclass(frozen=True)
class StreamSpec:
    """StreamSpec is one in-order stream on GPU ``gpu``: its operations after repeats are unrolled (the loader
    expands ``repeat:`` bodies, substituting the varying scalar), so ``ops`` is the order they run in."""

    name: str
    gpu: int
    ops: tuple[Operation, ...]
    loc: Optional[SourceLoc] = None


@dataclass(frozen=True)
class Program:
    """Program is a whole application: the system, its buffers, its streams and the checks on the final
    buffers (``gpusim-check`` expressions over buffer names: a per-GPU buffer is one array stacked over its
    GPUs, shape (len(gpus), *shape); the left side sees final values, the right side initial ones).

    ``path`` is the file it came from (or ``<dict>``), ``base_dir`` where its relative kernel paths start.
    ``kernels`` maps ``gpusim.system.loader.kernel_key(op)`` of every KernelOp to its loaded
    ``gpusim.api.Kernel`` (launch and scalar arguments applied), so the runtime never parses a kernel
    again; it takes no part in comparing programs.
    """

    system: SystemSpec
    buffers: tuple[BufferSpec, ...]
    streams: tuple[StreamSpec, ...]
    checks: tuple[CheckSpec, ...] = ()
    path: str = "<dict>"
    base_dir: str = "."
    params: tuple[tuple[str, object], ...] = field(default=())   # the program's top-level parameters, resolved
    kernels: Mapping = field(default_factory=dict, compare=False, hash=False, repr=False)

    def buffer(self, name: str) -> BufferSpec:
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)
