"""Address translation: a UTCL1 per CU, a UTCL2 per XCD, and page walks whose reads go through L2/MALL/HBM.

A vector memory request translates its page before it reaches the vector L1 (``translated_access_line``):

* UTCL1 (the vector L1's translation cache, one per CU): a hit costs ``P_TR_L1_HIT`` cycles (0 on cdna3:
  the hit is hidden in the L1 latency the pointer-chase ladder calibrates). A miss asks the UTCL2 of the
  CU's XCD and pays ``P_TR_L2_HIT`` cycles for the round trip.
* UTCL2: a miss walks the page table. The upper ``pde_cache_levels`` levels are held by the walker's
  page-directory cache; each remaining level reads one 64-byte page-table line through the XCD's L2 (and
  on down to the MALL and HBM, as any L2 read), one after the other, plus ``P_TR_WALK_LEVEL`` cycles of
  walker pipeline per level.

A UTCL1 has ``utcl1_misses_in_flight`` miss slots and a UTCL2 ``utcl2_walkers`` page walkers, so
translation misses limit throughput as well as add latency. Each pool is modelled as one calendar server
(``channel.channel_request``, robust to requests offered out of time order, which a slot pool is not): a
UTCL1 miss occupies its CU's server ``ceil(utcl2_hit_cycles / utcl1_misses_in_flight)`` cycles, a walk
its XCD's ``ceil(walk_busy_cycles / utcl2_walkers)`` cycles, and starts when its share is served. The
approximation: n parallel servers each held H cycles per request become one server of H / n cycles per
request: the same throughput and the same queueing under sustained load, but n requests arriving at once
start H / n apart instead of together; the hold H is a fixed figure (a UTCL1 miss holds its slot for a
UTCL2 hit's round trip, a walk its walker for ``walk_busy_cycles``), not the request's own latency, which
is known only after it is served; and a queue deeper than the calendar's horizon (walkers: 2^21
cycles, hierarchy.WALKER_CALENDAR_BUCKETS; UTCL1: 65,536) loses its oldest bookkeeping, so the limit
binds less there. rocprof's TCP_UTCL1_STALL_INFLIGHT_MAX and
TCP_UTCL1_SERIALIZATION_STALL count such stalls on the hardware; gpusim counts cycles as
GPUSIM_UTCL1_MISS_STALL_CYCLES and GPUSIM_UTCL2_WALKER_STALL_CYCLES.

Both TLBs are set-associative caches over pages (``cache.py``, with the page size as the line size) whose
entries are allocated at once with a ready cycle, so a later lookup of a page still being translated
waits for that translation instead of starting another (in-flight misses to one page merge), and counts
as a hit. Lines of one wave instruction in the same page translate once: the second and later lines of
one instruction (same CU, same issue cycle, same page) reuse the first's result and count nothing, as the
texture addresser sends one translation per distinct page of an instruction. Scalar loads are not
translated (model assumption: the scalar cache's few kernel-argument and constant pages stay in its own
translation cache).

Page tables live at ``PAGE_TABLE_BASE`` (2^46), above any buffer gpusim allocates (device memory is at
most ``hbm.capacity_bytes``, < 2^40 on every shipped arch): level k (0 = the leaf PTE, 1 = PDE0, ...) of
the page of byte ``va`` is the 8-byte entry at ``PAGE_TABLE_BASE + k * 2^42 + (va >> (12 + 9k)) * 8``, so
neighbouring pages share a page-table line as they do in the hardware's tables.

Counters: ``utcl1_ctr[cu, :]`` TCP_UTCL1_REQUEST, TCP_UTCL1_TRANSLATION_HIT, TCP_UTCL1_TRANSLATION_MISS
(hit + miss = request), GPUSIM_UTCL1_MISS_STALL_CYCLES; ``utcl2_ctr[xcd, :]`` GPUSIM_UTCL2_REQ, _HIT, _MISS
(hit + miss = req), GPUSIM_PAGE_WALKS (= misses), GPUSIM_PAGE_WALK_READS (page-table lines read),
GPUSIM_PAGE_WALK_CYCLES (from a walk's start to its last read's return, summed),
GPUSIM_UTCL2_WALKER_STALL_CYCLES.
"""
from collections import namedtuple

from numba import njit

