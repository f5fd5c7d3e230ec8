"""Exact cycle counts of tiny kernels on the CU timing model, derived by hand.

Model (gpusim/engine/kernels/cu.py): the arbiter visits SIMD ``c % 4`` on
cycle c; a wave issues at most one instruction per visit; a VALU holds its
SIMD's vector unit 4 cycles, an MFMA 32x32x8 f16 the matrix unit 8 passes x 4
= 32 cycles on cdna3; a kernel ends the cycle after its last s_endpgm, or
when the last MFMA, VALU or memory write it started finishes, if later.
Wave k of a workgroup runs on SIMD k % 4.
"""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"
N = 8  # v_add_f32 (or MFMA) instructions in each chain


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def cycles(name, arch):
    return time_kernel(gpusim.load_kernel(DATA / f"{name}.s"), arch)


def test_dependent_valu_chain_one_wave(cdna3):
    # v_mov + N dependent v_add issue every 4 cycles (0 .. 4N); s_endpgm at 4(N+1)
    run = cycles("valu_chain", cdna3)
    assert run.cycles == 4 * (N + 1) + 1
    assert run.counters["GPUSIM_INSTS_TOTAL"] == N + 2
    assert run.counters["GPUSIM_VALU_BUSY_CYCLES"] == 4 * (N + 1)


def test_four_waves_on_four_simds_run_in_parallel(cdna3):
    # wave 3 is visited on cycles 3, 7, ...: its last VALU at 3 + 4N, s_endpgm at 3 + 4(N+1)
    run = cycles("valu_chain_4waves", cdna3)
    assert run.cycles == 4 * (N + 1) + 4
    assert run.counters["GPUSIM_INSTS_TOTAL"] == 4 * (N + 2)


def test_two_waves_on_one_simd_share_its_vector_unit(cdna3):
    # waves 0 and 4 of a 5-wave workgroup share SIMD 0: 2(N+1) VALUs at 0 .. 4(2N+1),
    # then wave 4's s_endpgm at 4(2N+2)
    run = cycles("valu_chain_2waves_same_simd", cdna3)
    assert run.cycles == 8 * (N + 1) + 1


def test_dependent_mfma_back_to_back(cdna3):
    # each v_mfma_f32_32x32x8_f16 holds the matrix unit 32 cycles and its result is ready
    # when it ends, so the srcC chain issues at 0, 32, ..., 32(N-1) and finishes at 32N
    run = cycles("mfma_chain", cdna3)
    assert run.cycles == 32 * N
    assert run.counters["GPUSIM_MFMA_BUSY_CYCLES"] == 32 * N


def test_independent_mfma_are_bound_by_the_matrix_unit(cdna3):
    run = cycles("mfma_independent", cdna3)
    assert run.cycles == 32 * N


def test_mfma_passes_follow_the_generation(cdna3):
    # the same instruction takes 16 passes on CDNA2 (64 cycles)
    src = (DATA / "mfma_chain.s").read_text().replace("v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8f16")
    src = src.replace("gfx942", "gfx90a")
    path = DATA.parent / "mfma_chain_gfx90a.s"
    try:
        path.write_text(src)
        run = time_kernel(gpusim.load_kernel(path), load_arch("cdna2"))
    finally:
        path.unlink()
    assert run.cycles == 64 * N


def test_barrier_waits_for_the_slowest_wave(cdna3):
    # wave 0 (SIMD 0): v_cmp 0, s_and_saveexec 4, s_cbranch 8, 4 x v_add 12..24, s_or 28,
    # s_barrier 32, s_endpgm 36. wave 1 (SIMD 1) reaches s_barrier at 17 and leaves at 33.
    run = cycles("barrier", cdna3)
    assert run.cycles == 37
    assert run.counters["GPUSIM_INSTS_TOTAL"] == 16


