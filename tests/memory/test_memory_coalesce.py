"""The coalescer turns a wave's lane addresses into the cache lines a real L1 would see."""
import numpy as np
import pytest

from memory_support import py

from gpusim.memory.kernels.coalesce import _coalesce, coalesce, coalesce_bytes

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


def _run(addrs, mask=FULL, size=4, line=128, fn=coalesce):
    out = np.zeros(128, np.int64)
    n = fn(np.asarray(addrs, np.uint64), np.uint64(mask), size, line, out)
    return list(out[:n])


@pytest.mark.parametrize("fn", [coalesce, py(coalesce)])
def test_unit_stride_f32_wave_touches_two_lines(fn):
    assert _run(4096 + 4 * np.arange(64), fn=fn) == [4096, 4224]


@pytest.mark.parametrize("size", [1, 2, 4, 8, 12, 16])
@pytest.mark.parametrize("base", [0, 4, 60, 1144, (1 << 40) + 100])
def test_a_unit_stride_wave_gives_the_lines_the_lane_by_lane_walk_gives(size, base):
    # whole-wave unit stride takes a shortcut; with one lane out of step it must not
    addrs = (base + size * np.arange(64)).astype(np.uint64)
    walk = np.zeros(128, np.int64)
    for a in (addrs, np.where(np.arange(64) == 37, addrs + np.uint64(4096), addrs).astype(np.uint64)):
        n = _coalesce(a, FULL, size, 128, walk, walk, False)
        assert _run(a, size=size) == list(walk[:n])
    assert _run(addrs, size=size) == list(range(base - base % 128, base + 64 * size, 128))


def test_stride_of_a_line_touches_one_line_per_lane():
    lines = _run(128 * np.arange(64))
    assert lines == list(128 * np.arange(64))


def test_broadcast_is_one_line():
    assert _run(np.full(64, 1000)) == [896]


def test_inactive_lanes_touch_nothing():
    addrs = 128 * np.arange(64)
    assert _run(addrs, mask=0) == []
    assert _run(addrs, mask=0b1010) == [128, 384]
    assert _run(addrs, mask=np.uint64(1) << np.uint64(63)) == [128 * 63]


def test_straddling_access_touches_both_lines_in_first_touch_order():
    addrs = np.zeros(64, np.int64)
    addrs[0] = 1144  # 16 bytes at 1144 span lines 1024 and 1152
    addrs[1] = 0
    assert _run(addrs, mask=0b11, size=16) == [1024, 1152, 0]


def test_worst_case_fills_128_entries():
    addrs = 256 * np.arange(64) + 124
    assert len(_run(addrs, size=8)) == 128


@pytest.mark.parametrize("fn", [coalesce_bytes, py(coalesce_bytes)])
def test_bytes_per_line(fn):
    out, nb = np.zeros(128, np.int64), np.zeros(128, np.int64)
    addrs = (4 * np.arange(64) + 64).astype(np.uint64)  # 256 bytes from 64: 64 + 128 + 64
    n = fn(addrs, FULL, 4, 128, out, nb)
    assert list(out[:n]) == [0, 128, 256]
    assert list(nb[:n]) == [64, 128, 64]
    n = fn(np.zeros(64, np.uint64), FULL, 4, 128, out, nb)
    assert (n, nb[0]) == (1, 128)  # 64 lanes x 4 B on the same word: capped at a line


def _reference(addrs, mask, size, line):
    """Every active lane's lines in lane order, first touch kept: the contract, by brute force."""
    lines, counts = [], {}
    for lane, a in enumerate(int(x) for x in addrs):
        if not (int(mask) >> lane) & 1:
            continue
        for first in range(a - a % line, a + size, line):
            if first not in counts:
                lines.append(first)
                counts[first] = 0
            counts[first] = min(counts[first] + min(a + size, first + line) - max(a, first), line)
    return lines, [counts[x] for x in lines]


def _lane_patterns(rng):
    """Address patterns of real kernels (lines shared by lanes in and out of order) and random ones."""
    lane = np.arange(64)
    rows = rng.integers(1, 9) * 128 * (lane % 32) + 4 * (lane // 32)            # an MFMA operand's two K columns
    yield rows, rng.integers(0, 1 << 20) * 4
    yield 4 * lane[::-1], rng.integers(0, 1 << 20) * 4                          # falling addresses
    yield rng.integers(0, 16, 64) * 64, rng.integers(0, 1 << 20)                # a few lines, any order
    yield rng.integers(0, 1 << 16, 64), 0                                       # scattered
    yield np.sort(rng.integers(0, 1 << 12, 64)), rng.integers(0, 1 << 30)       # rising, some shared


@pytest.mark.parametrize("seed", range(40))
def test_lines_and_bytes_match_a_brute_force_walk(seed):
    # whatever the pattern, the lines, their first-touch order and their bytes are the brute-force walk's
    rng = np.random.default_rng(seed)
    for offsets, base in _lane_patterns(rng):
        addrs = (np.asarray(offsets, np.int64) + int(base)).astype(np.uint64)
        size = int(rng.choice([1, 2, 4, 8, 16]))
        line = int(rng.choice([64, 128]))
        mask = np.uint64(rng.integers(0, 1 << 63)) | np.uint64(seed % 2) << np.uint64(63) if seed % 3 else FULL
        lines, nbytes = _reference(addrs, mask, size, line)
        out, nb = np.zeros(128, np.int64), np.zeros(128, np.int64)
        assert _run(addrs, mask, size, line) == lines
        n = coalesce_bytes(addrs, mask, size, line, out, nb)
        assert (list(out[:n]), list(nb[:n])) == (lines, nbytes)
