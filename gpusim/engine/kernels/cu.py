"""The timing loop: compute units issuing wave instructions cycle by cycle.

Every CU has four SIMDs; on cycle ``c`` the CU's issue arbiter visits SIMD
``c % 4`` and issues at most one instruction per category (VALU, scalar,
vector memory, LDS, branch/message) from different waves of that SIMD,
chosen by the wave arbitration policy (oldest first, round robin after the
last issuing wave, or greedy-then-oldest). An issued instruction runs functionally at once
(:func:`gpusim.exec.kernels.interpreter.step`); the timing tables decide when
its results become visible:

* VALU holds its SIMD's vector unit ``busy`` cycles (4 for wave64 on SIMD16,
  more for transcendental / f64); its results are ready when it finishes.
* MFMA holds the SIMD's matrix unit for passes x 4 cycles; a VALU may
  co-issue ``coissue`` cycles after it; its results are ready at the end.
* scalar memory, vector memory and LDS operations complete ``latency``
  cycles later (LDS adds its bank-conflict cycles and holds the CU's LDS for
  them) and are waited for by ``s_waitcnt`` with gfx9's vmcnt/lgkmcnt rules.
* ``s_barrier`` releases when every live wave of the workgroup arrives.

Workgroups fill every CU in the dispatch order (``cu_order``, e.g. round
robin over XCDs), then each freed workgroup slot takes the next workgroup.

The loop is event-driven per CU: a visit works out, for each wave of the
SIMD, the cycle at which it could next issue (its dependency, unit, waitcnt
or s_nop), and the CU is not looked at again until the earliest such cycle
falls on a SIMD's turn; idle CUs and stalled stretches cost nothing. A
wave's cycles are attributed (WHY_*) at each look to what held it since the
previous look, which is exact because nothing changes for a skipped CU.
Mutates every state array it is given; returns the cycle the last wave ended.
"""
import numpy as np
from numba import njit

from gpusim.asm.program import (
    D0, K_VREG, KIND, M_CACHE, M_LGKMCNT, M_OFFSET, M_SUB, M_VMCNT, S0, S1, S2, VAL, WIDTH,
)
from gpusim.asm import sems as S
from gpusim.memory.kernels.access import (
    GPUSIM_HBM_READ_BYTES, GPUSIM_HBM_WRITE_BYTES, TCC_HIT, TCC_MISS,
)
from gpusim.memory.kernels.maintenance import cache_control, end_of_kernel_write_back
from gpusim.memory.kernels.translation import translated_access_line
from gpusim.engine.kernels.lds_banks import ds2_access_cycles, lds_access_cycles, memo_cycles, memo_store
from gpusim.engine.kernels.prefetch import prefetch_rows
from gpusim.engine.kernels import skip, skipped_grid, sliced_run
from gpusim.exec.kernels import interpreter as itp
from gpusim.exec.kernels.lanes import exec_mask
from gpusim.exec.kernels.lds import ds2_offsets
from gpusim.exec.kernels.memory import (
    F_WAVE, F_WORKGROUP, FAULT_BARRIER, FAULT_ENDLESS, FAULT_LIMIT, FAULT_TIMEOUT, FAULT_WAVE_LIMIT,
)

from gpusim.engine.kernels.kinds import (
    TK_BRANCH, TK_END, TK_LDS, TK_MFMA, TK_NOP, TK_SALU, TK_SETPRIO, TK_SLEEP, TK_SMEM, TK_VALU, TK_VMEM, TK_WAITCNT,
    TK_WAKEUP,
)
from gpusim.engine.kernels.params import (
    ARB_GREEDY_THEN_OLDEST, ARB_ROUND_ROBIN, P_ARBITRATION, P_BANK_WIDTH, P_BANKS, P_CODE_BASE, P_COISSUE, P_CUS,
    P_CUS_PER_XCD, P_DISPATCH_CYCLES, P_FIRST_WGS, P_LDS_LAT, P_LIMIT, P_LINE_BYTES, P_QUANTUM, P_REFILL,
    P_SLOTS_PER_CU, P_WAVE_LIMIT, P_WAVES_PER_WG, P_WGS_PER_CU, PUBLISHED_CYCLE, PUBLISHED_DISPATCHED,
    PUBLISHED_ISSUED,
)
from gpusim.engine.kernels.requests import request_lines
from gpusim.engine.kernels.workgroup_slots import (
    AT_BARRIER, DONE, RUNNING, TRAPPED, fault_at as _fault_at, launch_workgroup as _launch_workgroup,
    release as _release,
)
# counters columns
(C_CYCLES, C_VALU_BUSY, C_MFMA_BUSY, C_LDS_BUSY, C_LDS_BANK_CONFLICT, C_INSTS,
 C_WAVE_ISSUE, C_WAVE_WAITCNT_VM, C_WAVE_WAITCNT_LGKM, C_WAVE_BARRIER, C_WAVE_DEPENDENCY, C_WAVE_UNIT_BUSY,
 C_WAVE_ARBITER, C_WAVE_NOP, C_WAVE_IFETCH, C_CU_BUSY, C_ISSUE_CYCLES, C_RAW_HAZARDS, C_N) = range(19)
