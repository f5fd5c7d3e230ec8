"""A kernel's ``.amdgpu_metadata`` is untrusted input like the rest of its file: the argument offsets and
kernarg size it gives place the launch's arguments, so a damaged block must be refused at the kernel
(exit 2, one line), never end in a traceback or a write outside the kernarg segment."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import gpusim
from gpusim.cli import main
from gpusim.errors import HeaderError

REPO = Path(__file__).resolve().parents[2]
VADD = REPO / "tests" / "data" / "corpus" / "gfx942" / "vadd_tail.s"   # args a, b, c at .offset 0, 8, 16, n at 24


def _damaged(tmp_path: Path, old: str, new: str) -> Path:
    text = VADD.read_text()
    assert text.count(old) >= 1, old
    path = tmp_path / "vadd_tail.s"
    path.write_text(text.replace(old, new, 1))
    return path


def _kernel_line(path: Path) -> int:
    """_kernel_line is the line of the kernel's .amdhsa_kernel block, where launch errors about it point."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if ".amdhsa_kernel vadd_tail" in line)


@pytest.mark.parametrize("old, new, phrase", [
    (".offset:         8\n", ".offsetx:        8\n", "argument 1 needs an .offset from 0 to 1048575, got None"),
    (".offset:         8\n", ".offset:         eight\n", "argument 1 needs an .offset from 0 to 1048575, got 'eight'"),
    (".offset:         8\n", ".offset:         -8\n", "argument 1 needs an .offset from 0 to 1048575, got -8"),
    (".offset:         8\n", ".offset:         99999999999\n", "got 99999999999"),
    (".kernarg_segment_size: 28", ".kernarg_segment_size: 99999999999999",
     ".kernarg_segment_size must be from 0 to 1048576, got 99999999999999"),
    (".kernarg_segment_size: 28", ".kernarg_segment_size: true", ".kernarg_segment_size must be from 0 to 1048576"),
    (".offset:         16\n", ".offset:         4000\n",
     "argument 'c' at .offset 4000 lies past its 28-byte kernarg segment"),
])
def test_damaged_argument_metadata_is_refused_at_the_kernel(tmp_path, old, new, phrase):
    path = _damaged(tmp_path, old, new)
    with pytest.raises(HeaderError) as info:
        gpusim.simulate(gpusim.load_kernel(path), "cdna3", timing=False)
    message = str(info.value)
    assert phrase in message and "kernel 'vadd_tail'" in message, message
    if "argument 'c'" in phrase:   # an argument's own error points at its header line
        assert message.startswith(f"{path}:4:"), message
    else:
        assert message.startswith(f"{path}:{_kernel_line(path)}:"), message


def test_args_that_are_not_a_list_are_refused(tmp_path, capsys):
    text = VADD.read_text()
    start = text.index("    .args:")
    end = text.index("    .group_segment_fixed_size")
    path = tmp_path / "vadd_tail.s"
    path.write_text(text[:start] + "    .args: 5\n" + text[end:])
    code = main(["run", str(path), "--no-timing"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert re.search(r"vadd_tail\.s:\d+:\d+: error: kernel 'vadd_tail': its \.amdgpu_metadata \.args is a list", err)


def test_intact_metadata_still_places_the_arguments():
    # the same kernel, undamaged: its check passes, so the offsets read are the metadata's
    r = gpusim.simulate(gpusim.load_kernel(VADD), "cdna3", check=True, timing=False)
    assert r.checks and r.checks_passed
