"""One line request walks L1 -> L2 -> MALL -> HBM with consistent latencies and counters."""
import dataclasses
from pathlib import Path

import numba
import numpy as np
import pytest

from gpusim.memory.kernels.channel import channel_global

from memory_support import py

from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels
from gpusim.memory.hierarchy import ways_in_use
from gpusim.memory.kernels.access import access_line
from gpusim.memory.kernels.slots import slot_wait

# These tests time the caches alone: with translation on, a first touch of a page would add its walk
# (tests/memory/test_translation.py times that), so they run with translation switched off.
ARCH = arch_overrides(load_arch("cdna3"), {"translation.enabled": False})
L1_HIT = ARCH.cu.l1.latency_cycles + 2  # plus the 128 B line's 2 cycles on the 64 B/clk port


def _levels(cus=2, arch=ARCH):
    return MemoryLevels(arch, cus=cus)


def test_cold_read_costs_the_latency_ladder_and_a_reread_hits_l1():
    m = _levels()
    lat = (ARCH.cu.l1.latency_cycles + ARCH.l2.latency_cycles + ARCH.mall.latency_cycles
           + ARCH.hbm.latency_cycles)
    # plus the DRAM: the 128 B L2 line is two 64 B MALL lines, in bank groups 0 and 1 of one pseudo-channel
    # (hbm.address_map): ACTs at 0 and 4 (tRRD_S), RDs at 26, 30 and 30, 34 (tRCD 26, tCCD_L 4), the last
    # data ends 34 + tCL 17 + 2 = 53 memory clocks = ceil(53 x 2100 / 1300) = 86 shader cycles
    dram = 86
    first = m.access(0, 4096, 0)
    assert lat + dram < first < (lat + dram) * 1.02
    assert m.access(0, 4100, 10_000) == 10_000 + L1_HIT
    c = m.counters()
    assert c["TCP_TOTAL_CACHE_ACCESSES_sum"] == 2
    assert (c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"], c["TCP_TCC_READ_REQ_sum"]) == (1, 1, 1)


def test_request_for_a_line_in_flight_waits_for_its_data():
    m = _levels()
    first = m.access(0, 0, 0)
    assert m.access(0, 64, 5) == first
    assert m.counters()["TCC_REQ_sum"] == 1


def test_a_request_earlier_than_the_fill_it_finds_takes_the_fills_place():
    # CU 0 ran ahead and missed on the line at cycle 5000; CU 1 reaches the same L2 line at cycle 100. In time
    # order CU 1 missed first: it waits the same service time from its own arrival, not until 5000 + latency.
    m = _levels()
    ahead = m.access(0, 0, 5000)
    early = m.access(1, 0, 100)
    assert early - 100 == ahead - 5000
    # the line's fill moved earlier: a request after it hits the line as filled by CU 1's miss
    assert m.access(1, 0, early + 1) == early + 1 + L1_HIT
    c = m.counters()
    assert (c["TCC_HIT_sum"], c["TCC_MISS_sum"]) == (1, 1)  # one fill either way


def test_footprint_beyond_l1_but_inside_l2_hits_l2_on_the_second_pass():
    m = _levels()
    lines = 2 * ARCH.cu.l1.size_bytes // 128
    t = 0
    for rep in range(2):
        for k in range(lines):  # a dependent chain: each load issues when the previous one returns
            t = m.access(0, 128 * k, t)
        c = m.counters()
        if rep == 0:
            assert c["TCC_MISS_sum"] == lines and c["TCC_HIT_sum"] == 0
    assert c["GPUSIM_TCP_MISS_sum"] == 2 * lines  # a cyclic sweep twice L1's size always misses LRU
    assert c["TCC_HIT_sum"] == lines and c["TCC_MISS_sum"] == lines
    assert c["TCC_HIT_sum"] + c["TCC_MISS_sum"] == c["TCC_REQ_sum"]


def test_bytes_from_hbm_are_misses_times_line_size():
    m = _levels()
    rng = np.random.default_rng(3)
    t = 0
    for a in rng.integers(0, 1 << 26, 3000):
        t += 3
        m.access(int(rng.integers(0, 2)), int(a), t)
    c = m.counters()
    assert c["GPUSIM_HBM_READ_BYTES_sum"] == c["GPUSIM_MALL_MISS_sum"] * ARCH.mall.line_bytes
    assert c["TCC_EA_RDREQ_sum"] * 64 == c["TCC_MISS_sum"] * ARCH.l2.line_bytes
    assert c["GPUSIM_MALL_HIT_sum"] + c["GPUSIM_MALL_MISS_sum"] == c["GPUSIM_MALL_REQ_sum"]
    assert c["GPUSIM_TCP_HIT_sum"] + c["GPUSIM_TCP_MISS_sum"] == c["TCP_TOTAL_CACHE_ACCESSES_sum"]


def test_writes_go_through_l1_without_allocating_and_dirty_l2_lines_write_back():
    small = dataclasses.replace(ARCH, l2=dataclasses.replace(ARCH.l2, size_bytes=16 * 128 * 16))  # 1 set/channel
    m = _levels(arch=small)
    done = m.access(0, 0, 0, nbytes=128, write=True)
    assert done == L1_HIT + 1 + ARCH.l2.latency_cycles
    assert m.counters()["TCP_TCC_WRITE_REQ_sum"] == 1
    assert m.access(0, 0, 1000) == 1000 + L1_HIT + 1 + ARCH.l2.latency_cycles  # L1 missed, L2 hit
    for k in range(1, 17):  # 16 more lines of channel 0 evict the dirty one
        m.access(0, int(channel_global(128 * k, 0, ARCH.l2.channel_interleave_bytes, ARCH.l2.channels)), 2000 + k)
    c = m.counters()
    assert c["TCC_EA_WRREQ_sum"] == 2 and c["GPUSIM_HBM_WRITE_BYTES_sum"] == 128


def test_scalar_reads_use_the_scalar_cache():
    m = _levels()
    first = m.access(1, 0, 0, scalar=True)  # CUs 0 and 1 share a scalar cache
    assert m.access(0, 32, first, scalar=True) == first + ARCH.cu.scalar_cache.latency_cycles
    c = m.counters()
    assert (c["SQC_DCACHE_REQ_sum"], c["SQC_DCACHE_HITS_sum"], c["SQC_DCACHE_MISSES_sum"]) == (2, 1, 1)
    assert c["TCP_TOTAL_CACHE_ACCESSES_sum"] == 0


def test_hbm_channel_bandwidth_is_never_exceeded():
    m = _levels()
    # Every 64 B MALL line of one HBM channel (interleave 256 over 128 channels), all issued at once.
    n = 256
    addrs = [256 * 128 * (k // 4) + 64 * (k % 4) for k in range(n)]
    done = max(m.access(k % 2, a, 0) for k, a in enumerate(addrs))
    mem_clks = n * 64 // ARCH.hbm.bytes_per_memory_clk_per_channel
    assert done >= mem_clks * ARCH.clocks.shader_mhz / ARCH.clocks.memory_mhz


def test_l1_mshrs_bound_outstanding_misses():
    m = _levels()
    for k in range(ARCH.cu.l1.mshrs + 1):
        m.access(0, 128 * 37 * k, 0)
    assert m.counters()["GPUSIM_TCP_MSHR_STALL_CYCLES_sum"] > 0


def test_py_funcs_agree_with_compiled():
    a, b = _levels(), _levels()
    for addr, t in ((0, 0), (128, 5), (0, 2000), (1 << 22, 2001)):
        fast = access_line(a.kernel_args(), 0, addr, 0, t, False, False, 0)
        slow = py(access_line)(b.kernel_args(), 0, addr, 0, t, False, False, 0)
        assert fast == slow
    assert (a.tcc == b.tcc).all() and (a.hbm_ctr == b.hbm_ctr).all()
    slots = np.array([[0, 5], [0, 3], [0, 3], [0, 9]], np.int64)
    assert slot_wait(slots, 0) == py(slot_wait)(slots, 0) == (1, 3)


def test_a_slot_promised_to_a_later_request_serves_an_earlier_one():
    slots = np.array([[0, 50], [400, 900]], np.int64)  # slot 1 is taken only from cycle 400 on
    assert slot_wait(slots, 10) == (-1, 10)
    assert slot_wait(slots, 60) == (0, 60)
    assert slot_wait(np.array([[0, 50], [0, 40]], np.int64), 10) == (1, 40)


def test_counters_per_instance_name_the_unit_that_counted():
    """TCP instance i is CU i; TCC instance i is channel i % channels of XCD i // channels; each adds up to _sum."""
    m = _levels(cus=2 * ARCH.gpu.cus_per_xcd)
    cu = ARCH.gpu.cus_per_xcd + 1  # the second CU of XCD 1
    m.access(cu, 3 * 128, 0)
    c = m.counters()
    assert c[f"TCP_TOTAL_CACHE_ACCESSES[{cu}]"] == 1 == c["TCP_TOTAL_CACHE_ACCESSES_sum"]
    assert sum(c[f"TCP_TOTAL_CACHE_ACCESSES[{i}]"] for i in range(m.cus)) == 1
    served = [i for i in range(2 * ARCH.l2.channels) if c[f"TCC_REQ[{i}]"]]
    assert len(served) == 1 and served[0] // ARCH.l2.channels == 1  # one channel of XCD 1's L2
    assert c[f"TCC_REQ[{served[0]}]"] == 1 == c["TCC_REQ_sum"]
    names = {key.split("[")[0] for key in c if key.endswith("]")}
    assert {key[:-4] for key in c if key.endswith("_sum")} == names
    for name in names:
        values = [v for key, v in c.items() if key.startswith(name + "[")]
        assert sum(values) == c[name + "_sum"], name
    assert len([k for k in c if k.startswith("TCC_REQ[")]) == 2 * ARCH.l2.channels
    sums, instances = m.counters_by_instance()   # what the timing model reports: the same, in two parts
    assert sums == {k: v for k, v in c.items() if k.endswith("_sum")}
    assert instances["TCP_TOTAL_CACHE_ACCESSES"][cu] == 1 and len(instances["TCC_REQ"]) == 2 * ARCH.l2.channels
    assert {f"{name}[{i}]": v for name, vs in instances.items() for i, v in enumerate(vs)} == {
        k: v for k, v in c.items() if k.endswith("]")}


def test_every_shipped_architecture_and_mall_what_if_shares_one_compiled_timing_model():
    # numba compiles the timing model once per argument type: an architecture whose memory arrays type apart
    # (a MALL placeholder laid out contiguously, as cdna2's was) costs its users a second 3-4 minute compile
    archs = {path.name: load_arch(path) for path in Path(__file__).resolve().parents[2].glob("archs/**/*.yaml")}
    assert len(archs) >= 5
    # and what-ifs whose MALL arrays have a dimension of one
    for overrides in ({"mall.channels": 1}, {"mall.associativity": 1}, {"mall.channels": 1, "mall.associativity": 1}):
        archs[str(overrides)] = arch_overrides(archs["cdna3.yaml"], overrides)
    types = {str(numba.typeof(MemoryLevels(arch).kernel_args())): name for name, arch in archs.items()}
    assert len(types) == 1, sorted(types.values())



def _l2_line(k):
    """_l2_line is the address of the k-th distinct line of set 5 of L2 channel 2."""
    local = (5 + k * _levels().l2_tags.shape[-2]) * ARCH.l2.line_bytes
    return int(channel_global(local, 2, ARCH.l2.channel_interleave_bytes, ARCH.l2.channels))


def _mall_line(k, sets):
    """_mall_line is the address of the k-th distinct line of set 5 of MALL slice 2."""
    local = (5 + k * sets) * ARCH.mall.line_bytes
    return int(channel_global(local, 2, ARCH.hbm.channel_interleave_bytes, ARCH.mall.channels))


def test_ways_in_use_ends_at_the_first_way_no_set_holds():
    m = _levels()
    assert ways_in_use(m.l2_tags, m.l2_stamps) == 0
    for k in range(3):   # three lines of one L2 set; their MALL lines spread over MALL sets
        m.access(0, _l2_line(k), 10 * k)
    assert ways_in_use(m.l2_tags, m.l2_stamps) == 3
    assert ways_in_use(m.mall_tags, m.mall_stamps) == 1
    m.l2_tags[0, 0, 0, 3] = -1   # an invalidated way (INVALIDATED, stamp -1) still counts
    m.l2_stamps[0, 0, 0, 3] = -1
    assert ways_in_use(m.l2_tags, m.l2_stamps) == 4


def test_the_next_kernel_keeps_every_mall_and_l2_line_in_any_way():
    m = _levels()
    sets = m.mall_tags.shape[-2]
    for k in range(6):   # six lines of one MALL set (and their L2 lines), some of them written
        m.access(k % 2, _mall_line(k, sets), 5 * k, write=k % 3 == 0, nbytes=64 if k % 3 == 0 else 0)
    assert ways_in_use(m.mall_tags, m.mall_stamps) >= 4
    nxt = m.for_next_kernel(keep_l2=True)
    for name in ("mall_tags", "mall_stamps", "mall_dirty", "l2_tags", "l2_stamps", "l2_dirty"):
        np.testing.assert_array_equal(getattr(nxt, name), getattr(m, name), err_msg=name)
    assert m.l2_dirty.any() and not nxt.l1_tags.any() and nxt.seq[0] == m.seq[0]
