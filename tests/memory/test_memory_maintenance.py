"""Cache maintenance on the memory model: invalidates drop lines, a write-back cleans the L2, at a cost."""
import dataclasses

import numpy as np
import pytest

from memory_support import py

from gpusim.arch import arch_overrides, load_arch
from gpusim.asm.fields import CACHE_INV, CACHE_INV_L1, CACHE_INV_L2, CACHE_WB_L2
from gpusim.memory import MemoryLevels
from gpusim.memory.kernels.cache import INVALIDATED, cache_invalidate_way, cache_lookup
from gpusim.memory.kernels.channel import channel_global, channel_local, channel_of
from gpusim.memory.kernels.maintenance import cache_control

# the caches alone: a first touch of a page would add its walk (tests/memory/test_translation.py times that)
ARCH = arch_overrides(load_arch("cdna3"), {"translation.enabled": False})
# the same machine with an L2 invalidate that drops every clean line, as for memory cached non-coherently
NONCOHERENT = dataclasses.replace(ARCH, l2=dataclasses.replace(ARCH.l2, invalidate_keeps_device_memory=False))
# the same machine with write-backs that go all the way to HBM, as without a memory-side cache
WB_TO_HBM = dataclasses.replace(ARCH, l2=dataclasses.replace(ARCH.l2, write_back_to_mall=False))
MALL_LAT = ARCH.mall.latency_cycles
L1_LAT, L2_LAT = ARCH.cu.l1.latency_cycles, ARCH.l2.latency_cycles
SC0, SC1 = 1, 2


def _warm(m):
    """_warm reads line 0 into CU 0's L1 and L2 and dirties another L2 line with a write; returns the read's end."""
    done = m.access(0, 0, 0)
    m.access(0, 1 << 20, 0, nbytes=4, write=True)
    return done


@pytest.mark.parametrize("impl", ["compiled", "py_func"])
@pytest.mark.parametrize("arch, op, scope, l1_hit, l2_hit, cost", [
    (ARCH, CACHE_INV, SC0, False, True, L1_LAT),
    (ARCH, CACHE_INV_L1, 0, False, True, L1_LAT),
    # cdna3 caches device memory coherently (MTYPE RW): an agent-scope invalidate keeps its L2 lines and
    # costs the round trip to the L2
    (ARCH, CACHE_INV, SC1, False, True, L1_LAT + L2_LAT),
    (ARCH, CACHE_INV_L2, 0, True, True, L1_LAT + L2_LAT),
    # cached non-coherently, the L2 loses its clean lines too
    (NONCOHERENT, CACHE_INV, SC1, False, False, L1_LAT + L2_LAT),
    (NONCOHERENT, CACHE_INV_L2, 0, True, False, L1_LAT + L2_LAT),
    # the dirty 128 B line leaves the L2 when the request gets there (L1 + L2 latency) as two 64 B EA writes to
    # one MALL slice (same 256 B interleave chunk): 1 port cycle each, the second behind the first, + 191
    (ARCH, CACHE_WB_L2, SC1, True, True, L1_LAT + L2_LAT + 2 + MALL_LAT),
    (WB_TO_HBM, CACHE_WB_L2, SC1, True, True, None),
], ids=["inv_sc0", "inv_l1", "inv_sc1", "inv_l2", "inv_sc1_noncoherent", "inv_l2_noncoherent", "wb_l2",
        "wb_l2_to_hbm"])
def test_maintenance_drops_the_lines_of_its_levels(impl, arch, op, scope, l1_hit, l2_hit, cost):
    m = MemoryLevels(arch, cus=2)
    t = _warm(m) + 1000
    fn = cache_control if impl == "compiled" else py(cache_control)
    done = fn(m.kernel_args(), 0, op, scope, t)
    if cost is not None:
        assert done == t + cost
    else:  # the dirty line's write to memory goes all the way to HBM
        assert done > t + L1_LAT + L2_LAT + ARCH.hbm.latency_cycles
    before = m.counters()
    m.access(0, 0, done + 10)
    c = m.counters()
    assert c["GPUSIM_TCP_HIT_sum"] - before["GPUSIM_TCP_HIT_sum"] == int(l1_hit)
    if not l1_hit:
        assert c["TCC_HIT_sum"] - before["TCC_HIT_sum"] == int(l2_hit)
    # the dirty line survives every invalidate; only the write-back cleans it
    assert m.l2_dirty.sum() == (0 if op == CACHE_WB_L2 else 1)
    assert c["TCC_EA_WRREQ_sum"] == (2 if op == CACHE_WB_L2 else 0)


