"""Cache maintenance: the write-backs and invalidates of buffer_wbl2, buffer_inv and buffer_wbinvl1.

LLVM brackets agent- and system-scope atomics and fences with them on gfx90a and gfx942 (AMDGPUUsage,
memory model): a release writes the L2's dirty lines back to memory (``buffer_wbl2``) before the
``s_waitcnt vmcnt(0)`` that waits for it; an acquire invalidates the CU's vector L1 (``buffer_inv``,
``buffer_wbinvl1_vol``) and, at agent or system scope on gfx942, whose agent spans several XCDs each
with its own L2, the lines of the CU's L2 that another XCD may have changed (``buffer_inv sc1``).

Model: memory has one type, device memory. An L2 invalidate drops only lines cached non-coherently (CDNA3
ISA, BUFFER_INV sc1: "invalidate non-coherently cached lines"; AMDGPUUsage GFX942 and GFX90A: the
invalidate drops non-local L2 lines), and device memory is cached coherently (MTYPE RW), so on an
architecture whose ``l2.invalidate_keeps_device_memory`` is set it drops nothing from the L2 and costs only
its round trip. Otherwise it drops every clean line of the XCD's L2 (a dirty line is the newest copy;
writing it back is buffer_wbl2's job). A write-back writes every dirty line of the XCD's L2.
The scope bits decide only whether the L2 is invalidated (sc1: agent or system scope). Dropped lines stay
in their ways as ``INVALIDATED`` and are the first victims of their sets. Every operation costs at least
the round trip of a request to the level it acts on.
"""
from numba import njit

from gpusim.asm.fields import CACHE_INV, CACHE_INV_L2, CACHE_WB_L2
from gpusim.memory.kernels.access import (
    P_CUS_PER_XCD, P_HBM_INTERLEAVE, P_L1_LAT, P_L2_CHANNELS, P_L2_FLUSH_AT_END, P_L2_INTERLEAVE, P_L2_INV_KEEPS_DEVICE, P_L2_LAT,
    P_L2_LINE, P_L2_WB_TO_MALL, P_MALL_BPC, P_MALL_CHANNELS, P_MALL_LAT, P_MALL_LINE, TCC_EA_WRREQ, GPUSIM_MALL_WRREQ,
    _write_back_line, drain_dram_writes, fabric_port, mall_evict)
from gpusim.memory.kernels.cache import (
    EMPTY, INVALIDATED, cache_fill, cache_invalidate_way, cache_lookup, cache_set, line_fill, tag_address)
from gpusim.memory.kernels.channel import channel_global, channel_local, channel_of, channel_request
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
def _write_back_to_mall(M, xcd, ch, tag, t):
    """_write_back_to_mall sends dirty L2 line ``tag`` of channel ``ch`` of XCD ``xcd`` from cycle ``t`` to the MALL
    slices in front of its memory, in EA requests of one MALL line (TCC_EA_WRREQ, GPUSIM_MALL_WRREQ), and returns
    when the last slice has taken it. Each MALL line now holds the written data (filled, ready then).

    Model assumption: the MALL is a memory-side cache (AMD CDNA3 white paper) with the fabric's coherent slaves
    and probe filter beside its slices (Chips and Cheese, "AMD's CDNA 3 Compute Architecture"), so a release's
    write-back is visible, and done, once the slice has the line; the line stays dirty there, and its DRAM
    write happens when the MALL evicts it (``access.mall_evict``), in this kernel or a later one.
    """
    p = M.params
    line_b = p[P_L2_LINE]
    ea = min(line_b, p[P_MALL_LINE])
    line = channel_global(tag_address(tag, line_b), ch, p[P_L2_INTERLEAVE], p[P_L2_CHANNELS])
    t = fabric_port(M, xcd, ch, t)
    done = t
    for off in range(0, line_b, ea):
        M.tcc[xcd, ch, TCC_EA_WRREQ] += 1
        a = line + off
        mch = channel_of(a, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
        local = channel_local(a, p[P_HBM_INTERLEAVE], p[P_MALL_CHANNELS])
        M.mall_ctr[mch, GPUSIM_MALL_WRREQ] += 1
        taken = channel_request(M.mall_free, mch, t, ea, p[P_MALL_BPC], p[P_MALL_LAT])
        M.seq[0] += 1
        tags, stamps = M.mall_tags[mch], M.mall_stamps[mch]
        s = cache_set(tags, local, p[P_MALL_LINE])
        w = cache_lookup(tags, stamps, s, local, p[P_MALL_LINE])
        if w < 0:
            w = -1 - w
            mall_evict(M, mch, s, w, t)
            cache_fill(tags, stamps, s, w, local, p[P_MALL_LINE], M.seq[0])
        M.mall_dirty[mch, s, w] = 1
        line_fill(M.mall_ready[mch, s, w], t, taken)
        done = max(done, taken)
    return done


@njit(_nrt=False)
def write_back_l2(M, xcd, t):
    """write_back_l2 writes every dirty line of XCD ``xcd``'s L2 to memory from cycle ``t`` and leaves it clean.

    Returns the cycle the last write is done (``t`` when nothing is dirty, as in a write-through L2): taken by
    the MALL where ``l2.write_back_to_mall`` is set (``_write_back_to_mall``), else written to HBM.
    Mutates the L2's dirty bits, the MALL or the HBM channels, and counters (TCC_EA_WRREQ, GPUSIM_HBM_WR*).
    """
    p, tags, dirty = M.params, M.l2_tags, M.l2_dirty
    done = t
    for ch in range(tags.shape[1]):
        for s in range(tags.shape[2]):
            for w in range(tags.shape[3]):
                tag = tags[xcd, ch, s, w]
                if tag == EMPTY:
                    break
                if dirty[xcd, ch, s, w] and tag != INVALIDATED:
                    if p[P_L2_WB_TO_MALL] and p[P_MALL_CHANNELS] > 0:
                        done = max(done, _write_back_to_mall(M, xcd, ch, tag, t))
                    else:
                        done = max(done, _write_back_line(M, xcd, ch, tag, t))
                    dirty[xcd, ch, s, w] = 0
    return done


@njit(_nrt=False)
def end_of_kernel_write_back(M, t):
    """end_of_kernel_write_back is the end-of-kernel release at cycle ``t``; returns the cycle it completes.

    On an architecture whose ``l2.write_back_at_kernel_end`` is set, every XCD's L2 is written back as a
    ``buffer_wbl2`` writes it (``write_back_l2``: to the MALL where ``l2.write_back_to_mall``, else to HBM),
    all XCDs at once, and left clean; otherwise, or with nothing dirty, it returns ``t``. Either way the DRAM
    write queues are drained afterwards (``drain_dram_writes``), which the kernel does not wait for.
    Mutates the L2, MALL and HBM arrays of ``M``.
    """
    done = t
    if M.params[P_L2_FLUSH_AT_END]:
        for xcd in range(M.l2_tags.shape[0]):
            done = max(done, write_back_l2(M, xcd, t))
    drain_dram_writes(M, t)
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
    # the L2 keeps device memory through an invalidate where it caches it coherently (module docstring)
    drop_l2 = not p[P_L2_INV_KEEPS_DEVICE]
    if op == CACHE_INV_L2:
        if drop_l2:
            invalidate_l2(M, xcd)
        return at_l2
    invalidate_l1(M, cu)
    if op == CACHE_INV and scope & SCOPE_SC1:
        if drop_l2:
            invalidate_l2(M, xcd)
        return at_l2
    return at_l1
