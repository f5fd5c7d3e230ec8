"""Every integer key of the architecture schema has a range; out-of-range, non-finite and non-integer values are
refused at their YAML line by `arch show` and by `run` alike (exit 2), and an accepted architecture runs."""
from __future__ import annotations

import typing
from dataclasses import is_dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpusim
from gpusim.arch import arch_overrides, load_arch, load_arch_text
from gpusim.arch.schema import MODEL_MEMORY_BYTES, Arch, model_bytes, yaml_fields
from gpusim.cli import main
from gpusim.errors import ArchError

SAXPY = str(Path(__file__).resolve().parents[2] / "workloads" / "saxpy.s")


def _int_fields(cls=Arch, prefix=""):
    """_int_fields lists (key path, metadata) of every integer YAML key."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in yaml_fields(cls):
        path = f"{prefix}{f.name}"
        if is_dataclass(hints[f.name]):
            out.extend(_int_fields(hints[f.name], path + "."))
        elif hints[f.name] is int and f.metadata.get("choices") is None:
            out.append((path, f.metadata))
    return out


INT_FIELDS = _int_fields()


def test_every_integer_key_has_a_range():
    assert len(INT_FIELDS) > 60
    for path, meta in INT_FIELDS:
        assert meta["min"] is not None and meta["max"] is not None, path
        assert meta["max"] < 2 ** 62, path   # products with cycle counts stay in int64


def _yaml(path: str, value: str) -> tuple[str, int]:
    """_yaml is an architecture extending cdna3 that sets ``path`` to ``value``, and the line of the value."""
    parts = path.split(".")
    lines = ["extends: cdna3"]
    for depth, part in enumerate(parts[:-1]):
        lines.append("  " * depth + f"{part}:")
    lines.append("  " * (len(parts) - 1) + f"{parts[-1]}: {value}")
    return "\n".join(lines) + "\n", len(lines)


def _bad_values(meta) -> list:
    return [str(meta["max"] + 1), str(meta["max"] * 10 ** 12), str(meta["min"] - 1) if meta["min"] > 0 else "-1",
            ".nan", ".inf", "-.inf", "8.5", "1.0e+30"]


CASES = [(path, value) for path, meta in INT_FIELDS for value in _bad_values(meta)]


@pytest.mark.parametrize("path,value", CASES, ids=[f"{p}={v}" for p, v in CASES])
def test_bad_value_is_refused_at_its_line_by_arch_show_and_run(path, value, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text, line = _yaml(path, value)
    Path("bad.yaml").write_text(text)
    for argv in (["arch", "show", "bad.yaml"], ["run", SAXPY, "--arch", "bad.yaml", "--no-timing"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"bad.yaml:{line}:") and path in err, (argv, err)
        assert len(err.splitlines()) == 1


def test_the_reported_case_overflowing_hbm_channels(cli, tmp_path):
    (tmp_path / "a.yaml").write_text("extends: cdna3\nhbm: {channels: 1000000000000000000000000000000}\n")
    for args in (("arch", "show", "a.yaml"), ("run", SAXPY, "--arch", "a.yaml")):
        proc = cli(*args)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith("a.yaml:2:17: error: hbm.channels: must be <= 4_096"), proc.stderr


def test_an_architecture_too_big_to_model_is_refused_naming_the_key_that_sizes_it():
    text = "extends: cdna3\ngpu: {xcds: 64, cus_per_xcd: 64}\nl2:\n  size_bytes: 4294967296\n"
    with pytest.raises(ArchError) as err:
        load_arch_text(text, "big.yaml")
    assert err.value.loc.line == 4 and "l2.size_bytes" in str(err.value)
    assert f"over gpusim's {MODEL_MEMORY_BYTES >> 30} GiB" in str(err.value)


def test_shipped_architectures_fit_the_model_memory_bound_with_room():
    for name in ("cdna3", "cdna2"):
        assert sum(model_bytes(load_arch(name)).values()) < MODEL_MEMORY_BYTES // 8


# keys a what-if study varies; each drawn anywhere in its range (the validation decides what is accepted)
VARIED = ["gpu.xcds", "gpu.cus_per_xcd", "clocks.shader_mhz", "clocks.memory_mhz", "hbm.channels", "hbm.stacks",
          "hbm.latency_cycles", "hbm.queue_depth_per_channel", "l2.channels", "l2.mshrs_per_channel",
          "cu.l1.mshrs", "cu.l1.latency_cycles", "cu.lds.latency_cycles", "mall.channels", "l2.latency_cycles",
          "cu.issue.valu_cycles", "cu.issue.taken_branch_cycles", "hbm.bytes_per_memory_clk_per_channel"]
META = dict(INT_FIELDS)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(VARIED), st.data(), min_size=1, max_size=3).flatmap(
    lambda d: st.fixed_dictionaries({k: st.one_of(st.integers(META[k]["min"], min(META[k]["max"], 64)),
                                                  st.integers(META[k]["min"], META[k]["max"])) for k in d})))
def test_any_accepted_architecture_runs_saxpy(overrides):
    try:
        arch = arch_overrides(load_arch("cdna3"), overrides)
    except ArchError:
        return
    result = gpusim.simulate(gpusim.load_kernel(SAXPY), arch, timing=True, outputs=False, check=False)
    assert result.cycles > 0
