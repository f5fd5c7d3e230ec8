"""Register, LDS and workgroup budgets are checked in every mode, before anything runs, at the directive's line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent
SAXPY = (REPO.parent / "workloads" / "saxpy.s").read_text()


def _with(tmp_path: Path, **fields) -> tuple[Path, dict]:
    """_with writes saxpy with ``.amdhsa_<field> <value>`` replaced (block= edits the launch line);
    returns the file and the 1-based line of each edited field."""
    text = SAXPY
    for name, value in fields.items():
        if name == "block":
            text = text.replace("block=256,1,1", f"block={value}")
        else:
            text, n = re.subn(rf"(\.amdhsa_{name}) \d+", rf"\g<1> {value}", text)
            assert n == 1, name
    path = tmp_path / "k.s"
    path.write_text(text)
    lines = {name: next(i for i, ln in enumerate(text.splitlines(), 1)
                        if (f".amdhsa_{name} " in ln if name != "block" else "gpusim-launch" in ln))
             for name in fields}
    return path, lines


CASES = [
    (dict(next_free_vgpr=100000), "next_free_vgpr", "AGPRs of cdna3 256"),
    (dict(next_free_vgpr=600, accum_offset=256), "next_free_vgpr", "exceeds the AGPRs of cdna3 256"),
    (dict(next_free_vgpr=300, accum_offset=300), "accum_offset", "must be a multiple of 4 in 4..256"),
    (dict(accum_offset=6), "accum_offset", "must be a multiple of 4"),
    (dict(accum_offset=12), "accum_offset", "exceeds the VGPRs allocated, alignTo(.amdhsa_next_free_vgpr 6, 4) = 8"),
    (dict(next_free_sgpr=103), "next_free_sgpr", "exceeds the 102 addressable SGPRs"),
    (dict(group_segment_fixed_size=65537), "group_segment_fixed_size", "exceeds the LDS per CU of cdna3 65536"),
    (dict(next_free_vgpr=512, accum_offset=256, block="1024,1,1"), "next_free_vgpr", "not one workgroup of 1024"),
]


@pytest.mark.parametrize("mode", [(), ("--no-timing",)], ids=["timed", "functional"])
@pytest.mark.parametrize("fields,at,text", CASES, ids=[next(iter(c[0])) + str(i) for i, c in enumerate(CASES)])
def test_budget_is_refused_at_the_directive_in_every_mode(cli, tmp_path, mode, fields, at, text):
    path, lines = _with(tmp_path, **fields)
    proc = cli("run", str(path), *mode)
    assert proc.returncode == 2, proc.stderr + proc.stdout
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"{path}:{lines[at]}:"), err
    assert text in err, err


def test_occupancy_command_names_the_directive_too(cli, tmp_path):
    path, lines = _with(tmp_path, next_free_sgpr=200)
    proc = cli("occupancy", str(path))
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:{lines['next_free_sgpr']}:")
