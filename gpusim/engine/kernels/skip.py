"""The timing loop's side of sampled simulation (gpusim.engine.sampling): fast-forwarding loops, skipping
the middle of the grid, and the snapshots that measure what was skipped.

``Z`` is a SampleArrays bundle (gpusim.engine.kernels.bundles). Its ``params`` (Z_* columns) choose the
method; ``out`` (O_* columns) collects what the projection needs. Everything here is integer arithmetic
on the loop's own cycle counts, so a sampled run is as deterministic as a full one.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.exec.kernels import interpreter as itp

# params columns: the method; the loop method's head iterations (every wave runs them in detail), how
# many iterations measure a wave's cycles per iteration, how many every wave keeps in detail before its
# loop ends, and how many warps a dispatch may make (0: no limit); the grid method's workgroup index at
# which the dispatcher jumps, the one it jumps to, and the completions that open its window; wave slots
# per CU
(Z_METHOD, Z_HEAD_ITERS, Z_MEASURE_ITERS, Z_TAIL_ITERS, Z_MAX_WARPS, Z_JUMP_AT, Z_RESUME_AT, Z_WINDOW_OPEN,
 Z_SLOTS_PER_CU, Z_N) = range(10)
METHOD_OFF, METHOD_LOOP, METHOD_GRID = range(3)
# out columns: the cycles every wave was moved forward (loop method's warps, summed); fast-forwarded
# wave-instructions and iterations, and warps made; the two snapshots' cycles, issued wave-instructions and
# completed workgroups; whether the dispatcher jumped; the head's smallest and largest workgroup
# instruction counts; workgroups completed; rate samples recorded; set when the head's workgroups
# differed (grid) or a loop ended before the first workgroup's trip count (loop); snapshots taken; live
# waves not yet measuring a loop (loop method); the 95% half-width of the warps' shifts, in cycles;
# CU-cycles the warps added (shift x CUs holding waves)
(O_SHIFT, O_FF_INSTS, O_FF_ITERS, O_WARPS, O_T_A, O_T_B, O_I_A, O_I_B, O_DONE_A, O_DONE_B, O_JUMPED,
 O_SIG_MIN, O_SIG_MAX, O_COMPLETED, O_SAMPLES, O_NONUNIFORM, O_SNAPS, O_OUTSIDE, O_SHIFT_HALF_WIDTH,
 O_CU_BUSY_SHIFT, O_N) = range(21)
# fast_forward's outcomes
FF_DONE, FF_FAULT, FF_TRAPPED, FF_WAVE_LIMIT, FF_STOPPED = range(5)
_STOP_POLL = 1 << 16   # fast-forwarded instructions between looks at the host watchdog


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


@njit(_nrt=False)
def fast_forward(w, h, b, iterations_wanted, cycle, code_base, wave_limit, P, L, V, W, K, lds_ws, lds_size):
    """fast_forward runs wave ``w`` through ``iterations_wanted`` iterations of the loop ``h``..``b`` from its
    head ``h``, functionally, stopping early if the wave leaves the loop.

    It executes what the sliced timed run executes (P.full rows in full, the others for their addresses,
    which fault where the timed run would; ``code_base`` and ``wave_limit`` as the loop's params hold them),
    counts every instruction (K.icount, W.wcount), and marks the
    registers it writes ready at ``cycle``. Returns (outcome FF_*, wave-instructions, iterations run: its
    taken back edges, after which it is at ``h`` again, or fewer and outside the loop). Barriers, waitcnts and s_nop only
    advance: every wave of a workgroup skips the same iterations, so their barriers stay paired.
    """
    sem, xops, mods, pc_bytes, full, endless = P.sem, P.xops, P.mods, P.pc_bytes, P.full, P.endless
    writes_at, writes = P.writes_at, P.writes
    sreg, vreg, T, valid, mem = V.sreg, V.vreg, V.T, V.valid, V.mem
    pc, wcount, reg_ready = W.pc, W.wcount, W.reg_ready
    icount, fault = K.icount, K.fault
    n = np.int64(0)
    iterations = np.int64(0)
    while True:
        i = pc[w]
        if i < h or i > b or iterations == iterations_wanted:
            return FF_DONE, n, iterations
        icount[i] += 1
        wcount[w] += 1
        n += 1
        if wcount[w] > wave_limit:
            return FF_WAVE_LIMIT, n, iterations
        if n % _STOP_POLL == 0 and L.stop[0] != 0:
            return FF_STOPPED, n, iterations
        s = sem[i]
        if s == S.S_WAITCNT or s == S.S_NOP:
            pc[w] = i + 1
            continue
        if full[i]:
            r = itp.step(w, sem, xops, mods, pc_bytes, code_base, pc, sreg, vreg, T, valid, mem, L.regions, L.env,
                         lds_ws, fault)
        else:
            r = itp.step_addresses(w, sem, xops, mods, pc, sreg, vreg, T, L.regions, L.env, lds_size, fault)
        if r == itp.FAULT:
            return FF_FAULT, n, iterations
        for j in range(writes_at[i], writes_at[i + 1]):
            reg_ready[w, writes[j]] = cycle
        if r == itp.JUMP:
            if endless[pc[w]]:
                return FF_TRAPPED, n, iterations
            if i == b and pc[w] == h:
                iterations += 1


@njit(_nrt=False)
def back_edge(w, b, taken, cycle, issued, code_base, wave_limit, P, L, V, W, K, Z, lds_ws, lds_size):
    """back_edge is called when wave ``w`` issues the back edge at row ``b`` of a loop the loop method may
    fast-forward (Z.skip_head[b] >= 0), ``taken`` or falling through (the wave leaves its loop), at
    ``cycle``, ``issued`` wave-instructions into the dispatch.

    A wave in its loop keeps the cycles of its last Z_MEASURE_ITERS + 1 back edges (Z.mark, indexed by
    Z.fresh: back edges since it entered the loop or last fast-forwarded). It stops counting as outside
    (O_OUTSIDE) once it has run Z_HEAD_ITERS iterations and measured Z_MEASURE_ITERS since its last
    fast-forward; when no live wave is outside, warp() gives every wave its iterations to skip, which it
    fast-forwards here, at its next back edge. Returns fast_forward's outcome (FF_DONE when nothing was
    skipped).
    """
    out = Z.out
    if not taken:
        Z.loop_row[w] = -1
        _set_outside(Z, w, 1)
        return FF_DONE
    ring = Z.params[Z_MEASURE_ITERS] + 1
    if Z.loop_row[w] != b:
        Z.loop_row[w] = b
        Z.iters[w] = 0
        Z.fresh[w] = 0
        Z.todo[w] = 0
    Z.iters[w] += 1
    Z.fresh[w] += 1
    Z.mark[w, Z.fresh[w] % ring] = cycle
    if Z.iters[w] == Z.params[Z_HEAD_ITERS] - Z.params[Z_MEASURE_ITERS] and out[O_SNAPS] == 0:
        snapshot(Z, 0, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
    code = FF_DONE
    if Z.todo[w] > 0:
        if out[O_SNAPS] == 1:
            snapshot(Z, 1, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
        wanted = Z.todo[w]
        Z.todo[w] = 0
        code, n, done = fast_forward(w, Z.skip_head[b], b, wanted, cycle, code_base, wave_limit, P, L, V, W, K,
                                     lds_ws, lds_size)
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
    if Z.outside[w] and Z.iters[w] >= Z.params[Z_HEAD_ITERS] and Z.fresh[w] > Z.params[Z_MEASURE_ITERS]:
        _set_outside(Z, w, 0)
        if out[O_OUTSIDE] == 0:
            warp(Z)
    return code


@njit(_nrt=False)
def _set_outside(Z, w, flag):
    """_set_outside marks wave slot ``w`` outside (1: not measuring a loop) or not, keeping O_OUTSIDE."""
    if Z.outside[w] != flag:
        Z.outside[w] = flag
        Z.out[O_OUTSIDE] += 1 if flag else -1


@njit(_nrt=False)
def warp(Z):
    """warp moves the whole machine forward in time when every live wave is measuring a loop: by the
    largest shift D that leaves each wave Z_TAIL_ITERS iterations of its loop (the first workgroup's trip
    count, Z.trip, less the iterations it ran), each wave then skipping D over its own cycles per
    iteration (Z.todo). Every wave moves by the same D, so their phases in time stay what they would be
    after D more cycles at their measured rates, and D is added to the projected end (O_SHIFT). A shift
    shorter than two of the slowest wave's iterations is not made. The shift's 95% half-width
    (O_SHIFT_HALF_WIDTH) is the standard error of the waves' mean rate, relative, times D."""
    out = Z.out
    if Z.params[Z_MAX_WARPS] > 0 and out[O_WARPS] >= Z.params[Z_MAX_WARPS]:
        return
    measure = Z.params[Z_MEASURE_ITERS]
    ring = measure + 1
    shift = np.int64(-1)
    slowest = np.int64(0)
    n = 0
    total = 0.0
    squares = 0.0
    for w in range(Z.iters.shape[0]):
        b = Z.loop_row[w]
        if b < 0 or Z.outside[w] or Z.todo[w] > 0:
            continue
        span = Z.mark[w, Z.fresh[w] % ring] - Z.mark[w, (Z.fresh[w] + 1) % ring]
        d = (Z.trip[b] - Z.iters[w] - Z.params[Z_TAIL_ITERS]) * span // measure
        if shift < 0 or d < shift:
            shift = d
        slowest = max(slowest, span // measure)
        n += 1
        total += span
        squares += float(span) * span
    if n == 0 or shift < 2 * slowest:
        return
    last_cu = -1
    for w in range(Z.iters.shape[0]):
        b = Z.loop_row[w]
        if b < 0 or Z.outside[w] or Z.todo[w] > 0:
            continue
        span = Z.mark[w, Z.fresh[w] % ring] - Z.mark[w, (Z.fresh[w] + 1) % ring]
        Z.todo[w] = (shift * measure + span // 2) // max(span, 1)
        record_sample(Z, span)
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
def wave_ended(Z, w, ws, instructions):
    """wave_ended accounts wave ``w`` of workgroup slot ``ws`` ending after ``instructions`` wave-instructions:
    its workgroup's count, and (loop method) one wave fewer outside or in a loop, which may let the rest warp."""
    Z.insts[ws] += instructions
    blocking = Z.outside[w] or Z.loop_row[w] >= 0   # a wave that left its loop other than at its back edge
    Z.loop_row[w] = -1                              # looks inside it, too near its end to warp, till it ends
    _set_outside(Z, w, 0)
    if blocking and Z.out[O_OUTSIDE] == 0 and Z.params[Z_METHOD] == METHOD_LOOP:
        warp(Z)


@njit(_nrt=False)
def workgroup_completed(Z, ws, cycle, issued, counters, icount):
    """workgroup_completed accounts the workgroup of slot ``ws`` finishing at ``cycle``: its instruction
    count joins the head's signatures (before any jump), its skipped cycles delay its slot's later
    workgroups, and under the grid method the completion opens the window or is one of its samples."""
    out = Z.out
    out[O_COMPLETED] += 1
    if out[O_JUMPED] == 0:
        out[O_SIG_MIN] = min(out[O_SIG_MIN], Z.insts[ws])
        out[O_SIG_MAX] = max(out[O_SIG_MAX], Z.insts[ws])
    Z.insts[ws] = 0
    if Z.params[Z_METHOD] == METHOD_GRID and out[O_JUMPED] == 0:
        if out[O_SNAPS] == 0 and out[O_COMPLETED] == Z.params[Z_WINDOW_OPEN]:
            snapshot(Z, 0, cycle, issued, out[O_COMPLETED], counters, icount)
        elif out[O_SNAPS] == 1:
            record_sample(Z, cycle)


@njit(_nrt=False)
def next_workgroup(Z, next_wg, cycle, issued, counters, icount):
    """next_workgroup is the workgroup the dispatcher launches after ``next_wg - 1``: under the grid method,
    at Z_JUMP_AT it closes the window and jumps to Z_RESUME_AT, provided every completed workgroup ran
    the same number of wave-instructions (else it records that they differed and runs the grid in full)."""
    out = Z.out
    if Z.params[Z_METHOD] != METHOD_GRID or out[O_JUMPED] != 0 or next_wg != Z.params[Z_JUMP_AT]:
        return next_wg
    if out[O_SIG_MIN] != out[O_SIG_MAX] or out[O_SNAPS] != 1:
        out[O_NONUNIFORM] = 1
        out[O_JUMPED] = -1
        return next_wg
    snapshot(Z, 1, cycle, issued, out[O_COMPLETED], counters, icount)
    out[O_JUMPED] = 1
    return Z.params[Z_RESUME_AT]