# ---------------------------------------------------------------- global loads through the memory hierarchy
# Memory model (gpusim/memory/kernels/access.py, figures from archs/cdna3.yaml): a level is a port (requests in
# time order are served first come, first served) that holds ceil(bytes / bytes_per_clk) cycles (at least 1) and then adds its latency_cycles; a miss goes on to the
# next level from the cycle the previous level returned. L1: 128 B line at 64 B/clk = 2 port cycles + 88.
# L2: 1 port cycle + 111 (a 64 B scalar line or a 128 B vector line at 128 B/clk). An L2 miss fetches its
# 128 B line as two 64 B MALL requests (TCC_EA_RDREQ) on one MALL slice: 1 port cycle + 191 each, the second
# queued 1 cycle behind the first. A MALL miss goes to HBM: shader cycle t becomes memory cycle
# ceil(t * 1300 / 2100), the channel moves 32 B per memory clock (64 B = 2 memory cycles, FIFO per channel),
# the end returns to shader cycles as ceil(m * 2100 / 1300), plus 437. The scalar cache adds 40 and then
# misses straight to L2. Layout (gpusim/exec/launch.py): kernarg at the arena base, buf 8704 B above it; both
# sit on L2 channel 1 of XCD 0 but use it 840 cycles apart, and on different MALL/HBM channels (127, 93), so
# no request waits for another. All 64 lanes load one address: one line request.
#
# Common prologue, one wave on SIMD 0 (visited on cycles 0, 4, 8, ...):
#   c0    s_load_dwordx2 (kernarg, cold): scalar cache 0 + 40 = 40 -> L2 port 40..41, + 111 = 152 (miss) ->
#         MALL half 0: 152..153 + 191 = 344 (miss) -> HBM mem ceil(344*13/21) = 213, 213..215,
#               back ceil(215*21/13) = 348, + 437 = 785
#         MALL half 1: 153..154 + 191 = 345 (miss) -> HBM mem ceil(345*13/21) = 214, queued to 215..217,
#               back ceil(217*21/13) = 351, + 437 = 788; the s_load completes at 788
#   c4    v_mov_b32 v1, 0
#   c8    s_waitcnt lgkmcnt(0) waits for 788 (a SIMD 0 cycle) and issues there
#   c792  global_load_dword (buf, cold) first translates its page (archs/cdna3.yaml translation:, 2 MiB
#         pages): UTCL1 miss (+0) and UTCL2 miss (+120) = 912, walker + 20 = 932 reads PDE0's line (page
#         tables at 2^46: L2 channel 0, MALL/HBM channel 0, apart from kernarg and buf): L2 port 932..933
#         + 111 = 1044 (miss) -> MALL half 0: 1044..1045 + 191 = 1236 -> HBM mem ceil(1236*13/21) = 766,
#               766..768, back ceil(768*21/13) = 1241, + 437 = 1678
#         MALL half 1: 1045..1046 + 191 = 1237 -> HBM mem 766, queued to 768..770, back 1244, + 437 = 1681:
#         the translation is back at 1681 (889 cycles after issue)
#         then the access: L1 port 1681..1683 + 88 = 1771 (miss) -> L2 port 1771..1772 + 111 = 1883
#         (miss) -> MALL half 0: 1883..1884 + 191 = 2075 -> HBM mem ceil(2075*13/21) = 1285, 1285..1287,
#               back ceil(1287*21/13) = 2079, + 437 = 2516
#         MALL half 1: 1884..1885 + 191 = 2076 -> HBM mem ceil(2076*13/21) = 1286, queued to 1287..1289,
#               back ceil(1289*21/13) = 2083, + 437 = 2520: the load's data is visible at 2520
#   c796  s_waitcnt vmcnt(0) waits for 2520, a SIMD 0 cycle, and issues there
# The cold load's load-to-use is 2520 - 792 = 1728 = the walk's 889 (120 UTCL2 + 20 walker + PDE0 read
# from HBM 749) + the access's 839 = L1 (2 + 88) + L2 (1 + 111) + MALL (1 queued + 1 + 191)
# + HBM (437 + 7 cycles of channel time and clock-crossing rounding).


def test_cold_global_load_misses_all_the_way_to_hbm(cdna3):
    # ... c2520 s_waitcnt issues, c2524 s_endpgm; the kernel ends the cycle after: 2525
    run = cycles("global_load_hbm_miss", cdna3)
    assert run.cycles == 2525
    c = run.counters
    assert (c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["GPUSIM_TCP_MISS_sum"], c["GPUSIM_TCP_HIT_sum"]) == (1, 1, 0)
    # three L2 lines (kernarg via the scalar cache, buf via L1, the walk's PDE0 line), each fetched as two
    # 64 B MALL misses
    assert (c["TCC_MISS_sum"], c["TCC_EA_RDREQ_sum"], c["GPUSIM_MALL_MISS_sum"]) == (3, 6, 6)
    assert c["GPUSIM_HBM_READ_BYTES_sum"] == 6 * 64
    assert (c["TCP_UTCL1_TRANSLATION_MISS_sum"], c["GPUSIM_PAGE_WALKS_sum"]) == (1, 1)


def test_second_global_load_of_a_line_hits_l1(cdna3):
    # ... c2520 s_waitcnt issues; c2524 the second global_load_dword: its page hits the UTCL1 (+0), L1 port
    # 2524..2526 (free since 1683) + 88 = 2614, a hit on a line ready since 2520: data at 2614, load-to-use
    # 90 = 2 + 88. c2528 s_waitcnt vmcnt(0) waits for 2614, SIMD 0's turn 2616; c2620 s_endpgm; ends at 2621.
    run = cycles("global_load_l1_hit", cdna3)
    assert run.cycles == 2621
    assert run.cycles - cycles("global_load_hbm_miss", cdna3).cycles == 96  # 1 more load + waitcnt: 2525 -> 2621
    c = run.counters
    assert (c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]) == (2, 1, 1)
    assert c["TCC_REQ_sum"] == 3  # the hit never reached the L2 (kernarg, buf, the walk's PDE0 line)
    assert (c["TCP_UTCL1_TRANSLATION_HIT_sum"], c["TCP_UTCL1_TRANSLATION_MISS_sum"]) == (1, 1)
