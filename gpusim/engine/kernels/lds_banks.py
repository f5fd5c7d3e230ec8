"""LDS bank conflicts: the clocks the LDS needs to serve one wave64 ds_* access.

The model gpusim uses, derived from the LDS bandwidth of 128 B/clk/CU =
32 banks x 4 B per clock (both from the architecture YAML, ``cu.lds``):

- Per clock the LDS carries ``banks * bank_width_bytes`` bytes, so a wave's
  access is split into groups of consecutive lanes whose data fill that:
  b32 -> 2 groups of 32 lanes, b64 -> 4 of 16, b96/b128 -> 8 of 8 (a lane's
  slot is its width rounded up to a power of two; b8/b16 count as b32).
- A lane at byte address ``a`` touches the bank words ``a // bank_width``
  through ``(a + width - 1) // bank_width``; the word's bank is
  ``word % banks``.
- Within a group each bank serves one distinct word per clock; lanes touching
  the same word share it (broadcast). A group with an active lane takes the
  most distinct words any one bank holds; a group with none takes 0.
- cycles is the sum over groups; conflict cycles (what AMD's profiler counts
  as SQ_LDS_BANK_CONFLICT) are cycles minus the number of non-empty groups.
  Reads and writes follow the same rule.

The functions read ``addrs`` and ``mask`` and write only ``scratch``; they
allocate nothing, so the engine's hot loop can call them.
"""
import numpy as np
from numba import njit

from gpusim.memory.kernels.fastdiv import quot, rem

U = np.uint64

MAX_WORDS_PER_LANE = 5  # a misaligned b128 spans 5 bank words
SCRATCH_WORDS = 64 * MAX_WORDS_PER_LANE  # the most distinct words one access (so one bank) can touch


def scratch_for(banks: int) -> np.ndarray:
    """scratch_for returns a scratch array the kernels here accept for an LDS of ``banks`` banks."""
    return np.zeros(banks + banks * SCRATCH_WORDS + 1, dtype=np.uint64)


@njit(_nrt=False)
def lanes_per_clock(width_bytes, banks, bank_width_bytes):
    """lanes_per_clock is how many consecutive lanes' data one LDS clock carries (32 for b32 on CDNA)."""
    slot = bank_width_bytes
    while slot < width_bytes:
        slot *= 2
    n = banks * bank_width_bytes // slot
    return max(1, min(64, n))


@njit(_nrt=False)
def _conflict_free_cycles(addrs, offset, mask, first, last, width_bytes, banks, bank_width_bytes, scratch):
    """_conflict_free_cycles is _group_cycles for a group where no bank holds two distinct words, else -1.

    Needs ``banks <= 64``: a bit per bank says whether the bank has a word yet, scratch[b] which word.
    The common case (a conflict-free or broadcast access) costs a few operations per word.
    """
    used = U(0)
    for l in range(first, last):
        if (mask >> U(l)) & U(1) == U(0):
            continue
        a = np.int64(addrs[l] + offset)  # LDS addresses are 32-bit
        w = quot(a, bank_width_bytes)
        w_last = quot(a + width_bytes - 1, bank_width_bytes)
        while w <= w_last:
            b = rem(w, banks)
            bit = U(1) << U(b)
            if used & bit == U(0):
                used |= bit
                scratch[b] = U(w)
            elif scratch[b] != U(w):
                return -1
            w += 1
    return 1 if used else 0


@njit(_nrt=False)
def _group_cycles(addrs, offset, mask, first, last, width_bytes, banks, bank_width_bytes, scratch):
    """_group_cycles is the clocks lanes first..last-1 need: the most distinct words one bank holds.

    Bank b's distinct words are listed from scratch[banks + b * SCRATCH_WORDS] on, so a new word is
    compared only with its own bank's (usually none or one); scratch[b] is ``(generation << 16) | count``
    and the last element the generation, one per call, so that no bank needs clearing between groups.
    """
    if banks <= 64:
        c = _conflict_free_cycles(addrs, offset, mask, first, last, width_bytes, banks, bank_width_bytes, scratch)
        if c >= 0:
            return c
    bw = U(bank_width_bytes)
    nb = U(banks)
    gen_at = scratch.shape[0] - 1
    gen = scratch[gen_at] + U(1)
    scratch[gen_at] = gen
    worst = U(0)
    for l in range(first, last):
        if (mask >> U(l)) & U(1) == U(0):
            continue
        a = addrs[l] + offset
        w = quot(a, bw)
        w_last = quot(a + U(width_bytes - 1), bw)
        while w <= w_last:
            b = np.int64(rem(w, nb))
            e = scratch[b]
            n = np.int64(e & U(0xFFFF)) if (e >> U(16)) == gen else 0
            words = banks + b * SCRATCH_WORDS
            seen = False
            for j in range(words, words + n):
                if scratch[j] == w:
                    seen = True
                    break
            if not seen:
                scratch[words + n] = w
                scratch[b] = (gen << U(16)) | U(n + 1)
                if U(n + 1) > worst:
                    worst = U(n + 1)
            w += U(1)
    return np.int64(worst)