# C_CU_BUSY: CU-cycles with at least one resident wave; C_ISSUE_CYCLES: CU-cycles whose arbiter issued;
# C_RAW_HAZARDS: instructions that read a register before its producer completed (and waited for it)
# what a resident wave did with a cycle (indexes the C_WAVE_* counters from C_WAVE_ISSUE on):
# issued, waited on vmcnt / lgkmcnt, at a barrier, on a register dependency, on a busy unit,
# lost arbitration (another wave took its category this visit), sat out an s_nop or slept (s_sleep), or refilled its
# instruction buffer after a taken branch
(WHY_ISSUE, WHY_WAITCNT_VM, WHY_WAITCNT_LGKM, WHY_BARRIER, WHY_DEPENDENCY, WHY_UNIT_BUSY, WHY_ARBITER,
 WHY_NOP, WHY_IFETCH) = range(9)
# hazard[w] bits: the wave's next instruction waited on a register; the wave waits for an instruction refill;
# the wave's next instruction reads a register nothing wrote; the wave sleeps (s_sleep), until s_wakeup at the latest
RAW_WAITED, REFILLING, UNINIT, SLEEPING = 1, 2, 4, 8
# the issue arbiter serves a higher s_setprio priority first, then its policy's order (the CDNA3 ISA's wave
# priority is {SysUserPrio, WaveAge}): a priority step outweighs any age stamp or round-robin distance
PRIO_SHIFT = 48
SLEEP_PERIOD_BITS = 6   # s_sleep counts periods of 64 clocks
# trace events (rows of ``trace``, int64[capacity, 6]): kind, wave slot, then per kind
#   EV_STATE  slot, why, start, end, pc      the wave's cycles [start, end) went to WHY_* ``why``
#   EV_ISSUE  slot, pc, cycle, done, tkind   it issued instruction ``pc``; its result/unit/data at ``done``
#   EV_WAVE   slot, workgroup, cycle, wave   a wave of workgroup ``workgroup`` starts in the slot
#   EV_SAMPLE -1, cycle, L2 hits, L2 misses, HBM bytes   memory totals so far, once per window of cycles
EV_STATE, EV_ISSUE, EV_WAVE, EV_SAMPLE = range(4)
# tctl columns: first and last CU traced, first and last cycle traced, events written, dropped; a last CU
# below the first traces nothing (trace_off)
T_CU_LO, T_CU_HI, T_C0, T_C1, T_COUNT, T_DROPPED, T_N = range(7)
QUEUE = 64  # outstanding memory operations tracked per wave and counter
NEVER = np.int64(1) << 62


@njit(_nrt=False)
def _pending(q, w, n, now):
    """_pending counts the operations in wave w's queue that complete after ``now``."""
    k = 0
    for j in range(n):
        if q[w, j] > now:
            k += 1
    return k


@njit(_nrt=False)
def _nth_latest(q, w, n, keep):
    """_nth_latest is the cycle by which all but ``keep`` of the queued operations have completed."""
    # completion times are not necessarily sorted (LDS and SMEM interleave); sort a copy-free way
    best = np.int64(0)
    for j in range(n):
        t = q[w, j]
        later = 0
        for m in range(n):
            if q[w, m] > t:
                later += 1
        if later <= keep and (best == 0 or t < best):
            best = t
    return best


@njit(_nrt=False)
def _push(q, qn, w, t, now):
    """_push records a completion time, first dropping entries already complete."""
    n = qn[w]
    k = 0
    for j in range(n):
        if q[w, j] > now:
            q[w, k] = q[w, j]
            k += 1
    if k < q.shape[1]:
        q[w, k] = t
        k += 1
    qn[w] = k


@njit(_nrt=False)
def _deps_ready(reads_at, reads, i, w, reg_ready, hazard):
    """_deps_ready is the cycle at which every register instruction i reads is ready for wave w.

    ``reads_at``/``reads`` and the columns of ``reg_ready`` are gpusim.engine.scoreboard.RegisterLists'.
    An entry of ``reg_ready`` is 0 until something writes the register (see _launch_workgroup), so a
    read of one sets UNINIT in ``hazard[w]``.
    """
    t = np.int64(0)
    unset = False
    for j in range(reads_at[i], reads_at[i + 1]):
        r = reg_ready[w, reads[j]]
        t = max(t, r)
        unset |= r == 0
    if unset:
        hazard[w] |= UNINIT
    return t


@njit(_nrt=False)
def _mark_dests(writes_at, writes, i, w, reg_ready, t):
    """_mark_dests records that the registers instruction i writes are ready for wave w at cycle ``t``."""
    for j in range(writes_at[i], writes_at[i + 1]):
        reg_ready[w, writes[j]] = t


