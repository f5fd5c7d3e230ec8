"""Channels interleave addresses and serve bytes at a bounded rate with a fixed latency."""
import numpy as np
import pytest

from memory_support import py

from gpusim.memory.kernels.channel import (
    channel_admit, channel_backlog, channel_global, channel_local, channel_of, channel_request,
)


@pytest.mark.parametrize("req", [channel_request, py(channel_request)])
def test_back_to_back_requests_are_bandwidth_bound(req):
    free = np.zeros(2, np.int64)
    done = [req(free, 0, 0, 128, 64, 100) for _ in range(10)]
    assert done == [2 * k + 100 for k in range(1, 11)]
    assert free[0] == 20 and free[1] == 0


def test_two_channels_run_in_parallel():
    free = np.zeros(2, np.int64)
    a = [channel_request(free, 0, 0, 128, 64, 100) for _ in range(5)]
    b = [channel_request(free, 1, 0, 128, 64, 100) for _ in range(5)]
    assert a == b == [102, 104, 106, 108, 110]


def test_idle_channel_starts_at_arrival_and_partial_bytes_round_up():
    free = np.zeros(1, np.int64)
    assert channel_request(free, 0, 50, 1, 64, 10) == 61
    assert channel_request(free, 0, 50, 65, 64, 10) == 51 + 2 + 10


def test_backlog_and_admission_bound_the_queue():
    free = np.zeros(1, np.int64)
    for _ in range(8):
        channel_request(free, 0, 0, 128, 64, 0)
    assert channel_backlog(free, 0, 4) == 12
    assert channel_backlog(free, 0, 40) == 0
    # A queue of 2 requests of 2 cycles accepts new work once at most 4 cycles remain.
    assert channel_admit(free, 0, 0, 4) == 12
    assert channel_admit(free, 0, 13, 4) == 13


@pytest.mark.parametrize("of", [channel_of, py(channel_of)])
def test_interleave_mapping(of):
    assert [of(a, 128, 16) for a in (0, 127, 128, 128 * 15, 128 * 16, 128 * 17 + 5)] == [0, 0, 1, 15, 0, 1]
    assert of(256 * 130, 256, 128) == 2


def test_channel_local_round_trips_and_packs():
    for a in (0, 5, 128 * 16 + 7, 128 * 33 + 100, 10 ** 9 + 3):
        ch = channel_of(a, 128, 16)
        assert channel_global(channel_local(a, 128, 16), ch, 128, 16) == a
    # Lines 0, 16, 32 of channel 0 become consecutive local lines.
    assert [channel_local(128 * k, 128, 16) for k in (0, 16, 32)] == [0, 128, 256]
