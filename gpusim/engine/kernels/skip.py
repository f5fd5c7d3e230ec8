"""The timing loop's side of sampled simulation (gpusim.engine.sampling): fast-forwarding loops, skipping
the middle of the grid, and the snapshots that measure what was skipped.

``Z`` is a SampleArrays bundle (gpusim.engine.kernels.bundles). Its ``params`` (Z_* columns) choose the
method; ``out`` (O_* columns) collects what the projection needs. Everything here is integer arithmetic
on the loop's own cycle counts, so a sampled run is as deterministic as a full one.
"""
import numpy as np
from numba import njit

from gpusim.engine.kernels.sliced_run import FF_DONE, run_sliced

# params columns: the method; the loop method's head iterations (every wave runs them in detail), how
# many iterations measure a wave's cycles per iteration, how many every wave keeps in detail before its
# loop ends, and how many warps a dispatch may make (0: no limit); the grid method's workgroup index from
# which the dispatcher may jump and the one it jumps to; wave slots per CU; how far, in parts per thousand,
# a rate may move between two consecutive measuring windows for the dispatch to count as steady (a rate
# class's cycles per iteration, or the grid's cycles per window); 1 when fast-forwarded
# iterations warm the caches; the part of the largest possible shift a warp makes, in parts per thousand;
# the grid method's workgroups per round (every workgroup slot of the GPU once), the rounds of each of
# its two measuring windows (Z_STEADY_PERMIL bounds how far their durations may differ) and the widest
# 95% noise interval on the projected cycles, in parts per million of them, at which it may jump; 1 when the
# workgroups the grid method skips warm the caches with their last lines (gpusim.engine.kernels.skipped_grid);
# 1 when the timing loop runs every skipped workgroup at the jump, 0 when it runs only those that warm (the
# others run elsewhere: on a thread beside the loop, gpusim.engine.middle, or in a functional run after it)
(Z_METHOD, Z_HEAD_ITERS, Z_MEASURE_ITERS, Z_TAIL_ITERS, Z_MAX_WARPS, Z_JUMP_AT, Z_RESUME_AT,
 Z_SLOTS_PER_CU, Z_STEADY_PERMIL, Z_WARM, Z_WARP_PERMIL, Z_ROUND, Z_WINDOW_ROUNDS, Z_INTERVAL_PPM, Z_WARM_MIDDLE,
 Z_MIDDLE_IN_LOOP, Z_N) = range(17)
METHOD_OFF, METHOD_LOOP, METHOD_GRID = range(3)
# out columns: the cycles every wave was moved forward (loop method's warps, summed); fast-forwarded
# wave-instructions and iterations, and warps made; the two snapshots' cycles, issued wave-instructions and
# completed workgroups; whether the dispatcher jumped; the head's smallest and largest workgroup
# instruction counts; workgroups completed; rate samples recorded; set when the head's workgroups
# differed (grid) or a loop ended before the first workgroup's trip count (loop); snapshots taken; live
# waves not yet measuring a loop (loop method); the 95% half-width of the warps' shifts, in cycles;
# CU-cycles the warps added (shift x CUs holding waves); the cycle from which a warp refused because the
# rates were still moving is tried again (0: none pending), and how many times one was refused so (loop),
# or rounds whose windows differed (grid); 1 while the grid's latest two windows agree and its noise interval
# is narrow enough; the workgroup index the dispatcher jumped from; the wave-instructions issued by the
# grid's next counters-window start; round boundaries at which the windows agreed but the noise interval was
# wider than Z_INTERVAL_PPM; the latest boundary's interval in parts per million (grid); 1 once a workgroup
# slot emptied with no workgroup left to fill it (the GPU drains: loop method, no warp after it); warps
# refused because a workgroup's waves were too far apart in their loop (loop method); the wave-instructions
# of the workgroups completed before the jump (grid method)
(O_SHIFT, O_FF_INSTS, O_FF_ITERS, O_WARPS, O_T_A, O_T_B, O_I_A, O_I_B, O_DONE_A, O_DONE_B, O_JUMPED,
 O_SIG_MIN, O_SIG_MAX, O_COMPLETED, O_SAMPLES, O_NONUNIFORM, O_SNAPS, O_OUTSIDE, O_SHIFT_HALF_WIDTH,
 O_CU_BUSY_SHIFT, O_RETRY_AT, O_UNSTEADY, O_STEADY, O_JUMP_FROM, O_NEXT_I, O_NOISY, O_INTERVAL, O_DRAINING,
 O_APART, O_SIG_SUM, O_N) = range(31)


