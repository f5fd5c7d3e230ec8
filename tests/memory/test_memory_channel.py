"""Channels interleave addresses and serve bytes at a bounded rate with a fixed latency."""
import numpy as np
import pytest

from memory_support import py

from gpusim.memory.kernels.channel import (
    BUCKET_CYCLES, channel_calendar, channel_global, channel_local, channel_of, channel_request,
    channel_request_skipping,
)


@pytest.mark.parametrize("req", [channel_request, py(channel_request)])
def test_back_to_back_requests_are_bandwidth_bound(req):
    cal = channel_calendar(2)
    done = [req(cal, 0, 0, 128, 64, 100) for _ in range(40)]  # 80 cycles: across bucket boundaries
    assert done == [2 * k + 100 for k in range(1, 41)]
    assert not cal[1].any()


def test_two_channels_run_in_parallel():
    cal = channel_calendar(2)
    a = [channel_request(cal, 0, 0, 128, 64, 100) for _ in range(5)]
    b = [channel_request(cal, 1, 0, 128, 64, 100) for _ in range(5)]
    assert a == b == [102, 104, 106, 108, 110]


def test_idle_channel_starts_at_arrival_and_partial_bytes_round_up():
    cal = channel_calendar(1)
    assert channel_request(cal, 0, 50, 1, 64, 10) == 61
    assert channel_request(cal, 0, 50, 65, 64, 10) == 51 + 2 + 10


def test_a_request_from_the_future_does_not_hold_up_the_present():
    # the engine may process a request for cycle 5000 (it waited for an MSHR) before one for cycle 100
    cal = channel_calendar(1)
    assert channel_request(cal, 0, 5000, 128, 64, 10) == 5012
    assert channel_request(cal, 0, 100, 128, 64, 10) == 112


def test_a_request_from_the_past_takes_the_free_cycles_of_its_bucket():
    # the engine processed a request for cycle 28 first; in time order the one for cycle 3 came first
    cal = channel_calendar(1)
    assert channel_request(cal, 0, BUCKET_CYCLES - 4, 128, 64, 0) == BUCKET_CYCLES - 2
    assert channel_request(cal, 0, 3, 128, 64, 0) == 5
    # and the bucket's latest service still holds up a later arrival
    assert channel_request(cal, 0, BUCKET_CYCLES - 3, 128, 64, 0) == BUCKET_CYCLES


def test_out_of_order_requests_never_exceed_a_bucket_capacity():
    # 16 requests of 4 cycles offered latest first: the first bucket serves 8 of them, the next bucket the rest
    cal = channel_calendar(1)
    done = [channel_request(cal, 0, t, 256, 64, 0) for t in range(15, -1, -1)]
    assert max(done) == 2 * BUCKET_CYCLES
    assert sum(d <= BUCKET_CYCLES for d in done) == BUCKET_CYCLES // 4


def test_simultaneous_requests_queue_first_come_first_served():
    cal = channel_calendar(1)
    assert [channel_request(cal, 0, 7, 128, 64, 0) for _ in range(3)] == [9, 11, 13]


def test_a_long_request_spills_into_the_next_buckets():
    cal = channel_calendar(1)
    assert channel_request(cal, 0, BUCKET_CYCLES - 4, 64 * 100, 64, 0) == BUCKET_CYCLES - 4 + 100


@pytest.mark.parametrize("of", [channel_of, py(channel_of)])
def test_interleave_mapping(of):
    # the first group of 16 lines rotates plainly; the next is XOR-permuted by its group number (1)
    assert [of(a, 128, 16) for a in (0, 127, 128, 128 * 15, 128 * 16, 128 * 17 + 5)] == [0, 0, 1, 15, 1, 0]
    assert of(256 * 130, 256, 128) == 2 ^ 1
    # not a power of two: plain rotation
    assert [of(128 * k, 128, 12) for k in (0, 11, 12, 13)] == [0, 11, 0, 1]


@pytest.mark.parametrize("of", [channel_of, py(channel_of)])
def test_every_group_of_consecutive_lines_covers_every_channel(of):
    for group in range(0, 4096, 37):
        assert sorted(of(128 * (16 * group + k), 128, 16) for k in range(16)) == list(range(16))


@pytest.mark.parametrize("stride", [16 * 128, 16384, 1 << 20])
def test_a_power_of_two_stride_spreads_over_the_channels(stride):
    # rows of a 4096-float matrix are 16 KiB apart: a plain modulo would send all of them to one channel
    assert len({channel_of(stride * r, 128, 16) for r in range(16)}) == 16


def test_channel_local_round_trips_and_packs():
    for a in (0, 5, 128 * 16 + 7, 128 * 33 + 100, 10 ** 9 + 3, 0x7F00_0012_3456):
        for channels in (16, 12, 128):
            ch = channel_of(a, 128, channels)
            assert channel_global(channel_local(a, 128, channels), ch, 128, channels) == a
    # Lines 0, 16, 32 of channel 0 become consecutive local lines.
    assert [channel_local(128 * k, 128, 16) for k in (0, 16, 32)] == [0, 128, 256]


def test_skipping_full_buckets_serves_exactly_as_walking_them():
    # bursts of requests at one cycle (a backlog of hundreds of buckets), requests arriving inside and before
    # the backlog, out of time order, and sizes that fill buckets partly: every completion is the same
    rng = np.random.default_rng(7)
    plain, skipping = channel_calendar(1, buckets=1024), channel_calendar(1, buckets=1024)
    full = np.zeros((1, 2), np.int64)
    now = 0
    for step in range(3000):
        if step % 500 == 0:
            burst = 400                      # 400 requests of 6 cycles at one cycle: 75 buckets of backlog
        now = max(0, now + int(rng.integers(-40, 60)))
        nbytes = int(rng.integers(1, 9)) * 16
        for _ in range(burst if burst else 1):
            want = channel_request(plain, 0, now, nbytes, 16, 3)
            assert channel_request_skipping(skipping, full, 0, now, nbytes, 16, 3) == want
        burst = 0
    assert (plain == skipping).all()
    assert full[0, 1] > full[0, 0]           # a run of full buckets was found and used
