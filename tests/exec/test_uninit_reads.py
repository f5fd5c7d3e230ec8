"""Reads of registers nothing wrote return 0, as before, but are counted (GPUSIM_UNINIT_READS) the same in
the functional run and the timing model, and the report warns once, naming the first (gpusim.exec.uninit)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from exec_support import fixture_path, run_cli

from gpusim import api
from gpusim.engine.scoreboard import register_lists
from gpusim.exec.kernels import interpreter as itp
from gpusim.exec.uninit import register_name

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "gfx942"
MODES = [{"timing": False}, {"timing": True}, {"timing": True, "outputs": False}]
MODE_IDS = ["functional", "timed", "timed-sliced"]


def _run(path, **kw):
    return api.simulate(api.load_kernel(path), "cdna3", **kw)


@pytest.mark.parametrize("kw", MODES, ids=MODE_IDS)
def test_uninitialised_reads_are_counted_per_wave_instruction(kw):
    # two waves, each reading v2 (v_add_f32) and s3 (s_or_b64 s[8:9], s[2:3], exec) before anything wrote
    # them; v4, written under a one-lane EXEC and then read by all lanes, is not counted
    result = _run(fixture_path("uninit_reads.s"), **kw)
    assert result.counters["GPUSIM_UNINIT_READS"] == 4
    assert result.uninit_first == "pc 0xc v_add_f32_e32 v3, v2, v1 reads v2"
    assert result.metrics["Uninit_Reads"] == 4


def test_the_report_warns_once_and_json_carries_the_counter():
    proc = run_cli("run", str(fixture_path("uninit_reads.s")), "--json", "-")
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: 4 wave-instructions read registers nothing wrote "
                        "(first: pc 0xc v_add_f32_e32 v3, v2, v1 reads v2); they read 0"]
    assert json.loads(proc.stdout)["counters"]["GPUSIM_UNINIT_READS"] == 4


@pytest.mark.parametrize("kw", MODES, ids=MODE_IDS)
def test_a_clang_kernel_reads_only_what_the_launch_or_its_code_set(kw):
    result = _run(CORPUS / "saxpy.s", **kw)
    assert result.counters["GPUSIM_UNINIT_READS"] == 0 and result.uninit_first is None
    proc = run_cli("run", str(CORPUS / "saxpy.s"), "--no-timing")
    assert "warning" not in proc.stdout


@pytest.mark.parametrize("kw", MODES, ids=MODE_IDS)
def test_an_llvm_implicit_def_is_an_uninitialised_read(kw):
    # clang marks s[2:3] '; implicit-def: $sgpr2_sgpr3' (an undefined value) and the loop's first
    # s_or_b64 s[2:3], s[2:3], exec reads it: s2 holds the workgroup id, s3 nothing; once per wave
    result = _run(CORPUS / "newton_sqrt.s", **kw)
    assert result.counters["GPUSIM_UNINIT_READS"] == result.counters["SQ_WAVES"] == 16
    assert result.uninit_first == "pc 0xa0 s_or_b64 s[2:3], s[2:3], exec reads s3"


def test_uninit_read_py_func_counts_once_and_keeps_the_lowest_entry():
    reads_at = np.array([0, 3], np.int64)
    reads = np.array([0, 2, 5], np.int64)
    written = np.array([[1, 0, 0, 0, 0, 0], [1, 0, 1, 0, 0, 1]], np.uint8)
    uninit = np.zeros((1, 2), np.int64)
    uninit[:, 1] = itp.UNINIT_NONE
    itp.uninit_read.py_func(reads_at, reads, 0, 0, written, uninit)   # wave 0: entries 2 and 5 unwritten
    assert uninit.tolist() == [[1, 2]]
    itp.uninit_read.py_func(reads_at, reads, 0, 1, written, uninit)   # wave 1: all written
    assert uninit.tolist() == [[1, 2]]


def test_scoreboard_entries_follow_register_order():
    regs = register_lists(api.load_kernel(CORPUS / "saxpy.s").program.ops)
    assert list(regs.registers) == sorted(regs.registers) and len(regs.registers) == regs.entries


@pytest.mark.parametrize("reg, name", [(3, "s3"), (106, "vcc_lo"), (124, "m0"), (253, "scc"), (256 + 2, "v2"),
                                       (256 + 9, "a1")])
def test_register_names(reg, name):
    assert register_name(reg, accum_offset=8) == name
