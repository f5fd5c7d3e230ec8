"""The grid method's skipped middle, run for its addresses: faults found and caches warmed, no time.

When the grid method jumps (gpusim.engine.kernels.skip.next_workgroup), the workgroups it skips are not
timed, but they still run here, each in turn in the workgroup slot that the jump frees, through what
the sliced timed run executes (P.full rows in full, the others for their addresses:
gpusim.engine.kernels.sliced_run, as the loop method's fast-forwards). That gives two things the
projection alone cannot:

* a fault (a bad address, a runaway loop, too many instructions) in a skipped workgroup is reported as
  the full simulation would report it (the timing-only run computes no values and runs no functional
  pass afterwards);
* in a program's launch (Z_WARM_MIDDLE: the next kernel starts from these caches), every line the last
  of them load or store warms the L1 of the CU the first round would give them, their XCD's L2, the
  MALL and the TLBs (gpusim.memory.kernels.warming: tags, LRU order, dirty bits; no time, no counts), in
  dispatch order, so the next kernel finds the lines the middle left, not the head's. Only the last ones:
  those whose lines, at the head's L2 requests per workgroup, add up to twice what the L2s and the MALL
  hold (warm_from); the earlier ones' lines would be evicted by theirs, and warming every line of a long
  middle costs about what timing it would. A lone dispatch does not warm: its caches end with it, and
  warming them for its grid's last round moved the large cases' errors without bringing them closer
  (docs/sampling.md, item 10).

Instruction counts and counters are the projection's (gpusim.engine.sampling), so nothing is counted here.

Where the middle warms nothing and writes no memory (gpusim.asm.value_slice.writes_memory), no workgroup's
run depends on another's, and run_apart runs it on a thread beside the timing loop instead
(gpusim.engine.middle), in bundles of its own for one workgroup slot. run_apart is an entry point of its own
(numba caches it apart from the timing model), so run_skipped, which both call with the same types, is cached on
its own too: whichever compiles second loads it from disk (a first grid-sampled run after the timing model's
compile: 142 s -> 17 s, 14 s of it compiling run_apart).
"""
import numpy as np
from numba import njit

from gpusim.engine.kernels.params import P_CUS, P_WAVES_PER_WG
from gpusim.engine.kernels.skip import O_JUMP_FROM, O_JUMPED
from gpusim.engine.kernels.sliced_run import (
    FF_DONE, FF_FAULT, FF_STOPPED, FF_TRAPPED, FF_WAVE_LIMIT, WHOLE, run_sliced,
)
from gpusim.engine.kernels.workgroup_slots import AT_BARRIER, DONE, RUNNING, fault_at, launch_workgroup
from gpusim.exec.kernels.memory import F_WAVE, F_WORKGROUP, FAULT_ENDLESS, FAULT_TIMEOUT, FAULT_WAVE_LIMIT
from gpusim.memory.kernels.access import TCC_REQ

# what run_skipped and run_apart pass for a zero, not a literal 0: numba compiles a function once more for
# each literal argument (typed Literal[int]), and run_skipped, sliced_run.run_sliced and launch_workgroup
# each take from seconds to a minute
_ZERO = np.int64(0)


