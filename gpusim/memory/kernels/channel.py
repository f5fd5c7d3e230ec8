"""Address interleaving over channels, and a channel as a FIFO bandwidth-plus-latency server.

Chunks of ``interleave_bytes`` rotate over the channels; when the channel count is a power of two the rotation
is permuted per group of ``channels`` chunks by XOR-folding the group number into the channel bits (model
assumption: GPUs hash their channel select so that power-of-two strides, a 16 KiB matrix row, do not all land
on one channel; AMD does not publish its hash). Consecutive chunks still cover every channel.

A server is a calendar of its busy time, ``cal[ch, CALENDAR_BUCKETS]`` (int64, from ``channel_calendar``): bucket
``b`` covers ``BUCKET_CYCLES`` cycles and records the end of the latest service inside it. Requests reach a channel
in the order the engine processes them, which is not time order: a request that waited for an MSHR arrives "from
the future". With one ``next_free`` per channel it would hold up every earlier request processed after it; with
the calendar it holds up only requests of its own bucket, by at most ``BUCKET_CYCLES``. Requests offered in time
order are served exactly first come, first served. A bucket is reused every ``CALENDAR_BUCKETS`` buckets and
tagged with its absolute number, so a stale one reads as idle.
"""
import numpy as np
from numba import njit

from gpusim.memory.kernels.fastdiv import log2_pow2, quot, rem


@njit(_nrt=False)
def _fold(group, channels):
    """_fold XORs the successive log2(channels)-bit fields of ``group`` (>= 0); 0 unless channels is a power of 2."""
    if channels < 2 or channels & (channels - 1) != 0:
        return 0
    k = log2_pow2(channels)
    h = 0
    while group > 0:
        h ^= group & (channels - 1)
        group >>= k
    return h


@njit(_nrt=False)
def channel_of(addr, interleave_bytes, channels):
    """channel_of returns the channel serving byte ``addr`` (>= 0)."""
    chunk = quot(addr, interleave_bytes)
    return rem(chunk, channels) ^ _fold(quot(chunk, channels), channels)


@njit(_nrt=False)
def channel_local(addr, interleave_bytes, channels):
    """channel_local returns ``addr`` with the channel-select bits squeezed out: its offset inside its channel.

    Consecutive chunks of one channel become consecutive, so a per-channel cache indexed by this address uses
    all its sets.
    """
    chunk = quot(addr, interleave_bytes)
    return quot(chunk, channels) * interleave_bytes + rem(addr, interleave_bytes)


@njit(_nrt=False)
def channel_global(local, ch, interleave_bytes, channels):
    """channel_global returns the byte address that ``channel_local`` maps to ``local`` in channel ``ch``."""
    group = quot(local, interleave_bytes)
    return (group * channels + (ch ^ _fold(group, channels))) * interleave_bytes + rem(local, interleave_bytes)


@njit(_nrt=False)
def channel_occupancy(nbytes, bytes_per_clk):
    """channel_occupancy returns the whole cycles a channel of ``bytes_per_clk`` spends moving ``nbytes`` (at least 1)."""
    occ = -quot(-nbytes, bytes_per_clk)
    return max(occ, 1)


BUCKET_CYCLES = 32
CALENDAR_BUCKETS = 2048  # a horizon of 65,536 cycles
_END_BITS = 16  # a bucket entry is (absolute bucket << 16) | end of service within it


def channel_calendar(*channels) -> np.ndarray:
    """channel_calendar returns an idle calendar for channels of shape ``channels``."""
    return np.zeros((*channels, CALENDAR_BUCKETS), np.int64)


@njit(_nrt=False)
def channel_request(cal, ch, now, nbytes, bytes_per_clk, latency):
    """channel_request serves ``nbytes`` on channel ``ch`` at or after cycle ``now``; returns the completion cycle.

    The request needs ``channel_occupancy(nbytes, bytes_per_clk)`` cycles of the channel, starting when both
    it and the channel (in the bucket ``now`` falls in) are free, spilling into the following buckets; it
    completes ``latency`` cycles after its last one. On an idle channel that is ``now + occupancy + latency``;
    N requests offered at cycle 0 complete at ``k * occupancy + latency`` for k = 1..N. Mutates ``cal[ch]``.
    """
    row = cal[ch]
    left = channel_occupancy(nbytes, bytes_per_clk)
    t = now
    while True:
        b = t // BUCKET_CYCLES
        slot = b % CALENDAR_BUCKETS
        e = row[slot]
        if (e >> _END_BITS) == b:
            t = max(t, b * BUCKET_CYCLES + (e & ((1 << _END_BITS) - 1)))
        take = min(left, (b + 1) * BUCKET_CYCLES - t)
        if take > 0:
            left -= take
            t += take
            row[slot] = (b << _END_BITS) | (t - b * BUCKET_CYCLES)
            if left == 0:
                return t + latency
