"""One cache-line request walking the memory hierarchy: L1 (or scalar cache) -> L2 channel -> MALL -> HBM.

Every level is a cache plus a bandwidth server (``channel.channel_request``) whose ``latency_cycles`` is the
level's increment along the miss path: a request served by level k completes after the latencies of every
level down to k, plus one occupancy per level (the cycles its bytes hold that level's port), plus any queueing.
A miss holds an MSHR (L1 per CU, L2 per channel) or queue entry (HBM per channel) until its data returns; with
all of them busy it waits (``slots.slot_wait``), so bandwidth limits and back-pressure come from the model.
A miss allocates its line at once with a ``ready`` cycle, so a later request for a line still in flight hits
and waits for that cycle (MSHR merging); see ``cache.line_hit`` for one that reaches the line before, in
simulated time, the fill was requested.

Every function takes the hierarchy's arrays as one named bundle ``M`` (``arrays.MemoryArrays``, from
``MemoryLevels.kernel_args()``) and
``access_line`` and what it calls are inlined where they are used: a call that passed the 27 arrays one by
one cost hundreds of pushed words per cache line. For the same reason each level writes its tag lookup out
(a shared lookup helper measured 18% slower on a GEMM).

Between an XCD's L2 and the levels below sits the XCD's port to the data fabric (``fabric_port``): every line
fill and write-back of the XCD queues there for its share of ``l2.fabric_bytes_per_clk``.

Model assumptions: the scalar cache has no port limit or MSHR file; L2 writes allocate without a fetch (byte
masks); dirty L2 victims and write-through traffic go to HBM without touching the MALL and nobody waits for
them (the end-of-kernel release, which the kernel does wait for, is ``maintenance.end_of_kernel_write_back``:
its lines stay dirty in the MALL, which writes them to HBM when it evicts them, ``mall_evict``);
atomics are the caller's (issue them as an L2 write plus an L2 read).
"""
from numba import njit

from gpusim.memory.kernels.cache import (
    EMPTY, LRU, cache_fill, cache_invalidate_way, cache_lookup, cache_set, line_fill, line_hit, tag_address)
from gpusim.memory.kernels.channel import (
    channel_global, channel_local, channel_occupancy, channel_of, channel_request, channel_request_skipping)
from gpusim.memory.kernels import dram
from gpusim.memory.kernels.dram import D_ENABLED, DramArrays, dram_drain_all, dram_read, dram_write
from gpusim.memory.kernels.fastdiv import quot, rem
from gpusim.memory.kernels.slots import slot_hold, slot_wait

# Indices into the int64 parameter vector built by gpusim.memory.hierarchy.MemoryLevels.
P_CUS_PER_XCD = 0
P_POLICY = 1
P_L1_LINE = 2
P_L1_LAT = 3
P_L1_BPC = 4
P_L1_WRITE_ALLOCATE = 5
P_SQ_SHARED = 6
P_SQ_LINE = 7
P_SQ_LAT = 8
P_L2_LINE = 9
P_L2_LAT = 10
P_L2_BPC = 11
P_L2_CHANNELS = 12
P_L2_INTERLEAVE = 13
P_L2_WRITE_BACK = 14
P_MALL_LINE = 15
P_MALL_LAT = 16
P_MALL_BPC = 17
P_MALL_CHANNELS = 18
P_HBM_CHANNELS = 19
P_HBM_INTERLEAVE = 20
P_HBM_BYTES_PER_MEM_CLK = 21
P_HBM_LAT = 22
P_SHADER_MHZ = 23
P_MEMORY_MHZ = 24
P_L2_FLUSH_AT_END = 25
P_L2_INV_KEEPS_DEVICE = 26
P_L2_WB_TO_MALL = 27
P_L1_MISS_EVICT_BITS = 28
P_FABRIC_BPC = 29
N_PARAMS = 30

