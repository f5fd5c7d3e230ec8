"""Malformed architecture files: each gives one ArchError naming the key and the exact file:line."""
from __future__ import annotations

from pathlib import Path

import pytest

from gpusim.arch import load_arch, load_arch_text
from gpusim.errors import ArchError, GpusimError
from gpusim.resources import data_dir

# (case id, YAML text, expected line, fragments the message must contain)
CASES = [
    ("unknown_top_key", "extends: cdna3\ngpuu:\n  xcds: 2\n", 2,
     ["unknown key 'gpuu'", "did you mean 'gpu'?"]),
    ("unknown_nested_key", "extends: cdna3\ncu:\n  lds:\n    size: 1\n", 4,
     ["unknown key 'size' in cu.lds", "did you mean 'size_bytes'?"]),
    ("misspelt_nested_key", "extends: cdna3\nl2:\n  chanels: 8\n", 3,
     ["unknown key 'chanels' in l2", "did you mean 'channels'?"]),
    ("text_for_integer", "extends: cdna3\ncu:\n  lds:\n    size_bytes: big\n", 4,
     ["cu.lds.size_bytes", "expected an integer", "'big'"]),
    ("float_for_integer", "extends: cdna3\ngpu:\n  xcds: 8.5\n", 3,
     ["gpu.xcds", "expected an integer"]),
    ("bool_for_integer", "extends: cdna3\ngpu:\n  xcds: true\n", 3,
     ["gpu.xcds", "expected an integer"]),
    ("integer_for_bool", "extends: cdna3\ncu:\n  architected_flat_scratch: 1\n", 3,
     ["cu.architected_flat_scratch", "expected true or false"]),
    ("integer_for_text", "extends: cdna3\ngfx_target: 942\n", 2,
     ["gfx_target", "expected text"]),
    ("negative_size", "extends: cdna3\ncu:\n  l1:\n    size_bytes: -1\n", 4,
     ["cu.l1.size_bytes", "must be >= 1, got -1"]),
    ("negative_latency", "extends: cdna3\nhbm:\n  latency_cycles: -5\n", 3,
     ["hbm.latency_cycles", "must be >= 0"]),
    ("line_not_pow2", "extends: cdna3\ncu:\n  l1:\n    line_bytes: 96\n", 4,
     ["cu.l1.line_bytes", "power of two"]),
    ("cache_not_line_times_assoc", "extends: cdna3\ncu:\n  l1:\n    size_bytes: 30000\n", 4,
     ["cu.l1.size_bytes", "line_bytes * associativity"]),
    ("l2_slice_not_line_times_assoc", "extends: cdna3\nl2:\n  size_bytes: 4000000\n", 3,
     ["l2.size_bytes", "per channel", "line_bytes * associativity"]),
    ("lds_not_banks_times_width", "extends: cdna3\ncu:\n  lds:\n    size_bytes: 1000\n", 4,
     ["cu.lds.size_bytes", "banks * bank_width_bytes"]),
    ("zero_channels", "extends: cdna3\nl2:\n  channels: 0\n", 3,
     ["l2.channels", "must be >= 1, got 0"]),
    ("mall_without_channels", "extends: cdna3\nmall:\n  channels: 0\n", 3,
     ["mall.channels", "when size_bytes > 0"]),
    ("hbm_channels_vs_stacks", "extends: cdna3\nhbm:\n  channels: 100\n", 3,
     ["hbm.channels", "multiple of stacks"]),
    ("unknown_policy", "extends: cdna3\npolicies:\n  wave_arbitration: oldest\n", 3,
     ["policies.wave_arbitration", "did you mean 'oldest_first'?"]),
    ("unknown_issue_category", "extends: cdna3\ncu:\n  issue:\n    categories: [valu, sallu]\n",
     4, ["cu.issue.categories[1]", "did you mean 'salu'?"]),
    ("repeated_issue_category", "extends: cdna3\ncu:\n  issue:\n    categories: [valu, valu]\n",
     4, ["cu.issue.categories", "listed twice"]),
    ("section_is_scalar", "extends: cdna3\ncu: 5\n", 2, ["cu: expected a section"]),
    ("section_is_list", "extends: cdna3\ngpu:\n  - 8\n", 3, ["gpu: expected a section"]),
    ("leaf_is_mapping", "extends: cdna3\ngpu:\n  xcds:\n    n: 8\n", 4,
     ["gpu.xcds", "expected an integer", "mapping"]),
    ("null_value", "extends: cdna3\ngpu:\n  xcds:\n", 3, ["gpu.xcds", "null"]),
    ("duplicate_key", "extends: cdna3\ngpu:\n  xcds: 2\n  xcds: 3\n", 4,
     ["duplicate key 'xcds'", "line 3"]),
    ("yaml_syntax", "extends: cdna3\ngpu:\n  xcds: [1, 2\nclocks: {}\n", 4,
     ["invalid YAML", "line 3"]),
    ("yaml_tab_indent", "extends: cdna3\ngpu:\n\txcds: 2\n", 3, ["invalid YAML"]),
    ("merge_key", "extends: cdna3\nbase: &b {xcds: 2}\ngpu:\n  <<: *b\n", 4,
     ["merge keys"]),
    ("python_tag", "extends: cdna3\ngpu:\n  xcds: !!python/object:os.system 1\n", 3,
     ["cannot read value"]),
    ("extends_unknown", "extends: cdna9\n", 1,
     ["unknown architecture 'cdna9'", "cdna2, cdna3", "did you mean 'cdna3'?"]),
    ("extends_missing_file", "extends: ./nope.yaml\n", 1, ["no file", "nope.yaml"]),
    ("extends_not_text", "extends: [cdna3]\n", 1, ["extends: expected the name"]),
    ("wave_size_choice", "extends: cdna3\nwave_size: 48\n", 2, ["wave_size", "32, 64"]),
    ("simd_width_divides_wave", "extends: cdna3\ncu:\n  simd_width: 48\n", 3,
     ["cu.simd_width", "does not divide wave_size"]),
    ("workgroup_too_big", "extends: cdna3\ncu:\n  max_workitems_per_workgroup: 4096\n", 3,
     ["cu.max_workitems_per_workgroup", "64 waves"]),
    ("vgpr_limits", "extends: cdna3\ncu:\n  max_vgprs_per_wave: 1024\n", 3,
     ["cu.max_vgprs_per_wave", "exceeds vgprs_per_simd_lane"]),
    ("bad_gfx_name", "extends: cdna3\ngfx_target: gfx9z2\n", 2, ["gfx_target", "gfx942"]),
    ("top_level_list", "- gpu\n- cu\n", 1, ["must be a mapping"]),
    ("empty_file", "", 1, ["empty"]),
    ("comment_only_file", "# nothing here\n", 1, ["empty"]),
]


