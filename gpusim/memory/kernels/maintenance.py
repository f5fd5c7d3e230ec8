"""Cache maintenance: the write-backs and invalidates of buffer_wbl2, buffer_inv and buffer_wbinvl1.

LLVM brackets agent- and system-scope atomics and fences with them on gfx90a and gfx942 (AMDGPUUsage,
memory model): a release writes the L2's dirty lines back to memory (``buffer_wbl2``) before the
``s_waitcnt vmcnt(0)`` that waits for it; an acquire invalidates the CU's vector L1 (``buffer_inv``,
``buffer_wbinvl1_vol``) and, at agent or system scope on gfx942, whose agent spans several XCDs each
with its own L2, the lines of the CU's L2 that another XCD may have changed (``buffer_inv sc1``).

Model: memory has one type, so an L2 invalidate drops every clean line of the XCD's L2 (a dirty line is
the newest copy; writing it back is buffer_wbl2's job) and a write-back writes every dirty line of it.
The scope bits decide only whether the L2 is invalidated (sc1: agent or system scope). Dropped lines stay
in their ways as ``INVALIDATED`` and are the first victims of their sets. Every operation costs at least
the round trip of a request to the level it acts on.
"""
from numba import njit

from gpusim.asm.fields import CACHE_INV, CACHE_INV_L2, CACHE_WB_L2
from gpusim.memory.kernels.access import P_CUS_PER_XCD, P_L1_LAT, P_L2_LAT, _write_back_line
from gpusim.memory.kernels.cache import EMPTY, INVALIDATED, cache_invalidate_way
from gpusim.memory.kernels.fastdiv import quot

SCOPE_SC1 = 2  # the sc1 bit of an instruction's cache bits (M_CACHE: 1 sc0, 2 sc1, 4 nt)


@njit(_nrt=False)
def invalidate_l1(M, cu):
    """invalidate_l1 drops every line of CU ``cu``'s vector L1. Mutates its tags and stamps."""
    tags, stamps = M.l1_tags[cu], M.l1_stamps[cu]
    for s in range(tags.shape[0]):
        for w in range(tags.shape[1]):
            if tags[s, w] == EMPTY:
                break  # ways fill in order: the rest of the set is empty
            cache_invalidate_way(tags, stamps, s, w)


@njit(_nrt=False)
def invalidate_l2(M, xcd):
    """invalidate_l2 drops every clean line of XCD ``xcd``'s L2 (all its channels). Mutates its tags and stamps."""
    tags, stamps, dirty = M.l2_tags[xcd], M.l2_stamps[xcd], M.l2_dirty[xcd]
    for ch in range(tags.shape[0]):
        for s in range(tags.shape[1]):
            for w in range(tags.shape[2]):
                if tags[ch, s, w] == EMPTY:
                    break
                if not dirty[ch, s, w]:
                    cache_invalidate_way(tags[ch], stamps[ch], s, w)


@njit(_nrt=False)
def write_back_l2(M, xcd, t):
    """write_back_l2 writes every dirty line of XCD ``xcd``'s L2 to memory from cycle ``t`` and leaves it clean.

    Returns the cycle the last write is done (``t`` when nothing is dirty, as in a write-through L2).
    Mutates the L2's dirty bits and the HBM channels and counters (TCC_EA_WRREQ, GPUSIM_HBM_WR*).
    """
    p, tags, dirty, tcc = M.params, M.l2_tags, M.l2_dirty, M.tcc
    done = t
    for ch in range(tags.shape[1]):
        for s in range(tags.shape[2]):
            for w in range(tags.shape[3]):
                tag = tags[xcd, ch, s, w]
                if tag == EMPTY:
                    break
                if dirty[xcd, ch, s, w] and tag != INVALIDATED:
                    done = max(done, _write_back_line(M, xcd, ch, tag, t))
                    dirty[xcd, ch, s, w] = 0
    return done


@njit(_nrt=False)
def cache_control(M, cu, op, scope, now):
    """cache_control runs cache maintenance ``op`` (gpusim.asm.fields CACHE_*) for CU ``cu`` issued at ``now``.

    ``scope`` is the instruction's cache bits (1 sc0, 2 sc1, 4 nt). Returns the cycle it completes, which
    the issuing wave's vmcnt waits for: the L1's latency for an L1 invalidate; the L1's and L2's latencies
    (the round trip to the L2) for an L2 invalidate; for a write-back, that round trip plus the last dirty
    line's write to memory, which starts when the request reaches the L2. Mutates the caches of ``M`` (MemoryLevels.kernel_args()).
    """
    p = M.params
    xcd = quot(cu, p[P_CUS_PER_XCD])
    at_l1 = now + p[P_L1_LAT]
    at_l2 = at_l1 + p[P_L2_LAT]
    if op == CACHE_WB_L2:
        return write_back_l2(M, xcd, at_l2)  # the lines leave once the request has reached the L2
    if op == CACHE_INV_L2:
        invalidate_l2(M, xcd)
        return at_l2
    invalidate_l1(M, cu)
    if op == CACHE_INV and scope & SCOPE_SC1:
        invalidate_l2(M, xcd)
        return at_l2
    return at_l1
