"""gpusim report compares two runs: a tile change of one GEMM, and a stream on cdna3 with half its HBM channels."""
import json
import re

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.arch.loader import arch_overrides
from gpusim.report.compare import arch_differences, compare, format_compare, format_value
from gpusim.templates.registry import generate

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(family: str, arch="cdna3", **params):
    kernel = gpusim.kernel_from_text(generate(family, "cdna3", **params), family)
    return gpusim.simulate(kernel, arch, timing=True, outputs=False)


@pytest.fixture(scope="module")
def gemms():
    big = _run("gemm", m=512, n=512, k=256, tile="128x128x32")
    small = _run("gemm", m=512, n=512, k=256, tile="64x64x32")
    return big, small


@pytest.fixture(scope="module")
def streams():
    cdna3 = load_arch("cdna3")
    full = _run("stream", cdna3, op="copy", n=1 << 20)
    half = _run("stream", arch_overrides(cdna3, {"hbm.channels": 64}), op="copy", n=1 << 20)
    return full, half


def _lines(text: str, start: str) -> list:
    return [line for line in text.splitlines() if line.lstrip("* ").startswith(start)]


def test_tile_change_rows_and_settings(gemms):
    big, small = gemms
    cmp = compare(big.to_dict(), small)
    time = cmp.row("time")
    assert (time.a, time.b) == (big.metrics["Kernel_Time_us"], small.metrics["Kernel_Time_us"])
    assert time.delta == pytest.approx(time.b - time.a) and time.ratio == pytest.approx(time.b / time.a)
    assert time.unit == "us" and time.better == "lower"
    assert time.winner == ("a" if big.cycles < small.cycles else "b")
    flops = cmp.row("FLOP/s")
    assert flops.better == "higher" and flops.winner == time.winner  # the same FLOPs in less time
    assert cmp.row("cycles").a == big.cycles
    assert cmp.row("wave-instructions").a == big.counters["GPUSIM_INSTS_TOTAL"]
    assert cmp.row("occupancy allowed").a == big.occupancy.waves_per_simd
    assert {w: (a, b) for w, a, b in cmp.settings}["kernel"] == (big.kernel, small.kernel)
    assert "launch" in [w for w, _, _ in cmp.settings]
    assert "arch" not in [w for w, _, _ in cmp.settings] and cmp.arch_diff == ()


def test_tile_change_text_marks_the_better_value_and_the_changes(gemms):
    big, small = gemms
    cmp = compare(big, small)
    text = format_compare(cmp, color=False)
    assert f"kernel: {big.kernel} vs {small.kernel}" in text
    assert "same: " in text and "arch cdna3" in text
    (line,) = _lines(text, "time")
    assert line.startswith("* ")  # the two tiles differ in time by more than 5%
    row = cmp.row("time")
    better = format_value(row.a if row.winner == "a" else row.b, "us")
    assert f"{better} <" in line and line.count("<") == 1


def test_arch_override_names_the_key_that_differs(streams):
    full, half = streams
    cmp = compare(full, half)
    assert cmp.arch_diff == (("hbm.channels", 128, 64),)
    assert ("arch", "cdna3", "cdna3") in cmp.settings
    text = format_compare(cmp, color=False)
    assert "arch: cdna3 vs cdna3 (hbm.channels 128 -> 64)" in text.splitlines()
    assert cmp.row("time").winner == "a" and cmp.row("time").changed
    assert cmp.row("HBM bandwidth").winner == "a" and cmp.row("HBM bandwidth").changed
    assert not cmp.row("wave-instructions").changed  # the same kernel runs the same instructions
    assert "kernel" not in [w for w, _, _ in cmp.settings]


def test_color_highlights_with_ansi_and_plain_text_with_marks(streams):
    full, half = streams
    cmp = compare(full, half)
    colored, plain = format_compare(cmp, color=True), format_compare(cmp, color=False)
    assert "\x1b[" in colored and "\x1b[" not in plain
    assert ANSI.sub("", colored).count("*") == 0
    (time_line,) = _lines(ANSI.sub("", colored), "time")
    assert "\x1b[32m" in _lines(colored, "\x1b[1mtime")[0]  # the better time in green
    assert time_line.split()[0] == "time"
    changed = {r.name for r in cmp.rows if r.changed}
    starred = {line[2:].split("  ")[0].strip() for line in plain.splitlines() if line.startswith("* ")}
    assert starred == changed and "time" in changed


def test_identical_runs_highlight_nothing(streams, tmp_path):
    full, _ = streams
    path = tmp_path / "a.json"
    path.write_text(json.dumps(full.to_dict()))
    cmp = compare(str(path), full)
    assert cmp.a.label == str(path)
    assert not any(r.changed for r in cmp.rows) and not any(r.winner for r in cmp.rows)
    assert cmp.settings == () and cmp.arch_diff == ()
    plain = format_compare(cmp, color=False)
    *table, footer = plain.splitlines()
    assert not any(line.startswith("*") or "<" in line for line in table)
    assert footer.startswith(f"0 of {len(cmp.rows)} figures changed")
    assert "\x1b[" not in format_compare(cmp, color=True)


def test_arch_differences_lists_nested_keys_and_keys_one_side_lacks():
    a = {"name": "x", "cu": {"lds": {"size_bytes": 65536}, "simds": 4}, "hbm": {"channels": 128}}
    b = {"name": "y", "cu": {"lds": {"size_bytes": 131072}, "simds": 4}, "extra": 1}
    assert arch_differences(a, b) == (("cu.lds.size_bytes", 65536, 131072), ("extra", "(unset)", 1),
                                      ("hbm.channels", 128, "(unset)"))
