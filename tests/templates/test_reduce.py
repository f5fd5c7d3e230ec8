"""gpusim gen reduce: both methods assemble and compute the per-workgroup sums, the descriptor
states the registers and LDS the code uses, invalid combinations are refused with the reason, and
on the timing model the wave shuffles beat the LDS tree without touching LDS inside a wave."""
from __future__ import annotations


import pytest

import gpusim
from gpusim.templates import TemplateError, generate
from template_support import assembler_errors, needs_llvm_mc

CASES = [
    dict(n=4096, block=256, items_per_thread=4, method="lds-tree"),
    dict(n=4096, block=256, items_per_thread=4, method="wave-shuffle"),
    dict(n=1024, block=64, items_per_thread=1, method="lds-tree"),
    dict(n=1024, block=64, items_per_thread=1, method="wave-shuffle"),
    dict(n=8192, block=1024, items_per_thread=2, method="lds-tree"),
    dict(n=8192, block=1024, items_per_thread=2, method="wave-shuffle"),
    dict(n=6144, block=192, items_per_thread=8, method="wave-shuffle"),  # 3 waves: a non-power-of-two block
    dict(n=16384, block=128, items_per_thread=32, method="lds-tree"),    # loads past the 4 KiB offset field
]
IDS = [",".join(f"{k}={v}" for k, v in c.items()) for c in CASES]


def _write(tmp_path, **params):
    path = tmp_path / "reduce.s"
    path.write_text(generate("reduce", **params))
    return path


@needs_llvm_mc
@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_assembles_with_llvm_mc(tmp_path, params):
    path = _write(tmp_path, **params)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_computes_the_partial_sums(tmp_path, params):
    result = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, **params)), "cdna3", check=True, timing=False)
    assert result.checks  # out ~= x.reshape(G, -1).sum(axis=1)
    assert result.checks_passed, result.checks
    groups = params["n"] // (params["block"] * params["items_per_thread"])
    assert result.outputs["out"].shape == (groups,)


@pytest.mark.parametrize("params, reason", [
    (dict(n=1000), "multiple of --block x --items-per-thread = 1024"),
    (dict(block=100), "multiple of 64"),
    (dict(block=192, method="lds-tree", n=192 * 4), "power of two for lds-tree"),
    (dict(items_per_thread=65, n=256 * 65), "1..64"),
    (dict(block=2048, n=2048 * 4), "up to 1024"),
    (dict(method="atomic"), "not one of lds-tree, wave-shuffle"),
])
def test_invalid_combinations_name_the_reason(params, reason):
    with pytest.raises(TemplateError, match=reason):
        generate("reduce", **params)


def _directive(text: str, name: str) -> int:
    return int(next(line.split()[1] for line in text.splitlines() if line.strip().startswith(name)))


def test_descriptor_matches_the_code():
    # 4 items per thread in v4..v7 (v1 offset, v2 scratch, v3 far address) -> 8 VGPRs
    text = generate("reduce", n=4096, block=256, items_per_thread=4, method="lds-tree")
    assert _directive(text, ".amdhsa_next_free_vgpr") == 8
    assert _directive(text, ".amdhsa_group_segment_fixed_size") == 256 * 4  # one word per thread
    assert "v7" in text and "v8" not in text
    # wave shuffles: LDS only for the 4 wave sums; the wave's sum goes through s12 (v_readlane)
    text = generate("reduce", n=4096, block=256, items_per_thread=4, method="wave-shuffle")
    assert _directive(text, ".amdhsa_group_segment_fixed_size") == 4 * 4
    assert _directive(text, ".amdhsa_next_free_sgpr") == 13
    assert _directive(text, ".amdhsa_next_free_vgpr") == 8
    # one wave: no LDS at all
    assert _directive(generate("reduce", n=1024, block=64, items_per_thread=16, method="wave-shuffle"),
                      ".amdhsa_group_segment_fixed_size") == 0


def test_wave_shuffle_beats_the_lds_tree(tmp_path):
    runs = {}
    for method in ("lds-tree", "wave-shuffle"):
        path = tmp_path / f"{method}.s"
        path.write_text(generate("reduce", n=16384, block=256, items_per_thread=4, method=method))
        runs[method] = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True, timing=True)
        assert runs[method].checks_passed
    tree, shuffle = runs["lds-tree"].counters, runs["wave-shuffle"].counters
    # 16 workgroups of 4 waves. Tree: every wave writes its sums (4); step 128 runs in waves 0 and 1
    # (read + write: 4); steps 64..2 in wave 0 alone (6 x 2), step 1 reads only (1); waves with no
    # lane in a step branch over it. Shuffle: one write per wave, one read in wave 0.
    assert tree["SQ_INSTS_LDS"] == 16 * (4 + 4 + 12 + 1)
    assert shuffle["SQ_INSTS_LDS"] == 16 * (4 + 1)
    assert runs["wave-shuffle"].cycles < runs["lds-tree"].cycles
