"""Address translation: UTCL1 hits and misses, UTCL2 hits, page walks through the L2, merging, page size.

Cycle counts come from archs/cdna3.yaml's ``translation:`` section (utcl1_hit_cycles 0, utcl2_hit_cycles 120,
walk_level_cycles 20, 2 MiB pages, pde_cache_levels 2 so a 2 MiB walk reads one page-table line: PDE0) and
its L2 (latency_cycles 101, 128 B/clk per channel: a 64-byte walk read holds the port 1 cycle).
"""
import numpy as np

from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels
from gpusim.memory.kernels.access import _l2_access, access_line
from gpusim.memory.kernels.translation import page_table_entry, translate

ARCH = load_arch("cdna3")
TR = ARCH.translation
MIB2 = 2 << 20


def _levels(arch=ARCH, cus=2):
    return MemoryLevels(arch, cus=cus)


def _tr(m, cu, addr, now):
    return int(translate(m.kernel_args(), cu, addr, now))


def _sums(m, *names):
    c = m.counters()
    return tuple(c[n + "_sum"] for n in names)


def test_yaml_values_the_cycle_counts_below_rest_on():
    assert (TR.enabled, TR.page_bytes, TR.pde_cache_levels) == (True, MIB2, 2)
    assert (TR.utcl1_hit_cycles, TR.utcl2_hit_cycles, TR.walk_level_cycles) == (0, 120, 20)
    assert (ARCH.l2.latency_cycles, ARCH.l2.bytes_per_clk_per_channel) == (101, 128)


def test_cold_walk_reads_pde0_through_l2_mall_and_hbm():
    # CU 0 at cycle 0, nothing cached: the UTCL1 misses (t = 0 + 0), the UTCL2 misses (t = 0 + 120), the
    # walker spends 20 cycles and reads PDE0's line at cycle 140, which misses the L2, the MALL and HBM.
    # By hand (cdna3.yaml, DRAM timing as in tests/engine/test_golden_cycles.py): L2 140 + 1 + 101 = 242
    # (miss); two 64 B MALL reads of the 128 B line on one slice, 242..243 + 191 = 434 and 243..244 + 191 =
    # 435 (misses); HBM half 0 at memory clock ceil(434*13/21) = 269: ACT 269, RDs 295, 299, data ..318;
    # half 1 at ceil(435*13/21) = 270: ACT 273 (tRRD_S), RD 299 finds the bus taken until 318, data
    # 318..320, next RD 305, data ..324; back ceil(324*21/13) = 524, + 330 = 854 (864 with the L2 at 111).
    # The test takes the read's time from the hierarchy itself (the same read on an untouched copy), so a
    # change of the DRAM model moves both sides.
    m = _levels()
    done = _tr(m, 0, 4096, 0)
    ref = MemoryLevels(ARCH, cus=2)
    read = int(_l2_access(ref.kernel_args(), 0, page_table_entry(0, 1), 64, 140, False))
    assert done == read
    assert 800 < done < 1000      # 854, the L2 + MALL + HBM path of the walk's read
    assert _sums(m, "TCP_UTCL1_TRANSLATION_MISS", "GPUSIM_UTCL2_MISS", "GPUSIM_PAGE_WALKS",
                 "GPUSIM_PAGE_WALK_READS") == (1, 1, 1, 1)
    assert _sums(m, "GPUSIM_PAGE_WALK_CYCLES") == (done - 120,)
    assert _sums(m, "TCC_MISS", "GPUSIM_MALL_MISS", "GPUSIM_HBM_RDREQ") == (1, 2, 2)


def test_utcl1_hit_costs_nothing():
    # After the walk, CU 0's UTCL1 holds page 0: a lookup at 5000 is ready at 5000 + utcl1_hit_cycles (0).
    m = _levels()
    _tr(m, 0, 0, 0)
    assert _tr(m, 0, 12345, 5000) == 5000
    assert _sums(m, "TCP_UTCL1_REQUEST", "TCP_UTCL1_TRANSLATION_HIT", "TCP_UTCL1_TRANSLATION_MISS") == (2, 1, 1)


def test_utcl1_miss_that_hits_utcl2_costs_the_round_trip():
    # CU 1 shares XCD 0's UTCL2 with CU 0, which walked page 0: 6000 + 0 (UTCL1 miss) + 120 (UTCL2 hit) = 6120.
    m = _levels()
    _tr(m, 0, 0, 0)
    assert _tr(m, 1, 64, 6000) == 6120
    assert _sums(m, "GPUSIM_UTCL2_REQ", "GPUSIM_UTCL2_HIT", "GPUSIM_UTCL2_MISS", "GPUSIM_PAGE_WALKS") == (2, 1, 1, 1)


