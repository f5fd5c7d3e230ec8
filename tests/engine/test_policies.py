"""Scheduling policies named in the architecture YAML change what the timing model does.

``policies.wave_arbitration`` picks which ready wave of a SIMD issues;
``policies.dispatch_order`` places the first round of workgroups on CUs.
"""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.arch.schema import WAVE_ARBITRATION_POLICIES
from gpusim.engine.timing import dispatch_order, time_kernel

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def timed(name, arch, **policies):
    return time_kernel(gpusim.load_kernel(DATA / name),
                       arch_overrides(arch, {f"policies.{k}": v for k, v in policies.items()}))


def test_oldest_first_hides_a_load_that_round_robin_exposes(cdna3):
    # two waves per SIMD, each 16 VALU (4 cycles apiece), a load it waits for, 16 VALU. Oldest first runs the
    # older wave to its load, then the younger one's 16 VALU (64 cycles) overlap the older one's wait; round
    # robin interleaves both, so both loads leave together and those 64 cycles are not hidden.
    cycles = {p: timed("arbitration.s", cdna3, wave_arbitration=p).cycles for p in WAVE_ARBITRATION_POLICIES}
    assert 48 <= cycles["round_robin"] - cycles["oldest_first"] <= 64
    assert cycles["greedy_then_oldest"] < cycles["round_robin"]


def test_every_policy_gives_the_same_instruction_count_and_result(cdna3):
    runs = [timed("arbitration.s", cdna3, wave_arbitration=p) for p in WAVE_ARBITRATION_POLICIES]
    assert len({r.counters["GPUSIM_INSTS_TOTAL"] for r in runs}) == 1
    assert all((r.functional.final["buf"] == runs[0].functional.final["buf"]).all() for r in runs)


def test_round_robin_over_xcds_spreads_workgroups_over_l2s(cdna3):
    # 8 workgroups read the same 32 lines (+1 line of kernel arguments): on one XCD (linear) its L2 misses
    # each line once; one workgroup per XCD makes each of the 8 L2s miss all of them.
    linear = timed("shared_read.s", cdna3, dispatch_order="linear").counters
    spread = timed("shared_read.s", cdna3, dispatch_order="round_robin_xcd").counters
    # (+1 line: the page walk's PDE0 line, read once per XCD whose UTCL2 walks the buffer's page)
    assert linear["TCC_MISS_sum"] == 34
    assert spread["TCC_MISS_sum"] == 8 * 34
    # the other 7 hit, except 4 kernel-argument loads the scalar cache (one per 2 CUs) serves itself
    assert linear["TCC_HIT_sum"] == 7 * 32 + 3


def test_dispatch_orders_are_permutations_of_the_cus(cdna3):
    for order in ("linear", "round_robin_xcd"):
        cus = dispatch_order(arch_overrides(cdna3, {"policies.dispatch_order": order}))
        assert sorted(cus.tolist()) == list(range(cdna3.cus))
    xcd = dispatch_order(cdna3)[:9] // cdna3.gpu.cus_per_xcd
    assert xcd.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 0]
