"""Running a program: every stream a simpy process, links and copy engines resources, kernels timed by the engine.

simpy's clock counts microseconds. Each :class:`~gpusim.system.program.StreamSpec` is one process that
runs its operations in order; streams overlap with one another. What each operation costs:

* ``kernel``: the host enqueues every packet of a stream at once (later after a ``host_delay``), and a
  packet is ready ``launch.command_processor_latency_cycles`` after it was enqueued: the command
  processor fetches and decodes queued packets while earlier kernels run (model assumption: no
  per-packet occupancy of its own). The kernel is dispatched once its packet is ready and the stream's
  previous operation is done (HIP's in-order barrier), waits for its GPU's kernel slot, runs for the engine's ``kernel_time_us`` on the GPU's
  caches as the previous kernel left them (gpusim.system.kernel_launch; the kernel-boundary release and
  acquire are the engine's), slowed while collectives share the GPU (gpusim.system.gpu_compute), and
  is done after its completion signal (``launch.completion_signal_cycles``). So a stream of tiny kernels
  advances one start-invalidate, kernel and completion signal per launch (1.6 us on cdna3), and the
  first kernel, or one after the host waited, also pays the command processor's latency.
* ``memcpy`` / ``memset``: a copy engine of the GPU (``system.copy_engines`` per GPU), then the bytes move
  over the route's links (gpusim.system.links): the host link for h2d/d2h, xGMI for peer, the GPU's HBM
  for d2d and memset.
* ``record`` / ``wait``: the k-th wait on an event in a stream holds it until the event's k-th record
  has fired (a record fires when every earlier operation of its stream is done).
* collectives: each member GPU's stream arrives at its k-th collective over the group; when all have,
  the collective runs once (gpusim.system.collectives) and every member's stream goes on when it ends.
  While it runs it holds ``channels`` CUs and a share of HBM bandwidth on every member GPU.
* ``host_delay``: the stream's next operation comes that much later.

Values are real: kernels run functionally on the GPUs' buffers (gpusim.system.device), copies move
bytes, collectives reduce with numpy, so the program's checks see what the application computes. A
program whose streams can never all finish is reported as a :class:`~gpusim.errors.ProgramDeadlock`
naming every stuck stream and what it waits for.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import simpy

from gpusim.errors import ProgramDeadlock, ProgramError
from gpusim.system import collectives as coll
from gpusim.system.device import DeviceMemory
from gpusim.system.gpu_compute import GpuCompute
from gpusim.system.kernel_launch import kernarg_bytes, run_launch
from gpusim.system.launch_memo import LaunchMemo
from gpusim.system.loader import kernel_key
from gpusim.system.links import Fabric
from gpusim.system.program import (
    HOST, BufferRef, CollectiveOp, EventRecordOp, EventWaitOp, HostDelayOp, KernelOp, MemcpyOp, MemsetOp, Program,
    StreamSpec,
)
from gpusim.system.timeline import Span
from gpusim.system.topology import d2d_copy_gbps


@dataclass
class LaunchRecord:
    """LaunchRecord is one kernel launch: which, where, its engine cycles and whether the memo gave them."""

    label: str
    gpu: int
    stream: str
    cycles: int
    kernel_time_us: float
    run_us: float
    reused: bool
    hbm_bytes: int
    sampling: object = None   # the launch's SamplingOutcome (gpusim.engine.sampling_policy); None: timed in full


@dataclass
class CollectiveRecord:
    """CollectiveRecord is one collective as rccl-tests reports it: size, time, algorithm and bus bandwidth."""

    kind: str
    algorithm: str
    group: tuple
    nbytes: int
    start_us: float
    end_us: float
    algbw_gbps: float
    busbw_gbps: float


@dataclass
class KernelTrace:
    """KernelTrace is one traced launch: its span, the engine's recorded events, its program, arch and cycles
    (what gpusim.report.trace.build_trace takes)."""

    span: Span
    events: object
    program: object
    arch: object
    cycles: int


@dataclass
class RunState:
    """RunState is everything a run produced: spans, launches, collectives, traced launches."""

    spans: list = field(default_factory=list)
    kernel_traces: list = field(default_factory=list)
    launches: list = field(default_factory=list)
    collectives: list = field(default_factory=list)
    end_us: float = 0.0


class ProgramRun:
    """ProgramRun runs one Program once (``run``). ``values`` False skips the kernels' arithmetic that no
    address or branch needs (faster; buffers then do not hold real results and checks cannot run);
    ``memo`` lets launches whose timing inputs repeat reuse a timed launch (gpusim.system.kernel_launch);
    ``keep_initial`` keeps a copy of every buffer's initial values (``initial``, what checks compare with);
    ``trace`` (a gpusim.engine.timing.TraceWindow) records every launch's wave events on the CUs and cycles it
    selects (RunState.kernel_traces; each traced launch is timed, not reused); ``sample`` (a sample mode name or
    a SamplingPolicy; None: off) may time each launch from a sample of its grid (run_launch's); ``on_launch``
    is called with each kernel launch's LaunchRecord as it completes (a progress display)."""

    def __init__(self, program: Program, *, values: bool = True, memo: bool = True, keep_initial: bool = True,
                 trace=None, sample=None, on_launch: Optional[Callable[[LaunchRecord], None]] = None):
        self.program = program
        self.on_launch = on_launch
        self.values = values
        self.sample = sample
        self.env = simpy.Environment()
        system = program.system
        self.fabric = Fabric(self.env, system)
        self.compute = [GpuCompute(self.env, arch.cus) for arch in system.archs]
        self.copy_engines = [simpy.Resource(self.env, capacity=max(1, system.copy_engines)) for _ in system.archs]
        self.host: dict[str, np.ndarray] = {}
        self.memo = LaunchMemo() if memo else None
        self.state = RunState()
        self._records: dict[str, int] = defaultdict(int)          # event -> how many times it was recorded
        self._waits: dict[tuple, int] = defaultdict(int)           # (stream, event) -> waits so far
        self._rendezvous: dict[tuple, dict] = {}                   # (group, k) -> arrivals
        self._collective_count: dict[tuple, int] = defaultdict(int)  # (gpu, group) -> collectives so far
        self._waiting_on: dict[str, str] = {}                     # stream -> what it waits for now
        self._stuck_loc: dict[str, object] = {}
        self._host_clock: dict[str, float] = defaultdict(float)     # stream -> when the host enqueued its packets
        self._pending: dict[tuple, list] = defaultdict(list)      # (event, k) -> waits for its k-th record
        self.initial: dict[str, np.ndarray] = {}
        self._keep_initial = keep_initial
        self.trace = trace
        self._allocate()

    # ------------------------------------------------------------ buffers
    def _allocate(self) -> None:
        """_allocate gives every buffer its initial values and a fixed device address (per GPU, in program order),
        reserving the largest kernarg segment any of the program's kernels needs."""
        from dataclasses import replace
        from gpusim.exec.buffers import make_buffer
        arrays: dict[int, list] = defaultdict(list)
        for spec in self.program.buffers:
            if spec.gpus == (HOST,):
                self.host[spec.name] = make_buffer(spec.arg)
                if self._keep_initial:
                    self.initial[spec.name] = self.host[spec.name].copy()
                continue
            copies = []
            for k, g in enumerate(spec.gpus):
                arg = replace(spec.arg, seed=spec.arg.seed + k) if spec.per_gpu else spec.arg
                array = make_buffer(arg)
                arrays[g].append((self._device_name(spec.name, g, spec.per_gpu), array))
                if self._keep_initial:
                    copies.append(array.copy())
            if self._keep_initial:
                self.initial[spec.name] = np.stack(copies) if spec.per_gpu else copies[0]
        kernarg = max((kernarg_bytes(k) for k in self.program.kernels.values()), default=64)
        static = self._static_data()
        self.devices = [DeviceMemory(g, arch, kernarg_bytes=max(kernarg, 64), static_data=static)
                        for g, arch in enumerate(self.program.system.archs)]
        for g, named in arrays.items():
            for name, array in named:
                self.devices[g].allocate(name, array)

    def _static_data(self):
        """_static_data is the one static data image the program's kernels refer to (gpusim.asm.static_data),
        None if they refer to none; kernels of two files with their own raise ProgramError, as every GPU's
        space holds one image where the code expects it."""
        holders = [k for k in self.program.kernels.values() if k.program.static_data is not None]
        for other in holders[1:]:
            if other.program.static_data != holders[0].program.static_data:
                raise ProgramError(f"kernels '{holders[0].name}' ({holders[0].path}) and '{other.name}' "
                                   f"({other.path}) each have their own static data (.data, .rodata or .bss); "
                                   "a program's kernels may share one file's, no more", other.source.loc)
        return holders[0].program.static_data if holders else None

    @staticmethod
    def _device_name(name: str, gpu: int, per_gpu: bool) -> str:
        return f"{name}@{gpu}" if per_gpu else name

    def _array(self, name: str, gpu: int) -> np.ndarray:
        """_array is the current contents of buffer ``name``'s copy on ``gpu`` (a view into the device)."""
        return self.devices[gpu].array(self._device_name(name, gpu, self.program.buffer(name).per_gpu))

    def _where(self, ref: BufferRef, running_gpu: int) -> tuple[int, np.ndarray]:
        """_where is (GPU or HOST, the byte view) of a buffer reference from a stream on ``running_gpu``."""
        spec = self.program.buffer(ref.name)
        if spec.gpus == (HOST,):
            gpu, array = HOST, self.host[ref.name]
        else:
            gpu = ref.gpu if ref.gpu is not None else (running_gpu if spec.per_gpu else spec.gpus[0])
            array = self._array(ref.name, gpu)
        raw = array.reshape(-1).view(np.uint8)
        end = raw.size if ref.nbytes is None else ref.offset + ref.nbytes
        return gpu, raw[ref.offset:end]

    def final_buffers(self) -> dict[str, np.ndarray]:
        """final_buffers maps each buffer name to its contents now (a per-GPU buffer stacked over its GPUs)."""
        out = {}
        for spec in self.program.buffers:
            if spec.gpus == (HOST,):
                out[spec.name] = self.host[spec.name]
            elif spec.per_gpu:
                out[spec.name] = np.stack([self._array(spec.name, g) for g in spec.gpus])
            else:
                out[spec.name] = self._array(spec.name, spec.gpus[0]).copy()
        return out

    # ------------------------------------------------------------ running
    def run(self) -> RunState:
        """run executes every stream to its end and returns what happened; raises ProgramDeadlock when some
        stream can never finish, and KernelFault when a kernel faults."""
        procs = {s.name: self.env.process(self._stream(s)) for s in self.program.streams}
        self.env.run()
        stuck = [name for name, p in procs.items() if p.is_alive]
        if stuck:
            raise self._deadlock(stuck)
        self.state.end_us = float(self.env.now)
        return self.state

    def _deadlock(self, stuck: list[str]) -> ProgramDeadlock:
        parts = [f"{name} {self._waiting_on.get(name, 'is stuck')}" for name in stuck]
        return ProgramDeadlock("the program can never finish: " + "; ".join(parts), self._stuck_loc.get(stuck[0]))

    def _stream(self, stream: StreamSpec):
        for op in stream.ops:
            self._stuck_loc[stream.name] = op.loc
            if isinstance(op, KernelOp):
                yield from self._kernel(stream, op)
            elif isinstance(op, MemcpyOp):
                yield from self._memcpy(stream, op)
            elif isinstance(op, MemsetOp):
                yield from self._memset(stream, op)
            elif isinstance(op, EventRecordOp):
                self._record(stream, op)
            elif isinstance(op, EventWaitOp):
                yield from self._wait(stream, op)
            elif isinstance(op, HostDelayOp):   # the host enqueues the stream's later packets only after it
                start = self.env.now
                yield self.env.timeout(op.us)
                self._host_clock[stream.name] = self.env.now
                self._span("host_delay", f"host delay {op.us:g} us", stream, start)
            elif isinstance(op, CollectiveOp):
                yield from self._collective(stream, op)
        self._waiting_on.pop(stream.name, None)

    def _span(self, kind: str, label: str, stream: StreamSpec, start: float, gpu: Optional[int] = None,
              **detail) -> Span:
        span = Span(kind, label, stream.gpu if gpu is None else gpu, stream.name, float(start), float(self.env.now),
                    detail)
        self.state.spans.append(span)
        return span

    # ------------------------------------------------------------ kernels
    def _kernel(self, stream: StreamSpec, op: KernelOp):
        gpu = stream.gpu
        arch = self.program.system.archs[gpu]
        mhz = arch.clocks.shader_mhz
        start = self.env.now
        name = stream.name
        packet_ready = self._host_clock[name] + arch.launch.command_processor_latency_cycles / mhz
        if packet_ready > self.env.now:
            yield self.env.timeout(packet_ready - self.env.now)
        compute = self.compute[gpu]
        self._waiting_on[stream.name] = f"waits for GPU {gpu}'s kernel slot"
        with compute.slot.request() as slot:
            yield slot
            kernel = self.program.kernels[kernel_key(op)]   # its launch and scalars applied by the loader
            buffers = {arg: self._device_name(ref.name, ref.gpu if ref.gpu is not None else gpu,
                                              self.program.buffer(ref.name).per_gpu)
                       for arg, ref in op.args if isinstance(ref, BufferRef)}
            out = run_launch(self.devices[gpu], kernel, buffers=buffers, values=self.values, memo=self.memo,
                             trace=self.trace, sample=self.sample)
            hbm_bytes = out.hbm_bytes
            hbm_use = hbm_bytes / max(out.kernel_time_us, 1e-9) / (arch.hbm_bytes_per_s / 1e6)
            run_start = self.env.now
            taken = yield self.env.process(compute.run(out.kernel_time_us, hbm_use))
            label = op.name or kernel.name
            span = self._span("kernel", label, stream, run_start, cycles=out.cycles, reused=out.reused,
                              sampled=out.sampled, slowed_us=taken - out.kernel_time_us)
            if out.trace is not None:
                self.state.kernel_traces.append(KernelTrace(span, out.trace, kernel.program, arch, out.cycles))
        yield self.env.timeout(arch.launch.completion_signal_cycles / mhz)
        record = LaunchRecord(label, gpu, stream.name, out.cycles, out.kernel_time_us, float(self.env.now - start),
                              out.reused, hbm_bytes, out.sampling)
        self.state.launches.append(record)
        if self.on_launch is not None:
            self.on_launch(record)

    # ------------------------------------------------------------ copies
    def _memcpy(self, stream: StreamSpec, op: MemcpyOp):
        src_gpu, src = self._where(op.src, stream.gpu)
        dst_gpu, dst = self._where(op.dst, stream.gpu)
        nbytes = op.nbytes if op.nbytes is not None else min(src.size, dst.size)
        engine_gpu = stream.gpu
        start = self.env.now
        self._waiting_on[stream.name] = f"waits for a copy engine of GPU {engine_gpu}"
        with self.copy_engines[engine_gpu].request() as engine:
            yield engine
            yield self.fabric.transfer(src_gpu, dst_gpu, nbytes, label=f"{op.kind} {op.src.name}->{op.dst.name}")
        dst[:nbytes] = src[:nbytes]
        kind = "peer" if op.kind == "peer" else "memcpy"
        self._span(kind, f"{op.kind} {op.src.name} -> {op.dst.name}", stream, start, nbytes=int(nbytes))

    def _memset(self, stream: StreamSpec, op: MemsetOp):
        gpu, dst = self._where(op.dst, stream.gpu)
        start = self.env.now
        with self.copy_engines[stream.gpu].request() as engine:
            yield engine
            yield self.fabric.transfer(gpu, gpu, dst.size, gbps=2 * d2d_copy_gbps(self.program.system.archs[gpu]),
                                       label=f"memset {op.dst.name}")   # writes only: twice a copy's rate
        dst[:] = np.uint8(op.value & 0xFF)
        self._span("memset", f"memset {op.dst.name}", stream, start, nbytes=int(dst.size))

    # ------------------------------------------------------------ events
    def _record(self, stream: StreamSpec, op: EventRecordOp) -> None:
        # every earlier operation of this stream is done (the stream is in order): the record fires now
        self._records[op.event] += 1
        for ev_wait in self._pending.pop((op.event, self._records[op.event]), []):
            ev_wait.succeed()

    def _wait(self, stream: StreamSpec, op: EventWaitOp):
        key = (stream.name, op.event)
        self._waits[key] += 1
        k = self._waits[key]
        records = self._records[op.event]
        if records >= k:
            return
        start = self.env.now
        ready = self.env.event()
        self._pending[(op.event, k)].append(ready)
        self._waiting_on[stream.name] = (f"waits for event '{op.event}' (record {k}; "
                                         f"{records} made so far)")
        yield ready
        self._span("wait", f"wait {op.event}", stream, start)

    # ------------------------------------------------------------ collectives
    def _collective(self, stream: StreamSpec, op: CollectiveOp):
        group = tuple(op.group)
        count_key = (stream.gpu, group)
        k = self._collective_count[count_key]
        self._collective_count[count_key] = k + 1
        meet = self._rendezvous.setdefault((group, k), {"arrived": {}, "done": self.env.event()})
        meet["arrived"][stream.gpu] = (stream, op)
        missing = [g for g in group if g not in meet["arrived"]]
        if missing:
            self._waiting_on[stream.name] = (f"waits at {op.kind} #{k + 1} over GPUs {list(group)} for GPU(s) "
                                             f"{missing} to reach it")
            yield meet["done"]
            return
        yield from self._run_collective(op, group, meet)
        meet["done"].succeed()

    def _run_collective(self, op: CollectiveOp, group: tuple, meet: dict):
        start = self.env.now
        sends = {g: self._array(op.send.name, g) for g in group}
        nbytes = next(iter(sends.values())).nbytes
        shares = {g: self._hbm_share(op, group, g) for g in group}
        for g in group:
            self.compute[g].occupy(op.channels, shares[g])
        done = yield coll.collective_process(self.env, self.fabric, op.kind, op.algorithm, group, nbytes,
                                             op.chunk_bytes, channels=op.channels, root=op.root,
                                             label=f"{op.kind} ({op.algorithm})")
        for g in group:
            self.compute[g].release(op.channels, shares[g])
        results = coll.apply_collective(op, sends)
        target = op.recv or op.send
        for g in group:
            dst = self._array(target.name, g)
            dst.reshape(-1)[...] = np.asarray(results[g]).reshape(-1).astype(dst.dtype, copy=False)
        self.state.collectives.append(CollectiveRecord(op.kind, op.algorithm, group, done.size_bytes, float(start),
                                                       float(self.env.now), done.algbw_gbps, done.busbw_gbps))
        for g in group:
            stream, _ = meet["arrived"][g]
            self._span("collective", f"{op.kind} ({op.algorithm})", stream, start, gpu=g, bytes=done.size_bytes,
                       busbw_gbps=round(done.busbw_gbps, 3))

    def _hbm_share(self, op: CollectiveOp, group: tuple, gpu: int) -> float:
        """_hbm_share is the fraction of ``gpu``'s HBM peak the collective uses while it runs, taken as link-bound:
        every byte it sends is read from HBM and every byte it receives written (a reduction reads two and
        writes one per byte received), at the usable bandwidth of the links it drives from this GPU, one per
        ring a ring collective runs (collectives.ring_strides: all n-1 of a mesh, 2 on a ring, 1 to a switch)."""
        system = self.program.system
        links = len(coll.ring_strides(system.topology, len(group)))
        hbm_per_sent_byte = 2 + (3 if op.kind in ("all_reduce", "reduce_scatter") else 0)
        return min(0.95, hbm_per_sent_byte * links * system.link.usable_gbps * 1e9
                   / system.archs[gpu].hbm_bytes_per_s)
