"""A wave run without time, as the sliced timed run executes it: the one copy of that loop that sampling uses.

Sampled timing skips work it does not time but must still execute (gpusim.engine.kernels.skip): the loop
method's fast-forwarded iterations, and the grid method's skipped workgroups
(gpusim.engine.kernels.skipped_grid). Both run a wave's instructions one after another through the
address and control slice (gpusim.asm.value_slice: ``P.full`` rows in full, the others for their
addresses, faulting where the timed run would), no cycles, optionally warming the caches with the lines
they touch. ``run_sliced`` is that loop for both.

It is one function, not one per caller, because of what it costs to compile: it inlines the interpreter's
step, and each inlined copy of the step costs about a minute of numba compilation. With a copy per caller
(the loop method's fast-forward and the grid's skipped-workgroup run, each a function of its own) the
timing model's cold compile took 353 s on the 2-core development machine; with this one, 245-255 s. Its
callers pass it no literal numbers, for the same reason (gpusim.engine.kernels.skipped_grid._ZERO).
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.program import M_CACHE
from gpusim.engine.kernels.kinds import TK_SETPRIO, TK_SMEM, TK_VMEM
from gpusim.engine.kernels.params import P_CODE_BASE, P_LINE_BYTES, P_WAVE_LIMIT
from gpusim.engine.kernels.requests import request_lines
from gpusim.exec.kernels import interpreter as itp
from gpusim.memory.kernels.warming import warm_line

# run_sliced's outcomes: the run stopped where asked, or could not go on: an interpreter fault, a taken
# branch onto a P.endless instruction, a wave past P_WAVE_LIMIT instructions, the host watchdog
FF_DONE, FF_FAULT, FF_TRAPPED, FF_WAVE_LIMIT, FF_STOPPED = range(5)
_STOP_POLL = 1 << 16   # a wave's instructions between looks at the host watchdog
WHOLE = np.int64(-1)   # run_sliced's ``iterations_wanted`` for a run to the wave's end or next barrier


@njit(_nrt=False, inline="always")   # called once per instruction: its bundles must not be copied per call
def sliced_step(w, i, warm_cu, cycle, P, L, V, W, X, M, lds_ws, fault):
    """sliced_step runs instruction ``i`` (``W.pc[w]``) of wave ``w`` as the sliced timed run executes it (P.full
    rows in full, the others for their addresses, faulting where it would) and, with ``warm_cu`` >= 0, warms
    the caches of ``M`` as of cycle ``cycle`` with the lines its memory access touches from CU ``warm_cu``
    (gpusim.memory.kernels.warming; X.lines holds them). Returns the interpreter's outcome (itp.NEXT, JUMP,
    BARRIER, END or FAULT)."""
    sem, mods, sreg, T = P.sem, P.mods, V.sreg, V.T
    if P.full[i]:
        r = itp.step(w, sem, P.xops, mods, P.pc_bytes, L.params[P_CODE_BASE], W.pc, sreg, V.vreg, T, V.valid,
                     V.mem, L.regions, L.env, lds_ws, fault)
    else:
        r = itp.step_addresses(w, sem, P.xops, mods, W.pc, sreg, V.vreg, T, L.regions, L.env, lds_ws.shape[0],
                               fault)
    kind = P.tkind[i]
    if r != itp.FAULT and warm_cu >= 0 and (kind == TK_SMEM or (kind == TK_VMEM and sem[i] != S.MEM_CACHE)):
        count, store = request_lines(i, w, kind == TK_SMEM, sem, P.ops, mods, sreg, T, L.params[P_LINE_BYTES],
                                     X.lines)
        for j in range(count):
            warm_line(M, warm_cu, X.lines[j], cycle, store, kind == TK_SMEM, mods[i, M_CACHE])
    return r


@njit(_nrt=False)
def run_sliced(w, h, b, iterations_wanted, warm_cu, cycle, icount, P, L, V, W, X, M, lds_ws, fault):
    """run_sliced runs wave ``w`` through sliced_step (warming as of ``cycle`` with CU ``warm_cu``'s lines, -1:
    none) in one of two ways, and returns ``(outcome FF_*, wave-instructions run, iterations, ended)``:

    * ``iterations_wanted`` >= 0 (the loop method): from the loop's head ``h`` through that many of its
      iterations (taken back edges at row ``b`` onto ``h``), stopping early if the wave leaves rows
      ``h``..``b``. Barriers only advance: every wave of a workgroup skips the same iterations, so their
      barriers stay paired. Every instruction counts in ``icount`` (by row) and marks the registers it
      writes ready at ``cycle`` (W.reg_ready), as the dispatch's counts and scoreboard need;
    * ``iterations_wanted`` WHOLE (the grid method's skipped workgroups): until the wave ends (``ended``
      True) or reaches a barrier; ``h``, ``b`` and ``icount`` are not used, nothing is counted.

    Either way every instruction counts in W.wcount, which faults past P_WAVE_LIMIT; waitcnts and s_nop only
    advance; ``L.stop`` is looked at every _STOP_POLL instructions of the wave. A fault leaves the
    interpreter's record in ``fault``.
    """
    sem, endless, writes_at, writes = P.sem, P.endless, P.writes_at, P.writes
    pc, wcount, reg_ready, wave_limit = W.pc, W.wcount, W.reg_ready, L.params[P_WAVE_LIMIT]
    loop = iterations_wanted >= 0
    n = np.int64(0)
    iterations = np.int64(0)
    while True:
        i = pc[w]
        if loop and (i < h or i > b or iterations == iterations_wanted):
            return FF_DONE, n, iterations, False
        if loop:
            icount[i] += 1
        wcount[w] += 1
        n += 1
        if wcount[w] > wave_limit:
            return FF_WAVE_LIMIT, n, iterations, False
        if wcount[w] % _STOP_POLL == 0 and L.stop[0] != 0:
            return FF_STOPPED, n, iterations, False
        s = sem[i]
        if s == S.S_WAITCNT or s == S.S_NOP:
            pc[w] = i + 1
            continue
        if P.tkind[i] == TK_SETPRIO:   # the wave's priority after the run is what the last s_setprio set
            W.prio[w] = P.tbusy[i]
        r = sliced_step(w, i, warm_cu, cycle, P, L, V, W, X, M, lds_ws, fault)
        if r == itp.FAULT:
            return FF_FAULT, n, iterations, False
        if loop:
            for j in range(writes_at[i], writes_at[i + 1]):
                reg_ready[w, writes[j]] = cycle
        elif r == itp.END:
            return FF_DONE, n, iterations, True
        elif r == itp.BARRIER:
            return FF_DONE, n, iterations, False
        if r == itp.JUMP:
            if endless[pc[w]]:
                return FF_TRAPPED, n, iterations, False
            if loop and i == b and pc[w] == h:
                iterations += 1
