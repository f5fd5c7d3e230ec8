"""The cache lines one scalar or vector memory instruction asks the hierarchy for.

Shared by the timing loop (gpusim.engine.kernels.cu), which walks each line through the timed hierarchy,
and the loop method's fast-forward (gpusim.engine.kernels.skip), which warms the caches with them
(gpusim.memory.kernels.warming), so both see the same lines.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.fields import ADDR_BUFFER, ADDR_SCRATCH
from gpusim.asm.program import D0, K_SREG, KIND, M_ADDR, M_OFFSET, M_SUB, S0, S1, S3, VAL, WIDTH
from gpusim.exec.kernels.lanes import exec_mask, sget
from gpusim.exec.kernels.memory import access_size
from gpusim.exec.kernels.vmem import buffer_range, past_range
from gpusim.memory.kernels.coalesce import coalesce


@njit(_nrt=False, inline="always")
def request_lines(i, w, scalar, sem, ops, mods, sreg, T, line_bytes, lines):
    """request_lines writes into ``lines`` the addresses of the cache lines of ``line_bytes`` that wave ``w``'s
    memory instruction ``i`` touches, once the interpreter has computed its addresses (ValueArrays.T: the
    per-lane byte addresses in T[7], a buffer instruction's range offsets in T[3]; a scalar load's come from
    its SGPR base). A buffer lane past its resource's range touches nothing (past_range). Returns (lines
    written, whether it is a store). ``scalar``: the instruction is a scalar load (TK_SMEM); an s_load or
    s_buffer_load covers 4 x its destination dwords from base + offset (+ SGPR offset)."""
    n = 0
    if scalar:
        if sem[i] == S.S_LOAD or sem[i] == S.S_BUFFER_LOAD:
            a = sget(sreg, w, K_SREG, ops[i, S0, VAL], 2) + np.uint64(mods[i, M_OFFSET])
            if ops[i, S1, KIND] == K_SREG:
                a += sget(sreg, w, K_SREG, ops[i, S1, VAL], 1)
            for d in range(0, 4 * ops[i, D0, WIDTH], line_bytes):
                lines[n] = np.int64(a) + d
                n += 1
        return n, False
    store = sem[i] != S.MEM_LOAD
    dw = ops[i, S3 if store else D0, WIDTH]
    size = access_size(mods[i, M_SUB] & 0xFF, max(dw, 1), store)
    mask = exec_mask(sreg, w)
    addresses = T[7]
    if mods[i, M_ADDR] & ADDR_BUFFER:
        limit = buffer_range(i, w, ops, sreg)
        for l in range(64):
            if past_range(T, l, size, limit):
                mask &= ~(np.uint64(1) << np.uint64(l))
    if mods[i, M_ADDR] & ADDR_SCRATCH and size > 4:
        # the lanes' private dwords are interleaved (gpusim.exec.kernels.vmem.scratch_address): each dword of a
        # multi-dword access lies 256 bytes past the one before, so its lines are found dword by dword
        for d in range(size // 4):
            n += coalesce(addresses, mask, 4, line_bytes, lines[n:])
            for l in range(64):
                addresses[l] += np.uint64(256)
        for l in range(64):
            addresses[l] -= np.uint64(256 * (size // 4))
        return n, store
    return coalesce(addresses, mask, size, line_bytes, lines), store
