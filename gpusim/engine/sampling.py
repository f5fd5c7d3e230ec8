"""Sampled timing: simulate a representative part of a big dispatch in full detail and project the rest.

A full GPU's dispatch is tens of millions of wave-instructions; most of them repeat what the machine
already did. Sampling keeps the timing loop's detail where the machine's state changes (the first
rounds of workgroups filling an empty GPU, the main loop's first iterations, the epilogue's stores, the
last partial round) and replaces the repetition with a measured rate. Two methods, chosen per dispatch
(:func:`plan_sampling`):

``loop``
    Every wave runs at least the first ``loop_head_iterations`` iterations of a long loop in full detail,
    all CUs loaded. When every live wave is inside its loop past the head, the waves are sorted into rate
    classes (the loop, and the wave's age rank on its CU, which oldest-first arbitration orders by) and
    each class's cycles per iteration are pooled over its waves, for two consecutive measuring windows of
    ``loop_measure_iterations``. Once no class moved by more than ``steady_pct`` between them, the
    whole GPU *warps*: time moves forward by one shift D, each wave fast-forwarding D over its class's
    cycles per iteration through its loop functionally (the address and control slice the timed run
    executes, so branches, trip counts, instruction counts and faults stay exact; every line its loads
    and stores touch warms the caches, gpusim.memory.kernels.warming, so detail after the warp finds
    the L2 and MALL the skipped iterations left), with D as large as leaves every wave a few iterations
    before its loop ends. Every wave moves by the same D, so the waves' phases in time stay what they
    would have become, and D is added to the cycles. Loops, exits and epilogues then go on in detail
    (gpusim.engine.kernels.skip). No warp is made once a workgroup slot has emptied with no workgroup
    left to fill it: the rates were measured with every slot busy, and a draining GPU's are not those.

``grid``
    The first rounds of workgroups (at least ``grid_head_fraction`` of the grid's rounds, and at least
    ``grid_head_rounds``) and the last ``grid_tail_rounds`` run in full detail, as one continuous dispatch (the
    dispatcher jumps from the head to the tail), so the tail runs on the caches, queues and contention the head
    left. The skipped workgroups still run for their addresses (the address and control slice, no time, no
    counts: gpusim.engine.kernels.skipped_grid), so a fault in one is reported as the full simulation reports
    it: at the jump, one after another, or on a thread beside the timing loop (gpusim.engine.middle); in a
    program's launch, whose caches the next kernel starts from, the
    lines the last of them touch also warm the caches in dispatch order, so the next kernel finds what the
    middle left rather than the head's lines. The head goes on until its last two windows of ``grid_window_rounds`` rounds (fewer on a grid too
    short for two such windows and the tail, but not below 2) took cycles within ``steady_pct`` of each other (a
    kernel's rate climbs for its first rounds, and single rounds are noisy: windows of several rounds see a
    climb that windows of 2 miss by chance). The skipped middle costs the completion rate measured over the
    later half of the head (its counters scale from a window of its last half to three quarters), and the head
    goes on, too, until the noise interval that rate would leave on the projected cycles is within
    ``grid_interval_pct`` (skip.interval_ppm, the interval project() reports): a grid whose round boundaries
    stray far from a straight line is measured over more rounds, and one whose rate changes within the head
    keeps it from steadying. Workgroups whose instruction counts differ by their data (a loop per element of
    random length) are projected too, provided the head's two halves ran the same wave-instructions per
    workgroup on average (skip.work_moved: a grid whose work grows or shrinks with the workgroup id, a
    triangular loop, runs in detail); the middle's instruction counts are then the rate window's, scaled
    (SamplingOutcome.counts_estimated). A rate that never settles before the tail runs the whole grid in detail.

Counters of the skipped work are the counters accumulated over the measuring window, scaled by how much
more work was skipped than the window did (instruction counts of fast-forwarded iterations are exact),
so stall breakdowns, hit rates and bandwidths keep adding up. :class:`SamplingOutcome` says what was
done, the fraction simulated in detail, a 95% confidence interval on cycles from the spread of the
measured rates (the loop method's per-wave cycles per iteration; the grid head's round boundaries about
their straight line, _jitter_half_width), and the method's own error (METHOD_ERROR times the skipped
share), which the interval alone does not cover: the two together are the error estimate a report prints.

Accuracy: the grid method projects the middle from a head of the grid, so a rate that changes after the
head is projected from its early value (hence its long heads: within 1.6% of the full simulation on every
large case measured); the loop method extrapolates from a few iterations, so a loop whose rate drifts
after them (a GEMM whose L2 hit rate falls as its workgroups spread in phase) is projected from its early
rate, up to 33% off. So the default mode, ``auto``, samples by the grid method alone, and the loop method
runs only under ``on`` (sampling_policy.MODE_METHODS). The measured errors, the reasons behind each rule
and default, and the full simulation's own variation are in docs/sampling.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from gpusim.asm import sems
from gpusim.engine.kernels import bundles, skip
from gpusim.engine.loop_skip import skippable_loops
from gpusim.engine.sampling_policy import MODE_METHODS, SamplingOutcome, SamplingPolicy, full_outcome

@dataclass(frozen=True)
class SamplePlan:
    """SamplePlan is how one dispatch is sampled: ``method`` (``loop``, ``grid`` or ``full``) with its
    ``reason``; for ``loop`` the per-row ``skip_head`` (gpusim.engine.loop_skip), each loop's ``trip``
    count per wave and the ``policy`` whose settings it runs with; for ``grid`` the first workgroup the
    dispatcher may jump at, the one it resumes from, the workgroups of one round and the rounds of
    one measuring ``window``."""

    method: str
    reason: str
    policy: SamplingPolicy = SamplingPolicy(mode="off")
    skip_head: Optional[np.ndarray] = None
    trip: Optional[np.ndarray] = None
    jump_at: int = 0
    resume_at: int = 0
    round: int = 0
    window: int = 0


def plan_sampling(program, policy: SamplingPolicy, *, workgroups: int, slots: int, waves_per_workgroup: int,
                  probe_counts: Optional[np.ndarray], needed: np.ndarray, few_workgroups: int) -> SamplePlan:
    """plan_sampling chooses how to sample a dispatch of ``workgroups`` workgroups on ``slots`` workgroup
    slots (CUs x workgroups per CU).

    ``probe_counts``: per-instruction counts of its first workgroup run alone (the runaway probe), None
    when there was none: a dispatch of ``few_workgroups`` or fewer (never sampled), or one without loops
    (its size is bounded by its rows); ``needed``: the value slice (gpusim.asm.value_slice). ``auto`` samples above
    ``policy.above_wave_instructions`` (the first workgroup's count times the grid). The loop method, when
    the mode allows it (sampling_policy.MODE_METHODS: ``on`` only), is chosen when an outermost loop may be
    fast-forwarded and the first workgroup runs it at least ``4 * head_iterations`` times per wave; else the
    grid method when the grid has enough rounds. A ``full`` plan's reason says what kept each method off.
    """
    if policy.mode == "off":
        return SamplePlan("full", "sampling is off")
    if any(int(s) in (sems.MEM_ATOMIC, sems.DS_ATOMIC) for s in program.sem):
        return SamplePlan("full", "the kernel has atomics, whose contention depends on every workgroup")
    if probe_counts is None:
        if workgroups <= few_workgroups:
            return SamplePlan("full", f"{workgroups} workgroups: too few for sampling (it needs more than "
                                      f"{few_workgroups})")
        estimate = workgroups * waves_per_workgroup * program.rows   # no loop: a wave runs a row at most once
    else:
        estimate = int(probe_counts.sum()) * workgroups
    if policy.mode == "auto" and estimate <= policy.above_wave_instructions:
        return SamplePlan("full", f"below the sampling threshold (about {estimate / 1e6:.2f} M wave-instructions;"
                                  f" auto samples above {policy.above_wave_instructions / 1e6:g} M)")
    skip_head, refusals = skippable_loops(program, needed)
    head = policy.loop_head_iterations
    loop_left = ""   # the long loop a mode without the loop method leaves to the grid method or the full run
    if probe_counts is not None:
        long_edges = [b for b in np.flatnonzero(skip_head >= 0)
                      if probe_counts[b] >= 4 * head * waves_per_workgroup]
        if long_edges:
            rows = ", ".join(f"rows {int(skip_head[b])}-{int(b)}" for b in long_edges)
            if "loop" in MODE_METHODS[policy.mode]:
                return SamplePlan("loop", f"long loop ({rows}): every wave runs {head} iterations in detail "
                                          "before the GPU warps",
                                  skip_head=np.where(np.isin(np.arange(skip_head.size), long_edges), skip_head, -1),
                                  trip=np.asarray(probe_counts, np.int64) // waves_per_workgroup, policy=policy)
            loop_left = (f"its long loop ({rows}) is sampled only under --sample on (the loop method, "
                         "experimental: it projects a loop from its first iterations, up to 33% off where the "
                         "loop's rate drifts)")
    rounds = workgroups / max(slots, 1)
    need = policy.grid_min_rounds
    if rounds >= need:
        head_rounds = max(policy.grid_head_rounds, int(np.ceil(policy.grid_head_fraction * rounds)))
        # two windows and the tail must fit in the grid; a 6.5-round grid still gets windows of 2
        window = min(policy.grid_window_rounds, max(2, (int(rounds) - policy.grid_tail_rounds) // 3))
        return SamplePlan("grid", f"{rounds:.1f} rounds of workgroups: at least the first {head_rounds} and the "
                                  f"last {policy.grid_tail_rounds} in detail, the middle skipped once the last two "
                                  f"windows of {window} rounds took cycles within {policy.steady_pct:g}% of each "
                                  f"other and the round boundaries gave the projection a 95% interval within "
                                  f"±{policy.grid_interval_pct:g}%", jump_at=head_rounds * slots,
                          resume_at=workgroups - policy.grid_tail_rounds * slots, round=slots, window=window,
                          policy=policy)
    why = f"{rounds:.1f} rounds of workgroups (the grid method needs {need})"
    if loop_left:
        why += "; " + loop_left
    elif refusals:
        why += "; loops not fast-forwarded: " + "; ".join(refusals)
    elif not np.any(skip_head >= 0):
        why += ", and no loop"
    else:
        why += f", and no loop runs {4 * head} times"
    return SamplePlan("full", why)


SAMPLE_CAPACITY = 1 << 16   # the loop method's measured rates kept per dispatch (one per warping wave)


def sample_arrays(plan: SamplePlan, *, rows: int, wave_slots: int, workgroup_slots: int, slots_per_cu: int,
                  n_counters: int, memory, warm_middle: bool = False,
                  middle_in_loop: bool = True) -> bundles.SampleArrays:
    """sample_arrays builds the timing loop's SampleArrays for ``plan`` (METHOD_OFF for ``full``), with
    views of ``memory``'s live counters (gpusim.memory.hierarchy.MemoryLevels) for its snapshots.
    ``warm_middle``: the workgroups the grid method skips warm the caches with their last lines
    (gpusim.engine.kernels.skipped_grid), for a next kernel that starts from them. ``middle_in_loop`` False:
    the loop runs only those, the others run elsewhere (gpusim.engine.middle)."""
    params = np.zeros(skip.Z_N, np.int64)
    params[skip.Z_METHOD] = {"loop": skip.METHOD_LOOP, "grid": skip.METHOD_GRID}.get(plan.method, skip.METHOD_OFF)
    policy = plan.policy
    params[skip.Z_HEAD_ITERS] = policy.loop_head_iterations
    params[skip.Z_MEASURE_ITERS] = policy.loop_measure_iterations
    params[skip.Z_TAIL_ITERS] = policy.loop_tail_iterations
    params[skip.Z_MAX_WARPS] = policy.loop_max_warps
    params[skip.Z_JUMP_AT] = plan.jump_at
    params[skip.Z_RESUME_AT] = plan.resume_at
    params[skip.Z_SLOTS_PER_CU] = slots_per_cu
    params[skip.Z_STEADY_PERMIL] = policy.steady_permil
    params[skip.Z_WARM] = int(policy.loop_warm_caches)
    params[skip.Z_WARP_PERMIL] = int(round(1000 * policy.loop_warp_fraction))
    params[skip.Z_ROUND] = max(plan.round, 1)
    params[skip.Z_WINDOW_ROUNDS] = max(plan.window, 1)
    params[skip.Z_INTERVAL_PPM] = policy.grid_interval_ppm
    params[skip.Z_WARM_MIDDLE] = int(warm_middle)
    params[skip.Z_MIDDLE_IN_LOOP] = int(middle_in_loop)
    out = np.zeros(skip.O_N, np.int64)
    out[skip.O_SIG_MIN] = np.iinfo(np.int64).max
    views = bundles.MemoryCounterViews(*(view for _, view in memory.counter_views()))
    skip_head = plan.skip_head if plan.skip_head is not None else np.full(rows, -1, np.int64)
    trip = plan.trip if plan.trip is not None else np.zeros(rows, np.int64)

    snaps = 3   # the measuring window's start and end, and the grid method's next start
    rounds = -(-plan.resume_at // plan.round) if plan.method == "grid" else 0   # boundaries the head can reach

    def per_wave(*shape):
        return np.zeros((wave_slots, *shape), np.int64)

    return bundles.SampleArrays(
        params, out, skip_head.astype(np.int64), trip.astype(np.int64), per_wave(), np.full(wave_slots, -1, np.int64),
        per_wave(), per_wave(2 * policy.loop_measure_iterations + 1), per_wave(), per_wave(), np.zeros(workgroup_slots, np.int64),
        np.zeros(SAMPLE_CAPACITY, np.int64), np.zeros((snaps, n_counters), np.int64), np.zeros((snaps, rows), np.int64),
        np.zeros((snaps, sum(v.size for v in views)), np.int64), views, np.zeros(wave_slots, np.int64),
        np.zeros((rows, slots_per_cu), np.int64), np.zeros((rows, slots_per_cu), np.int64),
        np.zeros((rows, slots_per_cu), np.int64), np.zeros(rounds + 2, np.int64), np.zeros(rounds + 2, np.int64),
        t95_table(rounds + 1))


# Each method's own error (beyond sampling noise) per unit of skipped work: the 95th percentile (next-higher
# sample) of |sampled - full| / sampled / (1 - simulated_fraction) over a training set, from
# benchmarks/sampling_bias.py, which checks it on held-out cases. loop: trained on the small cases of
# benchmarks/sampling.py --quick (12 loop-sampled, the highest the grid-stride triad's 0.148), held out the
# large ones: the full cycles lie within the noise interval and this bound together for 16 of 18
# loop-sampled large cases (within the noise interval alone, 4). grid: no small case is grid-sampled
# (their rates never settle), so it is trained on the large corpus kernels (15 grid-sampled, among them three
# whose workgroups differ by their data, the highest the 32M wave_max_bpermute's 0.0252, with the +-0.5%
# interval rule) and held out the large workloads and HIP kernels: 14 of 17 within the bound (9 within the
# noise interval alone; not the 8192^2 LDS transpose, -1.04% against a bound of 0.99%, the 256M-element
# reduce_lds_tree, +1.16% against 0.77%, nor the naive transpose, +0.30% at 97% in detail against 0.17%).
# A run's method_error_pct is this times its skipped share: the 4096^3 GEMM under --sample on, 61% skipped,
# gets +-9.0%, the 256M triad, 47% skipped, +-1.2%.
METHOD_ERROR = {"loop": 0.1477, "grid": 0.0252}

_Z95 = 1.959963984540054   # two-sided 95% point of the normal distribution


def project(plan: SamplePlan, Z: bundles.SampleArrays, cycles: int, counters: np.ndarray, icount: np.ndarray,
            columns: dict, cus: int) -> tuple[int, SamplingOutcome]:
    """project turns a sampled run into the whole dispatch's cycles and SamplingOutcome.

    ``cycles`` is what the compressed run took (its last wave to the end-of-kernel release). The skipped
    work's counters are the window's (snapshot 1 minus snapshot 0) times the skipped share, added in
    place to ``counters`` (the loop's C_* array; ``columns`` names its ``insts`` column, which becomes every
    wave-instruction, its ``cycles`` column, the projected cycles, and its ``cu_busy`` column, which a
    CU adds to only when it runs out of work, so the skipped time is added to it for each CU it kept
    busy: under a warp the CUs holding waves, in the grid's middle all ``cus``), to the memory counters
    behind ``Z.memory`` and, for the grid method, to ``icount`` (the loop method's fast-forward counted
    its instructions exactly).
    A plan that ended up skipping nothing returns the run's own cycles and a ``full`` outcome saying why.
    """
    out = Z.out
    issued = int(counters[columns["insts"]])
    if plan.method == "loop" and out[skip.O_WARPS] > 0 and out[skip.O_SNAPS] == 2:
        skipped_insts = int(out[skip.O_FF_INSTS])
        window_insts = int(out[skip.O_I_B] - out[skip.O_I_A])
        _add_scaled(Z, counters, None, skipped_insts / window_insts if window_insts > 0 else 0.0)
        projected = cycles + int(out[skip.O_SHIFT])
        counters[columns["cu_busy"]] += int(out[skip.O_CU_BUSY_SHIFT])
        total = issued + skipped_insts   # fast-forwarded iterations count their instructions
        estimated = False
        half = float(out[skip.O_SHIFT_HALF_WIDTH])
        rates = Z.samples[:min(int(out[skip.O_SAMPLES]), Z.samples.size)]
        warps = int(out[skip.O_WARPS])
        reason = f"{plan.reason}; {int(out[skip.O_FF_ITERS]):,} loop iterations fast-forwarded in {warps} " \
                 f"warp{'s' if warps > 1 else ''} of {int(out[skip.O_SHIFT]):,} cycles in all"
        if out[skip.O_UNSTEADY]:
            reason += f"; it waited {int(out[skip.O_UNSTEADY])} measuring windows for steady rates"
        if out[skip.O_APART]:
            reason += (f"; it waited {int(out[skip.O_APART])} measuring windows for every workgroup's waves to "
                       f"come within {2 * plan.policy.loop_measure_iterations} iterations of each other")
        if out[skip.O_NONUNIFORM]:
            reason += "; some loops ended before the first workgroup's trip count (less certain)"
    elif plan.method == "grid" and out[skip.O_JUMPED] == 1:
        skipped_wgs = plan.resume_at - int(out[skip.O_JUMP_FROM])
        last = int(out[skip.O_DONE_B]) // plan.round            # the head's last round boundary
        first = (last + 1) // 2                                  # the rate: its later half
        boundaries = Z.round_t[first:last + 1]                  # the last one is snapshot 1's, O_T_B
        span = int(boundaries[-1] - boundaries[0])
        projected = cycles + int(round(span * skipped_wgs / ((last - first) * plan.round)))
        _add_scaled(Z, counters, icount, skipped_wgs / int(out[skip.O_DONE_B] - out[skip.O_DONE_A]))
        counters[columns["cu_busy"]] += cus * (projected - cycles)
        # the middle's workgroups ran what the rate's window's did on average (all of them the same, unless
        # they differ by their data: skip.work_moved)
        mean_work = skip.head_work(Z.round_i, last, plan.round)[1]
        total = issued + int(round(skipped_wgs * mean_work))
        half = _jitter_half_width(boundaries, projected - cycles)
        rates = boundaries
        reason = f"{plan.reason}; {skipped_wgs:,} workgroups of the middle projected at the measured rate"
        estimated = bool(out[skip.O_SIG_MIN] != out[skip.O_SIG_MAX])
        if estimated:
            reason += (f" (the workgroups differ, {int(out[skip.O_SIG_MIN]):,} to {int(out[skip.O_SIG_MAX]):,} "
                       f"wave-instructions, alike on average in both halves of the head: {mean_work:,.0f})")
    else:
        return cycles, full_outcome(_why_nothing_skipped(plan, out), cycles)
    counters[columns["insts"]] = total
    counters[columns["cycles"]] = projected
    fraction = issued / total if total else 1.0
    outcome = SamplingOutcome(plan.method, reason, fraction, cycles, int(np.floor(projected - half)),
                              int(np.ceil(projected + half)), int(rates.size),
                              100.0 * METHOD_ERROR.get(plan.method, 0.0) * (1.0 - fraction), estimated)
    return projected, outcome


def _add_scaled(Z: bundles.SampleArrays, counters: np.ndarray, icount: Optional[np.ndarray], scale: float) -> None:
    """_add_scaled adds the window's counts times ``scale`` to the live counters (and to ``icount``)."""
    counters += np.rint((Z.snap_counters[1] - Z.snap_counters[0]) * scale).astype(np.int64)
    if icount is not None:
        icount += np.rint((Z.snap_icount[1] - Z.snap_icount[0]) * scale).astype(np.int64)
    delta = np.rint((Z.snap_memory[1] - Z.snap_memory[0]) * scale).astype(np.int64)
    at = 0
    for view in Z.memory:
        view += delta[at:at + view.size]
        at += view.size


def _jitter_half_width(boundaries: np.ndarray, skipped_cycles: int) -> float:
    """_jitter_half_width is the 95% interval's half-width on the grid method's skipped cycles, from the cycles
    ``boundaries`` at which the head's later half completed its rounds (the n rounds the rate is measured
    over, n + 1 boundaries): the rate's relative half-width (skip.rate_half_width: the end boundaries'
    jitter about the boundaries' straight line, which does not accumulate; a long round is followed by a
    short one: the 256M triad's rounds take 26,100 cycles and then 8,400) times the skipped cycles. Batch
    means of the completion rate overstate it: bursts make neighbouring batches anti-correlated (the 256M
    triad's interval was +-34% where the projection erred by 0.2%). Fewer than three boundaries give no
    spread to measure: the whole skipped span is the half-width."""
    skipped = float(max(skipped_cycles, 0))
    relative = skip.rate_half_width(np.ascontiguousarray(boundaries, np.int64), t95_table(boundaries.size))
    return skipped if relative < 0 else relative * skipped


def t95_table(size: int) -> np.ndarray:
    """t95_table is Student's two-sided 95% point at 1 .. ``size`` degrees of freedom (_t95), the table
    skip.rate_half_width reads."""
    return np.array([_t95(d) for d in range(1, max(size, 1) + 1)], np.float64)


# two-sided 95% points of Student's t for 1..30 degrees of freedom (any table of the distribution)
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def _t95(dof: int) -> float:
    """_t95 is the two-sided 95% point of Student's t with ``dof`` (>= 1) degrees of freedom: the table up to
    30, above it the normal point plus the first two terms of its expansion in 1/dof (Cornish-Fisher; within
    0.0003 of the exact)."""
    if dof <= len(_T95):
        return _T95[dof - 1]
    z = _Z95
    return z + (z ** 3 + z) / (4 * dof) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * dof ** 2)


def _why_nothing_skipped(plan: SamplePlan, out: np.ndarray) -> str:
    """_why_nothing_skipped says why a sampled plan ran in full after all."""
    if plan.method == "grid" and (out[skip.O_UNSTEADY] or out[skip.O_NOISY]) and not out[skip.O_NONUNIFORM]:
        why = []
        if out[skip.O_UNSTEADY]:
            why.append(f"the grid's completion rate kept moving by more than {plan.policy.steady_pct:g}% between "
                       f"windows of {plan.window} rounds")
        if out[skip.O_NOISY]:
            asked = plan.policy.grid_interval_pct
            why.append(f"{'while it held' if why else 'the grid held its rate but'} its round boundaries never "
                       f"fell close enough to a straight line for a 95% interval of ±{asked:g}% "
                       f"on the projected cycles (the last: ±{out[skip.O_INTERVAL] / 1e4:.1f}%)")
        return "; ".join(why) + ": every workgroup simulated"
    if plan.method == "grid" and out[skip.O_NONUNIFORM]:
        return (f"workgroups differ (the first ones ran {int(out[skip.O_SIG_MIN]):,} to {int(out[skip.O_SIG_MAX]):,} "
                f"wave-instructions each) and their mean moved by more than {skip.WORK_MOVED_PERMIL / 10:g}% "
                "between the two halves of the head: every workgroup simulated")
    if plan.method == "loop" and out[skip.O_APART] and not out[skip.O_UNSTEADY]:
        return (f"a workgroup's waves stayed more than {2 * plan.policy.loop_measure_iterations} iterations apart "
                "in their loop (they took a shared unit in turn, so one wave's rate changes as its siblings end): "
                "every iteration simulated")
    if plan.method == "loop" and out[skip.O_UNSTEADY]:
        return (f"the loop's cycles per iteration kept moving by more than {plan.policy.steady_pct:g}% "
                f"between measuring windows ({int(out[skip.O_UNSTEADY])} looks): every iteration simulated")
    if plan.method == "loop":
        return ("no moment came, while every workgroup slot was kept busy, when every wave was inside its loop "
                "past the head: every iteration simulated")
    return plan.reason
