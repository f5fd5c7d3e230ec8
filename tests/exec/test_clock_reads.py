"""A kernel that reads the clock (s_memtime, s_memrealtime: HIP's clock64() and wall_clock64()) reads 0, since
gpusim computes values apart from timing; the result names the first read and the report warns, so a kernel that
times itself is not silently given zero-cycle sections. A read of a hardware register (s_getreg_b32: the wave's
placement ids, MODE) reads 0 too, and is named and warned about the same way."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from exec_support import fixture_path, run_cli

from gpusim import api

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "gfx942"
MODES = [{"timing": False}, {"timing": True}, {"timing": True, "outputs": False}]


@pytest.mark.parametrize("kw", MODES, ids=["functional", "timed", "timed-sliced"])
def test_the_first_clock_read_is_named_in_every_mode(kw):
    result = api.simulate(api.load_kernel(fixture_path("clock_reads.s")), "cdna3", **kw)
    assert result.clock_read == "pc 0x8 's_memtime s[4:5]'"
    if result.outputs is not None:
        np.testing.assert_array_equal(result.outputs["elapsed"], np.zeros(64, np.uint64))


def test_the_report_warns_and_a_kernel_without_a_clock_read_does_not():
    proc = run_cli("run", str(fixture_path("clock_reads.s")), "--no-timing")
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stdout.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: the kernel reads the clock (pc 0x8 's_memtime s[4:5]'): it reads 0, since gpusim "
                        "computes values apart from timing; the report's cycles are what times the kernel"], proc.stdout
    result = api.simulate(api.load_kernel(CORPUS / "saxpy.s"), "cdna3", timing=False)
    assert result.clock_read is None and result.to_dict()["clock_read"] is None
    proc = run_cli("run", str(fixture_path("clock_reads.s")), "--no-timing", "--json", "-")
    assert json.loads(proc.stdout)["clock_read"] == "pc 0x8 's_memtime s[4:5]'"


@pytest.mark.parametrize("kw", MODES, ids=["functional", "timed", "timed-sliced"])
def test_the_first_hardware_register_read_is_named_in_every_mode(kw):
    result = api.simulate(api.load_kernel(fixture_path("hwreg_reads.s")), "cdna3", **kw)
    assert result.hwreg_read == "pc 0x8 's_getreg_b32 s4, hwreg(HW_REG_XCC_ID, 0, 4)'"
    assert result.clock_read is None
    if result.outputs is not None:
        np.testing.assert_array_equal(result.outputs["ids"], np.zeros((64, 2), np.uint32))


def test_the_report_warns_of_a_hardware_register_read():
    proc = run_cli("run", str(fixture_path("hwreg_reads.s")), "--no-timing")
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stdout.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: the kernel reads a hardware register (pc 0x8 's_getreg_b32 s4, "
                        "hwreg(HW_REG_XCC_ID, 0, 4)'): every s_getreg_b32 reads 0 in gpusim (the wave's CU, SIMD "
                        "and XCD ids, MODE, status)"], proc.stdout
    result = api.simulate(api.load_kernel(CORPUS / "saxpy.s"), "cdna3", timing=False)
    assert result.hwreg_read is None and result.to_dict()["hwreg_read"] is None