# Per-CU vector L1 counters (tcp[cu, :]).
TCP_TOTAL_CACHE_ACCESSES = 0
TCP_TCC_READ_REQ = 1
TCP_TCC_WRITE_REQ = 2
GPUSIM_TCP_HIT = 3
GPUSIM_TCP_MISS = 4
GPUSIM_TCP_MSHR_STALL_CYCLES = 5
N_TCP = 6

# Per scalar-cache instance counters (sqc[cu // shared_by_cus, :]).
SQC_DCACHE_REQ = 0
SQC_DCACHE_HITS = 1
SQC_DCACHE_MISSES = 2
N_SQC = 3

# Per L2 channel counters (tcc[xcd, channel, :]).
TCC_REQ = 0
TCC_READ = 1
TCC_WRITE = 2
TCC_HIT = 3
TCC_MISS = 4
TCC_EA_RDREQ = 5
TCC_EA_WRREQ = 6
GPUSIM_TCC_MSHR_STALL_CYCLES = 7
GPUSIM_TCC_FABRIC_STALL_CYCLES = 8
N_TCC = 9

# Per MALL channel counters (mall_ctr[channel, :]).
GPUSIM_MALL_REQ = 0
GPUSIM_MALL_HIT = 1
GPUSIM_MALL_MISS = 2
GPUSIM_MALL_WRREQ = 3  # L2 write-backs the MALL took (maintenance._write_back_to_mall)
GPUSIM_MALL_WRITEBACK = 4  # dirty MALL lines written to HBM when evicted (mall_evict)
N_MALL = 5

# Per HBM channel counters (hbm_ctr[channel, :]).
GPUSIM_HBM_RDREQ = 0
GPUSIM_HBM_WRREQ = 1
GPUSIM_HBM_READ_BYTES = 2
GPUSIM_HBM_WRITE_BYTES = 3
GPUSIM_HBM_QUEUE_STALL_CYCLES = 4
N_HBM = dram.N_HBM  # the DRAM model's counters follow (gpusim.memory.kernels.dram.GPUSIM_HBM_*)


