"""The chase template family: a single-lane pointer chase that assembles, verifies its final offset,
steps as benchmarks/kernels/pointer_chase.s (the latency ladder's kernel) does and measures load-to-use."""
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel
from gpusim.templates.registry import TemplateError, generate, templates
from template_support import assembler_errors, needs_llvm_mc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import latency_ladder  # noqa: E402


# (footprint bytes, stride bytes, steps): dense, strided; fewer steps than one trip of 32, whole trips, trips
# and a remainder
VARIANTS = [(8192, 4, 100), (8192, 128, 100), (1024, 128, 13), (512, 256, 5), (16384, 64, 320), (65536, 512, 129)]


def _write(tmp_path, fp, stride, steps):
    path = tmp_path / f"chase_{fp}_{stride}_{steps}.s"
    path.write_text(generate("chase", footprint_bytes=fp, stride_bytes=stride, steps=steps))
    return path


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def test_registered():
    assert "chase" in templates()


@needs_llvm_mc
@pytest.mark.parametrize("fp, stride, steps", VARIANTS)
def test_assembles(tmp_path, fp, stride, steps):
    path = _write(tmp_path, fp, stride, steps)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("fp, stride, steps", VARIANTS)
def test_checks_pass(tmp_path, fp, stride, steps):
    r = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, fp, stride, steps)), "cdna3", check=True, timing=False)
    assert len(r.checks) == 1  # the final offset
    assert r.checks_passed, [c.describe() for c in r.checks]


def test_check_follows_a_steps_override(tmp_path):
    # --arg steps=N changes the kernel's argument and the check's `steps` alike
    path = _write(tmp_path, 4096, 128, 10)
    for steps in (1, 7, 32, 77):
        r = gpusim.simulate(gpusim.load_kernel(path, args={"steps": str(steps)}), "cdna3", check=True)
        assert r.checks_passed


def test_wrong_index_fails_the_check(tmp_path):
    # a chase that stops one step early ends on a different element of the cycle (50 = one trip of 32 + 18)
    path = _write(tmp_path, 4096, 4, 50)
    path.write_text(path.read_text().replace("s_load_dword s6, s[0:1], 0x8", "s_load_dword s6, s[0:1], 0x8\n"
                                             "\ts_waitcnt lgkmcnt(0)\n\ts_sub_u32 s6, s6, 1"))
    r = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True)
    assert not r.checks_passed


@pytest.mark.parametrize("given, reason", [
    (dict(stride_bytes=96), "--stride-bytes 96 must be a power of two"),
    (dict(stride_bytes=2), "--stride-bytes 2 must be a power of two, at least 4"),
    (dict(footprint_bytes=1000, stride_bytes=128), "--footprint-bytes 1000 is not a multiple of --stride-bytes 128"),
    (dict(footprint_bytes=128, stride_bytes=128), "a chase needs at least 2"),
    (dict(footprint_bytes=1 << 31), "at most 2147483647"),
    (dict(steps=0), "--steps 0 must be at least 1"),
])
def test_invalid_combinations(given, reason):
    with pytest.raises(TemplateError) as e:
        generate("chase", **given)
    assert reason in str(e.value)


def test_resources_match_the_registers_used():
    # v1 offset, v3 zero (as pointer_chase.s); s[4:5] next, s6 steps left, s7 trips, s[8:9] out; every stride
    # alike (the header lays the table out, the kernel only chases it)
    for stride in (4, 128):
        text = generate("chase", footprint_bytes=8192, stride_bytes=stride, steps=64)
        assert ".amdhsa_next_free_vgpr 4\n" in text and ".amdhsa_next_free_sgpr 10\n" in text
        assert ".amdhsa_accum_offset 4\n" in text and ".amdhsa_kernarg_size 24\n" in text


def _cycles(tmp_path, arch, fp, stride, steps):
    return time_kernel(gpusim.load_kernel(_write(tmp_path, fp, stride, steps)), arch).cycles


def test_steps_as_the_latency_ladder_kernel(tmp_path, cdna3):
    # --stride-bytes 64 chases the table of benchmarks/kernels/pointer_chase.s (the same seed) with its loop
    # of 32 loads; only the prologue differs (the template splits steps into trips and a remainder), and the
    # difference of two runs cancels it: the same warm pass, to within the end-of-kernel release's rounding
    # to the memory clock (its write-back starts at other cycles of the 1300/2100 MHz crossing in the
    # two kernels: a cycle or two in a run, here over m = 128 steps)
    m = 8192 // 64
    step = (_cycles(tmp_path, cdna3, 8192, 64, 2 * m) - _cycles(tmp_path, cdna3, 8192, 64, m)) / m
    assert abs(step - latency_ladder.warm_step(cdna3, 8192)) * m <= 2


def test_l1_load_to_use(tmp_path, cdna3):
    # 64 lines of 128 bytes stay in the 32 KiB L1: the warm per-step time is the L1 figure of the ladder
    m = 8192 // 128
    step = (_cycles(tmp_path, cdna3, 8192, 128, 2 * m) - _cycles(tmp_path, cdna3, 8192, 128, m)) / m
    assert step == pytest.approx(latency_ladder.TARGETS["L1"], rel=0.05)


def test_one_element_per_line_misses_the_l1(tmp_path, cdna3):
    # 256 KiB at 128 bytes: 2048 lines visited once per pass, too far apart for the L1 (256 lines) to
    # hold any: every warm step is an L2 hit. The ladder's 64-byte chase over the same footprint visits
    # each line twice per pass and catches some L1 hits, so its average step is shorter.
    m = (256 << 10) // 128
    path = _write(tmp_path, 256 << 10, 128, 2 * m)
    r = gpusim.simulate(gpusim.load_kernel(path), cdna3, timing=True)
    assert r.metrics["L1_Hit_Rate"] == 0
    step = (r.cycles - _cycles(tmp_path, cdna3, 256 << 10, 128, m)) / m
    l1 = (_cycles(tmp_path, cdna3, 8192, 128, 128) - _cycles(tmp_path, cdna3, 8192, 128, 64)) / 64
    assert l1 < step < latency_ladder.cold_step(cdna3, 64 << 20, steps=256)