def test_walk_whose_page_table_line_is_in_l2():
    # Page 1 (2 MiB) has its PDE0 entry in the same 128 B line as page 0's, which page 0's walk left in
    # the L2: 10000 + 0 + 120 (UTCL2 miss) + 20 (walker) + 1 (64 B on the 128 B/clk port) + 101 (L2 hit) = 10242.
    m = _levels()
    _tr(m, 0, 0, 0)
    assert _tr(m, 0, MIB2, 10_000) == 10_242
    assert _sums(m, "GPUSIM_PAGE_WALKS", "TCC_HIT", "TCC_MISS") == (2, 1, 1)


def test_misses_to_one_page_in_flight_merge():
    # CU 0 starts the walk of page 0 at cycle 0 (ready at D). CU 1 asks at cycle 10: its UTCL1 misses, the
    # UTCL2 finds the entry in flight at 130 and waits for D instead of walking again. CU 0's next
    # instruction (cycle 5) finds its own entry in flight and also gets D.
    m = _levels()
    d = _tr(m, 0, 0, 0)
    assert _tr(m, 1, 256, 10) == d
    assert _tr(m, 0, 512, 5) == d
    assert _sums(m, "GPUSIM_PAGE_WALKS", "GPUSIM_UTCL2_HIT", "TCP_UTCL1_TRANSLATION_HIT") == (1, 1, 1)


def test_lines_of_one_instruction_in_one_page_translate_once():
    # One wave instruction (CU 0, issue cycle 7) touching four lines of a page: one UTCL1 request.
    m = _levels()
    for line in range(4):
        m.access(0, 4096 + 128 * line, 7)
    assert _sums(m, "TCP_UTCL1_REQUEST", "TCP_UTCL1_TRANSLATION_MISS", "TCP_TOTAL_CACHE_ACCESSES") == (1, 1, 4)


def _pass_twice(arch, stride, pages):
    m = _levels(arch, cus=1)
    t = 0
    for _ in range(2):
        for i in range(pages):
            t = _tr(m, 0, i * stride, t + 1)
    return m


def test_page_size_sets_the_reach():
    # A 4-entry UTCL1 and 8 addresses 4 KiB apart, visited twice in order. With 4 KiB pages they are 8
    # pages: LRU evicts each before its reuse, 16 misses. With 64 KiB pages they all lie in one page: 1 miss.
    small = {"translation.utcl1_entries": 4, "translation.utcl1_associativity": 4}
    a4k = arch_overrides(ARCH, {**small, "translation.page_bytes": 4096})
    a64k = arch_overrides(ARCH, {**small, "translation.page_bytes": 65536})
    m = _pass_twice(a4k, 4096, 8)
    assert _sums(m, "TCP_UTCL1_TRANSLATION_HIT", "TCP_UTCL1_TRANSLATION_MISS") == (0, 16)
    # the UTCL2 (2048 entries) keeps all 8: 8 walks, each reading PDE0 and the PTE (4 KiB pages end at level 0)
    assert _sums(m, "GPUSIM_PAGE_WALKS", "GPUSIM_PAGE_WALK_READS", "GPUSIM_UTCL2_HIT") == (8, 16, 8)
    m = _pass_twice(a64k, 4096, 8)
    assert _sums(m, "TCP_UTCL1_TRANSLATION_HIT", "TCP_UTCL1_TRANSLATION_MISS") == (15, 1)


def test_hits_and_misses_add_up_to_lookups():
    rng = np.random.default_rng(16)
    small = arch_overrides(ARCH, {"translation.utcl1_entries": 8, "translation.utcl1_associativity": 2,
                                  "translation.utcl2_entries": 16, "translation.utcl2_associativity": 4,
                                  "translation.page_bytes": 65536})
    m = _levels(small, cus=4)
    for k, addr in enumerate(rng.integers(0, 1 << 26, 500)):
        m.access(int(rng.integers(0, 4)), int(addr), 10 * k, write=bool(k % 3 == 0))
    req, hit, miss = _sums(m, "TCP_UTCL1_REQUEST", "TCP_UTCL1_TRANSLATION_HIT", "TCP_UTCL1_TRANSLATION_MISS")
    assert hit + miss == req == 500 and hit > 0 and miss > 0
    req2, hit2, miss2, walks = _sums(m, "GPUSIM_UTCL2_REQ", "GPUSIM_UTCL2_HIT", "GPUSIM_UTCL2_MISS",
                                     "GPUSIM_PAGE_WALKS")
    assert req2 == miss and hit2 + miss2 == req2 and walks == miss2 and hit2 > 0


