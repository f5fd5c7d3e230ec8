"""The stall breakdown: every wave-cycle is attributed to one cause, and the
dominant cause is the one the kernel's structure implies."""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import STALL_COUNTERS, time_kernel

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def breakdown(path, arch):
    c = time_kernel(gpusim.load_kernel(path), arch).counters
    assert sum(c[name] for name in STALL_COUNTERS) == c["GPUSIM_WAVE_CYCLES"]
    return {name: c[name] for name in STALL_COUNTERS}, c["GPUSIM_WAVE_CYCLES"]


def test_a_valu_chain_only_issues(cdna3):
    parts, total = breakdown(DATA / "valu_chain.s", cdna3)
    # 9 VALU + 1 s_endpgm visits; the last one ends the wave, so 9 visits x 4 cycles
    assert parts["GPUSIM_WAVE_ISSUE_CYCLES"] == total == 36


def test_dependent_mfma_chain_waits_on_its_accumulator(cdna3):
    parts, total = breakdown(DATA / "mfma_chain.s", cdna3)
    assert max(parts, key=parts.get) == "GPUSIM_STALL_DEPENDENCY_CYCLES"


def test_independent_mfmas_wait_on_the_matrix_unit(cdna3):
    parts, total = breakdown(DATA / "mfma_independent.s", cdna3)
    assert max(parts, key=parts.get) == "GPUSIM_STALL_UNIT_BUSY_CYCLES"


def test_barrier_wait_is_counted(cdna3):
    parts, total = breakdown(DATA / "barrier.s", cdna3)
    # wave 1 (SIMD 1, visited on cycles 1, 5, 9, ...) takes s_cbranch_execz at 9 and refills its
    # instruction buffer (taken_branch_cycles 4: ready at 14, so it skips the visit at 13), issues s_or at 17
    # and s_barrier at 21; wave 0 releases the barrier at 32, so wave 1 waited from the visit at 25 to 33
    assert parts["GPUSIM_STALL_IFETCH_CYCLES"] == 4
    assert parts["GPUSIM_STALL_BARRIER_CYCLES"] == 8


def test_a_streaming_kernel_waits_on_vector_memory(cdna3):
    parts, total = breakdown(REPO / "workloads" / "saxpy.s", cdna3)
    assert parts["GPUSIM_STALL_WAITCNT_VM_CYCLES"] > total / 3