@njit(_nrt=False)
def warm_from(first, last, completed, M):
    """warm_from is the first of the skipped workgroups ``first`` .. ``last - 1`` whose lines run_skipped warms:
    the last ones, as many as make twice the lines the L2s and the MALL hold at the L2 requests per workgroup
    of the ``completed`` workgroups so far (M.tcc's TCC_REQ; L2 hits count too, so a kernel that reuses
    lines gets fewer, whose lines the last workgroups touch anyway)."""
    requests = np.int64(0)
    for x in range(M.tcc.shape[0]):
        for c in range(M.tcc.shape[1]):
            requests += M.tcc[x, c, TCC_REQ]
    per_workgroup = max(requests // max(completed, 1), 1)
    held = M.l2_tags.size + M.mall_tags.size
    return max(first, last - 2 * held // per_workgroup - 1)


@njit(_nrt=False, cache=True)   # cached on its own: run_apart, compiled apart from the timing model, loads it
def run_skipped(first, last, warm, ws, cu, rnd, spc, wpw, cycle, P, L, V, W, G, X, M, fault):
    """run_skipped runs workgroups ``first`` .. ``last - 1`` one after another in the free workgroup slot ``ws``
    (round ``rnd`` of CU ``cu``), each to its end; from workgroup ``warm`` on (warm_from) it warms the caches
    as of cycle ``cycle`` with the lines of the CU ``L.cu_order[g % CUs]`` (where the first round puts
    workgroup ``g``).

    Returns ``(outcome, wave slot)``: FF_DONE, or for the first workgroup that cannot end, FF_FAULT (``fault``
    holds the interpreter's record), FF_TRAPPED (a taken branch onto a ``P.endless`` instruction),
    FF_WAVE_LIMIT (a wave past P_WAVE_LIMIT instructions) or FF_STOPPED (the host watchdog), with the wave
    slot concerned; ``G.group[ws]`` is then that workgroup. Leaves the slot free (``G.live[ws]`` 0) on FF_DONE;
    mutates the slot's registers, LDS and scoreboard, which the next launch into it resets.
    """
    n_cu = L.params[P_CUS]
    base = cu * spc + rnd * wpw
    no_counts = W.wcount[:0]   # run_sliced counts nothing by row for a WHOLE run
    for g in range(first, last):
        launch_workgroup(g, ws, cu, rnd, spc, wpw, cycle, _ZERO, L, V, W, G, X.wgv)
        warm_cu = L.cu_order[g % n_cu]
        live = wpw
        arrived = 0
        while live > 0:
            for j in range(wpw):
                w = base + j
                if W.state[w] != RUNNING:
                    continue
                outcome, _, _, ended = run_sliced(w, WHOLE, WHOLE, WHOLE, warm_cu if g >= warm else -1, cycle,
                                                  no_counts, P, L, V, W, X, M, V.lds[ws], fault)
                if outcome != FF_DONE:
                    return outcome, w
                if ended:
                    W.state[w] = DONE
                    live -= 1
                else:
                    W.state[w] = AT_BARRIER
                    arrived += 1
                if live > 0 and arrived == live:   # the barrier releases once every live wave is at it
                    for k in range(wpw):
                        if W.state[base + k] == AT_BARRIER:
                            W.state[base + k] = RUNNING
                    arrived = 0
        G.live[ws] = 0
    return FF_DONE, -1


@njit(_nrt=False)
def record_skipped_fault(ff, w, fault, pc, state, cu, spc, wpc, wpw, ws, wg_id):
    """record_skipped_fault records what stopped wave slot ``w`` of the skipped workgroup in slot ``ws``
    (run_skipped's outcome ``ff``, not FF_DONE) as the full simulation reports it: the interpreter's fault
    (already in ``fault``), a runaway loop, the per-wave instruction limit or the host watchdog."""
    wave = (w - cu * spc) % wpw
    if ff == FF_FAULT:
        fault[F_WORKGROUP] = wg_id[ws]
        fault[F_WAVE] = wave
        return
    code = FAULT_ENDLESS if ff == FF_TRAPPED else FAULT_WAVE_LIMIT if ff == FF_WAVE_LIMIT else FAULT_TIMEOUT
    fault_at(fault, code, w, pc[w], wg_id[ws], wave, state, cu, spc, wpc, wpw, ws)


@njit(_nrt=False, cache=True, nogil=True)
def run_apart(first, last, out, P, L, V, W, G, X, M, fault):
    """run_apart runs workgroups ``first`` .. ``last - 1`` in order as run_skipped does, without warming, in the
    one workgroup slot of its own bundles (``V``, ``W``, ``G``, ``X`` sized for one workgroup; ``P``, ``L`` and
    ``V.mem`` shared, read only), on a thread beside the timing loop whose SampleArrays ``out`` (skip.O_*) it
    follows: once that loop has jumped it goes on from the workgroup it jumped from, if that is further, and
    once the loop will never jump it stops. It looks at ``L.stop`` between workgroups (and run_skipped within
    long ones). Numba releases the GIL here.

    Returns ``(outcome, workgroup)``: ``(FF_DONE, -1)`` when every workgroup it had to run ended, or it
    stopped because the loop will never jump; else the first workgroup that could not end and why
    (FF_FAULT, FF_TRAPPED, FF_WAVE_LIMIT, FF_STOPPED), with ``fault`` recorded as the timing loop records it.
    """
    wpw = L.params[P_WAVES_PER_WG]
    g = first
    while g < last:
        jumped = out[O_JUMPED]
        if jumped < 0:
            return FF_DONE, -1
        if jumped > 0 and out[O_JUMP_FROM] > g:
            g = out[O_JUMP_FROM]
            continue
        if L.stop[0] != 0:
            fault_at(fault, FAULT_TIMEOUT, 0, 0, g, 0, W.state, 0, wpw, 1, wpw, 0)
            return FF_STOPPED, g
        ff, w = run_skipped(g, g + 1, last, _ZERO, _ZERO, _ZERO, wpw, wpw, _ZERO, P, L, V, W, G, X, M, fault)
        if ff != FF_DONE:
            record_skipped_fault(ff, w, fault, W.pc, W.state, 0, wpw, 1, wpw, 0, G.group)
            return ff, g
        g += 1
    return FF_DONE, -1
