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
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"
N = 8  # v_add_f32 (or MFMA) instructions in each chain


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


@pytest.fixture(scope="module")
def untranslated(cdna3):
    """cdna3 without address translation: these cases time the data's path alone; a first touch's page walk
    is timed by tests/memory/test_translation.py."""
    return arch_overrides(cdna3, {"translation.enabled": False})


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
# next level from the cycle the previous level returned. L1: 128 B line at 64 B/clk = 2 port cycles + 108.
# L2: 1 port cycle + 101 (a 64 B scalar line or a 128 B vector line at 128 B/clk). An L2 miss fetches its
# 128 B line as two 64 B MALL requests (TCC_EA_RDREQ) on one MALL slice: 1 port cycle + 191 each, the second
# queued 1 cycle behind the first. A MALL miss goes to HBM: shader cycle t becomes memory cycle
# ceil(t * 1300 / 2100), where the DRAM model (gpusim/memory/kernels/dram.py, hbm.timing) times the 64 B line
# as two 32 B column reads of one row: the two MALL halves of an L2 line sit in bank groups 0 and 1 of one
# pseudo-channel (hbm.address_map), both banks empty. ACT, RD after tRCD 26, the second RD tCCD_L 4 later,
# data tCL 17 after each RD for 2 clocks on the pseudo-channel's bus; the second bank's ACT waits tRRD_S 4.
# The end returns to shader cycles as ceil(m * 2100 / 1300), plus 330. The scalar cache adds 40 and then
# misses straight to L2. Layout (gpusim/exec/launch.py): kernarg at the arena base, buf 8704 B above it; both
# sit on L2 channel 1 of XCD 0 but use it 830 cycles apart, and on different MALL/HBM channels (127, 93), so
# no request waits for another.  All 64 lanes load one address: one line request.
#
# Common prologue, one wave on SIMD 0 (visited on cycles 0, 4, 8, ...):
#   c0    s_load_dwordx2 (kernarg, cold): scalar cache 0 + 40 = 40 -> L2 port 40..41, + 101 = 142 (miss) ->
#         MALL half 0: 142..143 + 191 = 334 (miss) -> HBM mem ceil(334*13/21) = 207: ACT 207, RDs 233, 237,
#               data ..256; back ceil(256*21/13) = 414, + 330 = 744
#         MALL half 1: 143..144 + 191 = 335 (miss) -> HBM mem ceil(335*13/21) = 208: ACT 211 (tRRD_S), RD 237
#               finds the bus taken until 256 (half 0's second burst): data 256..258, so that RD counts as
#               239 and the next in its group is 243 (tCCD_L): data ..262; back ceil(262*21/13) = 424,
#               + 330 = 754; the s_load completes at 754
#   c4    v_mov_b32 v1, 0
#   c8    s_waitcnt lgkmcnt(0) waits for 754; SIMD 0's turn is 756
#   c760  global_load_dword (buf, cold): L1 port 760..762 + 108 = 870 (miss) -> L2 port 870..871 + 101 = 972
#         (miss) -> MALL half 0: 972..973 + 191 = 1164 -> HBM mem ceil(1164*13/21) = 721: ACT 721, RDs 747,
#               751, data ..770; back ceil(770*21/13) = 1244, + 330 = 1574
#         MALL half 1: 973..974 + 191 = 1165 -> HBM mem ceil(1165*13/21) = 722: ACT 725, RD 751 finds the bus
#               taken until 770: data 770..772, next RD 757, data ..776; back ceil(776*21/13) = 1254,
#               + 330 = 1584: the load's data is visible at 1584
#   c764  s_waitcnt vmcnt(0) waits for 1584, SIMD 0's turn
# The cold load's load-to-use is 1584 - 760 = 824 = L1 (2 + 108) + L2 (1 + 101) + MALL (1 queued + 1 + 191)
# + HBM (330 + about 55 memory clocks of DRAM timing, 89 shader cycles with clock-crossing rounding).
# (With the L1 at 88 and the L2 at 111 the end was also 1589: the kernarg's s_load now completes 9 cycles
# sooner (763 -> 754: 10 less in the L2, less after DRAM clock rounding), so the load issues 8 earlier
# (768 -> 760), and its path is 10 longer (814 -> 824): data at 1584 instead of 1582, the same SIMD turn.)


def test_cold_global_load_misses_all_the_way_to_hbm(untranslated):
    # ... c1584 s_waitcnt issues, c1588 s_endpgm; the kernel ends the cycle after: 1589
    run = cycles("global_load_hbm_miss", untranslated)
    assert run.cycles == 1589
    c = run.counters
    assert (c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["GPUSIM_TCP_MISS_sum"], c["GPUSIM_TCP_HIT_sum"]) == (1, 1, 0)
    # two L2 lines (kernarg via the scalar cache, buf via L1), each fetched as two 64 B MALL misses
    assert (c["TCC_MISS_sum"], c["TCC_EA_RDREQ_sum"], c["GPUSIM_MALL_MISS_sum"]) == (2, 4, 4)
    assert c["GPUSIM_HBM_READ_BYTES_sum"] == 4 * 64
    assert (c["GPUSIM_HBM_ROW_MISS_sum"], c["GPUSIM_HBM_RD_CAS_sum"]) == (4, 8)


def test_second_global_load_of_a_line_hits_l1(untranslated):
    # ... c1584 s_waitcnt issues; c1588 the second global_load_dword: L1 port 1588..1590 (free since 762)
    # + 108 = 1698, a hit on a line ready since 1584: data at 1698, load-to-use 110 = 2 + 108.
    # c1592 s_waitcnt vmcnt(0) waits for 1698, SIMD 0's turn 1700; c1704 s_endpgm; ends at 1705
    # (+20 over the L1 at 88: the hit's 20 more cycles of L1 latency).
    run = cycles("global_load_l1_hit", untranslated)
    assert run.cycles == 1705
    assert run.cycles - cycles("global_load_hbm_miss", untranslated).cycles == 116  # 1 more load + waitcnt: 1589 -> 1705
    c = run.counters
    assert (c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]) == (2, 1, 1)
    assert c["TCC_REQ_sum"] == 2  # the hit never reached the L2 (kernarg, buf)
    assert c["TCP_UTCL1_REQUEST_sum"] == 0  # translation off