@pytest.mark.parametrize("text, line, fragments",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_file_names_key_and_line(tmp_path, monkeypatch, text, line, fragments):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ArchError) as err:
        load_arch(path)
    e = err.value
    assert e.loc is not None, str(e)
    assert e.loc.file == "bad.yaml", str(e)
    assert e.loc.line == line, str(e)
    message = str(e)
    assert message.startswith(f"bad.yaml:{line}:")
    for fragment in fragments:
        assert fragment in message


def test_same_errors_from_text(tmp_path):
    with pytest.raises(ArchError) as err:
        load_arch_text("extends: cdna3\ncu:\n  lds:\n    size_bytes: 1000\n", filename="x.yaml")
    assert str(err.value).startswith("x.yaml:4:5: error: cu.lds.size_bytes:")


def test_missing_key_in_standalone_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    full = (data_dir("archs") / "cdna3.yaml").read_text().splitlines()
    kept = [ln for ln in full if not ln.strip().startswith("mshrs:")]
    assert len(kept) == len(full) - 1
    path = tmp_path / "standalone.yaml"
    path.write_text("\n".join(kept) + "\n")
    with pytest.raises(ArchError) as err:
        load_arch(path)
    l1_line = next(i for i, ln in enumerate(kept, 1) if ln.startswith("  l1:"))
    assert "missing key 'cu.l1.mshrs'" in str(err.value)
    assert err.value.loc.line == l1_line


def test_error_in_a_parent_names_the_parent_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "parent.yaml").write_text("extends: cdna3\nname: p\ncu:\n  l1:\n"
                                          "    size_bytes: 1\n")
    (tmp_path / "child.yaml").write_text("extends: ./parent.yaml\nname: c\n")
    with pytest.raises(ArchError) as err:
        load_arch("child.yaml")
    assert str(err.value).startswith("parent.yaml:5:")


def test_extends_cycle_is_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("name: b\nextends: ./a.yaml\n")
    with pytest.raises(ArchError) as err:
        load_arch("a.yaml")
    assert "cycle a.yaml -> b.yaml -> a.yaml" in str(err.value)
    assert (err.value.loc.file, err.value.loc.line) == ("b.yaml", 2)


def test_self_extension_is_a_cycle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "me.yaml").write_text("extends: me.yaml\n")
    with pytest.raises(ArchError, match="cycle"):
        load_arch("me.yaml")


def test_bare_extends_name_hints_at_local_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybase.yaml").write_text("extends: cdna3\n")
    (tmp_path / "child.yaml").write_text("extends: mybase\n")
    with pytest.raises(ArchError, match=r"extends: \./mybase\.yaml"):
        load_arch("child.yaml")


@pytest.mark.parametrize("ref, fragment", [
    ("cdna4", "unknown architecture 'cdna4'"),
    ("cdan3", "did you mean 'cdna3'?"),
    ("missing/file.yaml", "no architecture file 'missing/file.yaml'"),
])
def test_unknown_name_or_missing_file_lists_builtins(ref, fragment):
    with pytest.raises(ArchError) as err:
        load_arch(ref)
    message = str(err.value)
    assert fragment in message
    assert "built-in architectures: cdna2, cdna3, " in message
    assert "examples/cdna3_2x_lds" in message


def test_non_utf8_file(tmp_path):
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(ArchError, match="UTF-8"):
        load_arch(path)


def test_arch_error_is_a_user_error():
    assert issubclass(ArchError, GpusimError)
    assert Path(data_dir("archs")).is_dir()