@njit(_nrt=False)
def _access_cycles(addrs, offset, mask, width_bytes, banks, bank_width_bytes, scratch):
    """_access_cycles is (cycles, conflict cycles) of one access at ``addrs + offset``."""
    per = lanes_per_clock(width_bytes, banks, bank_width_bytes)
    m = U(mask)
    off = U(offset)
    cycles = 0
    groups = 0
    for first in range(0, 64, per):
        c = _group_cycles(addrs, off, m, first, min(first + per, 64), width_bytes, banks, bank_width_bytes, scratch)
        if c > 0:
            cycles += c
            groups += 1
    return cycles, cycles - groups


@njit(_nrt=False)
def lds_access_cycles(addrs, mask, width_bytes, banks, bank_width_bytes, scratch, offset_bytes=0):
    """lds_access_cycles is (cycles, conflict cycles) for a wave64 ds_read/ds_write of ``width_bytes`` per lane.

    ``addrs`` is uint64[64] byte addresses, to which the instruction's ``offset_bytes`` is added,
    ``mask`` the uint64 exec mask, ``scratch`` from ``scratch_for(banks)``
    (mutated). An access with no active lane takes (0, 0).
    """
    return _access_cycles(addrs, offset_bytes, mask, width_bytes, banks, bank_width_bytes, scratch)


@njit(_nrt=False)
def ds2_access_cycles(addrs, mask, offset0_bytes, offset1_bytes, width_bytes, banks, bank_width_bytes, scratch):
    """ds2_access_cycles is (cycles, conflict cycles) for a ds_read2/ds_write2 of two ``width_bytes`` elements.

    gpusim serves the two elements as two separate accesses of the element
    width, at ``addrs + offset0_bytes`` and ``addrs + offset1_bytes``; the
    offsets are in bytes, already scaled by the element size (and by 64 for
    the st64 forms). Mutates ``scratch`` only.
    """
    c0, k0 = _access_cycles(addrs, offset0_bytes, mask, width_bytes, banks, bank_width_bytes, scratch)
    c1, k1 = _access_cycles(addrs, offset1_bytes, mask, width_bytes, banks, bank_width_bytes, scratch)
    return c0 + c1, k0 + k1


# The memo: one row per instruction, the last access it timed. Its 64 lane addresses, exec mask, cycles,
# conflict cycles and a valid flag. An access whose active lanes sit at the same addresses moved by a whole
# number of bank words (the same tile pattern at another wave's or iteration's base) maps every lane's words
# to banks shifted by one constant: the same distinct words per bank, so the same cycles.
MEMO_MASK, MEMO_CYCLES, MEMO_CONFLICTS, MEMO_VALID = 64, 65, 66, 67
MEMO_COLUMNS = 68


def memo_for(instructions: int) -> np.ndarray:
    """memo_for returns an empty memo for a program of ``instructions`` instructions."""
    return np.zeros((max(instructions, 1), MEMO_COLUMNS), dtype=np.int64)


@njit(_nrt=False)
def memo_cycles(row, addrs, mask, bank_width_bytes):
    """memo_cycles returns the (cycles, conflict cycles) remembered in ``row`` when ``addrs`` under ``mask``
    is the remembered access moved by a whole number of bank words, else (-1, 0). Reads only."""
    if row[MEMO_VALID] == 0 or row[MEMO_MASK] != np.int64(mask):
        return -1, 0
    first = -1
    delta = np.int64(0)
    for l in range(64):
        if (mask >> U(l)) & U(1):
            d = np.int64(addrs[l]) - row[l]
            if first < 0:
                first = l
                delta = d
                if rem(delta, bank_width_bytes) != 0:
                    return -1, 0
            elif d != delta:
                return -1, 0
    return row[MEMO_CYCLES], row[MEMO_CONFLICTS]


@njit(_nrt=False)
def memo_store(row, addrs, mask, cycles, conflicts):
    """memo_store remembers an access (``addrs`` under ``mask``) and its cycles in ``row``."""
    for l in range(64):
        row[l] = np.int64(addrs[l])
    row[MEMO_MASK] = np.int64(mask)
    row[MEMO_CYCLES] = cycles
    row[MEMO_CONFLICTS] = conflicts
    row[MEMO_VALID] = 1
