"""Loading the shipped architectures, extends merging, overrides, hashing and rendering."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpusim.arch import (Arch, arch_overrides, builtin_arch_names, format_arch, key_paths,
                         load_arch, load_arch_text)
from gpusim.errors import ArchError
from gpusim.resources import data_dir

ARCHS = data_dir("archs")


def test_builtin_names_list_shipped_files_and_examples():
    names = builtin_arch_names()
    assert {"cdna2", "cdna3", "examples/cdna3_2x_lds", "examples/cdna3_12_stacks"} <= set(names)


@pytest.mark.parametrize("name", ["cdna2", "cdna3", "examples/cdna3_2x_lds",
                                  "examples/cdna3_12_stacks", "cdna3_2x_lds"])
def test_every_shipped_arch_loads(name):
    arch = load_arch(name)
    assert isinstance(arch, Arch)
    assert set(arch.provenance) == set(key_paths())


def test_cdna3_is_mi300x():
    a = load_arch("cdna3")
    assert (a.name, a.gfx_target, a.wave_size) == ("cdna3", "gfx942", 64)
    assert a.cus == 304 and a.gpu.xcds == 8
    assert a.cu.simds * a.cu.simd_width == 64 and a.cu.issue.valu_cycles == 4
    assert a.cu.max_waves_per_cu == 32
    assert a.cu.lds.size_bytes == 65536 and a.cu.lds.banks * a.cu.lds.bank_width_bytes == 128
    assert a.cu.l1.size_bytes == 32 * 1024 and a.cu.l1.line_bytes == 128
    assert a.l2.size_bytes == 4 * 1024 * 1024 and a.l2.channels == 16
    assert a.mall.present and a.mall.size_bytes == 256 * 1024 * 1024
    assert a.hbm.channels == 128
    assert a.hbm_bytes_per_s == pytest.approx(5.3e12, rel=0.01)
    tf = a.peaks.matrix_flops_per_cu_per_clk.f16 * a.cus * a.clocks.shader_mhz * 1e6
    assert tf == pytest.approx(1307e12, rel=0.001)


def test_cdna3_latencies_add_up_to_measured_load_to_use():
    a = load_arch("cdna3")
    # [H]: ~116 / ~209 / ~385-450 / ~860 cycles for a pointer chase whose dependent loads have only their
    # s_waitcnt between them. The latency sums fall short of them by the ports (a cycle or two per level)
    # and the wait and reissue of each step in gpusim (about 6);
    # tests/engine/test_latency_ladder.py checks the end-to-end times within 5%.
    assert 100 <= a.load_to_use_cycles("l1") <= 116
    assert 169 <= a.load_to_use_cycles("l2") <= 209
    assert 360 <= a.load_to_use_cycles("mall") <= 450
    assert 820 <= a.load_to_use_cycles("hbm") <= 860


def test_cdna2_is_one_mi250x_gcd_without_mall():
    a = load_arch("cdna2")
    assert (a.gfx_target, a.cus, a.gpu.xcds) == ("gfx90a", 110, 1)
    assert a.cu.l1.size_bytes == 16 * 1024 and a.cu.l1.line_bytes == 64
    assert a.l2.size_bytes == 8 * 1024 * 1024 and a.l2.channels == 32
    assert not a.mall.present
    assert a.hbm_bytes_per_s == pytest.approx(1.6e12, rel=0.03)
    with pytest.raises(ValueError):
        a.load_to_use_cycles("mall")
    # the DRAM's row conflict: tRP 23 + tRCD 23 + tCL 23 + burst 2 = 71 memory clocks = ceil(71 x 1700 / 1600) = 76
    assert a.load_to_use_cycles("hbm") == (a.cu.l1.latency_cycles + a.l2.latency_cycles
                                           + a.hbm.latency_cycles + 76)


def test_examples_change_only_what_they_say():
    base = load_arch("cdna3").to_dict()
    lds = load_arch("cdna3_2x_lds").to_dict()
    assert lds["cu"]["lds"]["size_bytes"] == 131072
    lds["cu"]["lds"]["size_bytes"] = base["cu"]["lds"]["size_bytes"]
    assert {k: v for k, v in lds.items() if k not in ("name", "description")} == \
           {k: v for k, v in base.items() if k not in ("name", "description")}

    stacks = load_arch("cdna3_12_stacks")
    assert stacks.hbm.stacks == 12 and stacks.hbm.channels == 192
    assert stacks.hbm_bytes_per_s == pytest.approx(5.3248e12 * 1.5)
    assert stacks.mall == load_arch("cdna3").mall


def test_extends_merges_recursively_and_records_sources(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text("extends: cdna3\nname: base\ncu:\n  lds:\n    latency_cycles: 70\n")
    child = tmp_path / "sub" / "child.yaml"
    child.parent.mkdir()
    child.write_text("extends: ../base.yaml\ncu:\n  l1:\n    associativity: 16\n"
                     "  issue:\n    categories: [valu, vmem]\n")
    a = load_arch(child)
    cdna3 = load_arch("cdna3")
    assert a.name == "child"  # a file that does not name itself is named after itself
    assert a.cu.lds.latency_cycles == 70 and a.cu.lds.size_bytes == cdna3.cu.lds.size_bytes
    assert a.cu.l1.associativity == 16 and a.cu.l1.size_bytes == cdna3.cu.l1.size_bytes
    assert a.cu.issue.categories == ("valu", "vmem")  # lists replace, they do not merge
    assert a.cu.issue.valu_cycles == 4
    assert len(a.sources) == 3 and a.sources[0].endswith("child.yaml")
    assert a.sources[2].endswith("cdna3.yaml")
    assert a.provenance["cu.l1.associativity"].endswith("child.yaml")
    assert a.provenance["cu.lds.latency_cycles"].endswith("base.yaml")
    assert a.provenance["cu.lds.size_bytes"].endswith("cdna3.yaml")


def test_path_and_name_forms_agree(tmp_path):
    by_name = load_arch("cdna3")
    assert load_arch(ARCHS / "cdna3.yaml") == by_name
    assert load_arch(str(ARCHS / "cdna3.yaml")) == by_name
    assert load_arch(by_name) is by_name


def test_an_existing_file_wins_over_a_builtin_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cdna3").write_text("extends: cdna2\nname: local\n")
    assert load_arch("cdna3").name == "local"


def test_hash_is_sha256_of_canonical_dict_and_ignores_provenance():
    a = load_arch("cdna3")
    canon = json.dumps(a.to_dict(), sort_keys=True, separators=(",", ":"))
    assert a.hash() == hashlib.sha256(canon.encode()).hexdigest()
    again = load_arch_text(format_arch(a))
    assert again == a and again.hash() == a.hash()
    assert again.sources != a.sources
    assert load_arch("cdna2").hash() != a.hash()


def test_hash_is_stable_across_processes():
    code = "from gpusim.arch import load_arch; print(load_arch('cdna3').hash())"
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONHASHSEED="12345",
               PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == load_arch("cdna3").hash()


def test_to_dict_has_every_key_path():
    d = load_arch("cdna3").to_dict()
    for path in key_paths():
        node = d
        for part in path.split("."):
            node = node[part]
    assert d["cu"]["issue"]["categories"] == ["valu", "salu", "vmem", "lds", "branch"]
    assert "cu.lds.size_bytes" in key_paths()


def test_overrides_return_a_new_validated_arch():
    a = load_arch("cdna3")
    b = arch_overrides(a, {"cu.lds.size_bytes": 131072, "policies.wave_arbitration": "round_robin"})
    assert b.cu.lds.size_bytes == 131072 and b.policies.wave_arbitration == "round_robin"
    assert a.cu.lds.size_bytes == 65536
    assert b.hash() != a.hash()
    assert b.provenance["cu.lds.size_bytes"] == "<override>"
    assert b.provenance["cu.lds.banks"].endswith("cdna3.yaml")
    assert arch_overrides(a, {}) == a


def test_overrides_match_the_equivalent_extends_file():
    a = arch_overrides(load_arch("cdna3"), {"cu.lds.size_bytes": 131072, "name": "cdna3_2x_lds",
                                            "description": load_arch("cdna3_2x_lds").description})
    assert a.hash() == load_arch("cdna3_2x_lds").hash()


def test_overrides_merge_sections_and_read_text_values():
    a = load_arch("cdna3")
    b = arch_overrides(a, {"cu.l1": {"associativity": 16}, "gpu.xcds": "4",
                           "cu.issue.categories": "[valu, vmem]"})
    assert b.cu.l1.associativity == 16 and b.cu.l1.size_bytes == a.cu.l1.size_bytes
    assert b.gpu.xcds == 4 and b.cus == 4 * 38
    assert b.cu.issue.categories == ("valu", "vmem")
    assert b.provenance["cu.l1.associativity"] == "<override>"
    assert b.provenance["cu.l1.size_bytes"].endswith("cdna3.yaml")


@pytest.mark.parametrize("overrides, fragment", [
    ({"cu.lds.sise_bytes": 1}, "did you mean 'size_bytes'"),
    ({"cuu.lds.size_bytes": 1}, "did you mean 'cu'"),
    ({"cu.lds.size_bytes.x": 1}, "unknown key 'x'"),
    ({"cu.lds.size_bytes": -4}, "cu.lds.size_bytes: must be >= 1"),
    ({"cu.lds.size_bytes": "lots"}, "cu.lds.size_bytes: expected an integer"),
    ({"cu.lds.size_bytes": "[1"}, "cannot read"),
    ({"cu.l1.line_bytes": 100}, "cu.l1.line_bytes: must be a power of two"),
    ({"policies.dispatch_order": "lineer"}, "did you mean 'linear'"),
    ({"cu": 3}, "cu: expected a section"),
    ({"": 3}, "dotted key path"),
])
def test_bad_overrides_raise_arch_error(overrides, fragment):
    with pytest.raises(ArchError) as err:
        arch_overrides(load_arch("cdna3"), overrides)
    assert fragment in str(err.value)


def test_format_names_sources_and_round_trips():
    a = load_arch("cdna3_2x_lds")
    text = format_arch(a)
    assert "cdna3_2x_lds.yaml <- " in text and text.count("cdna3.yaml") >= 2
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("size_bytes: 131072"))
    assert "cdna3_2x_lds.yaml" in line
    assert f"sha256: {a.hash()}" in text
    assert load_arch_text(text) == a
    documented = format_arch(a, docs=True)
    assert "LDS per CU" in documented
    assert load_arch_text(documented) == a