@njit(_nrt=False)
def snapshot(Z, k, cycle, issued, done, counters, icount):
    """snapshot records snapshot ``k`` (0: the window opens, 1: it closes): the cycle, the wave-instructions
    issued and workgroups completed so far, and every counter (the loop's, per instruction, and memory's)."""
    out = Z.out
    out[O_T_A + k] = cycle
    out[O_I_A + k] = issued
    out[O_DONE_A + k] = done
    out[O_SNAPS] = k + 1
    for c in range(counters.shape[0]):
        Z.snap_counters[k, c] = counters[c]
    for i in range(icount.shape[0]):
        Z.snap_icount[k, i] = icount[i]
    m = Z.memory
    j = 0
    for arr in (m.tcp, m.sqc, m.tcc, m.mall, m.hbm, m.utcl1, m.utcl2):
        for v in range(arr.shape[0]):
            Z.snap_memory[k, j] = arr[v]
            j += 1


@njit(_nrt=False)
def record_sample(Z, value):
    """record_sample keeps one measured rate (the cycles of a wave's measured head iterations, or a completion cycle)."""
    n = Z.out[O_SAMPLES]
    if n < Z.samples.shape[0]:
        Z.samples[n] = value
        Z.out[O_SAMPLES] = n + 1


# what back_edge_seen asks of back_edge: open the measuring window, fast-forward the wave, try a warp
ACT_SNAPSHOT, ACT_FAST_FORWARD, ACT_WARP = 1, 2, 4


@njit(_nrt=False)
def back_edge_seen(Z, w, b, taken, cycle):
    """back_edge_seen does the bookkeeping of wave ``w`` issuing the back edge at row ``b`` of a loop the loop
    method may fast-forward (Z.skip_head[b] >= 0), ``taken`` or falling through (the wave leaves its loop),
    at ``cycle``, and returns what back_edge must then do (ACT_* bits; 0 at nearly every back edge, which
    is all this costs: it takes only the SampleArrays, while back_edge takes every bundle of the loop).

    A wave in its loop keeps the cycles of its last 2 * Z_MEASURE_ITERS + 1 back edges (Z.mark, indexed
    by Z.fresh: back edges since it entered the loop or last fast-forwarded). The first wave to reach
    Z_HEAD_ITERS - Z_MEASURE_ITERS iterations opens the counters' window (ACT_SNAPSHOT); a wave warp() gave
    iterations to skip fast-forwards them now (ACT_FAST_FORWARD); a wave stops counting as outside
    (O_OUTSIDE) once it has run Z_HEAD_ITERS iterations and measured two windows since its last
    fast-forward, and when no live wave is outside any more, or a refused warp's retry cycle has come,
    a warp is tried (ACT_WARP)."""
    out = Z.out
    if not taken:
        Z.loop_row[w] = -1
        _set_outside(Z, w, 1)
        return 0
    ring = 2 * Z.params[Z_MEASURE_ITERS] + 1
    if Z.loop_row[w] != b:
        Z.loop_row[w] = b
        Z.iters[w] = 0
        Z.fresh[w] = 0
        Z.todo[w] = 0
    Z.iters[w] += 1
    Z.fresh[w] += 1
    Z.mark[w, Z.fresh[w] % ring] = cycle
    act = 0
    if Z.iters[w] == Z.params[Z_HEAD_ITERS] - Z.params[Z_MEASURE_ITERS] and out[O_SNAPS] == 0:
        act |= ACT_SNAPSHOT
    if Z.todo[w] > 0:
        return act | ACT_FAST_FORWARD
    if Z.outside[w] and Z.iters[w] >= Z.params[Z_HEAD_ITERS] and Z.fresh[w] > 2 * Z.params[Z_MEASURE_ITERS]:
        _set_outside(Z, w, 0)
        if out[O_OUTSIDE] == 0:
            act |= ACT_WARP
    elif out[O_RETRY_AT] > 0 and cycle >= out[O_RETRY_AT] and out[O_OUTSIDE] == 0:
        act |= ACT_WARP
    return act


