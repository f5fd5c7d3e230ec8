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

# params columns: the method, the head iterations of a long loop and how many of its last ones measure
# the wave's cycles per iteration, the workgroup index at which the
# dispatcher jumps and the one it jumps to, the completions that open the grid method's window
Z_METHOD, Z_HEAD_ITERS, Z_MEASURE_ITERS, Z_JUMP_AT, Z_RESUME_AT, Z_WINDOW_OPEN, Z_N = range(7)
METHOD_OFF, METHOD_LOOP, METHOD_GRID = range(3)
# out columns: the projected end (loop method: every wave's end plus the skipped cycles of its slot);
# fast-forwarded wave-instructions and iterations, fast-forwards made; the two snapshots' cycles, issued
# wave-instructions and completed workgroups; whether the dispatcher jumped; the head's smallest and
# largest workgroup instruction counts; workgroups completed; rate samples recorded; set when the head's
# workgroups differed and the grid method gave up; snapshots taken; the last wave end as the run went;
# waves inside a loop's head iterations
(O_PROJECTED_END, O_FF_INSTS, O_FF_ITERS, O_FF_WAVES, O_T_A, O_T_B, O_I_A, O_I_B, O_DONE_A, O_DONE_B, O_JUMPED,
 O_SIG_MIN, O_SIG_MAX, O_COMPLETED, O_SAMPLES, O_NONUNIFORM, O_SNAPS, O_WAVES_END, O_IN_HEAD, O_N) = range(20)
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
def fast_forward(w, h, b, cycle, code_base, wave_limit, P, L, V, W, K, lds_ws, lds_size):
    """fast_forward runs wave ``w`` from loop head ``h`` until it leaves rows ``h``..``b``, functionally.

    It executes what the sliced timed run executes (P.full rows in full, the others for their addresses,
    which fault where the timed run would; ``code_base`` and ``wave_limit`` as the loop's params hold them),
    counts every instruction (K.icount, W.wcount), and marks the
    registers it writes ready at ``cycle``. Returns (outcome FF_*, wave-instructions, iterations skipped:
    the one begun at ``h`` plus every taken back edge at ``b``). Barriers, waitcnts and s_nop only
    advance: every wave of a workgroup skips the same iterations, so their barriers stay paired.
    """
    sem, xops, mods, pc_bytes, full, endless = P.sem, P.xops, P.mods, P.pc_bytes, P.full, P.endless
    writes_at, writes = P.writes_at, P.writes
    sreg, vreg, T, valid, mem = V.sreg, V.vreg, V.T, V.valid, V.mem
    pc, wcount, reg_ready = W.pc, W.wcount, W.reg_ready
    icount, fault = K.icount, K.fault
    n = np.int64(0)
    iterations = np.int64(1)
    while True:
        i = pc[w]
        if i < h or i > b:
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
def back_edge(w, ws, b, cycle, issued, code_base, wave_limit, P, L, V, W, K, Z, lds_ws, lds_size):
    """back_edge is called when wave ``w`` (of workgroup slot ``ws``) takes the back edge at row ``b`` of a
    loop the loop method may fast-forward (Z.skip_head[b] >= 0), at ``cycle``, ``issued`` wave-instructions
    into the dispatch.

    Every wave runs at least Z_HEAD_ITERS iterations in detail, keeping the cycles of its last
    Z_MEASURE_ITERS + 1 back edges. Waves fast-forward together: a wave past its head waits (in detail)
    until no wave is still in its head (O_IN_HEAD: waves launched that have not passed a head yet), so no wave's measured iterations run beside other
    waves' epilogues, which a fast-forward brings forward. It then fast-forwards the rest of the loop
    (fast_forward), crediting its workgroup the skipped iterations at its own mean cycles per iteration
    over the measured ones. The first wave to reach the measured iterations opens the counters' window,
    the first fast-forward closes it. Returns fast_forward's outcome (FF_DONE when nothing was skipped).
    """
    out = Z.out
    if Z.loop_row[w] != b:
        Z.loop_row[w] = b
        Z.iters[w] = 0
    Z.iters[w] += 1
    n = Z.iters[w]
    head = Z.params[Z_HEAD_ITERS]
    measure = Z.params[Z_MEASURE_ITERS]
    ring = measure + 1
    Z.mark[w, n % ring] = cycle
    if n == head - measure and out[O_SNAPS] == 0:
        snapshot(Z, 0, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
    if n == head and Z.in_head[w]:
        Z.in_head[w] = 0
        out[O_IN_HEAD] -= 1
    if n < head or out[O_IN_HEAD] > 0:
        return FF_DONE
    if out[O_SNAPS] == 1:
        snapshot(Z, 1, cycle, issued, out[O_COMPLETED], K.counters, K.icount)
    measured = Z.mark[w, n % ring] - Z.mark[w, (n + 1) % ring]   # the last ``measure`` iterations
    code, count, iterations = fast_forward(w, Z.skip_head[b], b, cycle, code_base, wave_limit, P, L, V, W, K,
                                           lds_ws, lds_size)
    Z.loop_row[w] = -1
    Z.iters[w] = 0
    out[O_FF_INSTS] += count
    out[O_FF_ITERS] += iterations
    out[O_FF_WAVES] += 1
    record_sample(Z, measured)
    Z.credit[ws] = max(Z.credit[ws], iterations * measured // measure)
    return code


@njit(_nrt=False)
def workgroup_launched(Z, first_wave, waves):
    """workgroup_launched counts the new waves in slots ``first_wave`` .. ``first_wave + waves - 1`` among
    the waves in their head (loop method)."""
    if Z.params[Z_METHOD] != METHOD_LOOP:
        return
    for w in range(first_wave, first_wave + waves):
        Z.in_head[w] = 1
        Z.out[O_IN_HEAD] += 1


@njit(_nrt=False)
def wave_ended(Z, w, ws, end, instructions):
    """wave_ended accounts wave ``w`` of workgroup slot ``ws`` that ended at ``end`` after ``instructions``
    wave-instructions: its workgroup's count, the end it projects (its slot's skipped cycles added), and
    a fresh loop count for the next wave in its slot."""
    if Z.in_head[w]:   # it ended without passing a loop head
        Z.in_head[w] = 0
        Z.out[O_IN_HEAD] -= 1
    Z.loop_row[w] = -1
    Z.iters[w] = 0
    Z.insts[ws] += instructions
    if end > Z.out[O_WAVES_END]:
        Z.out[O_WAVES_END] = end
    p = end + Z.debt[ws] + Z.credit[ws]
    if p > Z.out[O_PROJECTED_END]:
        Z.out[O_PROJECTED_END] = p


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
    Z.debt[ws] += Z.credit[ws]
    Z.credit[ws] = 0
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