from gpusim.memory.kernels.access import P_CUS_PER_XCD, _l2_access, access_line
from gpusim.memory.kernels.cache import cache_fill, cache_lookup, cache_set, line_fill, line_hit
from gpusim.memory.kernels.channel import channel_occupancy, channel_request

TranslationArrays = namedtuple("TranslationArrays", (
    "params",                                   # int64[N_TR_PARAMS], P_TR_* columns
    "l1_tags", "l1_stamps", "l1_ready",         # UTCL1 per CU: [cus, sets, ways] (+ [2] for ready)
    "l2_tags", "l2_stamps", "l2_ready",         # UTCL2 per XCD: [xcds, sets, ways] (+ [2])
    "last",                                     # int64[cus, 4]: (issue cycle, page, set, way) of the CU's last lookup
    "l1_misses",                                # int64[cus, CALENDAR_BUCKETS]: UTCL1 miss server per CU (channel.py)
    "walkers",                                  # int64[xcds, CALENDAR_BUCKETS]: walker server per UTCL2 (channel.py)
    "utcl1_ctr", "utcl2_ctr",                   # counters, columns below
))

P_TR_ENABLED = 0
P_TR_PAGE_BYTES = 1
P_TR_L1_HIT = 2
P_TR_L2_HIT = 3
P_TR_WALK_LEVEL = 4
P_TR_WALK_READS = 5        # page-table levels read from memory per walk (leaf first)
P_TR_LEAF_LEVEL = 6        # the table level the walk ends at: 0 = PTE, 1 = PDE0 (2 MiB fragments), ...
P_TR_L1_MISS_SLOTS = 7     # utcl1_misses_in_flight
P_TR_WALKERS = 8           # utcl2_walkers
P_TR_WALK_BUSY = 9         # walk_busy_cycles: how long one walk holds its walker
N_TR_PARAMS = 10

TCP_UTCL1_REQUEST = 0
TCP_UTCL1_TRANSLATION_HIT = 1
TCP_UTCL1_TRANSLATION_MISS = 2
GPUSIM_UTCL1_MISS_STALL_CYCLES = 3
N_UTCL1 = 4

GPUSIM_UTCL2_REQ = 0
GPUSIM_UTCL2_HIT = 1
GPUSIM_UTCL2_MISS = 2
GPUSIM_PAGE_WALKS = 3
GPUSIM_PAGE_WALK_READS = 4
GPUSIM_PAGE_WALK_CYCLES = 5
GPUSIM_UTCL2_WALKER_STALL_CYCLES = 6
N_UTCL2 = 7

PAGE_TABLE_BASE = 1 << 46
PAGE_TABLE_LEVEL_SPAN = 1 << 42
PTE_BYTES = 8
WALK_READ_BYTES = 64       # model assumption: the walker reads one 64-byte line (8 entries) per level


@njit(_nrt=False)
def page_table_entry(va, level):
    """page_table_entry is the address of the level-``level`` entry (0 = PTE) that maps byte ``va``."""
    return PAGE_TABLE_BASE + level * PAGE_TABLE_LEVEL_SPAN + (va >> (12 + 9 * level)) * PTE_BYTES


@njit(_nrt=False)
def _admit(cal, i, t, hold, servers):
    """_admit returns the cycle, at or after ``t``, that a request holding one of ``servers`` parallel
    servers for ``hold`` cycles starts, modelled as one calendar server of ``ceil(hold / servers)``
    cycles per request (row ``i`` of ``cal``). Mutates ``cal[i]``."""
    return channel_request(cal, i, t, hold, servers, 0) - channel_occupancy(hold, servers)


@njit(_nrt=False)
def _walk(M, xcd, page, t):
    """_walk reads the page-table levels of ``page`` not held by the page-directory cache, from the
    highest of them down to the leaf, each after the previous returns; returns the cycle the last does."""
    p = M.tr.params
    top = p[P_TR_LEAF_LEVEL] + p[P_TR_WALK_READS] - 1
    for level in range(top, p[P_TR_LEAF_LEVEL] - 1, -1):
        t = _l2_access(M, xcd, page_table_entry(page, level), WALK_READ_BYTES, t + p[P_TR_WALK_LEVEL], False)
    return t


