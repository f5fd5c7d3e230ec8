"""Address interleaving over channels, and a channel as a FIFO bandwidth-plus-latency server.

Chunks of ``interleave_bytes`` rotate over the channels; when the channel count is a power of two the rotation
is permuted per group of ``channels`` chunks by XOR-folding the group number into the channel bits (model
assumption: GPUs hash their channel select so that power-of-two strides, a 16 KiB matrix row, do not all land
on one channel; AMD does not publish its hash). Consecutive chunks still cover every channel.

A server is a calendar of its busy time, ``cal[ch, CALENDAR_BUCKETS]`` (int64, from ``channel_calendar``): bucket
``b`` covers ``BUCKET_CYCLES`` cycles and records how many of them are taken and the end of the latest service
inside it and when the latest request to use it arrived. Requests reach a channel in the order the engine processes them, which is not time order: a request
that waited for an MSHR, or comes from a CU that ran ahead through its window, arrives "from the future". A
request arriving no earlier than the bucket's latest arrival is served first come, first served, exactly; one
arriving earlier (out of time order) takes the bucket's untaken cycles as if it had come first, so neither
holds the other up beyond what the bucket's capacity forces. Requests offered in time order are served exactly
first come, first served, and in any order a bucket never serves more than ``BUCKET_CYCLES`` cycles. A bucket is
reused every ``CALENDAR_BUCKETS`` buckets and tagged with its absolute number, so a stale one reads as idle.
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
# a bucket entry is (absolute bucket << 24) | (cycles taken << 16) | (end of its latest service << 8) | its
# latest arrival, the last three as offsets within the bucket
_TAG_SHIFT = 24
_TAKEN_SHIFT = 16
_END_SHIFT = 8
_FIELD = 0xFF


def channel_calendar(*channels, buckets: int = CALENDAR_BUCKETS) -> np.ndarray:
    """channel_calendar returns an idle calendar for channels of shape ``channels``: ``buckets`` (a power
    of two) buckets, a horizon of ``buckets * BUCKET_CYCLES`` cycles."""
    assert buckets > 0 and buckets & (buckets - 1) == 0
    return np.zeros((*channels, buckets), np.int64)


@njit(_nrt=False)
def channel_request(cal, ch, now, nbytes, bytes_per_clk, latency):
    """channel_request serves ``nbytes`` on channel ``ch`` at or after cycle ``now``; returns the completion cycle.

    The request needs ``channel_occupancy(nbytes, bytes_per_clk)`` cycles of the channel, spilling into the
    following buckets when its own has too few left; it completes ``latency`` cycles after its last one.
    Arriving no earlier than the bucket's latest arrival it starts when both it and the channel are free;
    arriving earlier, it ends no earlier than its arrival plus the cycles it takes nor than the bucket's taken
    cycles, itself included, counted from the bucket's start. On an idle channel that is ``now + occupancy + latency``; N
    requests offered at cycle 0 complete at ``k * occupancy + latency`` for k = 1..N. Mutates ``cal[ch]``.
    """
    row = cal[ch]
    left = channel_occupancy(nbytes, bytes_per_clk)
    t = now
    while True:
        b = t // BUCKET_CYCLES
        start = b * BUCKET_CYCLES
        slot = b & (row.shape[0] - 1)
        e = row[slot]
        taken = 0
        end = 0
        last = 0
        if (e >> _TAG_SHIFT) == b:
            taken = (e >> _TAKEN_SHIFT) & _FIELD
            end = (e >> _END_SHIFT) & _FIELD
            last = e & _FIELD
        if t >= start + last:  # in time order: first come, first served
            last = t - start
            t = max(t, start + end)
            take = min(left, start + BUCKET_CYCLES - t)
            done = t + take
        else:  # out of time order: the bucket's untaken cycles, as if it had come first
            take = min(left, BUCKET_CYCLES - taken)
            done = max(t + take, start + taken + take)
        if take > 0:
            left -= take
            taken += take
            end = max(end, done - start)
            row[slot] = (b << _TAG_SHIFT) | (taken << _TAKEN_SHIFT) | (end << _END_SHIFT) | min(last, _FIELD)
            if left == 0:
                return done + latency
        t = start + BUCKET_CYCLES


@njit(_nrt=False, inline="always")
def _bucket_full(row, b):
    """_bucket_full tells whether absolute bucket ``b`` of a calendar row has every cycle taken."""
    e = row[b & (row.shape[0] - 1)]
    return (e >> _TAG_SHIFT) == b and ((e >> _TAKEN_SHIFT) & _FIELD) == BUCKET_CYCLES


@njit(_nrt=False, inline="always")
def _bucket_closed(row, b, now):
    """_bucket_closed tells whether a request arriving at cycle ``now`` in absolute bucket ``b`` can take nothing
    from it: every cycle is taken, or it arrives in time order after a service that runs to the bucket's end."""
    if _bucket_full(row, b):
        return True
    e = row[b & (row.shape[0] - 1)]
    return ((e >> _TAG_SHIFT) == b and now >= b * BUCKET_CYCLES + (e & _FIELD)
            and ((e >> _END_SHIFT) & _FIELD) == BUCKET_CYCLES)


@njit(_nrt=False, inline="always")
def _full_from(row, k, last):
    """_full_from returns the first bucket from ``k`` on (at most ``last + 1``) that is not full."""
    while k <= last and _bucket_full(row, k):
        k += 1
    return k


@njit(_nrt=False)
def channel_request_skipping(cal, full, ch, now, nbytes, bytes_per_clk, latency):
    """channel_request_skipping is ``channel_request`` for a server whose backlog can grow without bound
    (nothing upstream limits what waits for it): same arguments, same result, but it remembers in
    ``full[ch] = (first, end)`` a run of absolute buckets whose every cycle is taken, and a request whose walk
    would enter that run (it arrives inside it, or before it with nothing it could take in between) starts
    its search at ``end`` instead of walking the run bucket by bucket (no request can take anything from a
    full bucket, in or out of time order). Without it a burst of N requests at one cycle costs O(N^2) bucket
    visits. Mutates ``cal[ch]`` and ``full[ch]``.
    """
    row = cal[ch]
    b = now // BUCKET_CYCLES
    first, end = full[ch, 0], full[ch, 1]
    skip = False
    if b < end and _bucket_full(row, first) and _bucket_full(row, end - 1):
        k = b
        if k < first and _bucket_closed(row, k, now):
            k += 1
            while k < first and _bucket_full(row, k):
                k += 1
        skip = k >= first
    t = end * BUCKET_CYCLES if skip else now
    done = channel_request(cal, ch, t, nbytes, bytes_per_clk, 0)
    # extend the run over the buckets this request filled, or start one where it began
    last = (done - 1) // BUCKET_CYCLES
    if skip:
        full[ch, 1] = _full_from(row, end, last)
    else:
        s = b if _bucket_full(row, b) else b + 1
        k = _full_from(row, s, last)
        if k > s and k >= end:
            full[ch, 0] = s
            full[ch, 1] = k
    return done + latency
