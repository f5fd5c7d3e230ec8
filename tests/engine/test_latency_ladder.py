"""The latency ladder: a single-lane pointer chase reports each level's
load-to-use time within 5% of the MI300X figures the cdna3 file is
calibrated to ([H] in cdna-facts.md: L1 ~116, L2 ~209, MALL ~400, HBM ~860 cycles)."""
import sys
from pathlib import Path

import pytest

from gpusim.arch import arch_overrides, load_arch

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


def mall_resident(arch):
    """mall_resident is ``arch`` with a 1 KiB L1 (8 lines) and a 2 KiB direct-mapped L2 (16 lines, one per channel).

    Latencies, ports and the MALL are untouched, so a warm chase over 256 KiB (2048 lines, 1% of them
    caught by the shrunken L1/L2) measures the load-to-use of a MALL hit in a second. The same chase
    past the real 4 MB L2 (``benchmarks/latency_ladder.py --mall``: 16 MiB) needs 12 million dependent steps
    (minutes) and also hits the L2 for a quarter of its loads.
    """
    return arch_overrides(arch, {"cu.l1.size_bytes": 1024, "l2.size_bytes": 2048, "l2.associativity": 1})


def test_mall_hit_load_to_use(cdna3):
    # expected about L1 (2 + 88) + L2 (1 + 111) + MALL (1 + 1 + 191: the second 64 B half of the 128 B L2
    # line queues one cycle behind the first) + the chase loop's own instructions
    assert latency_ladder.warm_step(mall_resident(cdna3), 256 << 10) == pytest.approx(
        latency_ladder.TARGETS["MALL"], rel=0.05)


def test_levels_are_ordered(cdna3):
    l1 = latency_ladder.warm_step(cdna3, 8 << 10)
    l2 = latency_ladder.warm_step(cdna3, 256 << 10)
    mall = latency_ladder.warm_step(mall_resident(cdna3), 256 << 10)
    assert l1 < l2 < mall < latency_ladder.cold_step(cdna3, 64 << 20)
