"""gpusim gen transpose: every variant assembles and computes b = a.T, the descriptor states the
registers and LDS the code uses, invalid combinations are refused with the reason, and on the
timing model the padded LDS tile has no bank conflicts and beats the unpadded one."""
from __future__ import annotations


import pytest

import gpusim
from gpusim.templates import TemplateError, generate
from template_support import assembler_errors, needs_llvm_mc

CASES = [
    dict(rows=64, cols=96, variant="naive"),
    dict(rows=64, cols=96, variant="lds"),
    dict(rows=64, cols=96, variant="lds-padded"),
    dict(rows=32, cols=64, variant="lds-padded", tile=16, block=64),
    dict(rows=128, cols=64, variant="lds", tile=64, block=256),
    dict(rows=64, cols=128, variant="lds-padded", tile=64, block=64),
    dict(rows=32, cols=32, variant="naive", block=1024),
]
IDS = [",".join(f"{k}={v}" for k, v in c.items()) for c in CASES]


def _write(tmp_path, **params):
    path = tmp_path / "transpose.s"
    path.write_text(generate("transpose", **params))
    return path


@needs_llvm_mc
@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_assembles_with_llvm_mc(tmp_path, params):
    path = _write(tmp_path, **params)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("params", CASES, ids=IDS)
def test_computes_the_transpose(tmp_path, params):
    result = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, **params)), "cdna3", check=True, timing=False)
    assert result.checks  # b == a.T
    assert result.checks_passed, result.checks


@pytest.mark.parametrize("params, reason", [
    (dict(rows=100, cols=64), "multiples of --tile"),
    (dict(tile=8), "--tile 8 is not one of"),
    (dict(block=96), "multiple of 64"),
    (dict(tile=16, block=512), "whole rows"),
    (dict(tile=64, block=2048), "up to 1024"),
    (dict(rows=32768, cols=32768), "over 2 GiB"),
    (dict(variant="swizzled"), "not one of naive, lds, lds-padded"),
])
def test_invalid_combinations_name_the_reason(params, reason):
    with pytest.raises(TemplateError, match=reason):
        generate("transpose", **params)


def _directive(text: str, name: str) -> int:
    return int(next(line.split()[1] for line in text.splitlines() if line.strip().startswith(name)))


def test_descriptor_matches_the_code():
    # 32x32 tile, 256 threads: 8 rows per pass, 4 elements per thread in v8..v11 -> 12 VGPRs;
    # LDS [32][33] words = 4224 bytes; SGPRs s0..s14 (s14: the LDS row stride) -> 15
    text = generate("transpose", rows=64, cols=64, variant="lds-padded")
    assert _directive(text, ".amdhsa_next_free_vgpr") == 12
    assert _directive(text, ".amdhsa_next_free_sgpr") == 15
    assert _directive(text, ".amdhsa_group_segment_fixed_size") == 32 * 33 * 4
    assert "v12" not in text and "v11" in text
    assert _directive(generate("transpose", rows=64, cols=64, variant="lds"),
                      ".amdhsa_group_segment_fixed_size") == 32 * 32 * 4
    assert _directive(generate("transpose", rows=64, cols=64, variant="naive"),
                      ".amdhsa_group_segment_fixed_size") == 0
    # tile 64, one wave: 64 elements per thread in v8..v71
    assert _directive(generate("transpose", rows=64, cols=64, tile=64, block=64),
                      ".amdhsa_next_free_vgpr") == 72


def test_padded_tile_has_no_bank_conflicts_and_is_faster(tmp_path):
    runs = {}
    for variant in ("lds", "lds-padded"):
        path = tmp_path / f"{variant}.s"
        path.write_text(generate("transpose", rows=128, cols=128, variant=variant))
        runs[variant] = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True, timing=True)
        assert runs[variant].checks_passed
    # unpadded: 16 workgroups x 4 waves x 4 column reads x 2 half-waves, each 32 lanes on one bank:
    # 31 extra clocks
    assert runs["lds"].counters["SQ_LDS_BANK_CONFLICT"] == 16 * 4 * 4 * 2 * 31
    assert runs["lds-padded"].counters["SQ_LDS_BANK_CONFLICT"] == 0
    assert runs["lds-padded"].cycles < runs["lds"].cycles
