"""The seam between the application level and the engine: one kernel launch on one GPU's state.

The system layer asks "time this launch on this GPU" (:func:`run_launch`) and gets its cycles, times and
counters back; the GPU (gpusim.system.device.DeviceMemory) keeps the new buffer contents and the caches
the kernel left. A LaunchMemo (gpusim.system.launch_memo) spares the timing model launches it has timed
before.

Launches on one GPU are timed one at a time, each against the caches the previous one left: two kernels
that overlap in a program's time (two streams) are each timed as if alone on the GPU, in the order the
runtime calls run_launch.
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence, Union

import numpy as np

from gpusim.asm.ir import LaunchSpec
from gpusim.asm import sems
from gpusim.engine.launch import kernel_times
from gpusim.engine.sampling_policy import sampling_policy
from gpusim.engine.timing import QUANTUM_CYCLES, time_kernel
from gpusim.errors import UsageError, did_you_mean
from gpusim.exec.launch import DEFAULT_LIMIT, DEFAULT_WAVE_LIMIT, Dispatch, scratch_need
from gpusim.report.counters import instruction_counters
from gpusim.system.device import DeviceMemory
from gpusim.system.launch_memo import CacheSnapshot, LaunchMemo, MemoEntry

Number = Union[int, float]

# the sems of instructions that write global memory (vector stores and atomics, scalar stores)
_GLOBAL_WRITES = (sems.MEM_STORE, sems.MEM_ATOMIC, sems.S_STORE)


@dataclass(frozen=True)
class LaunchOutcome:
    """LaunchOutcome is what one launch cost.

    ``cycles`` (shader clock, first workgroup dispatch to the end of the end-of-kernel release) and
    ``time_us`` (them in microseconds); ``kernel_time_us`` and ``event_time_us`` the kernel's time as a
    profiler's kernel trace and as hipEvent timing see it (gpusim.engine.launch.kernel_times: plus the
    kernel-start acquire; plus the command processor's latency and completion signal). ``counters`` are
    Result.counters' (instruction counts, SQ_WAVES, cache and HBM counters summed as ``NAME_sum``:
    GPUSIM_HBM_READ_BYTES_sum and _WRITE_BYTES_sum are the HBM traffic), ``instances`` the per-instance
    values (Result.instances). ``reused``: the timing came from the LaunchMemo, not a timed run. A launch
    made with ``timing=False`` has only instruction counters and None for the times.
    """

    cycles: Optional[int]
    time_us: Optional[float]
    kernel_time_us: Optional[float]
    event_time_us: Optional[float]
    counters: dict
    instances: dict
    reused: bool = False
    trace: object = None   # gpusim.engine.timing.TraceEvents of a launch run with ``trace=``
    sampling: object = None   # gpusim.engine.sampling_policy.SamplingOutcome of a launch timed with ``sample=``

    @property
    def sampled(self) -> bool:
        """sampled is True when part of the launch's timing was projected, not simulated (``sampling``)."""
        return self.sampling is not None and self.sampling.sampled

    @property
    def hbm_bytes(self) -> int:
        """hbm_bytes is the bytes the launch read from and wrote to HBM (0 for an untimed launch)."""
        return int(self.counters.get("GPUSIM_HBM_READ_BYTES_sum", 0) + self.counters.get("GPUSIM_HBM_WRITE_BYTES_sum", 0))


def kernarg_bytes(kernel) -> int:
    """kernarg_bytes is the kernarg segment ``kernel`` (a gpusim.api.Kernel) needs: what a DeviceMemory
    running it must reserve (its ``kernarg_bytes``)."""
    module = kernel.module
    launch = module.launch or LaunchSpec((1, 1, 1), (64, 1, 1))
    # zero buffers take no host memory until written, and nothing is written here
    layout = Dispatch(module, kernel.source, kernel.program, launch, module.args, contents=False)
    return int(layout._kernarg_offsets()[2])


def slice_reads_buffers(kernel, memo: Optional[LaunchMemo] = None) -> bool:
    """slice_reads_buffers tells whether ``kernel``'s addresses, branches or EXEC masks depend on buffer
    contents (gpusim.asm.value_slice.reads_buffers): the kernels for which buffers must hold true values
    even in a timing-only program (see run_launch's ``values``)."""
    from gpusim.system.launch_memo import kernel_facts
    return (memo.facts(kernel) if memo is not None else kernel_facts(kernel)).reads_buffers