@njit(_nrt=False)
def back_edge(act, w, cu, b, cycle, issued, P, L, V, W, K, X, M, Z, lds_ws):
    """back_edge does what back_edge_seen asked (``act``, nonzero) at wave ``w`` of CU ``cu``'s back edge at row
    ``b``, at ``cycle``, ``issued`` wave-instructions into the dispatch: opens the counters' window, or
    fast-forwards the wave through the iterations warp() gave it (closing the window first if it is
    open), or tries a warp. Returns the fast-forward's outcome (FF_DONE when nothing was skipped).

    A fast-forward runs the iterations functionally through the address and control slice
    (sliced_run.run_sliced: branches, trip counts, instruction counts and faults stay exact) and, with
    Z_WARM, warms the caches with every line they touch, so that what runs in detail afterwards finds the
    lines the skipped iterations left."""
    out = Z.out
    if act & ACT_SNAPSHOT:
        snapshot(Z, 0, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
    if act & ACT_FAST_FORWARD:
        if out[O_SNAPS] == 1:
            snapshot(Z, 1, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
        wanted = Z.todo[w]
        Z.todo[w] = 0
        warm_cu = cu if Z.params[Z_WARM] != 0 else -1
        code, n, done, _ = run_sliced(w, Z.skip_head[b], b, wanted, warm_cu, cycle, K.icount, P, L, V, W, X, M, lds_ws,
                                      K.fault)
        out[O_FF_INSTS] += n
        out[O_FF_ITERS] += done
        Z.iters[w] += done
        Z.fresh[w] = 1
        Z.mark[w, 1] = cycle
        if done < wanted:   # its loop ended before the first workgroup's did
            out[O_NONUNIFORM] = 1
            Z.loop_row[w] = -1
        _set_outside(Z, w, 1)
        return code
    if act & ACT_WARP:
        warp(Z, W.age, cycle)
    return FF_DONE


@njit(_nrt=False)
def _set_outside(Z, w, flag):
    """_set_outside marks wave slot ``w`` outside (1: not measuring a loop) or not, keeping O_OUTSIDE."""
    if Z.outside[w] != flag:
        Z.outside[w] = flag
        Z.out[O_OUTSIDE] += 1 if flag else -1


@njit(_nrt=False)
def _span(Z, w, back):
    """_span is wave ``w``'s cycles over Z_MEASURE_ITERS iterations: its latest (``back`` 0) or the ones
    before them (``back`` 1)."""
    m = Z.params[Z_MEASURE_ITERS]
    ring = 2 * m + 1
    f = Z.fresh[w] - back * m
    return Z.mark[w, f % ring] - Z.mark[w, (f - m) % ring]


@njit(_nrt=False)
def _warping(Z, w):
    """_warping says whether wave slot ``w`` takes part in a warp: measuring a loop, nothing left to skip."""
    return Z.loop_row[w] >= 0 and not Z.outside[w] and Z.todo[w] == 0


@njit(_nrt=False)
def _pool_rates(Z, age):
    """_pool_rates sorts the warping waves into rate classes and sums each class's measured spans, over the
    latest measuring window (Z.pool_span) and the one before it (Z.pool_prev).

    A wave's class is its loop (back-edge row) and its rank on its CU: how many warping waves of the same
    CU are older (``age``, the launch stamp that oldest-first arbitration orders by). Waves of one class
    run at one rate (the 4096^3 GEMM: on every CU the two older workgroups' waves at 1,955 cycles per
    iteration, the youngest's at 2,673, each class within 0.5% over the loop), while one wave's few
    measured iterations vary by 3-11%; the class mean removes that noise. Fills Z.rank, Z.pool_span,
    Z.pool_prev and Z.pool_n (entries of other rows and ranks are stale)."""
    spc = Z.params[Z_SLOTS_PER_CU]
    for w in range(Z.iters.shape[0]):
        if not _warping(Z, w):
            continue
        base = (w // spc) * spc   # wave slots are numbered CU by CU
        rank = 0
        for v in range(base, base + spc):
            if v != w and _warping(Z, v) and age[v] < age[w]:
                rank += 1
        Z.rank[w] = rank
        Z.pool_span[Z.loop_row[w], rank] = 0
        Z.pool_prev[Z.loop_row[w], rank] = 0
        Z.pool_n[Z.loop_row[w], rank] = 0
    for w in range(Z.iters.shape[0]):
        if _warping(Z, w):
            Z.pool_span[Z.loop_row[w], Z.rank[w]] += _span(Z, w, 0)
            Z.pool_prev[Z.loop_row[w], Z.rank[w]] += _span(Z, w, 1)
            Z.pool_n[Z.loop_row[w], Z.rank[w]] += 1


@njit(_nrt=False)
def _class_span(Z, w):
    """_class_span is the mean latest-window span of wave ``w``'s rate class (after _pool_rates), in cycles."""
    b, r = Z.loop_row[w], Z.rank[w]
    return (Z.pool_span[b, r] + Z.pool_n[b, r] // 2) // max(Z.pool_n[b, r], 1)


@njit(_nrt=False)
def _unsteady(Z):
    """_unsteady says whether some rate class's mean span moved by more than Z_STEADY_PERMIL parts per
    thousand between its two measuring windows (after _pool_rates)."""
    limit = Z.params[Z_STEADY_PERMIL]
    for w in range(Z.iters.shape[0]):
        if _warping(Z, w):
            b, r = Z.loop_row[w], Z.rank[w]
            if abs(Z.pool_span[b, r] - Z.pool_prev[b, r]) * 1000 > limit * max(Z.pool_span[b, r], 1):
                return True
    return False


@njit(_nrt=False)
def _apart(Z):
    """_apart says whether the warping waves of some workgroup are in different loops or more than
    2 * Z_MEASURE_ITERS iterations apart in one: they take a shared unit in turn (the LDS of a bank-conflict
    loop goes to one wave until its loop ends), so a wave's rate changes as its siblings finish, which rate
    classes by age do not describe. Wave slots are numbered workgroup slot by workgroup slot (Z.insts has
    one entry per workgroup slot)."""
    per_workgroup = Z.iters.shape[0] // Z.insts.shape[0]
    limit = 2 * Z.params[Z_MEASURE_ITERS]
    for first in range(0, Z.iters.shape[0], per_workgroup):
        low = np.int64(-1)
        high = np.int64(-1)
        row = np.int64(-1)
        for w in range(first, first + per_workgroup):
            if _warping(Z, w):
                if row >= 0 and Z.loop_row[w] != row:
                    return True
                row = Z.loop_row[w]
                low = Z.iters[w] if low < 0 else min(low, Z.iters[w])
                high = max(high, Z.iters[w])
        if high - low > limit:
            return True
    return False


@njit(_nrt=False)
def warp(Z, age, cycle):
    """warp moves the whole machine forward in time when every live wave is measuring a loop and the loop
    is steady: by the largest shift D that leaves each wave Z_TAIL_ITERS iterations of its loop (the first
    workgroup's trip count, Z.trip, less the iterations it ran), each wave then skipping D over its rate
    class's cycles per iteration (Z.todo; classes: _pool_rates, by loop and age rank on the CU). Every
    wave moves by the same D, so their phases in time stay what they would be after D more cycles at
    their measured rates, and D is added to the projected end (O_SHIFT). A shift shorter than two of the
    slowest class's iterations is not made, nor one while a wave is within its last Z_TAIL_ITERS
    iterations (it would overrun its loop's end: it blocks the warp till it ends), nor any once the GPU
    drains (O_DRAINING: slot_left_empty). While some class's rate still moves (_unsteady, at ``cycle``),
    or some workgroup's waves are far apart in their loop (_apart), the warp is refused (O_UNSTEADY,
    O_APART) and tried again one slowest measuring window later (O_RETRY_AT).
    The shift's 95% half-width (O_SHIFT_HALF_WIDTH) is the standard error of the waves' own mean rate,
    relative, times D."""
    out = Z.out
    out[O_RETRY_AT] = 0
    if Z.params[Z_MAX_WARPS] > 0 and out[O_WARPS] >= Z.params[Z_MAX_WARPS]:
        return
    if out[O_DRAINING]:
        return
    measure = Z.params[Z_MEASURE_ITERS]
    _pool_rates(Z, age)
    shift = np.int64(0)   # the first warping wave's sets it (n == 0)
    slowest = np.int64(0)
    n = 0
    total = 0.0
    squares = 0.0
    for w in range(Z.iters.shape[0]):
        if not _warping(Z, w):
            continue
        b = Z.loop_row[w]
        span = _class_span(Z, w)
        d = (Z.trip[b] - Z.iters[w] - Z.params[Z_TAIL_ITERS]) * span // measure
        if n == 0 or d < shift:   # a wave within its tail leaves a negative shift: no warp
            shift = d
        slowest = max(slowest, span)
        own = _span(Z, w, 0)
        n += 1
        total += own
        squares += float(own) * own
    shift = shift * Z.params[Z_WARP_PERMIL] // 1000
    if n == 0 or shift < 2 * (slowest // measure):
        return
    if _unsteady(Z):
        out[O_UNSTEADY] += 1
        out[O_RETRY_AT] = cycle + max(slowest, 1)
        return
    if _apart(Z):
        out[O_APART] += 1
        out[O_RETRY_AT] = cycle + max(slowest, 1)
        return
    last_cu = -1
    for w in range(Z.iters.shape[0]):
        if not _warping(Z, w):
            continue
        span = _class_span(Z, w)
        Z.todo[w] = (shift * measure + span // 2) // max(span, 1)
        record_sample(Z, _span(Z, w, 0))
        if w // Z.params[Z_SLOTS_PER_CU] != last_cu:   # wave slots are numbered CU by CU
            last_cu = w // Z.params[Z_SLOTS_PER_CU]
            out[O_CU_BUSY_SHIFT] += shift
    out[O_SHIFT] += shift
    out[O_WARPS] += 1
    if n > 1 and total > 0:
        mean = total / n
        sd = np.sqrt(max(squares / n - mean * mean, 0.0) * n / (n - 1))
        out[O_SHIFT_HALF_WIDTH] += np.int64(np.ceil(1.959963984540054 * sd / mean / np.sqrt(n) * shift))


@njit(_nrt=False)
def slot_left_empty(Z):
    """slot_left_empty records that a workgroup slot emptied with no workgroup left to dispatch: from then on
    the GPU drains, its occupancy and so its waves' rates falling as workgroups finish, and no warp is made
    (a rate measured with every slot kept busy says nothing about a draining GPU's)."""
    Z.out[O_DRAINING] = 1


@njit(_nrt=False)
def workgroup_launched(Z, first_wave, waves):
    """workgroup_launched counts the new waves in slots ``first_wave`` .. ``first_wave + waves - 1`` outside
    (not yet measuring a loop; loop method)."""
    if Z.params[Z_METHOD] != METHOD_LOOP:
        return
    for w in range(first_wave, first_wave + waves):
        Z.loop_row[w] = -1
        Z.todo[w] = 0
        _set_outside(Z, w, 1)


@njit(_nrt=False)
def wave_ended(Z, w, ws, instructions, age, cycle):
    """wave_ended accounts wave ``w`` of workgroup slot ``ws`` ending after ``instructions`` wave-instructions:
    its workgroup's count, and (loop method) one wave fewer outside or in a loop, which may let the rest warp
    (``age``: every wave slot's launch stamp, W.age, which ranks the waves of a warp; ``cycle``: now)."""
    Z.insts[ws] += instructions
    blocking = Z.outside[w] or Z.loop_row[w] >= 0   # a wave that left its loop other than at its back edge
    Z.loop_row[w] = -1                              # looks inside it, too near its end to warp, till it ends
    _set_outside(Z, w, 0)
    if blocking and Z.out[O_OUTSIDE] == 0 and Z.params[Z_METHOD] == METHOD_LOOP:
        warp(Z, age, cycle)


@njit(_nrt=False)
def _copy_snapshot(Z, src, dst):
    """_copy_snapshot copies snapshot row ``src`` (counters, per-instruction counts, memory) to row ``dst``."""
    for arr in (Z.snap_counters, Z.snap_icount, Z.snap_memory):
        for c in range(arr.shape[1]):
            arr[dst, c] = arr[src, c]


@njit(_nrt=False)
def windows_steady(round_t, k, window, permil):
    """windows_steady says whether the last two spans of ``window`` rounds before round boundary ``k``
    (``round_t[j]``: the cycle j rounds of workgroups had completed; k >= 2 * window) took cycles within
    ``permil`` parts per thousand of the later one's."""
    recent = round_t[k] - round_t[k - window]
    earlier = round_t[k - window] - round_t[k - 2 * window]
    return abs(recent - earlier) * 1000 <= permil * max(recent, 1)


@njit(_nrt=False)
def _round_boundary(Z, k, cycle, issued, counters, icount):
    """_round_boundary records the grid method's round boundary ``k`` (k rounds of workgroups completed) at
    ``cycle`` in Z.round_t[k]. The rate is measured over the later half of the head, from boundary
    ceil(k/2) to k (project reads Z.round_t); the counters' window is snapshot 0 to snapshot 1, the latest
    boundary, with snapshot 0 at a boundary in (k/4, k/2] (row 2 holds the next start: at k = 2^j the
    start moves to 2^(j-1)), so that only three snapshots are kept. O_STEADY says whether the last two
    spans of Z_WINDOW_ROUNDS rounds took cycles within Z_STEADY_PERMIL parts per thousand of each other
    (else O_UNSTEADY counts the boundary) and the noise interval a jump now would leave (interval_ppm) is
    within Z_INTERVAL_PPM (else O_NOISY counts it): the dispatcher jumps only while both hold."""
    out = Z.out
    if k >= Z.round_t.shape[0]:
        return
    Z.round_t[k] = cycle
    Z.round_i[k] = out[O_SIG_SUM]
    if k == 1:
        snapshot(Z, 0, cycle, issued, out[O_COMPLETED], counters, icount)
    elif (k & (k - 1)) == 0:   # 2, 4, 8, ...: the window's start moves to the previous power of two
        _copy_snapshot(Z, 2, 0)
        out[O_T_A], out[O_I_A], out[O_DONE_A] = Z.round_t[k // 2], out[O_NEXT_I], k // 2 * Z.params[Z_ROUND]
    snapshot(Z, 1, cycle, issued, out[O_COMPLETED], counters, icount)   # the window's end; O_SNAPS is 2
    if (k & (k - 1)) == 0:
        _copy_snapshot(Z, 1, 2)
        out[O_NEXT_I] = issued
    window = Z.params[Z_WINDOW_ROUNDS]
    if k < 2 * window:
        return
    out[O_STEADY] = 0
    if not windows_steady(Z.round_t, k, window, Z.params[Z_STEADY_PERMIL]):
        out[O_UNSTEADY] += 1
        return
    out[O_INTERVAL] = interval_ppm(Z.round_t, Z.t95, k, Z.params[Z_RESUME_AT], Z.params[Z_ROUND])
    if out[O_INTERVAL] > Z.params[Z_INTERVAL_PPM]:
        out[O_NOISY] += 1
    else:
        out[O_STEADY] = 1


@njit(_nrt=False)
def rate_half_width(t, t95):
    """rate_half_width is the relative 95% half-width of the rate (t[n] - t[0]) / n measured over round
    boundaries ``t`` (cycles, n + 1 of them), or -1 when fewer than three boundaries leave no spread to measure.

    Workgroups complete in bursts, so a boundary falls early or late around the steady line a + b k by a
    jitter that does not accumulate; the end-to-end rate's error is its two end boundaries' jitter,
    sqrt(2) s / span, s the boundaries' residual standard deviation about their least-squares line (n - 1
    degrees of freedom: ``t95[d - 1]`` is Student's two-sided 95% point at d of them)."""
    n = t.shape[0] - 1
    span = float(t[n] - t[0])
    if n < 2 or span <= 0.0:
        return -1.0
    mean_x = 0.5 * n
    mean_t = 0.0
    for j in range(n + 1):
        mean_t += float(t[j])
    mean_t /= n + 1
    sxx = 0.0
    sxt = 0.0
    for j in range(n + 1):
        sxx += (j - mean_x) * (j - mean_x)
        sxt += (j - mean_x) * (float(t[j]) - mean_t)
    slope = sxt / sxx
    squares = 0.0
    for j in range(n + 1):
        r = float(t[j]) - (mean_t + slope * (j - mean_x))
        squares += r * r
    return t95[min(n - 2, t95.shape[0] - 1)] * np.sqrt(2.0) * np.sqrt(squares / (n - 1)) / span


@njit(_nrt=False)
def interval_ppm(round_t, t95, k, resume_at, per_round):
    """interval_ppm is the grid method's 95% noise interval on the projected cycles, in parts per million of
    them, were the dispatcher to jump after round boundary ``k`` (``round_t[0..k]``: the boundaries' cycles).

    It is what gpusim.engine.sampling._jitter_half_width reports after the jump, taken before it: the rate
    measured over the later half of the head (boundaries ceil(k/2)..k, n rounds; rate_half_width) times
    the skipped cycles: the workgroups from the next round's (one round is in flight) to ``resume_at``, at
    that rate. The projection adds those and one round for the tail to the cycles so far. Fewer than three
    boundaries give no spread to measure: a million (the whole projection)."""
    first = (k + 1) // 2
    relative = rate_half_width(round_t[first:k + 1], t95)
    if relative < 0.0:
        return np.int64(1_000_000)
    rate = float(round_t[k] - round_t[first]) / (k - first)
    return projection_interval_ppm(round_t[k], rate, relative, k, resume_at, per_round)


@njit(_nrt=False)
def projection_interval_ppm(t_k, rate, relative, k, resume_at, per_round):
    """projection_interval_ppm is the 95% interval, in parts per million of the projected cycles, that a rate
    of ``rate`` cycles per round known to within ``relative`` (its relative 95% half-width) leaves on a
    projection that jumps after round boundary ``k`` (reached at cycle ``t_k``): the workgroups from the next
    round's (one round is in flight) to ``resume_at`` are skipped at that rate, and the projection adds their
    cycles and one round for the tail to ``t_k``."""
    skipped = max(float(resume_at - (k + 1) * per_round), 0.0) / per_round * rate
    projected = float(t_k) + skipped + rate
    return np.int64(np.ceil(1e6 * relative * skipped / projected))


@njit(_nrt=False)
def workgroup_completed(Z, ws, cycle, issued, counters, icount):
    """workgroup_completed accounts the workgroup of slot ``ws`` finishing at ``cycle``: its instruction
    count joins the head's signatures (before any jump), and under the grid method it may close a round
    (_round_boundary)."""
    out = Z.out
    out[O_COMPLETED] += 1
    if out[O_JUMPED] == 0:
        out[O_SIG_MIN] = min(out[O_SIG_MIN], Z.insts[ws])
        out[O_SIG_MAX] = max(out[O_SIG_MAX], Z.insts[ws])
        out[O_SIG_SUM] += Z.insts[ws]
    Z.insts[ws] = 0
    if Z.params[Z_METHOD] == METHOD_GRID and out[O_JUMPED] == 0 and out[O_COMPLETED] % Z.params[Z_ROUND] == 0:
        _round_boundary(Z, out[O_COMPLETED] // Z.params[Z_ROUND], cycle, issued, counters, icount)


# how far the mean wave-instructions per workgroup may move between the head's halves, in parts per
# thousand, for the middle of a grid whose workgroups differ to be projected from the head (work_moved)
WORK_MOVED_PERMIL = 3


@njit(_nrt=False)
def head_work(round_i, k, per_round):
    """head_work is the mean wave-instructions per workgroup of the head's earlier half (round boundaries
    0 to ceil(k/2)) and of its later half (ceil(k/2) to ``k``, the rate's window), for ``k`` >= 2
    (``round_i[j]``: the wave-instructions of the workgroups completed by boundary j)."""
    first = (k + 1) // 2
    return (round_i[first] / (first * per_round),
            (round_i[k] - round_i[first]) / ((k - first) * per_round))


@njit(_nrt=False)
def work_moved(round_i, k, per_round):
    """work_moved says whether the two halves of the head (head_work) differ in their mean wave-instructions
    per workgroup by more than WORK_MOVED_PERMIL parts per thousand of the later half's. Workgroups that
    differ by their data (an iteration count per element) keep one mean over the grid, so the rate measured
    in workgroups still holds for the middle; workgroups whose work grows or shrinks across the grid (a
    triangular loop) move the mean, and are not projected."""
    if k < 2:
        return True
    early, late = head_work(round_i, k, per_round)
    return abs(late - early) * 1000 > WORK_MOVED_PERMIL * late


@njit(_nrt=False)
def next_workgroup(Z, next_wg):
    """next_workgroup is the workgroup the dispatcher launches after ``next_wg - 1``: under the grid method,
    from Z_JUMP_AT on (the shortest head) and while the latest two measuring windows agree (O_STEADY), it
    jumps to Z_RESUME_AT, provided the completed workgroups did the same work on average in the two halves
    of the head (work_moved; else it records that they differed and runs the grid in full). Past
    Z_RESUME_AT it never jumps."""
    out = Z.out
    if Z.params[Z_METHOD] != METHOD_GRID or out[O_JUMPED] != 0 or next_wg < Z.params[Z_JUMP_AT]:
        return next_wg
    if next_wg >= Z.params[Z_RESUME_AT]:
        out[O_JUMPED] = -1
        return next_wg
    if out[O_STEADY] == 0:
        return next_wg
    if out[O_SIG_MIN] != out[O_SIG_MAX] and work_moved(Z.round_i, out[O_DONE_B] // Z.params[Z_ROUND],
                                                        Z.params[Z_ROUND]):
        out[O_NONUNIFORM] = 1
        out[O_JUMPED] = -1
        return next_wg
    out[O_JUMPED] = 1
    out[O_JUMP_FROM] = next_wg
    return Z.params[Z_RESUME_AT]
