"""MemoryLevels: the state arrays and counters of a GPU's memory hierarchy, built from an Arch."""
from __future__ import annotations

import functools
import math

import numpy as np

from gpusim.memory.kernels import access as K
from gpusim.memory.kernels import translation as TR
from gpusim.memory.kernels.arrays import MemoryArrays
from gpusim.memory.kernels.cache import FIFO, LRU
from gpusim.memory.kernels import dram as D
from gpusim.memory.kernels.channel import channel_calendar
from gpusim.memory.kernels.translation import TranslationArrays, translated_access_line

_POLICIES = {"lru": LRU, "fifo": FIFO}

TCP_COUNTERS = ("TCP_TOTAL_CACHE_ACCESSES", "TCP_TCC_READ_REQ", "TCP_TCC_WRITE_REQ",
                "GPUSIM_TCP_HIT", "GPUSIM_TCP_MISS", "GPUSIM_TCP_MSHR_STALL_CYCLES")
SQC_COUNTERS = ("SQC_DCACHE_REQ", "SQC_DCACHE_HITS", "SQC_DCACHE_MISSES")
TCC_COUNTERS = ("TCC_REQ", "TCC_READ", "TCC_WRITE", "TCC_HIT", "TCC_MISS", "TCC_EA_RDREQ", "TCC_EA_WRREQ",
                "GPUSIM_TCC_MSHR_STALL_CYCLES", "GPUSIM_TCC_FABRIC_STALL_CYCLES")
MALL_COUNTERS = ("GPUSIM_MALL_REQ", "GPUSIM_MALL_HIT", "GPUSIM_MALL_MISS", "GPUSIM_MALL_WRREQ", "GPUSIM_MALL_WRITEBACK")
HBM_COUNTERS = ("GPUSIM_HBM_RDREQ", "GPUSIM_HBM_WRREQ", "GPUSIM_HBM_READ_BYTES", "GPUSIM_HBM_WRITE_BYTES",
                "GPUSIM_HBM_QUEUE_STALL_CYCLES",
                # the DRAM model's (gpusim.memory.kernels.dram), in its index order
                "GPUSIM_HBM_ROW_HIT", "GPUSIM_HBM_ROW_MISS", "GPUSIM_HBM_ROW_CONFLICT", "GPUSIM_HBM_RD_CAS",
                "GPUSIM_HBM_WR_CAS", "GPUSIM_HBM_ACT", "GPUSIM_HBM_PRE", "GPUSIM_HBM_REFRESH_STALL_CYCLES",
                "GPUSIM_HBM_READ_TO_WRITE", "GPUSIM_HBM_WRITE_TO_READ")
UTCL1_COUNTERS = ("TCP_UTCL1_REQUEST", "TCP_UTCL1_TRANSLATION_HIT", "TCP_UTCL1_TRANSLATION_MISS",
                  "GPUSIM_UTCL1_MISS_STALL_CYCLES")
UTCL2_COUNTERS = ("GPUSIM_UTCL2_REQ", "GPUSIM_UTCL2_HIT", "GPUSIM_UTCL2_MISS", "GPUSIM_PAGE_WALKS",
                  "GPUSIM_PAGE_WALK_READS", "GPUSIM_PAGE_WALK_CYCLES", "GPUSIM_UTCL2_WALKER_STALL_CYCLES")


# A walker queue can grow far deeper than a channel's (a transpose queues walks for tens of microseconds),
# so the UTCL2's walker calendar looks 2^16 x 32 cycles (about 1 ms) ahead instead of 65,536 cycles.
WALKER_CALENDAR_BUCKETS = 1 << 16


