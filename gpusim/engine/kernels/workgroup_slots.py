"""Workgroup slots of the timing loop: the states of their wave slots, launching a workgroup into a slot,
releasing its waves from a barrier, and recording a fault of one of them.

The timing loop (gpusim.engine.kernels.cu) and the grid method's run of the workgroups it skips
(gpusim.engine.kernels.skipped_grid) launch workgroups the same way. Wave slot ``w`` of workgroup slot ``ws``
(round ``rnd`` of CU ``cu``) is ``cu * spc + rnd * wpw + j`` for its ``j``-th wave, ``spc`` the wave slots per CU
and ``wpw`` the waves per workgroup.
"""
from numba import njit

from gpusim.exec.kernels import interpreter as itp
from gpusim.exec.kernels.memory import F_AT_BARRIER, F_WAVE, F_WORKGROUP, record_fault

# wave slot states (TRAPPED: in a loop it can never leave, gpusim.exec.runaway; it never issues again)
FREE, RUNNING, AT_BARRIER, DONE, TRAPPED = 0, 1, 2, 3, 4


@njit(_nrt=False)
def launch_workgroup(g, ws, cu, rnd, spc, wpw, start, stamp, L, V, W, G, wgv):
    """launch_workgroup starts workgroup ``g`` in slot ``ws`` (round ``rnd``) of CU ``cu`` at cycle ``start``.

    It sets the ABI state of its waves (``L``'s launch registers into ``V``), clears their scoreboards (-1:
    set by the launch, ready; 0: never written), instruction counts and queues (``W``), the workgroup slot
    (``G``) and its LDS, and returns the next age stamp. ``wgv`` (int64[3]) is scratch for the workgroup id.
    """
    abi, user_sgprs, abi_written = L.abi, L.user_sgprs, L.abi_written
    sreg, vreg, lds = V.sreg, V.vreg, V.lds
    pc, reg_ready = W.pc, W.reg_ready
    gx, gy = abi[itp.ABI_GRID_X], abi[itp.ABI_GRID_Y]
    wgv[0] = g % gx
    wgv[1] = (g // gx) % gy
    wgv[2] = g // (gx * gy)
    G.group[ws] = g
    G.live[ws] = wpw
    G.arrived[ws] = 0
    for b in range(lds.shape[1]):
        lds[ws, b] = 0
    for j in range(wpw):
        w = cu * spc + rnd * wpw + j
        itp.init_wave(w, wgv, j, abi, user_sgprs, sreg, vreg, pc)
        W.state[w] = RUNNING
        W.ready[w] = start
        W.age[w] = stamp
        stamp += 1
        W.wg_of[w] = ws
        W.vmn[w] = 0
        W.lgn[w] = 0
        W.acct[w] = -1  # its cycles are accounted from its SIMD's first visit on
        W.hazard[w] = 0
        W.deps_at[w] = -1
        W.wcount[w] = 0
        W.prio[w] = 0
        for r in range(reg_ready.shape[1]):
            reg_ready[w, r] = -abi_written[r]
    return stamp


@njit(_nrt=False)
def release(ws, cu, spc, wpc, wpw, state, ready, cycle):
    """release lets every wave of workgroup slot ``ws`` waiting at its barrier go on next cycle."""
    rnd = ws - cu * wpc
    for j in range(wpw):
        w = cu * spc + rnd * wpw + j
        if state[w] == AT_BARRIER:
            state[w] = RUNNING
            ready[w] = cycle + 1


@njit(_nrt=False)
def fault_at(fault, code, w, i, group, wave, state, cu, spc, wpc, wpw, ws):
    """fault_at records a fault ``code`` of wave slot ``w``, wave ``wave`` of workgroup ``group`` (slot ``ws``), at
    instruction ``i``. Like the functional run it also counts the workgroup's waves waiting at s_barrier."""
    record_fault(fault, code, w, i, -1, 0, 0)
    fault[F_WORKGROUP] = group
    fault[F_WAVE] = wave
    rnd = ws - cu * wpc
    for j in range(wpw):
        v = cu * spc + rnd * wpw + j
        if v != w and state[v] == AT_BARRIER:
            fault[F_AT_BARRIER] += 1
