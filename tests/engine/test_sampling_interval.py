"""The grid method's confidence interval (gpusim.engine.sampling._jitter_half_width) on synthetic round boundaries.

The middle of a grid is projected at (last boundary - first) / n cycles per round; the interval must cover
that rate's error as often as it claims (95%) when the boundaries jitter about a steady line, and must not
mistake the alternation of bursty rounds for uncertainty that accumulates.
"""
import numpy as np
import pytest

from gpusim.engine.sampling import _jitter_half_width, _t95

SKIPPED = 1_000_000   # cycles of skipped middle the interval is stated on


def _projection_error(boundaries, rate):
    """The skipped cycles' error when projected at the boundaries' end-to-end rate instead of ``rate``."""
    n = boundaries.size - 1
    return abs((boundaries[-1] - boundaries[0]) / n - rate) / rate * SKIPPED


@pytest.mark.parametrize("rounds", [4, 10, 40])
def test_the_interval_covers_the_rate_error_95_times_in_100_when_boundaries_jitter_about_a_line(rounds):
    rng = np.random.default_rng(19)
    rate, jitter = 17_250.0, 4_000.0
    covered = 0
    trials = 2000
    for _ in range(trials):
        boundaries = np.rint(rate * np.arange(rounds + 1) + rng.normal(0.0, jitter, rounds + 1)).astype(np.int64)
        covered += _projection_error(boundaries, rate) <= _jitter_half_width(boundaries, SKIPPED)
    assert 0.93 <= covered / trials <= 0.975


def test_alternating_long_and_short_rounds_are_not_uncertainty_that_accumulates():
    # the 256M triad's rounds: 26,100 cycles, then 8,400, and so on; over 10 rounds the end-to-end rate is exact
    boundaries = np.concatenate(([0], np.cumsum([26_100, 8_400] * 5))).astype(np.int64)
    half = _jitter_half_width(boundaries, SKIPPED)
    durations = np.diff(boundaries)
    per_round = _t95(9) * durations.std(ddof=1) / np.sqrt(10) / durations.mean() * SKIPPED
    assert half < per_round / 3        # independent-round statistics would claim 3x more
    assert half > 0                    # yet the bursts do leave the end points uncertain


def test_steady_rounds_give_no_interval_and_too_few_boundaries_give_the_whole_span():
    assert _jitter_half_width(np.arange(0, 11 * 5000, 5000, dtype=np.int64), SKIPPED) < 1e-6
    assert _jitter_half_width(np.array([0, 5000], np.int64), SKIPPED) == SKIPPED
    assert _jitter_half_width(np.array([0, 5000, 9000], np.int64), SKIPPED) > 0


def test_students_t_points_join_the_normal_point_smoothly():
    assert _t95(1) == pytest.approx(12.706)
    assert _t95(30) == pytest.approx(2.042)
    assert _t95(31) == pytest.approx(2.0395, abs=0.0003)    # the exact point, from any table
    assert _t95(120) == pytest.approx(1.9799, abs=0.0003)
    assert _t95(31) < _t95(30)


@pytest.mark.parametrize("k", [6, 11, 25, 60])
def test_the_interval_that_lets_the_grid_jump_is_the_one_its_report_states(k):
    # interval_ppm decides, inside the timing loop, whether the head may end at boundary k; it must be the
    # interval project() then reports (_jitter_half_width on the same boundaries) for the same skipped cycles
    from gpusim.engine.kernels.skip import interval_ppm
    rng = np.random.default_rng(k)
    per_round, rounds, rate = 2432, 108, 19_000.0
    round_t = np.rint(rate * np.arange(rounds + 1) + rng.normal(0.0, 3_000.0, rounds + 1)).astype(np.int64)
    round_t[0] = 0
    t95 = np.array([_t95(d) for d in range(1, rounds + 2)])
    resume_at = (rounds - 1) * per_round
    first = (k + 1) // 2
    boundaries = round_t[first:k + 1]
    measured = (boundaries[-1] - boundaries[0]) / (k - first)
    skipped = (resume_at - (k + 1) * per_round) / per_round * measured
    projected = round_t[k] + skipped + measured
    expected = 1e6 * _jitter_half_width(boundaries, skipped) / projected
    assert interval_ppm(round_t, t95, k, resume_at, per_round) == pytest.approx(expected, abs=1.0)


def test_an_interval_is_not_measured_on_fewer_than_three_boundaries():
    from gpusim.engine.kernels.skip import interval_ppm
    round_t = np.array([0, 100, 200, 300], np.int64)
    assert interval_ppm(round_t, np.full(8, 12.7), 3, 4_000, 10) == 1_000_000   # boundaries 2 and 3 only
    assert interval_ppm(np.array([0, 100, 200, 300, 400, 500], np.int64), np.full(8, 12.7), 5, 4_000, 10) == 0


def test_two_windows_are_steady_up_to_the_stated_parts_per_thousand_of_the_later_one():
    from gpusim.engine.kernels.skip import windows_steady
    # windows of 4 rounds: 400 cycles, then 430: they differ by 30, which is 69.8 per thousand of 430
    t = np.array([0, 100, 200, 300, 400, 500, 600, 700, 830], np.int64)
    assert not windows_steady(t, 8, 4, 69)
    assert windows_steady(t, 8, 4, 70)
    # the same gap the other way (430, then 400) is 75 per thousand of the later 400
    t = np.array([0, 130, 230, 330, 430, 530, 630, 730, 830], np.int64)
    assert not windows_steady(t, 8, 4, 74)
    assert windows_steady(t, 8, 4, 75)
