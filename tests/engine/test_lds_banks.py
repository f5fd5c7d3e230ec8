"""The LDS bank-conflict model: cycles and SQ_LDS_BANK_CONFLICT cycles of wave64 ds_* accesses."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpusim
from gpusim.engine.kernels import lds_banks
from gpusim.engine.kernels.lds_banks import ds2_access_cycles, lds_access_cycles, scratch_for

REPO = Path(__file__).resolve().parents[2]
BANKS, BANK_WIDTH = 32, 4
ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


def words(stride_words: int, base: int = 0) -> np.ndarray:
    """words gives lane l the byte address of word base + stride_words * l."""
    return (np.arange(64, dtype=np.uint64) * stride_words + base) * BANK_WIDTH


def access(addrs, width, mask=ALL, banks=BANKS):
    return lds_access_cycles(addrs, np.uint64(mask), width, banks, BANK_WIDTH, scratch_for(banks))


def reference(addrs, mask: int, width: int) -> tuple[int, int]:
    """reference is the model on a 32 x 4 B LDS written with sets, independently of the kernel."""
    lanes = {4: 32, 8: 16, 12: 8, 16: 8}[width]
    cycles = groups = 0
    for first in range(0, 64, lanes):
        per_bank: dict[int, set[int]] = {}
        for l in range(first, first + lanes):
            if mask >> l & 1:
                a = int(addrs[l])
                for word in range(a // 4, (a + width - 1) // 4 + 1):
                    per_bank.setdefault(word % 32, set()).add(word)
        if per_bank:
            cycles += max(len(s) for s in per_bank.values())
            groups += 1
    return cycles, cycles - groups


# ---------------------------------------------------------------- b32
def test_unit_stride_b32_takes_two_clocks_without_conflicts():
    assert access(words(1), 4) == (2, 0)


def test_same_address_on_every_lane_is_a_broadcast():
    same = np.full(64, 256, dtype=np.uint64)
    assert access(same, 4) == (2, 0)
    assert access(same, 16) == (8, 0)


def test_transpose_column_with_stride_32_words_is_a_32_way_conflict():
    # Each 32-lane group puts 32 distinct words on bank 0: 32 clocks per group.
    assert access(words(32), 4) == (64, 62)


def test_padding_the_row_by_one_word_removes_the_conflict():
    assert access(words(33), 4) == (2, 0)


def test_stride_2_words_b32_is_a_2_way_conflict():
    assert access(words(2), 4) == (4, 2)


# ---------------------------------------------------------------- wider accesses
def test_b64_unit_stride_is_conflict_free():
    assert access(words(2), 8) == (4, 0)


def test_b96_unit_stride_is_conflict_free():
    assert access(words(3), 12) == (8, 0)


def test_b128_unit_stride_is_conflict_free():
    assert access(words(4), 16) == (8, 0)


def test_b64_with_stride_4_words_is_a_2_way_conflict():
    # Within a 16-lane group, lanes l and l + 8 hit the same two banks.
    assert access(words(4), 8) == (8, 4)


def test_misaligned_b32_touches_two_words():
    # Lane l covers words l and l + 1, so each 32-lane group spans 33 words and bank 0 holds two.
    assert access(words(1) + np.uint64(2), 4) == (4, 2)


# ---------------------------------------------------------------- exec masks
def test_no_active_lane_takes_no_time():
    assert access(words(32), 4, mask=0) == (0, 0)


def test_only_the_low_half_active_is_one_group():
    assert access(words(1), 4, mask=0xFFFF_FFFF) == (1, 0)


def test_inactive_lanes_do_not_conflict():
    assert access(words(32), 4, mask=(1 << 0) | (1 << 32)) == (2, 0)
    assert access(words(32), 4, mask=0xF) == (4, 3)


# ---------------------------------------------------------------- ds_read2 / ds_write2
def test_read2_b32_of_adjacent_words_is_two_stride_2_accesses():
    assert ds2_access_cycles(words(2), ALL, 0, 4, 4, BANKS, BANK_WIDTH, scratch_for(BANKS)) == (8, 4)


def test_read2st64_b32_of_unit_stride_rows_is_conflict_free():
    assert ds2_access_cycles(words(1), ALL, 0, 64 * 4, 4, BANKS, BANK_WIDTH, scratch_for(BANKS)) == (4, 0)


def test_read2_b64_adds_its_two_accesses():
    one = access(words(4), 8)
    two = ds2_access_cycles(words(4), ALL, 0, 8 * 8, 8, BANKS, BANK_WIDTH, scratch_for(BANKS))
    assert two == (2 * one[0], 2 * one[1])


# ---------------------------------------------------------------- architecture
def test_shipped_archs_carry_bandwidth_equal_to_banks_times_width():
    """The model takes the per-clock bandwidth as banks x bank width; the YAML must agree."""
    for name in ("cdna3", "cdna2", "cdna3_2x_lds", "cdna3_12_stacks"):
        lds = gpusim.load_arch(name).cu.lds
        assert lds.bytes_per_clk == lds.banks * lds.bank_width_bytes, name


def test_a_64_bank_lds_serves_a_unit_stride_wave_in_one_clock():
    assert access(words(1), 4, banks=64) == (1, 0)
    assert access(words(64), 4, banks=64) == (64, 63)


# ---------------------------------------------------------------- properties
lane_addrs = st.lists(
    st.one_of(st.integers(0, 511).map(lambda w: 4 * w), st.integers(0, 4095)),
    min_size=64, max_size=64,
).map(lambda xs: np.array(xs, dtype=np.uint64))


@settings(max_examples=300, deadline=None)
@given(addrs=lane_addrs, mask=st.integers(0, 2**64 - 1), width=st.sampled_from([4, 8, 12, 16]))
def test_kernel_matches_reference(addrs, mask, width):
    cycles, conflicts = access(addrs, width, mask=mask)
    lanes = lds_banks.lanes_per_clock(width, BANKS, BANK_WIDTH)
    groups = sum(1 for first in range(0, 64, lanes) if mask >> first & ((1 << lanes) - 1))
    assert conflicts >= 0
    assert cycles >= groups
    assert (cycles, conflicts) == reference(addrs, mask, width)


@settings(max_examples=50, deadline=None)
@given(addrs=lane_addrs, mask=st.integers(0, 2**64 - 1), width=st.sampled_from([4, 8]),
       off0=st.integers(0, 255), off1=st.integers(0, 255))
def test_ds2_is_the_sum_of_its_two_accesses(addrs, mask, width, off0, off1):
    want = [reference(addrs + np.uint64(o * width), mask, width) for o in (off0, off1)]
    got = ds2_access_cycles(addrs, np.uint64(mask), off0 * width, off1 * width, width, BANKS, BANK_WIDTH,
                            scratch_for(BANKS))
    assert got == (want[0][0] + want[1][0], want[0][1] + want[1][1])


# ---------------------------------------------------------------- pure-Python bodies
PY_CASES = [(words(1), 4, ALL), (words(32), 4, ALL), (words(4), 8, ALL), (words(4), 16, np.uint64(0xF0F0)),
            (words(1) + np.uint64(2), 16, ALL), (words(2), 4, np.uint64(0))]


@pytest.mark.parametrize("addrs,width,mask", PY_CASES)
def test_py_func_of_each_kernel_matches_compiled(addrs, width, mask):
    s = scratch_for(BANKS)
    assert lds_banks.lanes_per_clock.py_func(width, BANKS, BANK_WIDTH) == lds_banks.lanes_per_clock(
        width, BANKS, BANK_WIDTH)
    for first in (0, 8, 32):
        assert lds_banks._group_cycles.py_func(addrs, np.uint64(0), mask, first, first + 8, width, BANKS,
                                               BANK_WIDTH, s) == lds_banks._group_cycles(
            addrs, np.uint64(0), mask, first, first + 8, width, BANKS, BANK_WIDTH, s)
    compiled = access(addrs, width, mask=mask)
    assert lds_banks._access_cycles.py_func(addrs, 0, mask, width, BANKS, BANK_WIDTH, s) == compiled
    assert lds_access_cycles.py_func(addrs, mask, width, BANKS, BANK_WIDTH, s) == compiled
    assert ds2_access_cycles.py_func(addrs, mask, 0, 256, width, BANKS, BANK_WIDTH, s) == ds2_access_cycles(
        addrs, mask, 0, 256, width, BANKS, BANK_WIDTH, s)


def test_model_runs_with_numba_jit_disabled():
    code = ("import numpy as np\n"
            "from gpusim.engine.kernels.lds_banks import lds_access_cycles, ds2_access_cycles, scratch_for\n"
            "a = (np.arange(64, dtype=np.uint64) * 32) * 4; m = np.uint64(2**64 - 1); s = scratch_for(32)\n"
            "r = [lds_access_cycles(a, m, 4, 32, 4, s), lds_access_cycles(a + 4 * np.arange(64, dtype=np.uint64), m, 4, 32, 4, s),"
            " ds2_access_cycles(a, m, 0, 4, 4, 32, 4, s)]\n"
            "print([tuple(int(x) for x in t) for t in r])\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[0] == "[(64, 62), (2, 0), (128, 124)]"


# ---------------------------------------------------------------- the per-instruction memo
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1023), min_size=64, max_size=64), st.integers(0, (1 << 64) - 1),
       st.sampled_from([4, 8, 16]), st.integers(-4096, 4096))
def test_the_memo_reuses_only_accesses_moved_by_whole_bank_words(words_, mask, width, shift_bytes):
    first = np.array(words_, dtype=np.uint64) * BANK_WIDTH + 4096 * 8
    row = lds_banks.memo_for(1)[0]
    cycles, conflicts = access(first, width, mask)
    lds_banks.memo_store(row, first, np.uint64(mask), cycles, conflicts)
    moved = first + np.uint64(8192) + np.array(shift_bytes, dtype=np.int64).astype(np.uint64)
    remembered = lds_banks.memo_cycles(row, moved, np.uint64(mask), BANK_WIDTH)
    if shift_bytes % BANK_WIDTH or mask == 0:
        assert remembered == (-1, 0) or mask == 0
    else:
        assert remembered == (cycles, conflicts) == access(moved, width, mask) == reference(moved, mask, width)
    other_lane = first.copy()
    other_lane[63] += np.uint64(BANK_WIDTH)
    if mask >> 63 & 1 and mask & ((1 << 63) - 1):
        assert lds_banks.memo_cycles(row, other_lane, np.uint64(mask), BANK_WIDTH) == (-1, 0)
