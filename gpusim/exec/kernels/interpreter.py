"""The functional interpreter: runs waves instruction by instruction.

``step`` executes one instruction of one wave and reports what happened;
``run_grid`` runs every workgroup of a dispatch in order, stepping each wave
until it ends, waits at a barrier, faults or uses up its time slice, and
releasing barriers when all live waves of the workgroup arrive. The timing
engine calls ``step`` itself; the functional-only run uses ``run_grid``.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.program import (
    D0, EXEC_HI, EXEC_LO, FLAT_SCRATCH_HI, FLAT_SCRATCH_LO, M_FAST, M_SIMM, M_SUB, M_TARGET, PAST_END, S0, SCC, VAL,
    VCC_HI, VCC_LO,
)
from gpusim.asm.fields import MISC_SENDMSG, MISC_TRAP, SENDMSG_INTERRUPT, TRAP_LLVM_DEBUGTRAP
from gpusim.exec.kernels.hostcall import serve_hostcalls
from gpusim.exec.kernels.lanes import sget
from gpusim.exec.kernels.lds import exec_lds, lds_addresses
from gpusim.exec.kernels.memory import (
    F_AT_BARRIER, F_CODE, F_WORKGROUP, FAULT_BAD_JUMP, FAULT_BARRIER, FAULT_ENDLESS, FAULT_LIMIT, FAULT_PAST_END,
    FAULT_REG_INDEX, FAULT_TIMEOUT, FAULT_TRAP, FAULT_UNSUPPORTED, FAULT_WAVE_LIMIT, record_fault,
)
from gpusim.exec.kernels.mfma import exec_mfma
from gpusim.exec.kernels.salu import exec_salu, relative_sgpr
from gpusim.exec.kernels.valu import exec_valu, index_mode_registers
from gpusim.exec.kernels.valu_fast import exec_valu_fast
from gpusim.exec.kernels.vmem import exec_smem, exec_vmem, vmem_addresses

U = np.uint64

# wave states (TRAPPED: in an endless loop, gpusim.exec.runaway; it never runs again)
RUNNING, AT_BARRIER, DONE, FAULTED, TRAPPED = 0, 1, 2, 3, 4
UNINIT_NONE = 1 << 40   # uninit_reads' "no entry" (above every register entry)
# step outcomes
NEXT, JUMP, BARRIER, END, FAULT = 0, 1, 2, 3, 4

# abi columns (see gpusim.exec.launch)
(ABI_BLOCK_X, ABI_BLOCK_Y, ABI_BLOCK_Z, ABI_GRID_X, ABI_GRID_Y, ABI_GRID_Z,
 ABI_WGID_SGPR, ABI_WGID_MASK, ABI_WGINFO_SGPR, ABI_TID_MODE, ABI_ENTRY,
 ABI_CODE_BASE, ABI_SCRATCH_BASE, ABI_SCRATCH_WAVE_BYTES, ABI_SCRATCH_WAVE_SGPR, ABI_N) = range(16)


@njit(_nrt=False)
def _pc_index(pc_bytes, code_base, target):
    """_pc_index maps a byte address to an instruction index, or -1."""
    rel = np.int64(target) - code_base
    lo, hi = 0, pc_bytes.shape[0] - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if pc_bytes[mid] == rel:
            return mid
        if pc_bytes[mid] < rel:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@njit(_nrt=False, inline="always")
def step(w, sem, ops, mods, pc_bytes, code_base, pc, sreg, vreg, T, valid, mem, regions, env, lds, fault):
    """step executes instruction ``pc[w]`` of wave ``w`` and advances ``pc[w]``.

    Returns NEXT, JUMP, BARRIER, END or FAULT. Mutates the wave's registers,
    memory, LDS, ``pc`` and ``fault``.
    """
    i = pc[w]
    s = sem[i]
    r = 0
    if s < S.SALU_END:
        r = exec_salu(i, w, sem, ops, mods, sreg)
    elif s < S.FLOW_END:
        if s == S.S_ENDPGM:
            if mods[i, M_SUB] == PAST_END:  # the end-of-text sentinel: the wave ran off its code
                record_fault(fault, FAULT_PAST_END, w, i, -1, code_base + pc_bytes[i], 0)
                return FAULT
            return END
        if s == S.S_BARRIER:
            pc[w] = i + 1
            return BARRIER
        if s == S.S_BRANCH:
            pc[w] = mods[i, M_TARGET]
            return JUMP
        if s == S.S_CBRANCH:
            cond = mods[i, M_SUB]
            if cond <= 1:
                taken = (sreg[w, SCC] != 0) == (cond == 1)
            elif cond <= 3:
                vcc = U(sreg[w, VCC_LO]) | U(sreg[w, VCC_HI])
                taken = (vcc != 0) == (cond == 3)
            else:
                ex = U(sreg[w, EXEC_LO]) | U(sreg[w, EXEC_HI])
                taken = (ex != 0) == (cond == 5)
            if taken:
                pc[w] = mods[i, M_TARGET]
                return JUMP
        elif s == S.S_GETPC_B64:
            nxt = U(code_base + pc_bytes[i] + 4)
            sreg[w, ops[i, D0, VAL]] = np.uint32(nxt & U(0xFFFFFFFF))
            sreg[w, ops[i, D0, VAL] + 1] = np.uint32(nxt >> U(32))
        elif s == S.S_SETPC_B64 or s == S.S_SWAPPC_B64:
            target = sget(sreg, w, 1, ops[i, S0, VAL], 2)
            if s == S.S_SWAPPC_B64:
                ret = U(code_base + pc_bytes[i] + 4)
                sreg[w, ops[i, D0, VAL]] = np.uint32(ret & U(0xFFFFFFFF))
                sreg[w, ops[i, D0, VAL] + 1] = np.uint32(ret >> U(32))
            j = _pc_index(pc_bytes, code_base, target)
            if j < 0:
                record_fault(fault, FAULT_BAD_JUMP, w, i, -1, target, 0)
                return FAULT
            pc[w] = j
            return JUMP
        elif s == S.S_MISC and mods[i, M_SUB] == MISC_TRAP and (mods[i, M_SIMM] & 0xFF) != TRAP_LLVM_DEBUGTRAP:
            # the trap handler ends the dispatch (llvm.trap, and the ids it does not define); llvm.debugtrap
            # without a debugger goes on
            record_fault(fault, FAULT_TRAP, w, i, -1, mods[i, M_SIMM] & 0xFF, 0)
            return FAULT
        elif s == S.S_MISC and mods[i, M_SUB] == MISC_SENDMSG and (mods[i, M_SIMM] & 0xF) == SENDMSG_INTERRUPT:
            serve_hostcalls(mem, env)   # a hostcall buffer's doorbell: gpusim plays the host at once
        # s_waitcnt, s_nop, s_setprio, other messages ...: no functional effect
    elif s < S.VALU_END:
        if mods[i, M_FAST]:
            r = exec_valu_fast(i, w, sem, ops, mods, sreg, vreg, T)
        else:
            r = exec_valu(i, w, sem, ops, mods, sreg, vreg, T, valid)
    elif s < S.MFMA_END:
        r = exec_mfma(i, w, ops, mods, vreg, T)
    elif s < S.SMEM_END:
        r = exec_smem(i, w, sem, ops, mods, sreg, mem, regions, env, fault)
    elif s < S.VMEM_END:
        r = exec_vmem(i, w, sem, ops, mods, sreg, vreg, T, mem, regions, env, lds, fault)
    else:
        r = exec_lds(i, w, sem, ops, mods, sreg, vreg, T, lds, fault)
    if r < 0:
        if r == -2:   # s_movrels/s_movreld past the SGPRs (fault size 0: an SGPR)
            record_fault(fault, FAULT_REG_INDEX, w, i, -1, relative_sgpr(s, ops, i, sreg, w), 0)
        elif r == -3:   # a v_mov_b32 in VGPR index mode past the wave's VGPRs (size 1: a VGPR)
            src, dst = index_mode_registers(ops, i, sreg, w)
            record_fault(fault, FAULT_REG_INDEX, w, i, -1, max(src, dst), 1)
        elif fault[F_CODE] == 0:
            record_fault(fault, FAULT_UNSUPPORTED, w, i, -1, 0, 0)
        return FAULT
    pc[w] = i + 1
    return NEXT


@njit(_nrt=False)
def step_addresses(w, sem, ops, mods, pc, sreg, vreg, T, regions, env, lds_size, fault):
    """step_addresses runs vector instruction ``pc[w]`` of wave ``w`` without its values and advances ``pc[w]``.

    For an instruction outside the value slice (gpusim.asm.value_slice): a
    VALU or MFMA does nothing; a memory or LDS instruction leaves its lane
    addresses in ``T[7]`` and faults where :func:`step` would. Returns NEXT or FAULT.
    """
    i = pc[w]
    s = sem[i]
    r = 0
    if S.SMEM_END <= s < S.VMEM_END:
        r = vmem_addresses(i, w, sem, ops, mods, sreg, vreg, T, regions, env, lds_size, fault)
    elif S.VMEM_END <= s < S.LDS_END:
        r = lds_addresses(i, w, sem, ops, mods, sreg, vreg, T, lds_size, fault)
    if r < 0:
        return FAULT
    pc[w] = i + 1
    return NEXT


@njit(_nrt=False)
def init_wave(w, wg, wave_in_wg, abi, user_sgprs, sreg, vreg, pc):
    """init_wave sets the AMDHSA initial state of wave ``w`` of workgroup ``wg``.

    ``wg`` is (x, y, z); ``user_sgprs`` lists (sgpr index, value) pairs that
    every wave receives. Returns the number of live lanes.
    """
    for r in range(sreg.shape[1]):
        sreg[w, r] = 0
    for k in range(user_sgprs.shape[0]):
        sreg[w, user_sgprs[k, 0]] = np.uint32(user_sgprs[k, 1])
    nxt = abi[ABI_WGID_SGPR]
    mask = abi[ABI_WGID_MASK]
    for d in range(3):
        if (mask >> d) & 1:
            sreg[w, nxt] = np.uint32(wg[d])
            nxt += 1
    if abi[ABI_WGINFO_SGPR] >= 0:
        sreg[w, abi[ABI_WGINFO_SGPR]] = 0
    bx, by, bz = abi[ABI_BLOCK_X], abi[ABI_BLOCK_Y], abi[ABI_BLOCK_Z]
    total = bx * by * bz
    if abi[ABI_SCRATCH_WAVE_BYTES] > 0:
        # the wave's own scratch, found by its place in the grid: architected flat scratch (gfx942) has its base
        # in FLAT_SCRATCH; on gfx90a the private segment wavefront offset SGPR has its offset from the private
        # segment buffer's and flat scratch init's base, which the kernel's prologue adds (a prologue that sets
        # FLAT_SCRATCH for scratch_* instructions sets what is set here)
        gid = ((wg[2] * abi[ABI_GRID_Y] + wg[1]) * abi[ABI_GRID_X] + wg[0]) * ((total + 63) // 64) + wave_in_wg
        offset = gid * abi[ABI_SCRATCH_WAVE_BYTES]
        base = U(abi[ABI_SCRATCH_BASE] + offset)
        sreg[w, FLAT_SCRATCH_LO] = np.uint32(base & U(0xFFFFFFFF))
        sreg[w, FLAT_SCRATCH_HI] = np.uint32(base >> U(32))
        if abi[ABI_SCRATCH_WAVE_SGPR] >= 0:
            sreg[w, abi[ABI_SCRATCH_WAVE_SGPR]] = np.uint32(offset)
    first = 64 * wave_in_wg
    live = min(64, total - first)
    for r in range(vreg.shape[1]):
        for l in range(64):
            vreg[w, r, l] = 0
    # work-item ids of the wave's lanes, counted up from its first (three divisions per lane cost more than
    # the rest of a short kernel's wave launch)
    x = first % bx
    y = (first // bx) % by
    z = first // (bx * by)
    for l in range(live):
        vreg[w, 0, l] = np.uint32(x | (y << 10) | (z << 20))
        x += 1
        if x == bx:
            x = 0
            y += 1
            if y == by:
                y = 0
                z += 1
    ex = U(0xFFFFFFFFFFFFFFFF) if live == 64 else (U(1) << U(live)) - U(1)
    sreg[w, EXEC_LO] = np.uint32(ex & U(0xFFFFFFFF))
    sreg[w, EXEC_HI] = np.uint32(ex >> U(32))
    pc[w] = abi[ABI_ENTRY]
    return live


@njit(_nrt=False, cache=True, nogil=True)
def run_grid(sem, ops, mods, pc_bytes, abi, user_sgprs, sreg, vreg, T, valid, mem, regions, env, lds, fault,
             counts, limit, pc, state, wg, wave_limit, wcount, endless, reads_at, reads, writes_at, writes,
             abi_written, written, unset, uninit, stop):
    """run_grid runs every workgroup of the dispatch, one after another.

    ``counts[i]`` accumulates how many waves executed instruction ``i``;
    ``pc``, ``state``, ``wcount`` and ``unset`` (int64[waves per workgroup]), ``wg`` (int64[3]) and
    ``written`` (uint8[waves per workgroup, register entries]) are work arrays.
    Stops at the first fault; when more than ``limit`` wave-instructions ran, or one wave ran more than
    ``wave_limit``, it records a runaway fault (FAULT_LIMIT, FAULT_WAVE_LIMIT); a wave that takes a
    branch into an ``endless`` instruction (gpusim.exec.runaway) stops, and once its workgroup can make
    no other progress it is recorded as FAULT_ENDLESS. ``F_AT_BARRIER`` counts the workgroup's other
    waves waiting at s_barrier. ``reads_at``/``reads``/``writes_at``/``writes`` are
    gpusim.engine.scoreboard.RegisterLists; ``abi_written[e]`` is 1 for the entries the launch sets;
    ``uninit`` (uninit_reads) counts the wave-instructions that read an entry nothing wrote.
    ``stop[0]`` turning nonzero (a host-time watchdog, from another thread: the GIL is released) ends the
    run with FAULT_TIMEOUT at the wave that ran last.
    Returns the wave-instructions executed.
    """
    code_base = abi[ABI_CODE_BASE]
    bx, by, bz = abi[ABI_BLOCK_X], abi[ABI_BLOCK_Y], abi[ABI_BLOCK_Z]
    waves = (bx * by * bz + 63) // 64
    total = np.int64(0)
    slice_budget = 1 << 16
    launch_set = 0
    for e in range(written.shape[1]):
        launch_set += abi_written[e]
    for gz in range(abi[ABI_GRID_Z]):
        for gy in range(abi[ABI_GRID_Y]):
            for gx in range(abi[ABI_GRID_X]):
                wg[0], wg[1], wg[2] = gx, gy, gz
                flat = gx + abi[ABI_GRID_X] * (gy + abi[ABI_GRID_Y] * gz)
                for b in range(lds.shape[0]):
                    lds[b] = 0
                for w in range(waves):
                    init_wave(w, wg, w, abi, user_sgprs, sreg, vreg, pc)
                    state[w] = RUNNING
                    wcount[w] = 0
                    for e in range(written.shape[1]):
                        written[w, e] = abi_written[e]
                    unset[w] = written.shape[1] - launch_set
                while True:
                    progressed = False
                    live = 0
                    waiting = 0
                    for w in range(waves):
                        if state[w] == RUNNING:
                            budget = min(slice_budget, wave_limit - wcount[w], limit - total)
                            st, n = _run_counted(w, budget, sem, ops, mods, pc_bytes, code_base, pc, sreg,
                                                 vreg, T, valid, mem, regions, env, lds, fault, counts, endless,
                                                 reads_at, reads, writes_at, writes, written, unset, uninit)
                            total += n
                            wcount[w] += n
                            state[w] = st
                            progressed = True
                            code = 0
                            if st == FAULTED:
                                code = -1
                            elif st == RUNNING and total >= limit:  # its next instruction is one too many
                                code = FAULT_LIMIT
                            elif st == RUNNING and wcount[w] >= wave_limit:
                                code = FAULT_WAVE_LIMIT
                            elif stop[0] != 0:
                                code = FAULT_TIMEOUT
                            if code != 0:
                                if code > 0:
                                    record_fault(fault, code, w, pc[w], -1, 0, 0)
                                _stopped_in(fault, flat, w, waves, state)
                                return total
                        if state[w] != DONE:
                            live += 1
                            if state[w] == AT_BARRIER:
                                waiting += 1
                    if live == 0:
                        break
                    if waiting == live:
                        for w in range(waves):
                            if state[w] == AT_BARRIER:
                                state[w] = RUNNING
                    elif not progressed:
                        # nothing runs: a wave is trapped in an endless loop (the lowest-numbered is named),
                        # or waves wait at a barrier that can never complete
                        v = _first_in(state, waves, TRAPPED)
                        code = FAULT_ENDLESS
                        if v < 0:
                            v = _first_in(state, waves, AT_BARRIER)
                            code = FAULT_BARRIER
                        record_fault(fault, code, v, pc[v], -1, 0, 0)
                        _stopped_in(fault, flat, v, waves, state)
                        return total
    return total


@njit(_nrt=False)
def _first_in(state, waves, st):
    """_first_in is the lowest-numbered wave in state ``st``, or -1."""
    for v in range(waves):
        if state[v] == st:
            return v
    return -1


@njit(_nrt=False)
def _stopped_in(fault, flat, w, waves, state):
    """_stopped_in completes a fault record of wave ``w``: its workgroup, and how many others wait at s_barrier."""
    fault[F_WORKGROUP] = flat
    for v in range(waves):
        if v != w and state[v] == AT_BARRIER:
            fault[F_AT_BARRIER] += 1


@njit(_nrt=False)
def uninit_read(reads_at, reads, i, w, written, uninit):
    """uninit_read counts wave ``w``'s instruction ``i`` in ``uninit`` if it reads a register entry nothing wrote.

    ``written[w, e]`` tells whether the wave's entry ``e`` holds a written value (nonzero). ``uninit`` is
    int64[instructions, 2]: per instruction, how many wave-instructions read an unwritten entry, and the
    lowest such entry seen (UNINIT_NONE when none), the same whatever order waves run in.
    """
    for j in range(reads_at[i], reads_at[i + 1]):
        if written[w, reads[j]] == 0:
            uninit[i, 0] += 1
            uninit[i, 1] = min(uninit[i, 1], reads[j])
            return


@njit(_nrt=False)
def _run_counted(w, budget, sem, ops, mods, pc_bytes, code_base, pc, sreg, vreg, T, valid, mem, regions, env,
                 lds, fault, counts, endless, reads_at, reads, writes_at, writes, written, unset, uninit):
    """_run_counted steps wave ``w`` until it leaves RUNNING or ``budget`` instructions pass.

    Returns (new state, instructions executed) and counts each executed instruction; a wave whose taken
    branch lands on an ``endless`` instruction is TRAPPED. Each instruction's register reads are checked
    against ``written`` (uninit_read) and its writes marked there as it issues, whatever lanes EXEC holds;
    ``unset[w]`` counts the wave's entries still unwritten, and once none is left neither is looked at.
    """
    n = 0
    left = unset[w]
    while n < budget:
        i = pc[w]
        counts[i] += 1
        if left > 0:
            uninit_read(reads_at, reads, i, w, written, uninit)
            for j in range(writes_at[i], writes_at[i + 1]):
                if written[w, writes[j]] == 0:
                    written[w, writes[j]] = 1
                    left -= 1
            unset[w] = left
        r = step(w, sem, ops, mods, pc_bytes, code_base, pc, sreg, vreg, T, valid, mem, regions, env, lds, fault)
        n += 1
        if r == JUMP:
            if endless[pc[w]]:
                return TRAPPED, n
        elif r == END:
            return DONE, n
        elif r == BARRIER:
            return AT_BARRIER, n
        elif r == FAULT:
            return FAULTED, n
    return RUNNING, n