def translation_arrays(arch, cus: int, xcds: int) -> TranslationArrays:
    """translation_arrays builds the UTCL1 (per CU) and UTCL2 (per XCD) state of ``arch.translation``.

    The walk reads from memory the levels below the page-directory cache: a 4-level table of 4 KiB
    leaves (PTE, PDE0, PDE1, PDE2), where a page of 2^(12 + 9k) bytes or more ends the walk at level k
    (2 MiB fragments at PDE0), minus ``pde_cache_levels`` cached upper levels, at least one read.
    """
    tr = arch.translation
    p = np.zeros(TR.N_TR_PARAMS, np.int64)
    p[TR.P_TR_ENABLED] = tr.enabled
    p[TR.P_TR_PAGE_BYTES] = tr.page_bytes
    p[TR.P_TR_L1_HIT], p[TR.P_TR_L2_HIT] = tr.utcl1_hit_cycles, tr.utcl2_hit_cycles
    p[TR.P_TR_WALK_LEVEL] = tr.walk_level_cycles
    leaf = min((tr.page_bytes.bit_length() - 1 - 12) // 9, 3)
    p[TR.P_TR_LEAF_LEVEL] = leaf
    p[TR.P_TR_WALK_READS] = max(1, 4 - leaf - tr.pde_cache_levels)
    p[TR.P_TR_L1_MISS_SLOTS], p[TR.P_TR_WALKERS] = tr.utcl1_misses_in_flight, tr.utcl2_walkers
    p[TR.P_TR_WALK_BUSY] = tr.walk_busy_cycles
    l1_ways, l2_ways = tr.utcl1_associativity, tr.utcl2_associativity
    l1 = _cache((cus,), tr.utcl1_entries // l1_ways, l1_ways)
    l2 = _cache((xcds,), tr.utcl2_entries // l2_ways, l2_ways)
    last = np.zeros((cus, 4), np.int64)
    last[:, :2] = -1   # no instruction and no page yet
    return TranslationArrays(p, *l1, *l2, last, channel_calendar(cus), channel_calendar(xcds, buckets=WALKER_CALENDAR_BUCKETS),
                             np.zeros((cus, TR.N_UTCL1), np.int64), np.zeros((xcds, TR.N_UTCL2), np.int64))


@functools.lru_cache(maxsize=8)
def _dram_map(bits: tuple) -> np.ndarray:
    """_dram_map is the DRAM model's decode table of an address map, built once per map: a program builds
    memory levels for every kernel it times."""
    return np.array(D.decode_table(bits), np.int64)


def _sets(size_bytes: int, line_bytes: int, ways: int) -> int:
    return max(1, size_bytes // (line_bytes * ways))


def ways_in_use(tags: np.ndarray, stamps: np.ndarray) -> int:
    """ways_in_use is how many leading ways of a timed cache's ``tags``/``stamps`` (indexed [..., set, way])
    hold anything in some set: everything past them is zero in both arrays.

    A set's ways fill from way 0 up and are never emptied (gpusim.memory.kernels.cache: a fill takes the
    first EMPTY way, an invalidate leaves INVALIDATED; a stamp is written only with a tag), so the first way
    no set uses ends the used part. Copying or scanning only that part is exact, and a 256 MB MALL that a
    kernel boundary hands on usually holds lines in its first one or two of 16 ways. Looks at O(log ways) ways.
    """
    used, unused = 0, tags.shape[-1]   # ways [0, used) hold lines, [unused, ...) none: bisect between
    while used < unused:
        w = (used + unused) // 2
        if tags[..., w].any() or stamps[..., w].any():
            used = w + 1
        else:
            unused = w
    return used


def _cache(instances: tuple, sets: int, ways: int, ways_outermost: bool = False) -> tuple:
    """_cache returns the tags (all ``EMPTY``), stamps and ready (data-ready, fill-requested cycle pairs) of a
    timed cache, indexed [*instances, set, way]: zeroed arrays, a set's ways side by side, or with
    ``ways_outermost`` laid out with the way outermost.

    Side by side, a lookup reads one or two host cache lines of tags and of stamps; way-outermost, one per
    way it looks at. (Measured with benchmarks/timed_rate.py's cases in one warm process, the L1, scalar
    cache, L2 and TLBs side by side and the MALL way-outermost against all way-outermost: GEMM
    4096x4096x512 9-15% and the 8M-element saxpy 1-7% less CPU time, the same peak memory.)
    Way-outermost is for a cache too large to fill (the 256 MB MALL): a set's ways fill from way 0 up, so a
    footprint that fills only the first ways of each set (a streaming kernel) touches only the first part
    of each array, and the host supplies no memory, not even huge pages, for the rest. (Measured on the same
    saxpy: 0.35 s less system time than sets laid out whole, and no more user time.)
    """
    if not ways_outermost:
        shape = instances + (sets, ways)
        return np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape + (2,), np.int64)
    # numba types a contiguous array apart from a strided one and would compile the timing model again for it,
    # so the view must never be contiguous: one set more than used does that while two of its dimensions
    # exceed one (one instance or one set included); with only the sets above one (one direct-mapped
    # instance) every other set of twice as many is used instead
    step = 2 if ways == 1 and math.prod(instances) == 1 else 1
    shape = (ways,) + instances + (sets * step + 1,)
    used = (slice(None),) * (1 + len(instances)) + (slice(0, sets * step, step),)
    return (np.moveaxis(np.zeros(shape, np.int64)[used], 0, -1), np.moveaxis(np.zeros(shape, np.int64)[used], 0, -1),
            np.moveaxis(np.zeros(shape + (2,), np.int64)[used], 0, -2))


class MemoryLevels:
    """MemoryLevels holds the caches, channel servers, MSHRs and counters of every memory level of an Arch.

    Arrays (int64 unless noted; "tags/stamps/ready" are one cache's line numbers, replacement stamps and
    (data-ready, fill-requested) cycle pairs, so ``ready`` has a trailing dimension of 2):
      params                      [N_PARAMS]                 see ``gpusim.memory.kernels.access.P_*``
      l1_tags/stamps/ready        [cus, sets, ways]          vector L1 per CU
      l1_free [cus, CALENDAR]; l1_mshr [cus, mshrs, 2]        L1 port server; MSHR (take, give back) cycles
      sq_tags/stamps/ready        [cus / shared_by_cus, sets, ways]   scalar cache
      l2_tags/stamps/ready/dirty  [xcds, channels, sets, ways]        L2, sets split per channel
      l2_free [xcds, channels, CALENDAR]; l2_mshr [xcds, channels, mshrs_per_channel, 2]
      fabric_free                 [xcds, FABRIC_CALENDAR_BUCKETS]: each XCD's port to the data fabric, in ticks;
      fabric_full [xcds, 2]       a run of its fully taken buckets (channel.channel_request_skipping)
      mall_tags/stamps/ready/dirty [mall channels, sets, ways]; mall_free [mall channels, CALENDAR]
      hbm_free [hbm channels x pseudo-channels, CALENDAR] (memory clocks); hbm_queue [hbm channels, queue_depth_per_channel, 2]
      dram_params, dram_map, dram_bank, dram_bg, dram_pc, dram_wq   the DRAM model (gpusim.memory.kernels.dram)
      seq [1]                      replacement stamp clock
      tr                           translation.TranslationArrays: UTCL1 [cus, sets, ways], UTCL2 [xcds, sets, ways]

    Counters, one row per hardware instance (``counters()`` names them ``NAME[i]`` and sums them as ``NAME_sum``):
      tcp [cus, :]            TCP_TOTAL_CACHE_ACCESSES (line lookups, reads and writes), TCP_TCC_READ_REQ,
                              TCP_TCC_WRITE_REQ (requests to L2), and gpusim's own GPUSIM_TCP_HIT / _MISS
                              (hit + miss = accesses) and GPUSIM_TCP_MSHR_STALL_CYCLES
      sqc [scalar caches, :] SQC_DCACHE_REQ, SQC_DCACHE_HITS, SQC_DCACHE_MISSES
      tcc [xcds, channels, :] TCC_REQ, TCC_READ, TCC_WRITE, TCC_HIT, TCC_MISS (hit + miss = req),
                              TCC_EA_RDREQ / TCC_EA_WRREQ (fabric requests of min(L2 line, MALL line) bytes:
                              64 B on CDNA3, so bytes = 64 x count as rocprof-compute computes them),
                              GPUSIM_TCC_MSHR_STALL_CYCLES, GPUSIM_TCC_FABRIC_STALL_CYCLES (cycles line
                              transfers waited for the channel's fabric port)
      mall_ctr [channels, :]  GPUSIM_MALL_REQ, _HIT, _MISS (reads), _WRREQ (L2 write-backs taken),
                              _WRITEBACK (dirty lines evicted to HBM) (no public AMD counter names)
      hbm_ctr [channels, :]   GPUSIM_HBM_RDREQ, _WRREQ, _READ_BYTES (= MALL misses x MALL line), _WRITE_BYTES,
                              GPUSIM_HBM_QUEUE_STALL_CYCLES (reads waiting for a queue entry); with the DRAM
                              model (hbm.timing.enabled) also GPUSIM_HBM_ROW_HIT / _ROW_MISS (bank closed) /
                              _ROW_CONFLICT (another row open), which add up to _RD_CAS + _WR_CAS (column
                              accesses of hbm.timing.access_bytes), _ACT (= misses + conflicts, plus a row a refresh closed
                              between its ACT and column access opening again), _PRE
                              (= conflicts), _REFRESH_STALL_CYCLES (memory clocks commands waited for a
                              refresh), _READ_TO_WRITE / _WRITE_TO_READ (bus turnarounds)
      tr.utcl1_ctr [cus, :]   TCP_UTCL1_REQUEST, TCP_UTCL1_TRANSLATION_HIT, _MISS (hit + miss = request),
                              GPUSIM_UTCL1_MISS_STALL_CYCLES
      tr.utcl2_ctr [xcds, :]  GPUSIM_UTCL2_REQ, _HIT, _MISS (hit + miss = req; no public AMD counter names),
                              GPUSIM_PAGE_WALKS, GPUSIM_PAGE_WALK_READS, GPUSIM_PAGE_WALK_CYCLES,
                              GPUSIM_UTCL2_WALKER_STALL_CYCLES
    ``cus`` limits the CUs modelled (default: all of the Arch) to keep small tests small.
    """

    def __init__(self, arch, cus: int | None = None):
        l1, sq, l2, mall, hbm = arch.cu.l1, arch.cu.scalar_cache, arch.l2, arch.mall, arch.hbm
        self.arch = arch
        self.cus = cus if cus is not None else arch.gpu.xcds * arch.gpu.cus_per_xcd
        xcds = -(-self.cus // arch.gpu.cus_per_xcd)
        p = np.zeros(K.N_PARAMS, np.int64)
        p[K.P_CUS_PER_XCD] = arch.gpu.cus_per_xcd
        p[K.P_POLICY] = _POLICIES[arch.policies.cache_replacement]
        p[K.P_L1_LINE], p[K.P_L1_LAT], p[K.P_L1_BPC] = l1.line_bytes, l1.latency_cycles, l1.bytes_per_clk
        p[K.P_L1_WRITE_ALLOCATE] = "no_allocate" not in l1.write_policy
        p[K.P_L1_MISS_EVICT_BITS] = l1.miss_evict_cache_bits
        p[K.P_SQ_SHARED], p[K.P_SQ_LINE], p[K.P_SQ_LAT] = sq.shared_by_cus, sq.line_bytes, sq.latency_cycles
        p[K.P_L2_LINE], p[K.P_L2_LAT], p[K.P_L2_BPC] = l2.line_bytes, l2.latency_cycles, l2.bytes_per_clk_per_channel
        p[K.P_L2_CHANNELS], p[K.P_L2_INTERLEAVE] = l2.channels, l2.channel_interleave_bytes
        p[K.P_L2_WRITE_BACK] = l2.write_policy == "write_back"
        p[K.P_L2_FLUSH_AT_END] = l2.write_policy == "write_back" and l2.write_back_at_kernel_end
        p[K.P_L2_INV_KEEPS_DEVICE] = l2.invalidate_keeps_device_memory
        p[K.P_L2_WB_TO_MALL] = l2.write_back_to_mall
        p[K.P_FABRIC_BPC] = l2.fabric_bytes_per_clk
        if mall.present:
            p[K.P_MALL_LINE], p[K.P_MALL_LAT] = mall.line_bytes, mall.latency_cycles
            p[K.P_MALL_BPC], p[K.P_MALL_CHANNELS] = mall.bytes_per_clk_per_channel, mall.channels
        else:  # P_MALL_CHANNELS 0: L2 misses go straight to HBM in L2-line requests
            p[K.P_MALL_LINE] = l2.line_bytes
        p[K.P_HBM_CHANNELS], p[K.P_HBM_INTERLEAVE] = hbm.channels, hbm.channel_interleave_bytes
        p[K.P_HBM_BYTES_PER_MEM_CLK], p[K.P_HBM_LAT] = hbm.bytes_per_memory_clk_per_channel, hbm.latency_cycles
        p[K.P_SHADER_MHZ], p[K.P_MEMORY_MHZ] = arch.clocks.shader_mhz, arch.clocks.memory_mhz
        self.params = p

        self.l1_tags, self.l1_stamps, self.l1_ready = _cache(
            (self.cus,), _sets(l1.size_bytes, l1.line_bytes, l1.associativity), l1.associativity)
        self.l1_free = channel_calendar(self.cus)
        self.l1_mshr = np.zeros((self.cus, l1.mshrs, 2), np.int64)
        self.tcp = np.zeros((self.cus, K.N_TCP), np.int64)

        n_sq = -(-self.cus // sq.shared_by_cus)
        self.sq_tags, self.sq_stamps, self.sq_ready = _cache(
            (n_sq,), _sets(sq.size_bytes, sq.line_bytes, sq.associativity), sq.associativity)
        self.sqc = np.zeros((n_sq, K.N_SQC), np.int64)

        l2_sets = _sets(l2.size_bytes // l2.channels, l2.line_bytes, l2.associativity)
        self.l2_tags, self.l2_stamps, self.l2_ready = _cache((xcds, l2.channels), l2_sets, l2.associativity)
        self.l2_dirty = np.zeros(self.l2_tags.shape, np.uint8)
        self.l2_free = channel_calendar(xcds, l2.channels)
        self.l2_mshr = np.zeros((xcds, l2.channels, l2.mshrs_per_channel, 2), np.int64)
        self.fabric_free = channel_calendar(xcds, buckets=K.FABRIC_CALENDAR_BUCKETS)
        self.fabric_full = np.zeros((xcds, 2), np.int64)
        self.tcc = np.zeros((xcds, l2.channels, K.N_TCC), np.int64)

        # an architecture without a MALL (cdna2) keeps small placeholder arrays; the kernel skips the level. Two
        # ways, not one: a single entry is contiguous however it is laid out, and numba would type it apart from
        # a real MALL's view and compile a second timing model for it (172 s on 2 cores, for cdna2 alone)
        mall_channels = max(mall.channels, 1) if mall.present else 1
        mall_sets = _sets(mall.size_bytes // mall_channels, mall.line_bytes, mall.associativity) if mall.present else 1
        mall_ways = mall.associativity if mall.present else 2
        self.mall_tags, self.mall_stamps, self.mall_ready = _cache((mall_channels,), mall_sets, mall_ways,
                                                                     ways_outermost=True)
        self.mall_dirty = np.zeros(self.mall_tags.shape, np.uint8)
        self.mall_free = channel_calendar(mall_channels)
        self.mall_ctr = np.zeros((mall_channels, K.N_MALL), np.int64)

        self._hbm_arrays(arch)
        self.seq = np.zeros(1, np.int64)
        self.tr = translation_arrays(arch, self.cus, xcds)

    def _hbm_arrays(self, arch) -> None:
        """_hbm_arrays builds the HBM channel queues and the DRAM model's parameters, map and state
        (gpusim.memory.kernels.dram); the data-bus calendars are per pseudo-channel, and the first
        ``hbm.channels`` of them serve as the channel calendars when ``hbm.timing.enabled`` is false."""
        hbm, tm = arch.hbm, arch.hbm.timing
        pcs = hbm.channels * tm.pseudo_channels
        self.hbm_free = channel_calendar(pcs)
        self.hbm_queue = np.zeros((hbm.channels, hbm.queue_depth_per_channel, 2), np.int64)
        self.hbm_ctr = np.zeros((hbm.channels, K.N_HBM), np.int64)
        d = np.zeros(D.N_DRAM_PARAMS, np.int64)
        for index, value in ((D.D_ENABLED, tm.enabled), (D.D_PSEUDO_CHANNELS, tm.pseudo_channels),
                             (D.D_BANK_GROUPS, tm.bank_groups), (D.D_BANKS_PER_GROUP, tm.banks_per_group),
                             (D.D_ACCESS_BYTES, tm.access_bytes), (D.D_BURST, tm.burst_ck), (D.D_CL, tm.cl_ck),
                             (D.D_CWL, tm.cwl_ck), (D.D_RCD_RD, tm.rcd_rd_ck), (D.D_RCD_WR, tm.rcd_wr_ck),
                             (D.D_RP, tm.rp_ck), (D.D_RAS, tm.ras_ck), (D.D_RC, tm.rc_ck), (D.D_WR, tm.wr_ck),
                             (D.D_RTP, tm.rtp_ck), (D.D_CCD_S, tm.ccd_s_ck), (D.D_CCD_L, tm.ccd_l_ck),
                             (D.D_RRD_S, tm.rrd_s_ck), (D.D_RRD_L, tm.rrd_l_ck), (D.D_FAW, tm.faw_ck),
                             (D.D_WTR_S, tm.wtr_s_ck), (D.D_WTR_L, tm.wtr_l_ck), (D.D_RTW, tm.rtw_ck),
                             (D.D_RFC, tm.rfc_ck), (D.D_REFI, tm.refi_ck), (D.D_WQ_DEPTH, tm.write_queue_depth),
                             (D.D_WQ_HIGH, tm.write_high_watermark), (D.D_WQ_LOW, tm.write_low_watermark),
                             (D.D_IDLE_DRAIN, tm.write_idle_drain_ck),
                             (D.D_MAP_BITS, len(hbm.address_map.bits)), (D.D_PCS_TOTAL, pcs)):
            d[index] = value
        self.dram_params = d
        self.dram_map = _dram_map(tuple(hbm.address_map.bits)).copy()
        self.dram_bank = np.zeros((pcs, tm.bank_groups * tm.banks_per_group, D.N_BANK), np.int64)
        self.dram_bg = np.zeros((pcs, tm.bank_groups, D.N_BG), np.int64)
        self.dram_pc = np.zeros((pcs, D.N_PC), np.int64)
        self.dram_pc[:, D.C_REF_FIRST] = [D.refresh_first(g, tm.refi_ck, pcs) for g in range(pcs)]
        self.dram_wq = np.zeros((pcs, tm.write_queue_depth), np.int64)

    def kernel_args(self) -> MemoryArrays:
        """kernel_args returns the named bundle of arrays ``access_line`` takes as its first argument ``M``."""
        return MemoryArrays(self.params, self.l1_tags, self.l1_stamps, self.l1_ready, self.l1_free, self.l1_mshr, self.tcp,
                self.sq_tags, self.sq_stamps, self.sq_ready, self.sqc,
                self.l2_tags, self.l2_stamps, self.l2_ready, self.l2_dirty, self.l2_free, self.l2_mshr, self.tcc,
                self.fabric_free, self.fabric_full, self.mall_tags, self.mall_stamps, self.mall_ready, self.mall_dirty, self.mall_free,
                self.mall_ctr,
                self.hbm_free, self.hbm_queue, self.hbm_ctr,
                self.dram_params, self.dram_map, self.dram_bank, self.dram_bg, self.dram_pc, self.dram_wq, self.seq,
                self.tr)

    def for_next_kernel(self, *, keep_l2: bool) -> "MemoryLevels":
        """for_next_kernel returns the memory levels the next kernel on the same queue starts with.

        The kernel-start acquire invalidates every vector L1 and scalar cache, and the L2 too unless
        ``keep_l2``; the MALL, a memory-side cache, keeps what this kernel left, the L2 lines the
        end-of-kernel release wrote back to it still dirty there, and so do the UTCL1s and UTCL2s: the acquire
        invalidates data caches, and the driver flushes translations only when page tables change (model
        assumption: the same buffers, so the same page tables). Timing calendars, queues and counters are fresh:
        the next kernel's cycles start at 0. This object is not changed.
        """
        nxt = MemoryLevels(self.arch, self.cus)
        kept = [("mall_tags", "mall_stamps", "mall_dirty")] + ([("l2_tags", "l2_stamps", "l2_dirty")] if keep_l2 else [])
        for tags, stamps, dirty in kept:
            used = ways_in_use(getattr(self, tags), getattr(self, stamps))   # the rest is zero on both sides
            for name in (tags, stamps, dirty):
                getattr(nxt, name)[..., :used] = getattr(self, name)[..., :used]
        for name in ("l1_tags", "l1_stamps", "l2_tags", "l2_stamps"):
            getattr(nxt.tr, name)[...] = getattr(self.tr, name)
        nxt.seq[...] = self.seq   # later replacement stamps stay newer than the kept lines'
        return nxt

    def access(self, cu: int, addr: int, now: int, nbytes: int = 0, write: bool = False,
               scalar: bool = False, cache_bits: int = 0) -> int:
        """access translates one line request's address and sends it through ``access_line``
        (``translation.translated_access_line``); returns its completion cycle. ``cache_bits`` are the
        instruction's cache-policy bits (1 glc/sc0, 2 slc/sc1, 4 nt).

        Mutates this object's arrays. Engine hot loops, compiled by numba, call
        ``translated_access_line(kernel_args(), ...)`` directly.
        """
        return int(translated_access_line(self.kernel_args(), cu, addr, nbytes, now, write, scalar, cache_bits))

    def counters(self) -> dict:
        """counters returns every counter per hardware instance and summed over its instances.

        Keys follow rocprof: ``TCC_HIT[i]`` is instance i, ``TCC_HIT_sum`` the
        sum over all of them. An instance is one copy of the unit that counts:
          TCP_*, GPUSIM_TCP_*     one vector L1 per CU, i = CU index (xcd * cus_per_xcd + slot)
          SQC_*                   one scalar cache per ``shared_by_cus`` CUs, i = CU index // shared_by_cus
          TCC_*, GPUSIM_TCC_*     one L2 channel, i = xcd * l2.channels + channel over all XCDs
          GPUSIM_MALL_*           one MALL slice (a single all-zero instance when there is no MALL)
          GPUSIM_HBM_*            one HBM channel
          TCP_UTCL1_*             one UTCL1 per CU, i = CU index
          GPUSIM_UTCL2_*, GPUSIM_PAGE_WALK*   one UTCL2 per XCD, i = XCD index
        """
        sums, instances = self.counters_by_instance()
        out = dict(sums)
        for name, values in instances.items():
            out.update((f"{name}[{k}]", value) for k, value in enumerate(values))
        return out

    def counters_by_instance(self) -> tuple[dict, dict]:
        """counters_by_instance is ``counters()`` in two parts, built from the arrays at once: the sums
        (``{"TCC_HIT_sum": total, ...}``) and the instances (``{"TCC_HIT": [instance 0, 1, ...], ...}``).
        What the timing model reports after every dispatch: a program's hundreds of launches would
        otherwise build, and parse again, a key per instance (some 7,000 on cdna3) each time."""
        sums: dict = {}
        instances: dict = {}
        for names, arr in self._counter_arrays():
            flat = arr.reshape(-1, arr.shape[-1])
            totals = flat.sum(axis=0).tolist()
            columns = flat.T.tolist()
            for i, name in enumerate(names):
                sums[name + "_sum"] = totals[i]
                instances[name] = columns[i]
        return sums, instances

    def counter_views(self) -> list:
        """counter_views lists (counter names, flat int64 view) for every counter array, in the order
        gpusim.engine.kernels.bundles.MemoryCounterViews names them; a view follows the live counts, and
        column ``k`` of instance ``i`` is element ``i * len(names) + k``."""
        return [(names, arr.reshape(-1)) for names, arr in self._counter_arrays()]

    def _counter_arrays(self) -> tuple:
        return ((TCP_COUNTERS, self.tcp), (SQC_COUNTERS, self.sqc), (TCC_COUNTERS, self.tcc),
                (MALL_COUNTERS, self.mall_ctr), (HBM_COUNTERS, self.hbm_ctr),
                (UTCL1_COUNTERS, self.tr.utcl1_ctr), (UTCL2_COUNTERS, self.tr.utcl2_ctr))
