"""LDS transpose study: a 32x32 u32 tile goes through LDS in one wave. Read by columns, rows of 32
words put a half-wave's 32 lanes on one bank (32-way conflicts); rows padded to 33 words spread them
over all 32 banks. Model: gpusim/engine/kernels/lds_banks.py (a b32 access is served in 2 groups
of 32 lanes; a group takes as many clocks as the most distinct words on one bank; conflict cycles =
clocks - groups) and the LDS unit of a CU is held for those clocks (gpusim/engine/kernels/cu.py)."""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"
STEPS = 16  # ds_write_b32 and ds_read_b32 per lane: 16 x 64 lanes = 1024 words


@pytest.fixture(scope="module")
def runs():
    arch = load_arch("cdna3")
    out = {}
    for row in (32, 33):
        kernel = gpusim.load_kernel(DATA / f"lds_transpose_32x{row}.s")
        assert gpusim.simulate(kernel, arch, check=True).checks_passed  # b == a.T
        out[row] = time_kernel(kernel, arch)
    return out


def test_column_reads_of_unpadded_rows_are_32_way_conflicts(runs):
    # Writes: half-wave h of step i stores row 2i + h, words (2i + h) * 32 + 0..31: 32 banks, 1 clock, 0 conflicts.
    # Reads: lane l of step j reads word (l % 32) * 32 + 2j + l / 32: the 32 lanes of a half-wave hit one bank
    # with 32 distinct words: 32 clocks, 31 conflict cycles per half, 62 per ds_read_b32.
    c = runs[32].counters
    assert c["SQ_LDS_BANK_CONFLICT"] == STEPS * 2 * (32 - 1) == 992
    # busy: 16 writes x 2 clocks + 16 reads x 64 clocks
    assert c["GPUSIM_LDS_BUSY_CYCLES"] == STEPS * 2 + STEPS * 64


def test_padding_rows_to_33_words_removes_the_conflicts(runs):
    # Reads: word (l % 32) * 33 + 2j + l / 32 is on bank (l + 2j + l / 32) % 32: 32 different banks per half-wave.
    c = runs[33].counters
    assert c["SQ_LDS_BANK_CONFLICT"] == 0
    assert c["GPUSIM_LDS_BUSY_CYCLES"] == STEPS * 2 + STEPS * 2


def test_padded_transpose_is_faster_by_the_conflict_cycles(runs):
    # Both kernels reach their first ds_read at the same cycle W (the extra VALU work of the padded address
    # is hidden behind the kernarg s_load wait) and store identically after their s_waitcnt lgkmcnt(0).
    # Unpadded: the LDS is held 64 clocks per read, so reads issue at W + 64j and the last one's data is
    # ready at W + 15*64 + 64 (clocks) + 64 (latency) = W + 1088, a SIMD 0 cycle.
    # Padded: reads issue every 4 cycles, the last at W + 60, ready at W + 60 + 2 + 64 = W + 126 -> the
    # wave's next turn W + 128. Difference: 1088 - 128 = 960 cycles.
    # The end-of-kernel release (b's dirty lines written back through the fabric port and HBM write queues)
    # is switched off here: it starts 960 cycles apart in the two kernels, at different phases of the DRAM's
    # clock and refresh, so it can add a cycle more to one than to the other (959 on cdna3 with the L1 at
    # 108 and the L2 at 101), which is no part of the LDS conflicts this test is about.
    arch = arch_overrides(load_arch("cdna3"), {"l2.write_back_at_kernel_end": False})
    ends = {row: time_kernel(gpusim.load_kernel(DATA / f"lds_transpose_32x{row}.s"), arch).cycles for row in (32, 33)}
    assert runs[33].cycles < runs[32].cycles
    assert ends[32] - ends[33] == 960
