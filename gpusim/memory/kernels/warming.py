"""Functional warming: the state a cache-line request leaves in the hierarchy, without its time or counts.

When sampled timing fast-forwards a loop (gpusim.engine.kernels.skip), the skipped iterations' loads and
stores must still leave their lines where they would be: a wave that goes on in detail after a warp
finds in the L2 and MALL what the other waves' skipped iterations brought there, or its loads go to HBM
where the full simulation hits. ``warm_line`` makes the same replacement decisions as
``access.access_line`` and ``translation.translate`` (the same lookups, victims, allocation and
miss-evict rules, L2 dirty bits), stamps lines in request order, and marks every line it fills ready at
``now``, so a later detailed request hits without waiting for a fill that was never timed.

What it leaves out, on purpose: bandwidth, queues and MSHRs (the skipped time is the warp's shift, not
this), every counter (the skipped work's counters are the measuring window's, scaled:
gpusim.engine.sampling), the write-backs of dirty victims (an L2 victim's line is written to HBM by the
timed path without touching the MALL, so dropping it changes no cache state) and page-walk reads
(their page-table lines in the L2 are a few per 2 MiB of data). Everything is integer state, so a
warmed run is as deterministic as a full one.
"""
from numba import njit

from gpusim.memory.kernels.access import (
    P_CUS_PER_XCD, P_HBM_INTERLEAVE, P_L1_LINE, P_L1_MISS_EVICT_BITS, P_L1_WRITE_ALLOCATE, P_L2_CHANNELS,
    P_L2_INTERLEAVE, P_L2_LINE, P_L2_WRITE_BACK, P_MALL_CHANNELS, P_MALL_LINE, P_POLICY, P_SQ_LINE, P_SQ_SHARED,
)
from gpusim.memory.kernels.cache import LRU, cache_fill, cache_invalidate_way, cache_lookup, cache_set, line_fill
from gpusim.memory.kernels.channel import channel_local, channel_of
from gpusim.memory.kernels.fastdiv import quot, rem
from gpusim.memory.kernels.translation import P_TR_ENABLED, P_TR_PAGE_BYTES


@njit(_nrt=False, inline="always")
def _touch(tags, stamps, ready, s, w, line, line_b, stamp, policy, now, allocate):
    """_touch applies a lookup's outcome ``w`` (``cache_lookup`` of ``line`` in set ``s``): a hit is restamped
    (LRU), a miss fills its victim way when ``allocate`` (ready at ``now``). Returns the way, or ``-1 - victim``
    for a miss left unallocated."""
    if w >= 0:
        if policy == LRU:
            stamps[s, w] = stamp
        return w
    if not allocate:
        return w
    w = -1 - w
    cache_fill(tags, stamps, s, w, line, line_b, stamp)
    line_fill(ready[s, w], now, now)
    return w