@njit(_nrt=False)
def _mark_written(writes_at, writes, i, w, reg_ready):
    """_mark_written records that wave w wrote the registers of memory instruction i (waitcnt, not the
    scoreboard, orders their readers): an entry still 0 becomes -1, written and ready at any cycle."""
    for j in range(writes_at[i], writes_at[i + 1]):
        if reg_ready[w, writes[j]] == 0:
            reg_ready[w, writes[j]] = -1


@njit(_nrt=False)
def _lds_cycles(i, sem, ops, mods, addrs, mask, params, scratch, memo):
    """_lds_cycles is (cycles, bank-conflict cycles) of ds_* instruction i, whose lane addresses are in ``addrs``.

    ds_read2/ds_write2 serve their two elements as two accesses; the lane
    exchanges (ds_bpermute, ds_permute, ds_swizzle) use the LDS crossbar but
    no bank, so they take a conflict-free b32 access. ``memo`` (lds_banks.memo_for) remembers each
    instruction's last access, which most accesses repeat at another base. Mutates ``addrs`` and ``memo``.
    """
    s = sem[i]
    banks, bank_width = params[P_BANKS], params[P_BANK_WIDTH]
    if s == S.DS_BPERMUTE or s == S.DS_PERMUTE or s == S.DS_SWIZZLE:
        for l in range(64):
            addrs[l] = np.uint64(4 * l)
        return lds_access_cycles(addrs, mask, 4, banks, bank_width, scratch)
    for l in range(64):
        addrs[l] = addrs[l] & np.uint64(0xFFFFFFFF)
    cyc, conf = memo_cycles(memo[i], addrs, mask, bank_width)
    if cyc >= 0:
        return cyc, conf
    if s == S.DS_READ2 or s == S.DS_WRITE2:
        esize, first, second = ds2_offsets(i, mods)
        cyc, conf = ds2_access_cycles(addrs, mask, first, second, esize, banks, bank_width, scratch)
    else:
        width = 4 * max(ops[i, D0, WIDTH], ops[i, S1, WIDTH], 1)
        cyc, conf = lds_access_cycles(addrs, mask, min(width, 16), banks, bank_width, scratch, mods[i, M_OFFSET])
    memo_store(memo[i], addrs, mask, cyc, conf)
    return cyc, conf


def trace_off():
    """trace_off is the ``tctl`` of a run that traces nothing."""
    tctl = np.zeros(T_N, np.int64)
    tctl[T_CU_HI] = -1
    return tctl


@njit(_nrt=False)
def _traced(tctl, cu, start, end):
    """_traced tells whether an event of CU ``cu`` spanning cycles [start, end] falls in the traced window."""
    return tctl[T_CU_LO] <= cu <= tctl[T_CU_HI] and end >= tctl[T_C0] and start <= tctl[T_C1]


@njit(_nrt=False)
def _emit(trace, tctl, kind, w, a, b, c, d):
    """_emit appends one trace event, or counts it as dropped when ``trace`` is full."""
    n = tctl[T_COUNT]
    if n >= trace.shape[0]:
        tctl[T_DROPPED] += 1
        return
    trace[n, 0] = kind
    trace[n, 1] = w
    trace[n, 2] = a
    trace[n, 3] = b
    trace[n, 4] = c
    trace[n, 5] = d
    tctl[T_COUNT] = n + 1


@njit(_nrt=False)
def _emit_waves(trace, tctl, ws, cu, spc, wpc, wpw, wg_id, start):
    """_emit_waves records the start of every wave of the workgroup in slot ``ws`` of CU ``cu``."""
    if _traced(tctl, cu, start, start):
        rnd = ws - cu * wpc
        for j in range(wpw):
            _emit(trace, tctl, EV_WAVE, cu * spc + rnd * wpw + j, wg_id[ws], start, j, 0)


@njit(_nrt=False)
def _emit_sample(trace, tctl, M, cycle):
    """_emit_sample records the L2 hits and misses and the HBM bytes counted so far, at ``cycle``."""
    tcc, hbm = M.tcc, M.hbm_ctr
    hits = np.int64(0)
    misses = np.int64(0)
    for x in range(tcc.shape[0]):
        for c in range(tcc.shape[1]):
            hits += tcc[x, c, TCC_HIT]
            misses += tcc[x, c, TCC_MISS]
    moved = np.int64(0)
    for c in range(hbm.shape[0]):
        moved += hbm[c, GPUSIM_HBM_READ_BYTES] + hbm[c, GPUSIM_HBM_WRITE_BYTES]
    _emit(trace, tctl, EV_SAMPLE, -1, cycle, hits, misses, moved)


@njit(_nrt=False)
def _dispatch_at(L, cu, earliest):
    """_dispatch_at is the cycle the workgroup dispatcher of CU ``cu``'s XCD launches a workgroup ready at
    ``earliest``: no sooner than P_DISPATCH_CYCLES after its previous one (0: at once). Books the dispatcher
    (``L.xcd_next``)."""
    gap = L.params[P_DISPATCH_CYCLES]
    if gap == 0:
        return earliest
    x = cu // L.params[P_CUS_PER_XCD]
    t = max(earliest, L.xcd_next[x])
    L.xcd_next[x] = t + gap
    return t


