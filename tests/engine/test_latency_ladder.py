"""The latency ladder: a single-lane pointer chase reports each level's
load-to-use time within 5% of the MI300X figures the cdna3 file is
calibrated to ([H] in cdna-facts.md: L1 ~116, L2 ~209, HBM ~860 cycles)."""
import sys
from pathlib import Path

import pytest

from gpusim.arch import load_arch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import latency_ladder  # noqa: E402


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def test_l1_hit_load_to_use(cdna3):
    assert latency_ladder.warm_step(cdna3, 8 << 10) == pytest.approx(116, rel=0.05)


def test_l2_hit_load_to_use(cdna3):
    assert latency_ladder.warm_step(cdna3, 256 << 10) == pytest.approx(209, rel=0.05)


def test_hbm_load_to_use(cdna3):
    assert latency_ladder.cold_step(cdna3, 64 << 20) == pytest.approx(860, rel=0.05)


def test_levels_are_ordered(cdna3):
    l1 = latency_ladder.warm_step(cdna3, 8 << 10)
    l2 = latency_ladder.warm_step(cdna3, 256 << 10)
    assert l1 < l2 < latency_ladder.cold_step(cdna3, 64 << 20)
