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