@njit(_nrt=False, cache=True, nogil=True)
def run_timed(P, L, V, W, G, U, K, X, M, Z, trace, tctl):
    """run_timed simulates a whole dispatch and returns the cycle its last wave ended.

    Its arguments are the bundles of gpusim.engine.kernels.bundles: ``P`` the program (ProgramArrays),
    ``L`` the launch (LaunchArrays), ``V`` the values (ValueArrays), ``W`` the wave slots (WaveArrays),
    ``G`` the workgroup slots (WorkgroupArrays), ``U`` the CUs (CuArrays), ``K`` the counters
    (CounterArrays), ``X`` scratch (ScratchArrays) and ``M`` the memory hierarchy
    (:meth:`gpusim.memory.hierarchy.MemoryLevels.kernel_args`), which every vector and scalar memory access
    goes through. ``Z`` (SampleArrays) samples the dispatch when its Z_METHOD is not METHOD_OFF
    (gpusim.engine.kernels.skip): long loops fast-forwarded after their head iterations, or the middle of
    the grid skipped, with what the projection needs recorded in ``Z.out``.

    ``P.xops`` is what executes: ``P.ops`` with the vector registers renumbered as ``V.vreg`` holds them.
    The dependency scoreboard ``W.reg_ready`` (one column per register of P.reads/P.writes) holds the cycle
    each register's latest value is ready, 0 for one nothing wrote (``L.abi_written[e]`` is 1 for the
    registers the launch sets); ``K.uninit`` counts the wave-instructions reading one
    (gpusim.exec.kernels.interpreter.uninit_read). ``W.wcount`` counts each wave's instructions, which
    fault past P_WAVE_LIMIT; a wave whose taken branch lands on a ``P.endless`` instruction
    (gpusim.exec.runaway) stops, and faults once nothing else can move. ``L.stop[0]`` turning nonzero (a
    host-time watchdog, from another thread: the GIL is released) ends the run with FAULT_TIMEOUT at the
    end of a window, at the lowest wave slot still running; at every window's end the loop writes how far
    it has come into ``L.progress`` (PUBLISHED_* columns, for a watcher on another thread). An instruction
    with ``P.full[i]`` False only computes its addresses (gpusim.asm.value_slice), which is all the timing
    needs. ``L.cu_order`` gives
    the CU that the i-th workgroup of the first round goes to; P_FIRST_WGS > 0 dispatches only that many
    workgroups, the first in order, with the launch's registers unchanged. Counters accumulate in
    ``K.counters`` (C_* columns) and ``K.icount`` (per instruction). The events (EV_*) of the CUs and cycles
    that ``tctl`` (T_* columns) selects are appended to ``trace``; ``trace_off()`` selects none. One compiled
    loop serves both: a traced run costs no compile of its own.
    """
    tracing = tctl[T_CU_LO] <= tctl[T_CU_HI]
    # the hot loop reads the bundles' arrays through locals of the names it always used
    sem, ops, xops, mods, pc_bytes = P.sem, P.ops, P.xops, P.mods, P.pc_bytes
    tkind, tcat, tbusy, full, endless = P.tkind, P.tcat, P.tbusy, P.full, P.endless
    reads_at, reads, writes_at, writes = P.reads_at, P.reads, P.writes_at, P.writes
    abi, params, cu_order, regions, env = L.abi, L.params, L.cu_order, L.regions, L.env
    stop, progress = L.stop, L.progress
    sreg, vreg, T, valid, mem, lds = V.sreg, V.vreg, V.T, V.valid, V.mem, V.lds
    pc, state, ready, age, wg_of = W.pc, W.state, W.ready, W.age, W.wg_of
    vmq, vmn, lgq, lgn = W.vmq, W.vmn, W.lgq, W.lgn
    reg_ready, deps_at, why, acct, hazard, wcount, prio = (W.reg_ready, W.deps_at, W.why, W.acct, W.hazard, W.wcount,
                                                           W.prio)
    wg_live, wg_arrived, wg_id = G.live, G.arrived, G.group
    unit_valu, unit_mfma, unit_lds, simd_wake, last_k = U.unit_valu, U.unit_mfma, U.unit_lds, U.simd_wake, U.last_k
    cu_wake, cu_live, cu_start = U.cu_wake, U.cu_live, U.cu_start
    counters, icount, uninit, fault = K.counters, K.icount, K.uninit, K.fault
    lds_scratch, lds_memo, lines, pick, pkey = X.lds_scratch, X.lds_memo, X.lines, X.pick, X.pkey
    n_cu = params[P_CUS]
    spc = params[P_SLOTS_PER_CU]
    wpc = params[P_WGS_PER_CU]
    wpw = params[P_WAVES_PER_WG]
    policy = params[P_ARBITRATION]
    gx, gy, gz = abi[itp.ABI_GRID_X], abi[itp.ABI_GRID_Y], abi[itp.ABI_GRID_Z]
    n_wg = gx * gy * gz
    if params[P_FIRST_WGS] > 0:   # only the first workgroups run (the runaway probe); the launch is unchanged
        n_wg = min(n_wg, params[P_FIRST_WGS])
    code_base = params[P_CODE_BASE]
    next_wg = 0
    stamp = 0
    method = Z.params[skip.Z_METHOD]
    # first round: every CU gets workgroups in the dispatch order, as many rounds as fit, each XCD's at the
    # pace of its dispatcher (the first workgroup of every XCD at cycle 0); a CU is busy from its first one on
    for cu in range(n_cu):
        cu_start[cu] = NEVER
    for rnd in range(wpc):
        for p in range(n_cu):
            cu = cu_order[p]
            if next_wg < n_wg:
                start = _dispatch_at(L, cu, 0)
                cu_start[cu] = min(cu_start[cu], start)
                stamp = _launch_workgroup(next_wg, cu * wpc + rnd, cu, rnd, spc, wpw, start, stamp, L, V, W, G,
                                          X.wgv)
                skip.workgroup_launched(Z, cu * spc + rnd * wpw, wpw)
                if tracing:
                    _emit_waves(trace, tctl, cu * wpc + rnd, cu, spc, wpc, wpw, wg_id, start)
                next_wg += 1
    live_waves = 0
    for cu in range(n_cu):
        cu_live[cu] = 0
    for w in range(state.shape[0]):
        if state[w] == RUNNING:
            live_waves += 1
            cu_live[w // spc] += 1
    for cu in range(n_cu):
        cu_wake[cu] = cu_start[cu] if cu_live[cu] > 0 else NEVER
        for s in range(4):
            simd_wake[cu, s] = cu_start[cu] if cu_live[cu] > 0 else NEVER
            last_k[cu, s] = s
    cycle = np.int64(0)
    last_end = np.int64(0)
    issued_total = np.int64(0)
    while live_waves > 0:
        # CUs interact only through memory: each advances through a window of P_QUANTUM cycles in turn,
        # so its waves' registers stay in the host's caches (requests reach memory up to a window out of
        # time order, which the calendar channels and interval slots of gpusim.memory are built for)
        window_end = cycle + params[P_QUANTUM]
        next_cycle = NEVER
        for cu in range(n_cu):
            while cu_wake[cu] < window_end:
                cycle = cu_wake[cu]
                simd = cycle & 3
                base = cu * spc
                # -- look at every wave of the SIMD once: account its cycles since the last look, find what
                #    holds it, and keep the best eligible wave per issue category
                wake = NEVER
                for c in range(5):
                    pick[c] = -1
                for k in range(simd, spc, 4):
                    w = base + k
                    st = state[w]
                    if st != RUNNING and st != AT_BARRIER:
                        continue
                    if acct[w] < 0 and ready[w] > cycle:  # dispatched, its waves start later: not resident yet
                        wake = min(wake, ready[w])
                        continue
                    if acct[w] >= 0:
                        counters[C_WAVE_ISSUE + why[w]] += cycle - acct[w]
                        if tracing and cycle > acct[w] and _traced(tctl, cu, acct[w], cycle):
                            _emit(trace, tctl, EV_STATE, w, why[w], acct[w], cycle, pc[w])
                    acct[w] = cycle
                    if st == AT_BARRIER:
                        why[w] = WHY_BARRIER
                        continue
                    if ready[w] > cycle:  # still held by what held it at the last look (or an s_nop, a refill)
                        if why[w] == WHY_ISSUE:
                            why[w] = WHY_IFETCH if hazard[w] & REFILLING else WHY_NOP
                        wake = min(wake, ready[w])
                        continue
                    hazard[w] &= ~(REFILLING | SLEEPING)
                    i = pc[w]
                    kind = tkind[i]
                    deps = deps_at[w]
                    if deps < 0:  # its registers change only when it issues: once per instruction is enough
                        deps = _deps_ready(reads_at, reads, i, w, reg_ready, hazard)
                        deps_at[w] = deps
                    t_ok = deps
                    if kind == TK_WAITCNT or kind == TK_END:
                        # s_endpgm implicitly executes s_waitcnt 0 before it ends the wave (CDNA3 ISA, S_ENDPGM):
                        # the wave, and so its workgroup's slot, stays until its stores are acknowledged
                        vm = 0 if kind == TK_END else mods[i, M_VMCNT]
                        lg = 0 if kind == TK_END else mods[i, M_LGKMCNT]
                        if vm >= 0 and _pending(vmq, w, vmn[w], cycle) > vm:
                            why[w] = WHY_WAITCNT_VM
                            ready[w] = _nth_latest(vmq, w, vmn[w], vm)
                            wake = min(wake, ready[w])
                            continue
                        if lg >= 0 and _pending(lgq, w, lgn[w], cycle) > lg:
                            why[w] = WHY_WAITCNT_LGKM
                            ready[w] = _nth_latest(lgq, w, lgn[w], lg)
                            wake = min(wake, ready[w])
                            continue
                    elif kind == TK_VALU:
                        t_ok = max(t_ok, unit_valu[cu, simd])
                    elif kind == TK_MFMA:
                        t_ok = max(t_ok, unit_mfma[cu, simd])
                    elif kind == TK_LDS:
                        t_ok = max(t_ok, unit_lds[cu])
                    if t_ok > cycle:
                        if deps > cycle:
                            why[w] = WHY_DEPENDENCY
                            hazard[w] |= RAW_WAITED
                        else:
                            why[w] = WHY_UNIT_BUSY
                        # nothing can free it sooner: its producers and queued operations have fixed completion
                        # times and a busy unit only gets busier, so it is not looked at again before t_ok
                        ready[w] = t_ok
                        wake = min(wake, t_ok)
                        if kind == TK_MFMA and full[i]:  # warm its operands in the host cache meanwhile
                            for slot in (S0, S1, S2):
                                if xops[i, slot, KIND] == K_VREG:
                                    prefetch_rows(vreg, w, xops[i, slot, VAL], xops[i, slot, WIDTH])
                        continue
                    why[w] = WHY_ARBITER
                    wake = min(wake, cycle + 1)
                    if policy == ARB_ROUND_ROBIN:
                        key = (k - last_k[cu, simd] - 1 + spc) % spc
                    elif policy == ARB_GREEDY_THEN_OLDEST and k == last_k[cu, simd]:
                        key = np.int64(-1)
                    else:
                        key = age[w]
                    key -= prio[w] << PRIO_SHIFT
                    cat = tcat[i]
                    if pick[cat] < 0 or key < pkey[cat]:
                        pick[cat] = w
                        pkey[cat] = key
                # -- issue the picks, best key first (at most one per category)
                issued = 0
                events = False
                for _n in range(5):
                    best = -1
                    for c in range(5):
                        if pick[c] >= 0 and (best < 0 or pkey[c] < pkey[best]):
                            best = c
                    if best < 0:
                        break
                    w = pick[best]
                    pick[best] = -1
                    i = pc[w]
                    kind = tkind[i]
                    why[w] = WHY_ISSUE
                    deps_at[w] = -1
                    issued += 1
                    issued_total += 1
                    icount[i] += 1
                    last_k[cu, simd] = w - base
                    h = hazard[w]
                    if h & (RAW_WAITED | UNINIT):
                        if h & RAW_WAITED:
                            counters[C_RAW_HAZARDS] += 1
                        if h & UNINIT:
                            itp.uninit_read(reads_at, reads, i, w, reg_ready, uninit)
                        hazard[w] = h & ~(RAW_WAITED | UNINIT)
                    ws = wg_of[w]
                    if issued_total > params[P_LIMIT]:
                        _fault_at(fault, FAULT_LIMIT, w, i, wg_id[ws], (w - base) % wpw, state, cu, spc, wpc, wpw, ws)
                        return cycle
                    wcount[w] += 1
                    if wcount[w] > params[P_WAVE_LIMIT]:
                        _fault_at(fault, FAULT_WAVE_LIMIT, w, i, wg_id[ws], (w - base) % wpw, state, cu, spc, wpc, wpw,
                                  ws)
                        return cycle
                    if kind == TK_WAITCNT or kind == TK_NOP or kind == TK_SLEEP or kind == TK_SETPRIO:
                        pc[w] = i + 1
                        ready[w] = cycle + 1 + (tbusy[i] if kind == TK_NOP else 0)
                        if kind == TK_SLEEP and tbusy[i] > 0:
                            # asleep until the tbusy[i]-th boundary of a free-running 64-clock period: the ISA's
                            # 64 * (N - 1) + 1 .. 64 * N cycles, deterministically
                            ready[w] = max(ready[w], ((cycle >> SLEEP_PERIOD_BITS) + tbusy[i]) << SLEEP_PERIOD_BITS)
                            hazard[w] |= SLEEPING
                        elif kind == TK_SETPRIO:
                            prio[w] = tbusy[i]
                        wake = min(wake, ready[w])
                        if tracing and _traced(tctl, cu, cycle, cycle):
                            _emit(trace, tctl, EV_ISSUE, w, i, cycle, ready[w], kind)
                        continue
                    if full[i]:
                        r = itp.step(w, sem, xops, mods, pc_bytes, code_base, pc, sreg, vreg, T, valid, mem, regions,
                                     env, lds[ws], fault)
                    else:
                        r = itp.step_addresses(w, sem, xops, mods, pc, sreg, vreg, T, regions, env, lds.shape[1],
                                               fault)
                    if r == itp.FAULT:
                        fault[F_WORKGROUP] = wg_id[ws]
                        fault[F_WAVE] = (w - base) % wpw
                        return cycle
                    ready[w] = cycle + 1
                    wake = min(wake, cycle + 1)
                    done = cycle + 1   # when the instruction's results, unit or data are done with
                    if kind == TK_VALU:
                        done = cycle + tbusy[i]
                        unit_valu[cu, simd] = done
                        counters[C_VALU_BUSY] += tbusy[i]
                        _mark_dests(writes_at, writes, i, w, reg_ready, done)
                    elif kind == TK_MFMA:
                        done = cycle + tbusy[i]
                        unit_mfma[cu, simd] = done
                        unit_valu[cu, simd] = max(unit_valu[cu, simd], cycle + params[P_COISSUE])
                        counters[C_MFMA_BUSY] += tbusy[i]
                        _mark_dests(writes_at, writes, i, w, reg_ready, done)
                    elif kind == TK_WAKEUP:   # the workgroup's sleeping waves issue again from the next cycle
                        rnd = ws - cu * wpc
                        for j in range(wpw):
                            v = base + rnd * wpw + j
                            if hazard[v] & SLEEPING and ready[v] > cycle + 1:
                                ready[v] = cycle + 1
                                hazard[v] &= ~SLEEPING
                                events = True
                    elif kind == TK_SALU or kind == TK_BRANCH:
                        _mark_dests(writes_at, writes, i, w, reg_ready, cycle + 1)
                        if r == itp.JUMP and params[P_REFILL] > 0:
                            # taken: the instruction buffer refills from the target before the wave issues again
                            ready[w] = cycle + 1 + params[P_REFILL]
                            hazard[w] |= REFILLING
                        if r == itp.JUMP and endless[pc[w]]:
                            state[w] = TRAPPED
                        elif method == skip.METHOD_LOOP and Z.skip_head[i] >= 0:
                            act = skip.back_edge_seen(Z, w, i, r == itp.JUMP and pc[w] == Z.skip_head[i], cycle)
                            ff = sliced_run.FF_DONE
                            if act:
                                ff = skip.back_edge(act, w, cu, i, cycle, issued_total, P, L, V, W, K, X, M, Z, lds[ws])
                            if ff == sliced_run.FF_FAULT:
                                fault[F_WORKGROUP] = wg_id[ws]
                                fault[F_WAVE] = (w - base) % wpw
                                return cycle
                            if ff == sliced_run.FF_WAVE_LIMIT:
                                _fault_at(fault, FAULT_WAVE_LIMIT, w, pc[w], wg_id[ws], (w - base) % wpw, state, cu,
                                          spc, wpc, wpw, ws)
                                return cycle
                            if ff == sliced_run.FF_TRAPPED:
                                state[w] = TRAPPED
                    elif kind == TK_VMEM and sem[i] == S.MEM_CACHE:
                        # buffer_wbl2 / buffer_inv: a cache write-back or invalidate, counted in vmcnt
                        done = cache_control(M, cu, mods[i, M_SUB] & 0xFF, mods[i, M_CACHE], cycle)
                        _push(vmq, vmn, w, done, cycle)
                    elif kind == TK_SMEM or kind == TK_VMEM:
                        # the cache lines the access touches, each walked through the memory hierarchy
                        scalar = kind == TK_SMEM
                        n, store = request_lines(i, w, scalar, sem, ops, mods, sreg, T, params[P_LINE_BYTES],
                                                 lines)
                        done = cycle + 1
                        for j in range(n):
                            done = max(done, translated_access_line(M, cu, lines[j], params[P_LINE_BYTES] if store else 0,
                                                                    cycle, store, scalar, mods[i, M_CACHE]))
                        if scalar:
                            _push(lgq, lgn, w, done, cycle)
                        else:
                            _push(vmq, vmn, w, done, cycle)
                        _mark_written(writes_at, writes, i, w, reg_ready)
                    elif kind == TK_LDS:
                        cyc, conf = _lds_cycles(i, sem, ops, mods, T[7], exec_mask(sreg, w), params, lds_scratch,
                                                lds_memo)
                        unit_lds[cu] = cycle + max(cyc, 1)
                        counters[C_LDS_BUSY] += cyc
                        counters[C_LDS_BANK_CONFLICT] += conf
                        done = cycle + params[P_LDS_LAT] + cyc
                        _push(lgq, lgn, w, done, cycle)
                        _mark_written(writes_at, writes, i, w, reg_ready)
                    if tracing and _traced(tctl, cu, cycle, cycle):
                        _emit(trace, tctl, EV_ISSUE, w, i, cycle, done, kind)
                    if r == itp.BARRIER:
                        state[w] = AT_BARRIER
                        wg_arrived[ws] += 1
                        if wg_arrived[ws] == wg_live[ws]:
                            _release(ws, cu, spc, wpc, wpw, state, ready, cycle)
                            wg_arrived[ws] = 0
                            events = True
                    elif r == itp.END:
                        state[w] = DONE
                        live_waves -= 1
                        cu_live[cu] -= 1
                        # the dispatch is complete only when the wave's MFMA/VALU work and memory writes are
                        last_end = max(last_end, cycle + 1, unit_mfma[cu, simd], unit_valu[cu, simd])
                        for j in range(vmn[w]):
                            last_end = max(last_end, vmq[w, j])
                        wg_live[ws] -= 1
                        if method != skip.METHOD_OFF:
                            if wg_live[ws] == 0 and next_wg >= n_wg:
                                skip.slot_left_empty(Z)
                            skip.wave_ended(Z, w, ws, wcount[w], age, cycle)
                            if wg_live[ws] == 0:
                                skip.workgroup_completed(Z, ws, cycle, issued_total, counters, icount)
                                if next_wg < n_wg:
                                    resume = skip.next_workgroup(Z, next_wg)
                                    if resume > next_wg:   # the grid jumps: its middle runs for faults and lines
                                        warm = resume   # none, unless the caches outlive the dispatch
                                        if Z.params[skip.Z_WARM_MIDDLE] != 0:
                                            warm = skipped_grid.warm_from(next_wg, resume, Z.out[skip.O_COMPLETED], M)
                                        # here, or only those that warm while the rest run elsewhere
                                        first = next_wg if Z.params[skip.Z_MIDDLE_IN_LOOP] != 0 else warm
                                        if first < resume:
                                            ff, fw = skipped_grid.run_skipped(first, resume, warm, ws, cu,
                                                                              ws - cu * wpc, spc, wpw, cycle, P, L, V,
                                                                              W, G, X, M, fault)
                                            if ff != sliced_run.FF_DONE:
                                                skipped_grid.record_skipped_fault(ff, fw, fault, pc, state, cu, spc,
                                                                                  wpc, wpw, ws, wg_id)
                                                return cycle
                                    next_wg = resume
                        if wg_live[ws] > 0 and wg_arrived[ws] == wg_live[ws]:
                            _release(ws, cu, spc, wpc, wpw, state, ready, cycle)
                            wg_arrived[ws] = 0
                            events = True
                        if wg_live[ws] == 0 and next_wg < n_wg:
                            start = _dispatch_at(L, cu, cycle + 1)
                            stamp = _launch_workgroup(next_wg, ws, cu, ws - cu * wpc, spc, wpw, start, stamp, L,
                                                      V, W, G, X.wgv)
                            skip.workgroup_launched(Z, cu * spc + (ws - cu * wpc) * wpw, wpw)
                            if tracing:
                                _emit_waves(trace, tctl, ws, cu, spc, wpc, wpw, wg_id, start)
                            next_wg += 1
                            live_waves += wpw
                            cu_live[cu] += wpw
                            events = True
                        if cu_live[cu] == 0:  # a CU gets work in the first round and refills only while busy
                            counters[C_CU_BUSY] += cycle + 1 - cu_start[cu]
                if issued:
                    counters[C_ISSUE_CYCLES] += 1
                # -- when is each SIMD of this CU next worth a visit
                simd_wake[cu, simd] = wake
                if events:  # released or launched waves may sit on any SIMD
                    for s in range(4):
                        simd_wake[cu, s] = min(simd_wake[cu, s], cycle + 1)
                t = NEVER
                if cu_live[cu] > 0:
                    for s in range(4):
                        if simd_wake[cu, s] < NEVER:
                            v = max(simd_wake[cu, s], cycle + 1)
                            t = min(t, v + ((s - v) & 3))
                cu_wake[cu] = t
            if cu_wake[cu] < next_cycle:
                next_cycle = cu_wake[cu]
        if tracing and tctl[T_C0] <= window_end and cycle <= tctl[T_C1]:
            _emit_sample(trace, tctl, M, window_end)
        progress[PUBLISHED_CYCLE] = cycle
        progress[PUBLISHED_ISSUED] = issued_total
        progress[PUBLISHED_DISPATCHED] = next_wg
        if live_waves == 0:
            break
        if stop[0] != 0:
            for w in range(state.shape[0]):
                if state[w] == RUNNING:
                    cu = w // spc
                    _fault_at(fault, FAULT_TIMEOUT, w, pc[w], wg_id[wg_of[w]], (w - cu * spc) % wpw, state, cu, spc,
                              wpc, wpw, wg_of[w])
                    return cycle
        if next_cycle == NEVER:  # live waves, none of which can ever move: trapped, or waiting at barriers
            # named like the functional run, which meets the lowest workgroup first: its lowest trapped wave
            best = -1
            best_key = np.int64(0)
            for w in range(state.shape[0]):
                if state[w] == TRAPPED or state[w] == AT_BARRIER:
                    key = wg_id[wg_of[w]] * wpw + (w % spc) % wpw + (0 if state[w] == TRAPPED else NEVER)
                    if best < 0 or key < best_key:
                        best = w
                        best_key = key
            if best >= 0:
                cu = best // spc
                _fault_at(fault, FAULT_ENDLESS if state[best] == TRAPPED else FAULT_BARRIER, best, pc[best],
                          wg_id[wg_of[best]], (best - cu * spc) % wpw, state, cu, spc, wpc, wpw, wg_of[best])
            return cycle
        cycle = next_cycle
    # the end-of-kernel release: the dispatch completes when dirty L2 lines are back in memory (cdna3)
    last_end = end_of_kernel_write_back(M, last_end)
    if tracing:
        _emit_sample(trace, tctl, M, last_end)
    counters[C_CYCLES] = last_end
    counters[C_INSTS] = issued_total
    return last_end
