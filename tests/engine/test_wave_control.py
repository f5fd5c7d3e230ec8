"""The SOPP instructions by which a wave gives up or claims issue slots, timed as the CDNA3 ISA describes them:
s_sleep N sleeps 64 * (N - 1) + 1 to 64 * N clocks (SIMM16[6:0]; 0 does not sleep), s_wakeup ends the sleep of
its workgroup's waves, and s_setprio's priority (SIMM16[1:0]) comes before the arbitration policy's order."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch
from gpusim.engine.timing import time_kernel

LLVM_MC = shutil.which("llvm-mc-19")

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


# arbitration.s (tests/engine/test_policies.py) with the younger wave of each SIMD (threads 256-511) raising its
# priority to 3 before anything else
RAISE_YOUNGER = """\tv_readfirstlane_b32 s4, v0
\ts_cmp_lt_u32 s4, 256
\ts_cbranch_scc1 .Lolder
\ts_setprio 3
.Lolder:
"""


def timed(path, arch, policy):
    return time_kernel(gpusim.load_kernel(path), arch_overrides(arch, {"policies.wave_arbitration": policy}))


@pytest.fixture
def kernels(tmp_path):
    """kernels is (arbitration.s, the same with the younger waves' priority raised)."""
    plain = DATA / "arbitration.s"
    raised = tmp_path / "setprio.s"
    raised.write_text(plain.read_text().replace("arbitration:\n", "arbitration:\n" + RAISE_YOUNGER, 1))
    return plain, raised


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-19 is needed (Debian/Ubuntu: apt-get install llvm-19)")
def test_the_kernels_assemble_with_llvm_mc(kernels):
    for path in (*kernels, DATA / "wakeup.s"):
        proc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o", os.devnull,
                               str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_s_setprio_comes_before_the_arbitration_policy(cdna3, kernels):
    # arbitration.s: round robin interleaves each SIMD's two waves, so both loads wait together, 48-64 cycles
    # later than under oldest first. Raising the younger wave's priority makes every policy serve it first,
    # and round robin then hides a load as oldest first does
    plain, raised = kernels
    before = {p: timed(plain, cdna3, p).cycles for p in ("oldest_first", "round_robin")}
    after = {p: timed(raised, cdna3, p).cycles for p in ("oldest_first", "round_robin")}
    assert before["round_robin"] - before["oldest_first"] >= 48
    assert after["round_robin"] - after["oldest_first"] <= 12
    assert after["round_robin"] < before["round_robin"] - 32


def test_priority_leaves_the_results_alone(cdna3, kernels):
    runs = [timed(path, cdna3, "round_robin") for path in kernels]
    assert (runs[0].functional.final["buf"] == runs[1].functional.final["buf"]).all()
