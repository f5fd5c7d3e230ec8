"""Read-after-write on shared lines: what a load of a line just stored costs, from the same CU and from another.

The vector L1 is write-through and write-no-allocate (cdna-facts.md: write-no-allocate measured): a store
passes through the L1 to the L2, allocates nothing in the L1, and keeps (updates) a line it hits there: the
CDNA3 ISA guide's store controls give a plain store "Miss LRU" in the CU cache, and "Miss Evict" (the line
dropped) only with sc1 or nt; its load controls give a plain load "Hit LRU" and an sc1 or nt one "Miss
Evict" (arch sources [I]).
The L2 allocates a written line without a fetch (access.py), so the first load after a store is one L2 round
trip and the loads after it hit the L1.

Cycles on cdna3, each level's port then its latency: L1 = a 128 B line over the 64 B/clk port, 2 cycles,
+ 108 = 110; L2 = 1 port cycle (128 B at 128 B/clk) + 101 = 102. A store of a whole line moves its 128 B
through both ports too. (With the L1 at 88 and the L2 at 111 these were 90 and 112: every L1 hit below is
20 cycles later, every L2 round trip 212 instead of 202.)
"""
from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels

# the caches alone: a first touch of a page would add its walk (tests/memory/test_translation.py times that)
ARCH = arch_overrides(load_arch("cdna3"), {"translation.enabled": False})
LINE = 128


def _levels():
    return MemoryLevels(ARCH, cus=2)  # CUs 0 and 1 share XCD 0's L2


def test_store_then_load_from_the_same_cu_costs_one_l2_round_trip_then_hits_l1():
    m = _levels()
    # store at 0: L1 port 0..2 + 108 = 110 (miss, nothing allocated), L2 port 110..111 + 101 = 212 (accepted)
    assert m.access(0, 4096, 0, LINE, write=True) == 212
    # load at 1000: L1 port 1000..1002 + 108 = 1110 (miss: the store did not allocate), L2 port
    # 1110..1111 + 101 = 1212, a hit on the line the store allocated: load-to-use 212
    assert m.access(0, 4096, 1000) == 1212
    # the load filled the L1: the next one is an L1 hit, 2 + 108
    assert m.access(0, 4096, 2000) == 2110
    c = m.counters()
    assert (c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]) == (1, 2)  # store miss, load miss, load hit
    assert (c["TCP_TCC_WRITE_REQ_sum"], c["TCP_TCC_READ_REQ_sum"]) == (1, 1)
    assert (c["TCC_WRITE_sum"], c["TCC_MISS_sum"], c["TCC_HIT_sum"]) == (1, 1, 1)


def test_a_store_that_hits_the_l1_keeps_the_line():
    m = _levels()
    m.access(0, 4096, 0)  # cold load: the line is in CU 0's L1 from here on
    # store hit at 2000: L1 2000..2002 + 108 = 2110, written through: L2 2110..2111 + 101 = 2212
    assert m.access(0, 4096, 2000, LINE, write=True) == 2212
    # neither dropped nor invalidated: the load after it hits, 2 + 108
    assert m.access(0, 4096, 3000) == 3110
    c = m.counters()
    assert (c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]) == (2, 1)


def test_load_of_a_line_another_cu_wrote_is_an_l2_hit_then_an_l1_hit():
    m = _levels()
    assert m.access(1, 8192, 0, LINE, write=True) == 212  # CU 1 writes the line: in the L2, dirty
    # CU 0 at 1000: its L1 misses (1110), the shared L2 hits: 1111 + 101 = 1212, load-to-use 212
    assert m.access(0, 8192, 1000) == 1212
    assert m.access(0, 8192, 2000) == 2110  # then CU 0's own L1 has it
    c = m.counters()
    assert (c["TCC_HIT_sum"], c["TCC_MISS_sum"]) == (1, 1)  # the write's allocation, the read's hit
    assert c["TCP_TCC_READ_REQ[0]"] == 1 and c["TCP_TCC_WRITE_REQ[1]"] == 1


SC0, SC1, NT = 1, 2, 4


def test_a_device_scope_load_misses_the_l1_drops_the_line_and_does_not_fill_it():
    # CDNA3 ISA Table 49: sc1 (device scope) loads are MISS_EVICT in the L1; sc0 alone (work-group) hits
    m = _levels()
    m.access(0, 4096, 0)  # cold load: the line is in CU 0's L1
    assert m.access(0, 4096, 2000, cache_bits=SC0) == 2110  # 2 + 108: an L1 hit
    # sc1 at 3000: L1 3000..3002 + 108 = 3110, the line is dropped, L2 3110..3111 + 101 = 3212 (a hit)
    assert m.access(0, 4096, 3000, cache_bits=SC1) == 3212
    # it did not fill the L1 either: the plain load at 4000 misses too (4212), and fills it (5110 at 5000)
    assert m.access(0, 4096, 4000) == 4212
    assert m.access(0, 4096, 5000) == 5110
    c = m.counters()
    assert (c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]) == (2, 3)


def test_a_nontemporal_store_drops_the_line_it_hits():
    # CDNA3 ISA Table 50: an nt store is MISS_EVICT; the plain store before it kept the line (MISS_LRU)
    m = _levels()
    m.access(0, 4096, 0)
    m.access(0, 4096, 2000, LINE, write=True)
    assert m.access(0, 4096, 3000) == 3110
    assert m.access(0, 4096, 4000, LINE, write=True, cache_bits=NT) == 4212  # 110 through the L1 + 102 to L2
    assert m.access(0, 4096, 5000) == 5212  # the line is gone: one L2 round trip again


def test_cdna2_misses_the_l1_on_glc():
    # gfx90a: LLVM's memory legalizer sets glc for L1 MISS_EVICT; cdna2's 64 B L1 line is 1 port cycle
    cdna2 = load_arch("cdna2")
    m = MemoryLevels(cdna2, cus=2)
    m.access(0, 4096, 0)
    lat1, lat2 = cdna2.cu.l1.latency_cycles, cdna2.l2.latency_cycles
    assert m.access(0, 4096, 2000) == 2000 + 1 + lat1
    assert m.access(0, 4096, 3000, cache_bits=SC0) == 3000 + 1 + lat1 + 1 + lat2