def test_a_line_written_back_to_the_mall_is_a_mall_hit_for_another_xcd():
    m = MemoryLevels(ARCH, cus=39)  # CU 38 is on XCD 1, with its own L2
    t = _warm(m) + 1000
    cache_control(m.kernel_args(), 0, CACHE_WB_L2, SC1, t)
    c = m.counters()
    assert c["GPUSIM_HBM_WRREQ_sum"] == 0  # taken by the MALL, dirty there until it evicts the line
    assert c["GPUSIM_MALL_WRREQ_sum"] == c["TCC_EA_WRREQ_sum"] == 2
    # XCD 1 reads the line at 20000: L1 2 + 108, L2 1 + 101 (miss), two 64 B MALL hits on one slice: 2 + 191
    assert m.access(38, 1 << 20, 20_000) == 20_000 + (2 + L1_LAT) + (1 + L2_LAT) + (2 + MALL_LAT)
    after = m.counters()
    assert after["GPUSIM_MALL_HIT_sum"] - c["GPUSIM_MALL_HIT_sum"] == 2
    assert after["GPUSIM_HBM_RDREQ_sum"] == c["GPUSIM_HBM_RDREQ_sum"]


def test_a_write_back_with_nothing_dirty_costs_the_l2_round_trip():
    m = MemoryLevels(ARCH, cus=2)
    m.access(0, 0, 0)
    assert cache_control(m.kernel_args(), 0, CACHE_WB_L2, SC1, 5000) == 5000 + L1_LAT + L2_LAT


def test_an_invalidated_way_matches_nothing_and_is_the_next_victim():
    for invalidate in (cache_invalidate_way, py(cache_invalidate_way)):
        tags = np.array([[3, 4, 5, 0]], np.int64)
        stamps = np.array([[7, 8, 9, 0]], np.int64)
        invalidate(tags, stamps, 0, 1)
        assert tags[0, 1] == INVALIDATED
        assert cache_lookup(tags, stamps, 0, (4 - 1) * 128, 128) == -1 - 3  # not found; the empty way 3 fills
        tags[0, 3], stamps[0, 3] = 6, 10
        assert cache_lookup(tags, stamps, 0, (4 - 1) * 128, 128) == -1 - 1  # full set: the invalidated way goes


def test_a_line_left_dirty_in_the_mall_goes_to_hbm_when_the_mall_evicts_it():
    m = MemoryLevels(ARCH, cus=2)
    t = _warm(m) + 1000
    cache_control(m.kernel_args(), 0, CACHE_WB_L2, SC1, t)
    # the 128 B L2 line is two dirty 64 B lines of one MALL slice, in consecutive sets; HBM has written nothing
    assert m.mall_dirty.sum() == 2 and m.counters()["GPUSIM_HBM_WRREQ_sum"] == 0
    ch = channel_of(1 << 20, ARCH.hbm.channel_interleave_bytes, ARCH.mall.channels)
    local = channel_local(1 << 20, ARCH.hbm.channel_interleave_bytes, ARCH.mall.channels)
    sets = m.mall_tags.shape[1]
    # reads of 16 other L2 lines whose MALL lines take the same slice and sets fill those sets' 16 ways:
    # the dirty lines, oldest, make way and are written to HBM then (nobody waits for those writes)
    t = 20_000
    for k in range(1, ARCH.mall.associativity + 1):
        addr = channel_global(local + k * sets * ARCH.mall.line_bytes, ch, ARCH.hbm.channel_interleave_bytes,
                              ARCH.mall.channels)
        t = m.access(0, addr, t) + 10
    c = m.counters()
    assert m.mall_dirty.sum() == 0
    assert c["GPUSIM_MALL_WRITEBACK_sum"] == c["GPUSIM_HBM_WRREQ_sum"] == 2
    assert c["GPUSIM_HBM_WRITE_BYTES_sum"] == 2 * ARCH.mall.line_bytes
