"""gpusim gen softmax: generated kernels assemble and match numpy's max-subtracted softmax, the
descriptor states the registers and LDS the code uses, invalid combinations are refused with the
reason, and the gfx942 wait states llvm-mc does not insert are written out."""
from __future__ import annotations

import os

import numpy as np
import pytest

import gpusim
from gpusim.templates import TemplateError, generate
from template_support import assembler_errors, needs_llvm_mc

CASES = [
    dict(rows=4, cols=256, block=256),    # one element per thread, 4 waves
    dict(rows=4, cols=64, block=64),      # one wave: no LDS
    dict(rows=3, cols=1024, block=256),   # 4 per thread, offsets past the 4 KiB offset field
    dict(rows=2, cols=192, block=192),    # 3 waves: the wave results padded to 4 lanes
    dict(rows=2, cols=4096, block=1024),  # 16 waves
    dict(rows=2, cols=2048, block=64),    # 32 per thread in one wave
]
IDS = [",".join(f"{k}={v}" for k, v in c.items()) for c in CASES]


def _write(tmp_path, **params):
    path = tmp_path / "softmax.s"
    path.write_text(generate("softmax", **params))
    return path


@needs_llvm_mc
@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_assembles_with_llvm_mc(tmp_path, params):
    path = _write(tmp_path, **params)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_matches_numpy_softmax(tmp_path, params):
    result = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, **params)), "cdna3", check=True, timing=False)
    assert result.checks  # y ~= exp(x - max) / sum, rtol=1e-5
    assert result.checks_passed, result.checks
    y = result.outputs["y"]
    np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-5)


@pytest.mark.parametrize("params, reason", [
    (dict(cols=1000, block=256), "multiple of --block 256"),
    (dict(block=96), "multiple of 64"),
    (dict(cols=64 * 65, block=64), "65 elements per thread; at most 64"),
    (dict(block=2048, cols=4096), "up to 1024"),
    (dict(rows=0), "--rows 0 must be at least 1"),
    (dict(rows=65536, cols=16384), "over 2 GiB"),
])
def test_invalid_combinations_name_the_reason(params, reason):
    with pytest.raises(TemplateError, match=reason):
        generate("softmax", **params)


def _directive(text: str, name: str) -> int:
    return int(next(line.split()[1] for line in text.splitlines() if line.strip().startswith(name)))


def test_descriptor_matches_the_code():
    # 1024 columns over 256 threads: 4 elements in v6..v9 -> 10 VGPRs; 4 waves swap max and sum
    # through 2 x 4 LDS words; max and sum in s12, s13 -> 14 SGPRs
    text = generate("softmax", rows=2, cols=1024, block=256)
    assert _directive(text, ".amdhsa_next_free_vgpr") == 10
    assert _directive(text, ".amdhsa_group_segment_fixed_size") == 2 * 4 * 4
    assert _directive(text, ".amdhsa_next_free_sgpr") == 14
    assert "v9" in text and "v10" not in text
    one_wave = generate("softmax", rows=2, cols=128, block=64)
    assert _directive(one_wave, ".amdhsa_group_segment_fixed_size") == 0
    assert "ds_" not in one_wave and "s_barrier" not in one_wave


def test_hazards_llvm_mc_leaves_to_the_writer_are_padded():
    lines = [ln.split(";")[0].strip() for ln in generate("softmax", rows=2, cols=512, block=256).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith(".")]
    for i, ln in enumerate(lines):
        if "_dpp " in ln and lines[i - 1].startswith("v_"):
            pytest.fail(f"DPP right after a VALU write: {lines[i - 1]!r} -> {ln!r}")
        if ln.startswith("v_readlane") and lines[i - 1].startswith("v_"):
            pytest.fail(f"v_readlane right after a VALU: {lines[i - 1]!r} -> {ln!r}")
        if lines[i - 1].startswith(("v_exp", "v_rcp")) and ln.startswith("v_") and not ln.startswith(("v_exp", "v_rcp")):
            pytest.fail(f"a VALU reads a transcendental without a wait state: {lines[i - 1]!r} -> {ln!r}")


def test_timed_run_is_faster_than_the_clang_lds_tree(tmp_path):
    # workloads/softmax_rows.s (clang, 16 rows of 256, LDS halving trees) against the template
    path = tmp_path / "softmax.s"
    path.write_text(generate("softmax", rows=16, cols=256, block=256))
    ours = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True, timing=True)
    assert ours.checks_passed
    assert ours.counters["SQ_LDS_BANK_CONFLICT"] == 0
    clang = os.path.join(os.path.dirname(__file__), "..", "..", "workloads", "softmax_rows.s")
    if os.path.exists(clang):
        theirs = gpusim.simulate(gpusim.load_kernel(clang), "cdna3", check=True, timing=True)
        assert ours.cycles < theirs.cycles