@njit(_nrt=False)
def _utcl2(M, xcd, page, t):
    """_utcl2 looks ``page`` up in the UTCL2 of ``xcd`` at cycle ``t``; returns the cycle its translation
    is back at the UTCL1."""
    T = M.tr
    p, ctr = T.params, T.utcl2_ctr
    tags, stamps = T.l2_tags[xcd], T.l2_stamps[xcd]
    page_b = p[P_TR_PAGE_BYTES]
    ctr[xcd, GPUSIM_UTCL2_REQ] += 1
    t += p[P_TR_L2_HIT]
    s = cache_set(tags, page, page_b)
    w = cache_lookup(tags, stamps, s, page, page_b)
    if w >= 0:
        ctr[xcd, GPUSIM_UTCL2_HIT] += 1
        stamps[s, w] = M.seq[0]
        return line_hit(T.l2_ready[xcd, s, w], t)
    ctr[xcd, GPUSIM_UTCL2_MISS] += 1
    ctr[xcd, GPUSIM_PAGE_WALKS] += 1
    ctr[xcd, GPUSIM_PAGE_WALK_READS] += p[P_TR_WALK_READS]
    w = -1 - w
    cache_fill(tags, stamps, s, w, page, page_b, M.seq[0])
    since = t
    t = max(t, _admit(T.walkers, xcd, t, p[P_TR_WALK_BUSY], p[P_TR_WALKERS]))
    ctr[xcd, GPUSIM_UTCL2_WALKER_STALL_CYCLES] += t - since
    done = _walk(M, xcd, page, t)
    ctr[xcd, GPUSIM_PAGE_WALK_CYCLES] += done - t
    line_fill(T.l2_ready[xcd, s, w], since, done)
    return done


@njit(_nrt=False, inline="always")
def translate(M, cu, addr, now):
    """translate returns the cycle the physical address of byte ``addr``, requested by CU ``cu`` at cycle
    ``now``, is known to the vector L1; ``now`` itself when translation is disabled.

    Mutates ``M.tr`` (TLB state, counters) and, on a walk, the L2/MALL/HBM state of ``M``.
    """
    T = M.tr
    p = T.params
    if p[P_TR_ENABLED] == 0:
        return now
    page_b = p[P_TR_PAGE_BYTES]
    page = addr - (addr & (page_b - 1))
    last = T.last[cu]
    t = now + p[P_TR_L1_HIT]
    if last[1] == page:
        # The CU's last page is still its most recently used UTCL1 entry (any other lookup would have
        # replaced it here), so this is a hit without a search; the same instruction's lines count once.
        if last[0] != now:
            last[0] = now
            T.utcl1_ctr[cu, TCP_UTCL1_REQUEST] += 1
            T.utcl1_ctr[cu, TCP_UTCL1_TRANSLATION_HIT] += 1
        return line_hit(T.l1_ready[cu, last[2], last[3]], t)
    M.seq[0] += 1
    tags, stamps = T.l1_tags[cu], T.l1_stamps[cu]
    T.utcl1_ctr[cu, TCP_UTCL1_REQUEST] += 1
    s = cache_set(tags, page, page_b)
    w = cache_lookup(tags, stamps, s, page, page_b)
    last[0] = now
    last[1] = page
    last[2] = s
    if w >= 0:
        T.utcl1_ctr[cu, TCP_UTCL1_TRANSLATION_HIT] += 1
        stamps[s, w] = M.seq[0]
        last[3] = w
        return line_hit(T.l1_ready[cu, s, w], t)
    T.utcl1_ctr[cu, TCP_UTCL1_TRANSLATION_MISS] += 1
    w = -1 - w
    last[3] = w
    cache_fill(tags, stamps, s, w, page, page_b, M.seq[0])
    start = max(t, _admit(T.l1_misses, cu, t, p[P_TR_L2_HIT], p[P_TR_L1_MISS_SLOTS]))
    T.utcl1_ctr[cu, GPUSIM_UTCL1_MISS_STALL_CYCLES] += start - t
    done = _utcl2(M, cu // M.params[P_CUS_PER_XCD], page, start)
    line_fill(T.l1_ready[cu, s, w], t, done)
    return done


@njit(_nrt=False, inline="always")
def translated_access_line(M, cu, addr, nbytes, now, is_write, is_scalar, cache_bits):
    """translated_access_line is ``access.access_line`` behind address translation: a vector request
    reaches the L1 once its page is translated (``translate``); a scalar one goes at once. Same arguments
    and result as ``access_line``."""
    t = now if is_scalar else translate(M, cu, addr, now)
    return access_line(M, cu, addr, nbytes, t, is_write, is_scalar, cache_bits)