def test_disabled_translation_reproduces_the_untranslated_cycles():
    off = arch_overrides(ARCH, {"translation.enabled": False})
    m, ref = _levels(off), _levels(off)
    got = [m.access(0, a, t) for a, t in ((4096, 0), (4100, 2000), (MIB2 * 7, 2100), (0, 2200))]
    want = [int(access_line(ref.kernel_args(), 0, a, 0, t, False, False, 0))
            for a, t in ((4096, 0), (4100, 2000), (MIB2 * 7, 2100), (0, 2200))]
    assert got == want
    assert _sums(m, "TCP_UTCL1_REQUEST", "GPUSIM_UTCL2_REQ") == (0, 0)


def test_a_vector_access_reaches_the_l1_when_its_translation_is_back():
    # A translated access is the untranslated one issued at the translation's ready cycle: CU 1 at 6000
    # finds page 0 in the UTCL2 (6120), then reads a line CU 0 left in the L2.
    m = _levels()
    m.access(0, 0, 0)
    ref = _levels(arch_overrides(ARCH, {"translation.enabled": False}))
    ref.access(0, 0, 0)
    want = int(access_line(ref.kernel_args(), 1, 0, 0, 6120, False, False, 0))
    assert m.access(1, 0, 6000) == want


def test_a_utcl1_miss_waits_for_a_free_miss_slot():
    # One UTCL1 miss slot: a miss holds CU 0's miss server for utcl2_hit_cycles (120). CU 1 first walks
    # pages 0 and 1 into the UTCL2 (done long before 10000). CU 0's miss of page 0 at 10000 holds the
    # server 10000 .. 10120 and hits the UTCL2: 10000 + 120. Its miss of page 1 at 10001 starts at 10120
    # (119 stall cycles) and hits the UTCL2: 10120 + 120 = 10240.
    one = arch_overrides(ARCH, {"translation.utcl1_misses_in_flight": 1})
    m = _levels(one)
    _tr(m, 1, 0, 0)
    _tr(m, 1, MIB2, 5000)
    assert _tr(m, 0, 0, 10000) == 10120
    assert _tr(m, 0, MIB2, 10001) == 10240
    assert _sums(m, "GPUSIM_UTCL1_MISS_STALL_CYCLES") == (119,)


def test_a_walk_waits_for_a_free_walker():
    # One walker per UTCL2, held walk_busy_cycles = 256 (set here) per walk. CU 0's cold walk of page 0 (from 120)
    # brings PDE0's line into the L2. At 10000 CU 0 misses page 1: UTCL2 miss at 10120, the walker is free,
    # PDE0's line hits the L2: 10120 + 20 + 1 + 101 = 10242. CU 1 misses page 2 at 10000: UTCL2 miss at
    # 10120, the walker is held until 10120 + 256 = 10376, then 10376 + 20 + 1 + 101 = 10498.
    one = arch_overrides(ARCH, {"translation.utcl2_walkers": 1, "translation.walk_busy_cycles": 256})
    m = _levels(one)
    _tr(m, 0, 0, 0)
    assert _tr(m, 0, MIB2, 10000) == 10242
    assert _tr(m, 1, 2 * MIB2, 10000) == 10498
    assert _sums(m, "GPUSIM_UTCL2_WALKER_STALL_CYCLES") == (256,)


def test_the_walker_limit_binds_out_of_time_order():
    # The engine offers requests in issue order, not time order. One walker (256 cycles per walk, set here, on a
    # calendar of 32-cycle buckets): CU 0's walk of page 1 is offered first, at 10500: UTCL2 miss at 10620,
    # the walker is free, 10620 + 122 (20 walker + 1 port + 101 L2 hit) = 10742; it takes the walker's
    # 10620 .. 10876. CU 1's walk of page 2 is offered next but from 10400: UTCL2 miss at 10520. It takes
    # the idle cycles 10520 .. 10620 (100), none of the 10620 .. 10876 the first holds, and its last 156
    # from 10876: its share ends at 11032, so it starts at 11032 - 256 = 10776 (256 stall cycles) and
    # returns at 10776 + 122 = 10898. A slot pool let it walk at 10520, beside the first, as if there were
    # two walkers.
    one = arch_overrides(ARCH, {"translation.utcl2_walkers": 1, "translation.walk_busy_cycles": 256})
    m = _levels(one)
    _tr(m, 0, 0, 0)
    assert _tr(m, 0, MIB2, 10500) == 10742
    assert _tr(m, 1, 2 * MIB2, 10400) == 10898
    assert _sums(m, "GPUSIM_UTCL2_WALKER_STALL_CYCLES") == (256,)