def run_launch(device: DeviceMemory, kernel, *, grid: Optional[Sequence[int]] = None,
               block: Optional[Sequence[int]] = None, buffers: Mapping[str, str],
               scalars: Optional[Mapping[str, Number]] = None, timing: bool = True, values: bool = True,
               memo: Optional[LaunchMemo] = None, max_instructions: int = DEFAULT_LIMIT,
               max_wave_instructions: int = DEFAULT_WAVE_LIMIT, quantum: int = QUANTUM_CYCLES,
               timeout: Optional[float] = None, trace=None, sample=None) -> LaunchOutcome:
    """run_launch runs one launch of ``kernel`` (a gpusim.api.Kernel) on GPU ``device`` and returns its LaunchOutcome.

    ``grid``/``block`` default to the kernel header's; ``buffers`` binds every buffer argument to a device
    buffer (argument name -> buffer name), ``scalars`` sets scalar arguments (the others keep the header's
    value). The kernel reads and writes the bound buffers in place, at their fixed device addresses.

    ``timing`` runs the timing model, starting from the caches the GPU's previous kernel left
    (``device.memory``, after the kernel-start acquire) and leaving this kernel's in ``device.memory``;
    without it only the functional executor runs (no times, caches unchanged). ``values`` False is a
    timing-only launch (gpusim.asm.value_slice): the same cycles and counters, but the arithmetic no
    address, branch or EXEC mask needs is skipped, so the bound buffers the kernel writes are left with
    undefined contents: they join ``device.stale``. If the kernel's slice loads from memory
    (slice_reads_buffers) every store is in the slice and the buffers stay right. A launch that needs the
    contents of a stale buffer (``values`` True, or a slice that loads from memory) is refused with a
    UsageError, since its results or timing would rest on values never computed. So a program runs every
    launch timing-only only when it checks no outputs and no kernel of it has slice_reads_buffers; a copy
    or memset that rewrites a whole stale buffer may discard it from ``device.stale``.

    ``memo`` (timed launches): a launch whose timing inputs were timed before (gpusim.system.launch_memo)
    takes that run's cycles, counters and resulting caches instead of a timed run (``reused``); the
    functional executor still runs when ``values`` is True or the slice loads from memory, so the buffers
    are what a timed run leaves. ``max_instructions``, ``max_wave_instructions``, ``quantum`` and
    ``timeout`` are time_kernel's. ``trace`` (a gpusim.engine.timing.TraceWindow) records the wave events of the
    CUs and cycles it selects in ``LaunchOutcome.trace``; a traced launch is always timed (a memo hit has no
    events), and the memo still learns from it. ``sample`` (a sample mode name or a SamplingPolicy; None:
    off) may time the launch from a sample, as time_kernel's (``LaunchOutcome.sampling`` says what it did);
    the memo keys on it, so a sampled and a full timing of one launch are kept apart. A sampled launch
    leaves the caches its detailed part left, warmed with the lines of the last workgroups of the grid's
    skipped middle (gpusim.engine.kernels.skipped_grid), so the next kernel finds about what a full run
    leaves (docs/sampling.md, "Sampled launches in a program", measures it). Raises KernelFault as a single-kernel run does (the buffers then hold
    what the kernel wrote before it faulted; the caches are not changed), UsageError for an argument
    the kernel does not have or leaves unbound.
    """
    kernel_now = _launch_kernel(kernel, grid, block, scalars or {}, buffers)
    module = kernel_now.module
    device.reserve_scratch(scratch_need(module, kernel_now.source, kernel_now.program, module.launch)[1])
    bound = device.bound(buffers)
    arch = device.arch
    facts = memo.facts(kernel) if memo is not None else None
    reads = facts.reads_buffers if facts is not None else slice_reads_buffers(kernel)
    writes_global = bool(np.isin(kernel.program.sem, _GLOBAL_WRITES).any())
    stale = sorted(name for name in buffers.values() if name in device.stale)
    if stale and (values or reads):
        raise UsageError(f"kernel '{kernel.name}' reads buffer(s) {', '.join(stale)} on GPU {device.gpu}, whose "
                         "contents an earlier timing-only launch left undefined; run the launches that write "
                         "them with values")

    dispatch = Dispatch(module, kernel_now.source, kernel_now.program, module.launch, module.args, bound=bound)

    def functional() -> object:
        return dispatch.run(limit=max_instructions, wave_limit=max_wave_instructions, timeout=timeout)

    def mark_stale() -> None:
        if not values and not reads and writes_global:
            device.stale.update(buffers.values())

    if not timing:
        run = functional()
        counters = _base_counters(kernel_now, run)
        return LaunchOutcome(None, None, None, None, counters, {}, reused=False)

    policy = sampling_policy(sample)
    limits = (max_instructions, max_wave_instructions, quantum, policy)
    key = None
    if memo is not None:
        key = _memo_key(memo, facts, device, dispatch, limits)
        entry = memo.lookup(key) if trace is None else None
        if entry is not None:
            if values or reads:
                functional()
            mark_stale()
            device.memory = entry.after.restore(arch)
            memo.remember_state(device.memory, entry.after)
            return dataclasses.replace(
                _outcome(entry.cycles, dict(entry.counters), {k: list(v) for k, v in entry.instances.items()}, arch,
                         reused=True), sampling=entry.sampling)
    timed = time_kernel(kernel_now, arch, max_instructions=max_instructions, max_wave_instructions=max_wave_instructions,
                        quantum=quantum, values=values, timeout=timeout, memory=device.memory, bound=bound,
                        trace=trace, sample=policy)
    mark_stale()
    counters = _base_counters(kernel_now, timed.functional)
    counters.update(timed.counters)
    instances = timed.instances
    device.memory = timed.memory
    if memo is not None:
        after = CacheSnapshot.of(timed.memory)
        memo.remember_state(timed.memory, after)
        memo.store(key, MemoEntry(timed.cycles, dict(counters), {k: list(v) for k, v in instances.items()}, after,
                                  timed.sampling))
    return dataclasses.replace(_outcome(timed.cycles, counters, instances, arch, reused=False), trace=timed.trace,
                               sampling=timed.sampling)


