"""The SOPP instructions by which a wave gives up or claims issue slots, timed as the CDNA3 ISA describes them:
s_sleep N sleeps 64 * (N - 1) + 1 to 64 * N clocks (SIMM16[6:0]; 0 does not sleep), s_wakeup ends the sleep of
its workgroup's waves, and s_setprio's priority (SIMM16[1:0]) comes before the arbitration policy's order."""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

DATA = Path(__file__).parent / "data"

SLEEPER = """; gpusim-launch: grid=1,1,1 block=64,1,1
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl sleeper
\t.p2align 8
\t.type sleeper,@function
sleeper:
\ts_nop 7
\ts_sleep {n}
\ts_endpgm
\t.section .rodata,"a",@progbits
\t.p2align 6, 0x0
\t.amdhsa_kernel sleeper
\t\t.amdhsa_next_free_vgpr 1
\t\t.amdhsa_next_free_sgpr 1
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
"""


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def sleeper(tmp_path, n, cdna3):
    path = tmp_path / f"sleep_{n}.s"
    path.write_text(SLEEPER.format(n=n))
    return time_kernel(gpusim.load_kernel(path), cdna3)


@pytest.mark.parametrize("n", [1, 2, 3, 127])
def test_s_sleep_wakes_on_the_nth_64_clock_boundary(tmp_path, cdna3, n):
    # the s_sleep issues within the first 64 clocks, so the wave wakes at 64 * n and ends a cycle later; the
    # wave's sleep counts as its s_nop/s_sleep stall
    run = sleeper(tmp_path, n, cdna3)
    assert run.cycles == 64 * n + 1
    awake = sleeper(tmp_path, 0, cdna3)
    assert run.counters["GPUSIM_STALL_NOP_CYCLES"] - awake.counters["GPUSIM_STALL_NOP_CYCLES"] == \
        run.cycles - awake.cycles


def test_s_sleep_reads_only_simm16_6_0(tmp_path, cdna3):
    # 0 does not sleep: s_sleep 0 takes what an s_nop 0 would; 0x80 and 0x81 are 0 and 1
    assert sleeper(tmp_path, "0x80", cdna3).cycles == sleeper(tmp_path, 0, cdna3).cycles == 13
    assert sleeper(tmp_path, "0x81", cdna3).cycles == sleeper(tmp_path, 1, cdna3).cycles


def test_s_wakeup_ends_the_sleep_of_its_workgroup(cdna3, tmp_path):
    woken = time_kernel(gpusim.load_kernel(DATA / "wakeup.s"), cdna3)
    path = tmp_path / "no_wakeup.s"
    path.write_text((DATA / "wakeup.s").read_text().replace("\ts_wakeup\n", "\ts_nop 0\n"))
    asleep = time_kernel(gpusim.load_kernel(path), cdna3)
    assert asleep.cycles == 64 * 100 + 1   # the sleeper's 100 periods
    assert woken.cycles < 64               # woken after its sibling's three s_nop 7


def timed(name, arch, policy):
    return time_kernel(gpusim.load_kernel(DATA / name), arch_overrides(arch, {"policies.wave_arbitration": policy}))


def test_s_setprio_comes_before_the_arbitration_policy(cdna3):
    # arbitration.s: round robin interleaves each SIMD's two waves, so both loads wait together, 48-64 cycles
    # later than under oldest first. setprio.s raises the younger wave's priority: every policy then serves
    # it first, and round robin hides a load as oldest first does
    plain = {p: timed("arbitration.s", cdna3, p).cycles for p in ("oldest_first", "round_robin")}
    prio = {p: timed("setprio.s", cdna3, p).cycles for p in ("oldest_first", "round_robin")}
    assert plain["round_robin"] - plain["oldest_first"] >= 48
    assert prio["round_robin"] - prio["oldest_first"] <= 12
    assert prio["round_robin"] < plain["round_robin"] - 32


def test_priority_leaves_the_results_alone(cdna3):
    runs = [timed(name, cdna3, "round_robin") for name in ("arbitration.s", "setprio.s")]
    assert (runs[0].functional.final["buf"] == runs[1].functional.final["buf"]).all()
