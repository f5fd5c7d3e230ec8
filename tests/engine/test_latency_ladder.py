"""The latency ladder: a single-lane pointer chase reports each level's
load-to-use time within 5% of the MI300X figures the cdna3 file is
calibrated to ([H] in cdna-facts.md: L1 ~116, L2 ~209, MALL ~400, HBM ~860 cycles), and its
kernels are the published benchmark's chain (dependent loads with only their wait between them)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import gpusim
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

    Latencies, ports and the MALL are untouched, so a warm chase over 256 KiB (4096 elements 64 B apart on
    2048 lines, few of them caught by the shrunken L1/L2) measures the load-to-use of a MALL hit in a
    second. The same chase past the real 4 MB L2 (``benchmarks/latency_ladder.py --mall``: 16 MiB, half a
    million dependent steps) also hits the L2 for about a quarter of its loads.
    """
    return arch_overrides(arch, {"cu.l1.size_bytes": 1024, "l2.size_bytes": 2048, "l2.associativity": 1})


def test_mall_hit_load_to_use(cdna3):
    # expected about L1 (2 + 108) + L2 (1 + 101) + MALL (1 + 1 + 191: the second 64 B half of the 128 B L2
    # line queues one cycle behind the first) + ~6 of s_waitcnt and reissue per step = 411
    assert latency_ladder.warm_step(mall_resident(cdna3), 256 << 10) == pytest.approx(
        latency_ladder.TARGETS["MALL"], rel=0.05)


def test_levels_are_ordered(cdna3):
    l1 = latency_ladder.warm_step(cdna3, 8 << 10)
    l2 = latency_ladder.warm_step(cdna3, 256 << 10)
    mall = latency_ladder.warm_step(mall_resident(cdna3), 256 << 10)
    assert l1 < l2 < mall < latency_ladder.cold_step(cdna3, 64 << 20)


KERNELS = [latency_ladder.KERNEL, latency_ladder.COMPILED]
LLVM_MC, CLANG = shutil.which("llvm-mc-19"), shutil.which("clang-19")


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-19 is needed (Debian/Ubuntu: apt-get install llvm-19)")
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_chase_kernels_assemble(kernel):
    proc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o", os.devnull,
                           str(kernel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
@pytest.mark.parametrize("steps", [32, 4096, 4096 + 96])
def test_chase_kernels_end_where_numpy_does(kernel, steps):
    # the header's check replays the chase over `next` in numpy: out[0] is the offset after `steps` loads
    r = gpusim.simulate(gpusim.load_kernel(kernel, args={"steps": str(steps)}), "cdna3", check=True, timing=False)
    assert len(r.checks) == 1 and r.checks_passed, [c.describe() for c in r.checks]


def test_chase_loads_have_nothing_between_them_but_their_wait():
    # the published chain: each load's address register is the previous load's destination, and the only
    # instruction between a load and the next is its s_waitcnt vmcnt(0) (or SALU loop work under the first load)
    for kernel in KERNELS:
        body = [ln.split(";")[0].strip() for ln in kernel.read_text().splitlines()]
        body = [ln for ln in body if ln and not ln.startswith(".")]
        loads = [i for i, ln in enumerate(body) if ln.startswith("global_load_dword")]
        assert len(loads) == latency_ladder.UNROLL, kernel.name
        for a, b in zip(loads, loads[1:]):
            between = [ln.split()[0] for ln in body[a + 1:b]]
            assert between[-1:] == ["s_waitcnt"] and all(op.startswith("s_") for op in between), (kernel.name, between)
            dst, addr = body[a].replace(",", " ").split()[1:3]
            assert dst == addr, (kernel.name, body[a])


@pytest.mark.skipif(CLANG is None, reason="clang-19 is needed (Debian/Ubuntu: apt-get install clang-19)")
def test_compiled_kernel_is_what_clang_makes_of_its_source():
    # pointer_chase_clang.s is its header lines plus clang-19's output for pointer_chase_clang.cl, unedited
    cl = latency_ladder.COMPILED.with_suffix(".cl")
    proc = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx942",
                           "-nogpulib", "-O3", "-S", str(cl), "-o", "-"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    shipped = [ln for ln in latency_ladder.COMPILED.read_text().splitlines() if not ln.startswith(";")]
    made = [ln for ln in proc.stdout.splitlines() if not ln.startswith(";")]
    assert shipped == made