@njit(_nrt=False, inline="always")
def _warm_mall(M, addr, now):
    """_warm_mall reads the MALL line holding ``addr`` into its slice (a dirty victim is left clean)."""
    p = M.params
    if p[P_MALL_CHANNELS] == 0:
        return
    line_b = p[P_MALL_LINE]
    line = addr - rem(addr, line_b)
    ch = channel_of(line, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
    local = channel_local(line, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
    M.seq[0] += 1
    tags = M.mall_tags[ch]
    s = cache_set(tags, local, line_b)
    w = cache_lookup(tags, M.mall_stamps[ch], s, local, line_b)
    if w < 0:
        M.mall_dirty[ch, s, -1 - w] = 0
    _touch(tags, M.mall_stamps[ch], M.mall_ready[ch], s, w, local, line_b, M.seq[0], p[P_POLICY], now, True)


@njit(_nrt=False, inline="always")
def _warm_l2(M, xcd, addr, now, is_write):
    """_warm_l2 brings the L2 line holding ``addr`` into its channel of XCD ``xcd``'s L2 (a read miss from the
    MALL), dirty after a write when the L2 writes back."""
    p = M.params
    line_b = p[P_L2_LINE]
    line = addr - rem(addr, line_b)
    ch = channel_of(line, p[P_L2_INTERLEAVE], p[P_L2_CHANNELS])
    local = channel_local(line, p[P_L2_INTERLEAVE], p[P_L2_CHANNELS])
    M.seq[0] += 1
    tags = M.l2_tags[xcd, ch]
    s = cache_set(tags, local, line_b)
    w = cache_lookup(tags, M.l2_stamps[xcd, ch], s, local, line_b)
    hit = w >= 0
    w = _touch(tags, M.l2_stamps[xcd, ch], M.l2_ready[xcd, ch], s, w, local, line_b, M.seq[0], p[P_POLICY], now, True)
    if not hit:
        M.l2_dirty[xcd, ch, s, w] = 0
        if not is_write:
            for off in range(0, line_b, min(line_b, p[P_MALL_LINE])):
                _warm_mall(M, line + off, now)
    if is_write and p[P_L2_WRITE_BACK]:
        M.l2_dirty[xcd, ch, s, w] = 1


@njit(_nrt=False, inline="always")
def _warm_translation(M, cu, addr, now):
    """_warm_translation puts the page of ``addr`` in CU ``cu``'s UTCL1 and its XCD's UTCL2, and makes it the
    CU's last lookup (``translation.translate``'s shortcut): the page a CU looked up last is its most
    recently used UTCL1 entry, so looking it up again changes nothing and is skipped, as the timed path does."""
    T = M.tr
    p = T.params
    if p[P_TR_ENABLED] == 0:
        return
    page_b = p[P_TR_PAGE_BYTES]
    page = addr - (addr & (page_b - 1))
    last = T.last[cu]
    if last[1] == page:
        return
    M.seq[0] += 1
    tags, stamps = T.l1_tags[cu], T.l1_stamps[cu]
    s = cache_set(tags, page, page_b)
    w = cache_lookup(tags, stamps, s, page, page_b)
    if w < 0:
        xcd = quot(cu, M.params[P_CUS_PER_XCD])
        s2 = cache_set(T.l2_tags[xcd], page, page_b)
        w2 = cache_lookup(T.l2_tags[xcd], T.l2_stamps[xcd], s2, page, page_b)
        _touch(T.l2_tags[xcd], T.l2_stamps[xcd], T.l2_ready[xcd], s2, w2, page, page_b, M.seq[0], LRU, now, True)
    last[0] = -1   # no instruction: the next timed lookup counts
    last[1] = page
    last[2] = s
    last[3] = _touch(tags, stamps, T.l1_ready[cu], s, w, page, page_b, M.seq[0], LRU, now, True)


@njit(_nrt=False, inline="always")
def warm_line(M, cu, addr, now, is_write, is_scalar, cache_bits):
    """warm_line leaves the caches of ``M`` (MemoryArrays) as ``translated_access_line(M, cu, addr, ...,
    is_write, is_scalar, cache_bits)`` would, timing and counting nothing; lines it fills are ready at
    ``now``. Mutates tags, stamps, ready and dirty state and ``M.seq``."""
    p = M.params
    xcd = quot(cu, p[P_CUS_PER_XCD])
    policy = p[P_POLICY]
    if is_scalar:
        inst = quot(cu, p[P_SQ_SHARED])
        line_b = p[P_SQ_LINE]
        line = addr - rem(addr, line_b)
        M.seq[0] += 1
        s = cache_set(M.sq_tags[inst], line, line_b)
        w = cache_lookup(M.sq_tags[inst], M.sq_stamps[inst], s, line, line_b)
        _touch(M.sq_tags[inst], M.sq_stamps[inst], M.sq_ready[inst], s, w, line, line_b, M.seq[0], policy, now, True)
        if w >= 0:
            return
    else:
        _warm_translation(M, cu, addr, now)
        line_b = p[P_L1_LINE]
        line = addr - rem(addr, line_b)
        M.seq[0] += 1
        tags, stamps = M.l1_tags[cu], M.l1_stamps[cu]
        s = cache_set(tags, line, line_b)
        evict = (cache_bits & p[P_L1_MISS_EVICT_BITS]) != 0
        w = cache_lookup(tags, stamps, s, line, line_b)
        if w >= 0 and evict:
            cache_invalidate_way(tags, stamps, s, w)
            w = -1 - w
        if w >= 0 and not is_write:   # an L1 read hit goes no further
            if policy == LRU:
                stamps[s, w] = M.seq[0]
            return
        allocate = not evict and (not is_write or p[P_L1_WRITE_ALLOCATE] != 0)
        _touch(tags, stamps, M.l1_ready[cu], s, w, line, line_b, M.seq[0], policy, now, allocate)
    if is_write:
        _warm_l2(M, xcd, addr, now, True)
        return
    l2_line = p[P_L2_LINE]
    for sub in range(line - rem(line, l2_line), line + line_b, l2_line):
        _warm_l2(M, xcd, max(sub, line), now, False)
