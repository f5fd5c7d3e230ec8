"""Address interleaving over channels, and a channel as a FIFO bandwidth-plus-latency server.

A server's whole state is ``next_free[ch]`` (int64): the first cycle at which channel ``ch`` can start moving
the next request's bytes. Requests must be offered in nondecreasing ``now`` per channel for FIFO order to hold.
"""
from numba import njit

from gpusim.memory.kernels.fastdiv import quot, rem


@njit(_nrt=False)
def channel_of(addr, interleave_bytes, channels):
    """channel_of returns the channel serving byte ``addr`` when ``interleave_bytes`` chunks rotate over channels."""
    return rem(quot(addr, interleave_bytes), channels)


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
    chunk = quot(local, interleave_bytes)
    return (chunk * channels + ch) * interleave_bytes + rem(local, interleave_bytes)


@njit(_nrt=False)
def channel_occupancy(nbytes, bytes_per_clk):
    """channel_occupancy returns the whole cycles a channel of ``bytes_per_clk`` spends moving ``nbytes`` (at least 1)."""
    occ = -quot(-nbytes, bytes_per_clk)
    return max(occ, 1)


@njit(_nrt=False)
def channel_request(next_free, ch, now, nbytes, bytes_per_clk, latency):
    """channel_request serves ``nbytes`` on channel ``ch`` in FIFO order and returns the completion cycle.

    The request starts at ``max(now, next_free[ch])``, holds the channel ``channel_occupancy(nbytes,
    bytes_per_clk)`` cycles and completes ``latency`` cycles after its last byte: N back-to-back requests
    offered at cycle 0 complete at ``k * occupancy + latency`` for k = 1..N. Mutates ``next_free[ch]``.
    """
    start = max(now, next_free[ch])
    end = start + channel_occupancy(nbytes, bytes_per_clk)
    next_free[ch] = end
    return end + latency


@njit(_nrt=False)
def channel_backlog(next_free, ch, now):
    """channel_backlog returns the cycles a request offered at ``now`` would queue before starting; mutates nothing."""
    return max(0, next_free[ch] - now)


@njit(_nrt=False)
def channel_admit(next_free, ch, now, max_backlog_cycles):
    """channel_admit returns the first cycle >= ``now`` at which channel ``ch`` accepts a request.

    A channel whose queue holds at most ``max_backlog_cycles`` of work (queue depth x occupancy of one request)
    refuses new work while its backlog is larger; the caller stalls the requester until the returned cycle and
    then calls ``channel_request`` with it as ``now``. Mutates nothing.
    """
    return max(now, next_free[ch] - max_backlog_cycles)