@njit(_nrt=False)
def _ceil_div(a, b):
    return -(-a // b)


@njit(_nrt=False)
def _hbm(M, addr, nbytes, t, is_write):
    """_hbm serves an HBM read (or write) of ``nbytes`` at ``addr`` arriving at shader cycle ``t``; returns the
    cycle its data is back (a read) or the controller has accepted it (a write).

    With ``hbm.timing.enabled`` the DRAM model (``dram.dram_read``/``dram_write``) times it in memory clocks;
    otherwise the channel is a bandwidth calendar of ``hbm.bytes_per_memory_clk_per_channel``. A read holds an
    entry of its channel's queue until its data has moved; ``hbm.latency_cycles`` (controller, PHY and fabric)
    comes on top of either.
    """
    p, hbm_queue, hbm_ctr = M.params, M.hbm_queue, M.hbm_ctr
    ch = channel_of(addr, p[P_HBM_INTERLEAVE], p[P_HBM_CHANNELS])
    if is_write:
        hbm_ctr[ch, GPUSIM_HBM_WRREQ] += 1
        hbm_ctr[ch, GPUSIM_HBM_WRITE_BYTES] += nbytes
    else:
        hbm_ctr[ch, GPUSIM_HBM_RDREQ] += 1
        hbm_ctr[ch, GPUSIM_HBM_READ_BYTES] += nbytes
    # The DRAM counts in memory clocks; converting there and back keeps its rates exact.
    if M.dram_params[D_ENABLED]:
        dram = DramArrays(M.dram_params, M.dram_map, M.dram_bank, M.dram_bg, M.dram_pc, M.dram_wq, M.hbm_free,
                          hbm_ctr)
        local = channel_local(addr, p[P_HBM_INTERLEAVE], p[P_HBM_CHANNELS])
        tm = _ceil_div(t * p[P_MEMORY_MHZ], p[P_SHADER_MHZ])
        if is_write:  # buffered in the controller's write queue, which acknowledges it (or drains first)
            accepted = _ceil_div(dram_write(dram, ch, local, nbytes, tm) * p[P_SHADER_MHZ], p[P_MEMORY_MHZ])
            return accepted + p[P_HBM_LAT]
        q = hbm_queue[ch]
        i, start = slot_wait(q, t)
        hbm_ctr[ch, GPUSIM_HBM_QUEUE_STALL_CYCLES] += start - t
        tm = _ceil_div(start * p[P_MEMORY_MHZ], p[P_SHADER_MHZ])
        served = _ceil_div(dram_read(dram, ch, local, nbytes, tm) * p[P_SHADER_MHZ], p[P_MEMORY_MHZ])
        slot_hold(q, i, start, served)
        return served + p[P_HBM_LAT]
    q = hbm_queue[ch]
    i, start = slot_wait(q, t)
    hbm_ctr[ch, GPUSIM_HBM_QUEUE_STALL_CYCLES] += start - t
    t = start
    tm = _ceil_div(t * p[P_MEMORY_MHZ], p[P_SHADER_MHZ])
    dm = channel_request(M.hbm_free, ch, tm, nbytes, p[P_HBM_BYTES_PER_MEM_CLK], 0)
    served = _ceil_div(dm * p[P_SHADER_MHZ], p[P_MEMORY_MHZ])
    # a controller queue entry is free once the channel has moved the data; the
    # latency after that is pipeline, so only the bandwidth backlog is bounded
    slot_hold(q, i, t, served)
    return served + p[P_HBM_LAT]


FABRIC_TICKS = 16   # the fabric ports' calendars count sixteenths of a cycle: a port moves a fraction of a line per clock
FABRIC_CALENDAR_BUCKETS = 1 << 15   # 2^15 buckets of 32 ticks: the 65,536-cycle horizon of the other calendars


@njit(_nrt=False, inline="always")
def fabric_port(M, xcd, ch, t):
    """fabric_port returns the cycle, at or after ``t``, that one L2 line moving between channel ``ch`` of XCD
    ``xcd``'s L2 and the data fabric (a fill from the MALL or HBM, or a write-back) gets the XCD's port.

    The port is one bandwidth server per XCD of ``l2.fabric_bytes_per_clk`` (0: no port limit), shared by the
    XCD's L2 channels, timed in ``FABRIC_TICKS`` per cycle so that a line can take a fraction of a clock. It
    delays a line only while other lines hold it, and adds no latency of its own (the levels' latencies
    already include the fabric's). The wait is counted on channel ``ch`` as GPUSIM_TCC_FABRIC_STALL_CYCLES.
    A write-back burst (the end-of-kernel release) can queue thousands of lines at once, so the port's
    calendar skips its fully taken buckets (``channel.channel_request_skipping``, ``M.fabric_full``).
    Mutates ``M.fabric_free`` and ``M.fabric_full``.
    """
    p = M.params
    bpc = p[P_FABRIC_BPC]
    if bpc == 0:
        return t
    line_ticks = p[P_L2_LINE] * FABRIC_TICKS
    start = (channel_request_skipping(M.fabric_free, M.fabric_full, xcd, t * FABRIC_TICKS, line_ticks, bpc, 0)
             - channel_occupancy(line_ticks, bpc))
    start = max(t, -(-start // FABRIC_TICKS))
    M.tcc[xcd, ch, GPUSIM_TCC_FABRIC_STALL_CYCLES] += start - t
    return start


@njit(_nrt=False)
def _write_back_line(M, xcd, ch, tag, t):
    """_write_back_line sends dirty L2 line ``tag`` of channel ``ch`` to HBM from cycle ``t``, through the
    XCD's fabric port (``fabric_port``), in EA requests of one MALL line (TCC_EA_WRREQ); returns when the
    last has been accepted."""
    p, tcc = M.params, M.tcc
    line_b = p[P_L2_LINE]
    ea = min(line_b, p[P_MALL_LINE])
    line = channel_global(tag_address(tag, line_b), ch, p[P_L2_INTERLEAVE], p[P_L2_CHANNELS])
    t = fabric_port(M, xcd, ch, t)
    done = t
    for off in range(0, line_b, ea):
        tcc[xcd, ch, TCC_EA_WRREQ] += 1
        done = max(done, _hbm(M, line + off, ea, t, True))
    return done


@njit(_nrt=False, inline="always")
def mall_evict(M, ch, s, w, t):
    """mall_evict writes way ``w`` of set ``s`` of MALL slice ``ch`` to HBM from cycle ``t`` if it is dirty (an
    L2 write-back left it there) and leaves it clean, before the way takes another line; nobody waits for
    the write (GPUSIM_MALL_WRITEBACK, and HBM's write counters). An empty way is never dirty, so any victim
    way may be passed. Mutates ``M.mall_dirty``, HBM and counters."""
    if M.mall_dirty[ch, s, w]:
        p = M.params
        local = tag_address(M.mall_tags[ch, s, w], p[P_MALL_LINE])
        _hbm(M, channel_global(local, ch, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS]), p[P_MALL_LINE], t, True)
        M.mall_ctr[ch, GPUSIM_MALL_WRITEBACK] += 1
        M.mall_dirty[ch, s, w] = 0


@njit(_nrt=False, inline="always")
def _mall_read(M, addr, t):
    p, mall_tags, mall_stamps, mall_ready = M.params, M.mall_tags, M.mall_stamps, M.mall_ready
    mall_free, mall_ctr = M.mall_free, M.mall_ctr
    seq = M.seq
    line_b = p[P_MALL_LINE]
    line = addr - rem(addr, line_b)
    if p[P_MALL_CHANNELS] == 0:
        return _hbm(M, line, line_b, t, False)
    # A MALL slice sits in front of each HBM channel, so both use the HBM interleave.
    ch = channel_of(line, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
    local = channel_local(line, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
    mall_ctr[ch, GPUSIM_MALL_REQ] += 1
    seq[0] += 1
    t = channel_request(mall_free, ch, t, line_b, p[P_MALL_BPC], p[P_MALL_LAT])
    tags = mall_tags[ch]
    stamps = mall_stamps[ch]
    s = cache_set(tags, local, line_b)
    w = cache_lookup(tags, stamps, s, local, line_b)
    if w >= 0:
        mall_ctr[ch, GPUSIM_MALL_HIT] += 1
        if p[P_POLICY] == LRU:
            stamps[s, w] = seq[0]
        return line_hit(mall_ready[ch, s, w], t)
    mall_ctr[ch, GPUSIM_MALL_MISS] += 1
    w = -1 - w
    mall_evict(M, ch, s, w, t)
    cache_fill(tags, stamps, s, w, local, line_b, seq[0])
    done = _hbm(M, line, line_b, t, False)
    line_fill(mall_ready[ch, s, w], t, done)
    return done


@njit(_nrt=False, inline="always")
def _l2_access(M, xcd, addr, nbytes, t, is_write):
    p, l2_tags, l2_stamps, l2_ready, l2_dirty = M.params, M.l2_tags, M.l2_stamps, M.l2_ready, M.l2_dirty
    l2_free, l2_mshr, tcc = M.l2_free, M.l2_mshr, M.tcc
    seq = M.seq
    line_b = p[P_L2_LINE]
    line = addr - rem(addr, line_b)
    nch = p[P_L2_CHANNELS]
    il = p[P_L2_INTERLEAVE]
    ch = channel_of(line, il, nch)
    local = channel_local(line, il, nch)
    tcc[xcd, ch, TCC_REQ] += 1
    tcc[xcd, ch, TCC_WRITE if is_write else TCC_READ] += 1
    seq[0] += 1
    t = channel_request(l2_free[xcd], ch, t, nbytes, p[P_L2_BPC], p[P_L2_LAT])
    tags = l2_tags[xcd, ch]
    stamps = l2_stamps[xcd, ch]
    s = cache_set(tags, local, line_b)
    ea = min(line_b, p[P_MALL_LINE])
    w = cache_lookup(tags, stamps, s, local, line_b)
    hit = w >= 0
    if hit:
        tcc[xcd, ch, TCC_HIT] += 1
        if p[P_POLICY] == LRU:
            stamps[s, w] = seq[0]
    else:
        tcc[xcd, ch, TCC_MISS] += 1
        w = -1 - w
        if tags[s, w] != EMPTY and l2_dirty[xcd, ch, s, w]:
            _write_back_line(M, xcd, ch, tags[s, w], t)
        cache_fill(tags, stamps, s, w, local, line_b, seq[0])
        l2_dirty[xcd, ch, s, w] = 0
        line_fill(l2_ready[xcd, ch, s, w], t, t)
    if is_write:
        if p[P_L2_WRITE_BACK]:
            l2_dirty[xcd, ch, s, w] = 1
        else:
            tcc[xcd, ch, TCC_EA_WRREQ] += 1
            _hbm(M, addr, nbytes, t, True)
        return t
    if hit:
        return line_hit(l2_ready[xcd, ch, s, w], t)
    since = t
    mshr = l2_mshr[xcd, ch]
    i, start = slot_wait(mshr, t)
    tcc[xcd, ch, GPUSIM_TCC_MSHR_STALL_CYCLES] += start - t
    t = fabric_port(M, xcd, ch, start)
    done = t
    # An L2 line is fetched in EA requests of one MALL line each (64 B on CDNA3, as rocprof counts them).
    for off in range(0, line_b, ea):
        tcc[xcd, ch, TCC_EA_RDREQ] += 1
        done = max(done, _mall_read(M, line + off, t))
    slot_hold(mshr, i, t, done)
    line_fill(l2_ready[xcd, ch, s, w], since, done)
    return done


@njit(_nrt=False, inline="always")
def access_line(M, cu, addr, nbytes, now, is_write, is_scalar, cache_bits):
    """access_line walks one line request of CU ``cu`` issued at cycle ``now`` down the hierarchy and returns
    the cycle its data is visible (a read) or the L2 has accepted it (a write).

    ``M`` is ``gpusim.memory.hierarchy.MemoryLevels.kernel_args()`` (shapes there). ``addr`` is any byte
    address in the line; ``nbytes`` is the bytes a write moves (a read always moves whole lines). A vector
    request starts at the CU's L1 (write-through; write-allocate only if the L1 policy says so); one whose
    ``cache_bits`` (the instruction's 1 glc/sc0, 2 slc/sc1, 4 nt) meet the L1's miss-evict bits misses the L1
    and leaves the line out of it (a store drops it, a load does not fill it). A scalar one
    (``is_scalar``, reads only) at the scalar cache of CU ``cu``. Misses go to the L2 of the CU's XCD, then
    the MALL, then HBM. Mutates every state and counter array of ``M``; ``seq[0]`` is the replacement stamp
    clock.
    """
    p, l1_tags, l1_stamps, l1_ready = M.params, M.l1_tags, M.l1_stamps, M.l1_ready
    l1_free, l1_mshr, tcp = M.l1_free, M.l1_mshr, M.tcp
    sq_tags, sq_stamps, sq_ready, sqc, seq = M.sq_tags, M.sq_stamps, M.sq_ready, M.sqc, M.seq
    xcd = quot(cu, p[P_CUS_PER_XCD])
    seq[0] += 1
    mshr_slot = -1
    evict = False
    if is_scalar:
        inst = quot(cu, p[P_SQ_SHARED])
        line_b = p[P_SQ_LINE]
        line = addr - rem(addr, line_b)
        sqc[inst, SQC_DCACHE_REQ] += 1
        t = now + p[P_SQ_LAT]
        tags = sq_tags[inst]
        stamps = sq_stamps[inst]
        s = cache_set(tags, line, line_b)
        w = cache_lookup(tags, stamps, s, line, line_b)
        if w >= 0:
            sqc[inst, SQC_DCACHE_HITS] += 1
            if p[P_POLICY] == LRU:
                stamps[s, w] = seq[0]
            return line_hit(sq_ready[inst, s, w], t)
        sqc[inst, SQC_DCACHE_MISSES] += 1
        w = -1 - w
        cache_fill(tags, stamps, s, w, line, line_b, seq[0])
        entry = sq_ready[inst, s, w]  # filled when the L2 answers
    else:
        line_b = p[P_L1_LINE]
        line = addr - rem(addr, line_b)
        tcp[cu, TCP_TOTAL_CACHE_ACCESSES] += 1
        t = channel_request(l1_free, cu, now, nbytes if is_write else line_b, p[P_L1_BPC], p[P_L1_LAT])
        tags = l1_tags[cu]
        stamps = l1_stamps[cu]
        s = cache_set(tags, line, line_b)
        w = cache_lookup(tags, stamps, s, line, line_b)
        # CDNA3 ISA, Tables 49 and 50: a plain load hits LRU and a plain store misses LRU (writes through and
        # keeps a line it hits); device or system scope (sc1) and nt make both MISS_EVICT
        evict = (cache_bits & p[P_L1_MISS_EVICT_BITS]) != 0
        if w >= 0 and evict:
            cache_invalidate_way(tags, stamps, s, w)
            w = -1 - w
        if w >= 0:
            tcp[cu, GPUSIM_TCP_HIT] += 1
            if p[P_POLICY] == LRU:
                stamps[s, w] = seq[0]
            if not is_write:
                return line_hit(l1_ready[cu, s, w], t)
        else:
            tcp[cu, GPUSIM_TCP_MISS] += 1
        if is_write:
            if w < 0 and p[P_L1_WRITE_ALLOCATE] and not evict:
                w = -1 - w
                cache_fill(tags, stamps, s, w, line, line_b, seq[0])
                line_fill(l1_ready[cu, s, w], t, t)
            tcp[cu, TCP_TCC_WRITE_REQ] += 1
            entry = l1_ready[cu, s, 0]  # not used: a write fills nothing on its way back
        else:
            mshr_slot, start = slot_wait(l1_mshr[cu], t)
            tcp[cu, GPUSIM_TCP_MSHR_STALL_CYCLES] += start - t
            since = t
            t = start
            w = -1 - w
            if not evict:
                cache_fill(tags, stamps, s, w, line, line_b, seq[0])
            entry = l1_ready[cu, s, w]  # filled when the L2 answers (left as it is on a miss-evict load)
    if is_scalar:
        since = t
    # the L2 sees a write as it is, a read miss as the L2 lines the cache line covers
    l2_line = p[P_L2_LINE]
    first = addr if is_write else line - rem(line, l2_line)
    stop = addr + 1 if is_write else line + line_b
    done = t
    for sub in range(first, stop, l2_line):
        if not (is_write or is_scalar):
            tcp[cu, TCP_TCC_READ_REQ] += 1
        done = max(done, _l2_access(M, xcd, max(sub, line), nbytes if is_write else min(line_b, l2_line), t,
                                    is_write))
    if is_write:
        return done
    if not is_scalar:
        slot_hold(l1_mshr[cu], mshr_slot, t, done)
        if evict:
            return done
    line_fill(entry, since, done)
    return done


@njit(_nrt=False)
def drain_dram_writes(M, t):
    """drain_dram_writes drains the DRAM write queues at the end of a kernel (cycle ``t``), so every write is
    timed and counted; the kernel does not wait for them (the controller acknowledged each when it queued it)."""
    p = M.params
    dram = DramArrays(M.dram_params, M.dram_map, M.dram_bank, M.dram_bg, M.dram_pc, M.dram_wq, M.hbm_free, M.hbm_ctr)
    dram_drain_all(dram, _ceil_div(t * p[P_MEMORY_MHZ], p[P_SHADER_MHZ]))
