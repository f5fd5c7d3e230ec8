"""The shipped YAML files: every number cites its source, units are in the key names."""
from __future__ import annotations

import re

import pytest

from gpusim.arch import key_paths
from gpusim.resources import data_dir

FILES = sorted(data_dir("archs").rglob("*.yaml"))
NUMBER_LINE = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*:\s*-?[0-9][0-9_.]*\s*(#.*)?$")
# a file lists its own sources ([A]..[Z]); [R2]/[R3]/[D3] name the DRAM simulators the hbm.timing values come from
CITATION = re.compile(r"#.*(\[([A-Z]|R2|R3|D3)(,([A-Z]|R2|R3|D3))*\]|model assumption)")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_number_cites_a_source(path):
    uncited = [f"{path.name}:{n}: {line.strip()}"
               for n, line in enumerate(path.read_text().splitlines(), 1)
               if NUMBER_LINE.match(line) and not CITATION.search(line)]
    assert not uncited, "numbers without [A]..[Z] or 'model assumption':\n" + "\n".join(uncited)


def test_shipped_files_exist():
    names = {p.relative_to(data_dir("archs")).as_posix() for p in FILES}
    assert {"cdna2.yaml", "cdna3.yaml", "mi300a.yaml", "examples/cdna3_2x_lds.yaml",
            "examples/cdna3_12_stacks.yaml"} <= names


def test_units_live_in_key_names():
    for path in key_paths():
        leaf = path.rsplit(".", 1)[-1]
        assert not re.search(r"_(kib|kb|mib|mb|gb|ns|us|ghz|khz)$", leaf), path
        if "latency" in leaf:
            assert leaf.endswith("_cycles"), path
        if "size" in leaf and leaf != "wave_size":
            assert leaf.endswith("_bytes"), path
