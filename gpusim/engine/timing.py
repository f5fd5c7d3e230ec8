"""Timing a dispatch: build the per-instruction timing tables and run the CU loop.

:func:`time_kernel` runs a kernel on the timing model of an architecture and
returns its cycle count, counters and functional outcome: compute units with
their issue arbiter, VALU/MFMA units, waitcnt, barriers, LDS bank conflicts
and the L1/L2/MALL/HBM hierarchy (gpusim.memory). The per-instruction
tables here turn the ISA table and the architecture into the numbers the
numba loop (gpusim.engine.kernels.cu) needs.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Optional

import numpy as np

from gpusim import jitcache
from gpusim.arch import Arch, descriptor_occupancy
from gpusim.arch.schema import WAVE_ARBITRATION_POLICIES
from gpusim.asm import fields, isa, sems
from gpusim.asm.index_mode import uses_index_mode
from gpusim.asm.value_slice import compact_vgprs, reads_buffers, value_slice, writes_memory
from gpusim.asm.program import M_SIMM, M_SUB, SREG_FILE, SRC_SHARED_BASE, SRC_SHARED_LIMIT
from gpusim.engine.kernels import bundles, kinds, skip, cu as cuk
from gpusim.engine.kernels import params as lp
from gpusim.engine.kernels.lds_banks import memo_for, scratch_for
from gpusim.errors import KernelFault
from gpusim.exec.kernels import memory as memk
from gpusim.exec.kernels.mfma import SCRATCH_ROWS_NEEDED
from gpusim.exec.kernels.valu_fast import SCRATCH_ROWS
from gpusim.exec.launch import (
    CODE_BASE, DEFAULT_LIMIT, DEFAULT_WAVE_LIMIT, SHARED_APERTURE, BoundMemory, Dispatch, FunctionalRun, watchdog,
)
from gpusim.engine.launch import kernel_times
from gpusim.engine.middle import FunctionalBeside, MiddleRun, middle_place
from gpusim.engine.progress import DispatchSize, ProgressWatch, published_array
from gpusim.engine.sampling import SamplePlan, plan_sampling, project, sample_arrays
from gpusim.engine.sampling_policy import SamplingOutcome, sampling_policy
from gpusim.exec.runaway import has_loops, may_wait_on_others
from gpusim.memory.hierarchy import MemoryLevels

_CATEGORY = {"valu": kinds.CAT_VALU, "trans": kinds.CAT_VALU, "mfma": kinds.CAT_VALU, "salu": kinds.CAT_SCALAR,
             "smem": kinds.CAT_SCALAR, "vmem": kinds.CAT_VMEM, "lds": kinds.CAT_LDS, "branch": kinds.CAT_BRANCH,
             "msg": kinds.CAT_BRANCH}


STALL_COUNTERS = {
    "GPUSIM_WAVE_ISSUE_CYCLES": cuk.C_WAVE_ISSUE,
    "GPUSIM_STALL_WAITCNT_VM_CYCLES": cuk.C_WAVE_WAITCNT_VM,
    "GPUSIM_STALL_WAITCNT_LGKM_CYCLES": cuk.C_WAVE_WAITCNT_LGKM,
    "GPUSIM_STALL_BARRIER_CYCLES": cuk.C_WAVE_BARRIER,
    "GPUSIM_STALL_DEPENDENCY_CYCLES": cuk.C_WAVE_DEPENDENCY,
    "GPUSIM_STALL_UNIT_BUSY_CYCLES": cuk.C_WAVE_UNIT_BUSY,
    "GPUSIM_STALL_ARBITER_CYCLES": cuk.C_WAVE_ARBITER,
    "GPUSIM_STALL_NOP_CYCLES": cuk.C_WAVE_NOP,
    "GPUSIM_STALL_IFETCH_CYCLES": cuk.C_WAVE_IFETCH,
}


@dataclass(frozen=True)
class TraceWindow:
    """TraceWindow selects what a timed run records as events: CUs ``cu_first``..``cu_last`` and cycles
    ``cycle_first``..``cycle_last`` (inclusive), at most ``capacity`` events (later ones are counted as
    dropped)."""

    cu_first: int = 0
    cu_last: int = 1 << 30
    cycle_first: int = 0
    cycle_last: int = 1 << 62
    capacity: int = 2_000_000


@dataclass
class TraceEvents:
    """TraceEvents are the events a timed run recorded (rows of gpusim.engine.kernels.cu's EV_* layout).

    ``slots_per_cu`` and ``waves_per_workgroup`` map a wave slot to its CU (slot // slots_per_cu) and
    SIMD ((slot % slots_per_cu) % 4); ``dropped`` counts events beyond the capacity.
    """

    events: np.ndarray
    window: TraceWindow
    slots_per_cu: int
    waves_per_workgroup: int
    dropped: int


@dataclass
class TimedRun:
    """TimedRun is what the timing model measured for one dispatch.

    ``cycles`` run from the first workgroup's dispatch to the end of the end-of-kernel release, and
    ``time_us`` is them at the shader clock; ``kernel_time_us`` and ``event_time_us`` are the kernel's time
    as a profiler's kernel trace and as hipEvent timing measure it (gpusim.engine.launch).
    ``functional`` holds the dispatch's outcome (final buffers, per-instruction
    counts): the timed run executes every instruction, so no separate
    functional run is needed. ``trace`` holds the recorded events when a
    TraceWindow was given. ``warm_up`` tells whether a warm-up dispatch ran first. ``memory`` is the
    memory levels as the dispatch left them (caches, TLBs, counters), after the end-of-kernel release:
    what time_kernel's ``memory`` takes for the next kernel on the same GPU. ``counters`` holds the cache and
    memory counters summed over their instances (``TCC_HIT_sum``); ``instances`` holds them per instance,
    ``{"TCC_HIT": [channel 0, 1, ...]}`` (rocprof's ``TCC_HIT[i]``; MemoryLevels.counters documents them).
    """

    cycles: int
    time_us: float
    counters: dict
    functional: FunctionalRun
    trace: Optional[TraceEvents] = None
    kernel_time_us: float = 0.0
    event_time_us: float = 0.0
    warm_up: bool = False
    memory: Optional[MemoryLevels] = None
    sampling: Optional[SamplingOutcome] = None
    instances: dict = field(default_factory=dict)

    @property
    def instruction_counts(self) -> np.ndarray:
        """instruction_counts[i] is how many waves issued instruction ``i``."""
        return self.functional.counts


_ARBITRATION = {name: code for code, name in enumerate(WAVE_ARBITRATION_POLICIES)}


def dispatch_order(arch: Arch) -> np.ndarray:
    """dispatch_order lists, for position p of the first dispatch round, the CU that gets workgroup p.

    ``linear`` fills CUs 0, 1, 2, ...; ``round_robin_xcd`` sends consecutive
    workgroups to consecutive XCDs (CU index = xcd * cus_per_xcd + slot),
    as the MI200/MI300 command processor does.
    """
    n = arch.cus
    if arch.policies.dispatch_order == "linear":
        return np.arange(n, dtype=np.int64)
    xcds, per = arch.gpu.xcds, arch.gpu.cus_per_xcd
    p = np.arange(n, dtype=np.int64)
    return (p % xcds) * per + p // xcds


def timing_tables(program, arch: Arch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """timing_tables returns (kind, category, busy cycles) for every instruction of ``program``."""
    n = program.rows   # the end-of-text sentinel too: a wave can reach it
    kind = np.zeros(n, np.int64)
    cat = np.zeros(n, np.int64)
    busy = np.zeros(n, np.int64)
    issue = arch.cu.issue
    for i in range(n):
        d = program.defs[i]
        unit = isa.UNITS[program.unit[i]]
        cat[i] = _CATEGORY[unit]
        s = int(program.sem[i])
        if unit == "mfma":
            kind[i] = kinds.TK_MFMA
            busy[i] = d.passes * issue.mfma_pass_cycles
        elif unit in ("valu", "trans"):
            kind[i] = kinds.TK_VALU
            mult = issue.trans_cycles_multiplier if unit == "trans" else 1
            if "f64" in (d.dst, *d.src):
                mult *= issue.f64_cycles_multiplier
            busy[i] = issue.valu_cycles * mult
        elif unit == "salu":
            kind[i] = kinds.TK_SALU
        elif unit == "smem":
            kind[i] = kinds.TK_SMEM
        elif unit == "vmem":
            kind[i] = kinds.TK_VMEM
        elif unit == "lds":
            kind[i] = kinds.TK_LDS
        elif s == sems.S_WAITCNT:
            kind[i] = kinds.TK_WAITCNT
        elif s == sems.S_NOP:
            kind[i] = kinds.TK_NOP
            busy[i] = int(program.mods[i, M_SIMM]) & 0xF   # s_nop waits SIMM16[3:0] + 1 cycles (CDNA3 ISA)
        elif s == sems.S_MISC and program.mods[i, M_SUB] == fields.MISC_SLEEP:
            kind[i] = kinds.TK_SLEEP
            busy[i] = int(program.mods[i, M_SIMM]) & 0x7F   # s_sleep's 64-cycle periods: SIMM16[6:0] (CDNA3 ISA)
        elif s == sems.S_MISC and program.mods[i, M_SUB] == fields.MISC_SETPRIO:
            kind[i] = kinds.TK_SETPRIO
            busy[i] = int(program.mods[i, M_SIMM]) & 3   # the user priority: SIMM16[1:0] (CDNA3 ISA)
        elif s == sems.S_MISC and program.mods[i, M_SUB] == fields.MISC_WAKEUP:
            kind[i] = kinds.TK_WAKEUP
        elif s == sems.S_BARRIER:
            kind[i] = kinds.TK_BARRIER
        elif s == sems.S_ENDPGM:
            kind[i] = kinds.TK_END
        else:
            kind[i] = kinds.TK_BRANCH
    return kind, cat, busy


QUANTUM_CYCLES = 256
_WIDEST_LANE_ACCESS = 16     # bytes: a dwordx4 load or store
_WIDEST_SCALAR_ACCESS = 64   # bytes: s_load_dwordx16


def _lines_per_access(arch: Arch) -> int:
    """_lines_per_access bounds how many L1 lines one wave's memory instruction touches (the timing loop's
    ``lines`` scratch): 64 lanes of 16 bytes, each across at most 16 // line + 2 lines, or one scalar
    load's 64 bytes; an architecture with lines narrower than an access needs more than the usual 128."""
    line = arch.cu.l1.line_bytes
    # a scratch access of 4 dwords is coalesced a dword at a time, each from the rest of the array on
    return max(64 * (_WIDEST_LANE_ACCESS // line + 2), _WIDEST_SCALAR_ACCESS // line + 2, 128) + 3 * 128


# a dispatch of more workgroups than this is probed first (_probe_runaway); at most this many run together
# at the per-wave instruction budget, so a runaway found without the probe costs at most this many times more
PROBE_ABOVE_WORKGROUPS = 8


def _probe_runaway(kernel, arch: Arch, max_wave_instructions: int, quantum: int, timeout: Optional[float],
                   bound: Optional[BoundMemory] = None) -> Optional[TimedRun]:
    """_probe_runaway raises the runaway fault of a dispatch whose first workgroup never ends by itself.

    A dispatch that fills the GPU runs hundreds of waves side by side, so a loop whose exit is never taken
    reaches the per-wave budget only after hundreds of budgets of simulation (minutes), where the
    functional run, one workgroup at a time, faults in about a second. The probe runs the first workgroup
    alone (values sliced to what steers control flow) under the same budget. If it runs away in a loop
    whose exit no other workgroup can influence (gpusim.exec.runaway.may_wait_on_others), the full run
    would too: that fault is raised, with the report the functional run gives. Any other outcome, a
    completed workgroup or a fault the whole dispatch might not reach, says nothing and the full run goes
    ahead. Deterministic: the probe's verdict depends only on the kernel and the budget. ``bound``: the
    device space the dispatch runs in (time_kernel), which the probe leaves unchanged. Returns the probe's
    run (its instruction counts size the dispatch for sampling), None when it faulted without a verdict.
    """
    try:
        return time_kernel(kernel, arch, max_instructions=max(max_wave_instructions, 1) * (1 << 12),
                           max_wave_instructions=max_wave_instructions, quantum=quantum, values=False,
                           timeout=timeout, first_workgroups=1, bound=_untouched(kernel.program, bound))
    except KernelFault as fault:
        if fault.code in (memk.FAULT_WAVE_LIMIT, memk.FAULT_ENDLESS) and \
                not may_wait_on_others(kernel.program, fault.row):
            raise
    return None


def _untouched(program, bound: Optional[BoundMemory]) -> Optional[BoundMemory]:
    """_untouched returns a space for a sliced extra run (probe, warm-up) that leaves ``bound`` as it is: ``bound``
    itself when the slice stores nothing (value_slice.writes_memory), else a copy of it."""
    if bound is None:
        return None
    return bound.copy() if writes_memory(program, value_slice(program)) else bound


def keeps_l2(arch: Arch) -> bool:
    """keeps_l2 tells whether the L2 keeps the previous kernel's lines at kernel start: it is not invalidated
    there, or its invalidate keeps device memory's lines (l2.invalidate_keeps_device_memory), which every
    line of a kernel's buffers is."""
    return not arch.launch.invalidate_l2_at_start or arch.l2.invalidate_keeps_device_memory


def time_kernel(kernel, arch: Arch, *, max_instructions: int = DEFAULT_LIMIT,
                max_wave_instructions: int = DEFAULT_WAVE_LIMIT, quantum: int = QUANTUM_CYCLES, values: bool = True,
                trace: Optional[TraceWindow] = None, timeout: Optional[float] = None,
                first_workgroups: int = 0, warm_up: bool = False, memory: Optional[MemoryLevels] = None,
                bound: Optional[BoundMemory] = None, sample=None,
                progress: Optional[ProgressWatch] = None) -> TimedRun:
    """time_kernel simulates ``kernel`` (from gpusim.api.load_kernel) on the timing model of ``arch``.

    ``quantum`` is how many cycles one CU advances before the next takes its turn (1: strict cycle order
    across CUs; larger windows keep each CU's registers in the host's caches, and shift when requests of
    different CUs reach memory by at most the window). ``values`` False computes only the instructions
    whose values reach an address, a branch or EXEC (gpusim.asm.value_slice): the same cycles, counters
    and faults, much less host time for MFMA and LDS-heavy kernels, but no output buffers
    (``functional.final`` is None). ``trace`` records the events of the CUs and cycles it selects
    (TimedRun.trace); the cycles and counters are the same with or without it. Raises KernelFault (the
    same report as the functional run) if the kernel faults, at the same instruction limits: ``max_instructions``
    for the dispatch and ``max_wave_instructions`` for each wave, and faults when still running ``timeout``
    host seconds after it started (the watchdog polls once per window of ``quantum`` cycles). A dispatch of
    more than PROBE_ABOVE_WORKGROUPS workgroups whose program has a loop first runs its first workgroup alone
    (_probe_runaway), so a runaway costs about the seconds it costs the functional run. ``first_workgroups`` > 0 runs only that
    many workgroups (the probe's own runs).

    ``warm_up`` first runs a dispatch of the same kernel (values sliced: no buffer changes, so the outputs
    are those of one run) and times the real dispatch after it, as hardware timings taken after a warm-up
    run are: the kernel-start acquire invalidates the L1s (and the L2 where ``launch.invalidate_l2_at_start``,
    keeping device memory's lines where ``l2.invalidate_keeps_device_memory``), so what carries over is what
    the MALL and those L2 lines hold (MemoryLevels.for_next_kernel). The cycles and counters are
    the timed dispatch's only.

    ``memory`` is the state a previous kernel on the same GPU left (its TimedRun.memory; None: cold caches):
    the dispatch starts from it after the kernel-start acquire, as ``warm_up`` does, and TimedRun.memory is
    the state this one leaves (``memory`` itself is not changed). ``bound`` runs the dispatch in a device
    address space (gpusim.exec.launch.BoundMemory): its buffers at their fixed addresses, the kernel's
    stores written into them in place (the probe and warm-up runs leave them unchanged); the addresses
    must be the same from kernel to kernel for the kept MALL, L2 and TLB lines to match.

    ``sample`` (a gpusim.engine.sampling mode name or SamplingPolicy; None: off) may time the dispatch
    from a representative part of it (gpusim.engine.sampling): TimedRun.sampling says what was done,
    ``cycles`` and the counters are the projection, and with ``values`` every workgroup still runs
    functionally for the outputs and the exact instruction counts (with ``bound``, in place, also when
    ``values`` is False but the kernel's addresses read buffers, so that the buffers are what a full run
    leaves). A run with ``trace`` or ``first_workgroups`` is never sampled.

    ``progress`` (gpusim.engine.progress.ProgressWatch) watches each timed dispatch, the warm-up's and the
    timed one, while it runs; nothing of the run depends on it.
    """
    # a kernel without loops cannot run away in a way the probe reports (may_wait_on_others): no probe
    probe = None
    if first_workgroups == 0 and int(np.prod(kernel.module.launch.grid)) > PROBE_ABOVE_WORKGROUPS \
            and has_loops(kernel.program):
        probe = _probe_runaway(kernel, arch, max_wave_instructions, quantum, timeout, bound)
    plan = _sample_plan(kernel, arch, sampling_policy(sample), probe, trace=trace, first_workgroups=first_workgroups)
    limits = dict(max_instructions=max_instructions, max_wave_instructions=max_wave_instructions, quantum=quantum,
                  timeout=timeout, first_workgroups=first_workgroups, plan=plan)

    def watch(what: str) -> Optional[Callable]:
        """watch is how ``progress`` is shown the dispatch named ``what``: sized by the probe where it ran."""
        if progress is None:
            return None
        n_wg = int(np.prod(kernel.module.launch.grid))
        expected = None if probe is None else int(probe.instruction_counts.sum()) * n_wg
        return partial(progress, size=DispatchSize(f"{kernel.name} {what}", n_wg, expected))

    sampled = plan is not None and plan.method != "full"
    with_functional = sampled and (values or (bound is not None and
                                               reads_buffers(kernel.program, value_slice(kernel.program))))

    def functional_run(stop=None):
        # only the timing is sampled: every workgroup runs functionally for the outputs and exact counts (the
        # sampled run computes no values, even where it ends up running every workgroup), and in a device
        # space for the buffers a later kernel's addresses may read
        return Dispatch(kernel.module, kernel.source, kernel.program, kernel.module.launch, kernel.module.args,
                        bound=bound).run(limit=max_instructions, wave_limit=max_wave_instructions, timeout=timeout,
                                         stop=stop)

    # beside the timed runs, on another core, unless it writes a device space they may read (in a program's
    # 256M triad chain it gained nothing there: 95.5 s against 95.6 s after, alternately)
    beside = FunctionalBeside(functional_run) if with_functional and bound is None else None
    memory = MemoryLevels(arch) if memory is None else memory.for_next_kernel(keep_l2=keeps_l2(arch))
    try:
        if warm_up:
            _timed_dispatch(kernel, arch, memory, values=False, trace=None, bound=_untouched(kernel.program, bound),
                            watch=watch("warm-up"), **limits)
            memory = memory.for_next_kernel(keep_l2=keeps_l2(arch))
        # a sampled run computes no values and skips workgroups: in a device space it must leave the buffers as
        # they are, for the functional run to read the inputs the kernel was given
        run = _timed_dispatch(kernel, arch, memory, values=values and not sampled, trace=trace,
                              bound=_untouched(kernel.program, bound) if sampled else bound,
                              with_functional=with_functional, watch=watch("timed"), **limits)
    except BaseException:
        if beside is not None:
            beside.cancel()
        raise
    if with_functional:   # its fault, if any, comes after the timed run's
        run.functional = beside.result() if beside is not None else functional_run()
    run.warm_up = warm_up
    run.memory = memory
    return run


def _sample_plan(kernel, arch: Arch, policy, probe: Optional[TimedRun], *, trace,
                 first_workgroups: int) -> Optional[SamplePlan]:
    """_sample_plan is how time_kernel samples the dispatch (gpusim.engine.sampling.plan_sampling), None
    when sampling is off."""
    if policy.mode == "off":
        return None
    if trace is not None:
        return SamplePlan("full", "a trace records every wave")
    if first_workgroups:
        return SamplePlan("full", "a partial dispatch is simulated in full")
    occ = descriptor_occupancy(arch, kernel.descriptor, int(np.prod(kernel.module.launch.block)))
    return plan_sampling(kernel.program, policy, workgroups=int(np.prod(kernel.module.launch.grid)),
                         slots=arch.cus * occ.workgroups_per_cu, waves_per_workgroup=occ.waves_per_workgroup,
                         probe_counts=None if probe is None else probe.instruction_counts,
                         needed=value_slice(kernel.program), few_workgroups=PROBE_ABOVE_WORKGROUPS)


def _timed_dispatch(kernel, arch: Arch, memory: MemoryLevels, *, max_instructions: int, max_wave_instructions: int,
                    quantum: int, values: bool, trace: Optional[TraceWindow], timeout: Optional[float],
                    first_workgroups: int, bound: Optional[BoundMemory] = None,
                    plan: Optional[SamplePlan] = None, with_functional: bool = False,
                    watch: Optional[Callable] = None) -> TimedRun:
    """_timed_dispatch runs one dispatch of ``kernel`` on the timing model with ``memory``'s levels as they are
    (time_kernel's arguments; no runaway probe, no warm-up), sampled as ``plan`` says. Mutates ``memory`` and, with ``bound``, the
    buffers it binds. ``with_functional``: every workgroup also runs functionally (time_kernel), which reports
    a fault in the middle the grid method skips (gpusim.engine.middle says where else that middle runs).
    ``watch(published)`` (None: unwatched) is held while the loop runs and publishes into ``published``
    (gpusim.engine.progress)."""
    module = kernel.module
    p = kernel.program
    full = np.ones(p.rows, dtype=bool) if values else value_slice(p)
    # a sliced run whose addresses and branches read no buffer needs no buffer contents
    dispatch = Dispatch(module, kernel.source, p, module.launch, module.args,
                        contents=values or reads_buffers(p, full), bound=bound)
    occ = descriptor_occupancy(arch, kernel.descriptor, int(np.prod(module.launch.block)))
    wpw = occ.waves_per_workgroup
    wpc = occ.workgroups_per_cu
    spc = wpc * wpw
    n_cu = arch.cus
    slots = n_cu * spc
    n_wgs = n_cu * wpc
    params = np.zeros(lp.P_N, np.int64)
    params[lp.P_CUS] = n_cu
    params[lp.P_SLOTS_PER_CU] = spc
    params[lp.P_WGS_PER_CU] = wpc
    params[lp.P_WAVES_PER_WG] = wpw
    params[lp.P_LINE_BYTES] = arch.cu.l1.line_bytes
    params[lp.P_LDS_LAT] = arch.cu.lds.latency_cycles
    params[lp.P_COISSUE] = arch.cu.issue.mfma_coissue_delay_cycles
    params[lp.P_BANKS] = arch.cu.lds.banks
    params[lp.P_BANK_WIDTH] = arch.cu.lds.bank_width_bytes
    params[lp.P_CODE_BASE] = CODE_BASE
    params[lp.P_LIMIT] = max_instructions
    params[lp.P_ARBITRATION] = _ARBITRATION[arch.policies.wave_arbitration]
    params[lp.P_REFILL] = arch.cu.issue.taken_branch_cycles
    params[lp.P_QUANTUM] = max(int(quantum), 1)
    params[lp.P_WAVE_LIMIT] = max_wave_instructions
    params[lp.P_FIRST_WGS] = first_workgroups
    params[lp.P_CUS_PER_XCD] = arch.gpu.cus_per_xcd
    params[lp.P_DISPATCH_CYCLES] = arch.launch.workgroup_dispatch_cycles
    kind, cat, busy = timing_tables(p, arch)
    regs, written0, uninit = dispatch.register_tracking()
    if values or uses_index_mode(p.sem):   # (M0-relative VGPRs reach the whole allocation)
        xops, vgprs = p.ops, dispatch.vgprs_needed()
    else:  # only the address/control slice runs, on the few registers it touches
        xops, vgprs = compact_vgprs(p, full)
    nv = vgprs + SCRATCH_ROWS
    sreg = np.zeros((slots, SREG_FILE), np.uint32)
    sreg[:, SRC_SHARED_BASE] = SHARED_APERTURE >> 32
    sreg[:, SRC_SHARED_LIMIT] = (SHARED_APERTURE >> 32) + 1
    vreg = np.zeros((slots, nv, 64), np.uint32)
    lds = np.zeros((n_wgs, max(int(kernel.descriptor.get("group_segment_fixed_size", 0)), 0)), np.uint8)
    fault = np.zeros(memk.N_FAULT, np.int64)
    counters = np.zeros(cuk.C_N, np.int64)
    icount = np.zeros(p.rows, np.int64)
    mem = dispatch._memory_image()

    def per_slot(*shape):
        return np.zeros((slots, *shape), np.int64)

    def per_cu(*shape):
        return np.zeros((n_cu, *shape), np.int64)

    def per_wg():
        return np.zeros(n_wgs, np.int64)

    tctl = cuk.trace_off()
    events = np.zeros((trace.capacity if trace else 0, 6), np.int64)
    if trace is not None:
        tctl[cuk.T_CU_LO], tctl[cuk.T_CU_HI] = trace.cu_first, trace.cu_last
        tctl[cuk.T_C0], tctl[cuk.T_C1] = trace.cycle_first, trace.cycle_last

    program = bundles.ProgramArrays(p.sem, p.ops, xops, p.mods, p.pc_bytes, kind, cat, busy, full, dispatch.endless(),
                                    regs.reads_at, regs.reads, regs.writes_at, regs.writes)
    value_arrays = bundles.ValueArrays(sreg, vreg, np.zeros((SCRATCH_ROWS_NEEDED, 64), np.uint64),
                                       np.ones(64, np.uint8), mem, lds)
    waves = bundles.WaveArrays(pc=per_slot(), state=per_slot(), ready=per_slot(), age=per_slot(), wg_of=per_slot(),
                               vmq=per_slot(cuk.QUEUE), vmn=per_slot(), lgq=per_slot(cuk.QUEUE), lgn=per_slot(),
                               reg_ready=per_slot(regs.entries), deps_at=per_slot(), why=per_slot(), acct=per_slot(),
                               hazard=per_slot(), wcount=per_slot(), prio=per_slot())
    workgroups = bundles.WorkgroupArrays(live=per_wg(), arrived=per_wg(), group=per_wg())
    cus = bundles.CuArrays(unit_valu=per_cu(4), unit_mfma=per_cu(4), unit_lds=per_cu(), simd_wake=per_cu(4),
                           last_k=per_cu(4), cu_wake=per_cu(), cu_live=per_cu(), cu_start=per_cu())
    counted = bundles.CounterArrays(counters, icount, uninit, fault)
    grid = plan is not None and plan.method == "grid"
    place = middle_place(p, full, grid=grid, with_functional=with_functional)
    sampling = sample_arrays(plan or SamplePlan("full", ""), rows=p.rows, wave_slots=slots, workgroup_slots=n_wgs,
                             slots_per_cu=spc, n_counters=cuk.C_N, memory=memory,
                             warm_middle=bound is not None,   # a program's launch: the next one starts from its caches
                             middle_in_loop=place.in_loop)
    scratch = bundles.ScratchArrays(scratch_for(arch.cu.lds.banks), memo_for(p.rows), np.zeros(3, np.int64),
                                    np.zeros(_lines_per_access(arch), np.int64), np.zeros(5, np.int64),
                                    np.zeros(5, np.int64))
    memory_args = memory.kernel_args()
    middle_fault = None
    with watchdog(timeout) as stop:
        published = published_array()
        launch = bundles.LaunchArrays(dispatch.abi(), dispatch.user_sgprs(), written0, dispatch.regions, dispatch.env(),
                                      params, dispatch_order(arch), stop, np.zeros(arch.gpu.xcds, np.int64), published)
        # the workgroups the grid method skips, unless the loop runs them all: on a thread beside it, or (with
        # a functional run too) here only to see whether one of them faults before a fault the timed run met
        # after its jump
        middle = None if not grid or place.in_loop else MiddleRun(program, launch, value_arrays, waves, scratch,
                                                                   memory_args, sampling)
        if middle is not None and place.beside:
            middle.start()
        try:
            with (nullcontext() if watch is None else watch(published)):
                cycles = jitcache.compiled_call(cuk.run_timed, program, launch, value_arrays, waves, workgroups, cus,
                                                counted, scratch, memory_args, sampling, events, tctl)
        except BaseException:
            if middle is not None:
                middle.cancel()
            raise
        if middle is not None:
            if sampling.out[skip.O_JUMPED] == 1 and (place.beside or fault[memk.F_CODE]):
                middle_fault = middle.verdict(stop)
            else:
                middle.cancel()
    if middle_fault is not None:   # the middle runs at the jump: its fault comes before the timed run's later one
        raise dispatch.fault_error(middle_fault, max_instructions, max_wave_instructions, timeout)
    if fault[memk.F_CODE]:
        raise dispatch.fault_error(fault, max_instructions, max_wave_instructions, timeout,
                                   mem=mem if values else None)
    outcome = None
    if plan is not None:
        cycles, outcome = project(plan, sampling, int(cycles), counters, icount,
                                  {"insts": cuk.C_INSTS, "cycles": cuk.C_CYCLES, "cu_busy": cuk.C_CU_BUSY}, n_cu)
    c = {
        "GRBM_GUI_ACTIVE": int(cycles),
        "GPUSIM_INSTS_TOTAL": int(counters[cuk.C_INSTS]),
        "SQ_LDS_BANK_CONFLICT": int(counters[cuk.C_LDS_BANK_CONFLICT]),
        "GPUSIM_VALU_BUSY_CYCLES": int(counters[cuk.C_VALU_BUSY]),
        "GPUSIM_MFMA_BUSY_CYCLES": int(counters[cuk.C_MFMA_BUSY]),
        "GPUSIM_LDS_BUSY_CYCLES": int(counters[cuk.C_LDS_BUSY]),
        "GPUSIM_CU_BUSY_CYCLES": int(counters[cuk.C_CU_BUSY]),
        "GPUSIM_CU_ISSUE_CYCLES": int(counters[cuk.C_ISSUE_CYCLES]),
        "GPUSIM_RAW_HAZARDS": int(counters[cuk.C_RAW_HAZARDS]),
    }
    # wave-cycles by what the wave was doing; they add up to GPUSIM_WAVE_CYCLES
    for name, col in STALL_COUNTERS.items():
        c[name] = int(counters[col])
    c["GPUSIM_WAVE_CYCLES"] = int(sum(counters[col] for col in STALL_COUNTERS.values()))
    sums, instances = memory.counters_by_instance()
    c.update(sums)
    recorded = None
    if trace is not None:
        recorded = TraceEvents(events[:tctl[cuk.T_COUNT]].copy(), trace, spc, wpw, int(tctl[cuk.T_DROPPED]))
    times = kernel_times(int(cycles), arch)
    return TimedRun(cycles=int(cycles), time_us=int(cycles) / arch.clocks.shader_mhz, counters=c, instances=instances,
                    functional=dispatch.outcome(mem, icount, values=values, uninit=uninit, registers=regs.registers),
                    trace=recorded, kernel_time_us=times.kernel_time_us, event_time_us=times.event_time_us,
                    sampling=outcome)