def _outcome(cycles: int, counters: dict, instances: dict, arch, reused: bool) -> LaunchOutcome:
    times = kernel_times(cycles, arch)
    return LaunchOutcome(cycles, cycles / arch.clocks.shader_mhz, times.kernel_time_us, times.event_time_us,
                         counters, instances, reused)


def _base_counters(kernel, run) -> dict:
    """_base_counters are the counters a functional run gives (gpusim.api.simulate's)."""
    counters = instruction_counters(kernel.program, run.counts)
    counters["SQ_WAVES"] = run.waves
    counters["SQ_WORKGROUPS"] = run.workgroups
    counters["GPUSIM_UNINIT_READS"] = run.uninit_reads
    return counters


def _memo_key(memo: LaunchMemo, facts, device: DeviceMemory, dispatch: Dispatch, limits: tuple) -> bytes:
    """_memo_key is the launch's LaunchMemo key: the kernarg segment as this launch writes it (its scalars
    and buffer addresses), where it and the packet sit, the starting caches and, for a kernel whose slice
    loads from memory, every buffer of the GPU and its static data."""
    contents = None
    if facts.reads_buffers:
        digest = hashlib.blake2b(device.used_bytes().data, digest_size=16)
        digest.update(device.static_bytes().data)
        contents = digest.digest()
    places = (device.kernarg_offset, device.packet_offset)
    return memo.key(facts, device.arch, dispatch.launch.grid, dispatch.launch.block, bytes(dispatch.kernarg), places,
                    limits, memo.signature(device.memory), contents)


def _launch_kernel(kernel, grid, block, scalars: Mapping[str, Number], buffers: Mapping[str, str]):
    """_launch_kernel is ``kernel`` with this launch's grid, block and scalar values (the encoded program is
    shared, not re-encoded). Raises UsageError for an unknown or unbound argument."""
    module = kernel.module
    header = module.launch
    if (grid is None or block is None) and header is None:
        raise UsageError(f"kernel '{kernel.name}' has no launch line: give the launch's grid and block")
    launch = LaunchSpec(tuple(int(g) for g in (grid if grid is not None else header.grid)),
                        tuple(int(b) for b in (block if block is not None else header.block)),
                        header.loc if header is not None else None)
    if len(launch.grid) != 3 or len(launch.block) != 3 or min(launch.grid + launch.block) < 1:
        raise UsageError(f"kernel '{kernel.name}': grid and block need three positive sizes, not "
                         f"{launch.grid} and {launch.block}")
    names = [a.name for a in module.args]
    for name in list(scalars) + list(buffers):
        if name not in names:
            raise UsageError(f"kernel '{kernel.name}' has no argument '{name}'", hint=did_you_mean(name, names))
    args = []
    for spec in module.args:
        if spec.kind == "buffer":
            if spec.name in scalars:
                raise UsageError(f"argument '{spec.name}' of kernel '{kernel.name}' is a buffer, not a scalar")
            if spec.name not in buffers:
                raise UsageError(f"buffer argument '{spec.name}' of kernel '{kernel.name}' is bound to no buffer")
            args.append(spec)
        elif spec.name in buffers:
            raise UsageError(f"argument '{spec.name}' of kernel '{kernel.name}' is a scalar, not a buffer")
        elif spec.name in scalars:
            value = scalars[spec.name]
            integral = spec.dtype[0] in "iu"
            if integral and float(value) != int(value):
                raise UsageError(f"scalar '{spec.name}' of kernel '{kernel.name}' is {spec.dtype}: {value} is not "
                                 "an integer")
            args.append(dataclasses.replace(spec, value=int(value) if integral else float(value)))
        else:
            args.append(spec)
    return dataclasses.replace(kernel, module=dataclasses.replace(module, launch=launch, args=args))
