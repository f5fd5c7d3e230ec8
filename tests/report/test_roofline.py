"""The roofline: ceilings from the architecture file, kernels placed under them, the PNG and its labels.

Kernels are small versions of the shipped workloads (gpusim.templates): a
32M-element f32 stream copy and a 16M-element triad (HBM-bound) and a
4096x2048x1024 f16 GEMM. Measured when these thresholds were set: copy at
86% of the HBM ceiling, triad at 90% of its HBM roof (AI 1/6), the GEMM at
42% of the f16 MFMA peak with an HBM intensity of 372 FLOP/B (the HBM ridge
is 245). With the HBM DRAM model and the XCDs' fabric ports the copy is at
72.3% and the triad at 66%: the end-of-kernel write-back of what a stream
wrote crosses each XCD's port after its last wave (a 4M-element copy, the
size used before, lands at 56%). That release writes the L2s' last dirty
lines to the memory-side MALL (l2.write_back_to_mall), not to HBM, so the
HBM point counts a stream's reads and the writes its L2s evicted.
"""
import re
import json

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.report.roofline import (
    RooflineError, binding_point, bound, ceilings, draw_roofline, kernel_points, pct_of_roof, plot_roofline,
    roofline_summary,
)
from gpusim.templates.registry import generate

CDNA3 = load_arch("cdna3")
CLOCK = 2100e6
CUS = 304


@pytest.fixture(scope="module")
def runs():
    kernels = {
        "copy": generate("stream", "cdna3", op="copy", n=1 << 25),
        "triad": generate("stream", "cdna3", op="triad", n=1 << 24),
        "gemm": generate("gemm", "cdna3", m=4096, n=2048, k=1024),
    }
    return {name: gpusim.simulate(gpusim.kernel_from_text(text, name), CDNA3, timing=True, outputs=False)
            for name, text in kernels.items()}


@pytest.fixture(scope="module")
def points(runs):
    return {name: kernel_points(r, CDNA3) for name, r in runs.items()}


def test_cdna3_ceilings_are_the_yaml_peaks_over_the_whole_gpu():
    got = {c.name: (c.kind, c.value, c.unit) for c in ceilings(CDNA3)}
    expected = {
        "HBM": 128 * 32 * 1300e6,            # channels x bytes per memory clock x memory clock
        "MALL": 128 * 64 * CLOCK,            # slices x bytes per clock
        "L2": 8 * 16 * 128 * CLOCK,          # XCDs x channels x bytes per clock
        "LDS": 128 * CUS * CLOCK,
        "MFMA fp8": 4096 * CUS * CLOCK, "MFMA f16": 2048 * CUS * CLOCK, "MFMA bf16": 2048 * CUS * CLOCK,
        "MFMA xf32": 1024 * CUS * CLOCK, "MFMA f32": 256 * CUS * CLOCK, "MFMA f64": 256 * CUS * CLOCK,
        "VALU f32": 256 * CUS * CLOCK,       # packed FP32
        "VALU f64": 128 * CUS * CLOCK,
    }
    assert list(got) == list(expected)
    for name, value in expected.items():
        assert got[name][1] == pytest.approx(value), name
    assert got["HBM"][1] == pytest.approx(5.3248e12)
    assert all(got[n][0] == "bandwidth" and got[n][2] == "B/s" for n in ("HBM", "MALL", "L2", "LDS"))
    assert all(kind == "compute" and unit == "FLOP/s" for n, (kind, _, unit) in got.items() if " " in n)


def test_cdna2_has_no_mall_and_no_tf32_ceiling():
    names = [c.name for c in ceilings(load_arch("cdna2"))]
    assert names[:3] == ["HBM", "L2", "LDS"]
    assert "MALL" not in names and "MFMA xf32" not in names and "MFMA fp8" not in names


def released_bytes(run):
    """released_bytes is what the end-of-kernel release wrote back to the MALL instead of HBM."""
    return run.counters["GPUSIM_MALL_WRREQ_sum"] * CDNA3.mall.line_bytes


def test_stream_copy_sits_on_the_hbm_roof(runs, points):
    copy = points["copy"]
    assert [p.level for p in copy] == ["HBM", "MALL", "L2"]  # no LDS bytes, no LDS point
    assert all(p.flops == 0 for p in copy)
    hbm = binding_point(copy, CDNA3)
    assert hbm.level == "HBM" and bound(hbm, CDNA3) == "bandwidth"
    # read once from HBM, and written once: to HBM as the L2s evict it, its last dirty lines to the MALL
    assert 0 < released_bytes(runs["copy"]) <= 8 * CDNA3.l2.size_bytes
    assert hbm.nbytes + released_bytes(runs["copy"]) >= 2 * 4 * (1 << 25)
    assert 70 <= pct_of_roof(hbm, CDNA3) <= 100


def test_stream_triad_sits_near_the_hbm_diagonal(runs, points):
    hbm = next(p for p in points["triad"] if p.level == "HBM")
    l2 = next(p for p in points["triad"] if p.level == "L2")
    assert l2.intensity == pytest.approx(2 / 12, rel=0.01)  # one FMA per element over 3 x 4 bytes
    # HBM misses the writes the release left in the MALL: one FMA over the 3 x 4 bytes less those
    n = 1 << 24
    assert hbm.intensity == pytest.approx(2 * n / (12 * n - released_bytes(runs["triad"])), rel=0.01)
    assert binding_point(points["triad"], CDNA3) == hbm
    assert hbm.peak_name == "VALU f32"
    # the HBM DRAM model (refresh, row conflicts between the three streams, read/write turnarounds) and the
    # fabric ports' end-of-kernel write-back keep a 192 MB triad at about 66% of the 5.3 TB/s roof (MI300X
    # measures ~75%: cdna-facts.md)
    assert 0.6 * hbm.intensity * CDNA3.hbm_bytes_per_s <= hbm.flops_per_s <= hbm.intensity * CDNA3.hbm_bytes_per_s


def test_gemm_sits_near_the_f16_mfma_ceiling_right_of_the_hbm_ridge(points):
    gemm = points["gemm"]
    assert [p.level for p in gemm] == ["HBM", "MALL", "L2", "LDS"]
    f16 = 2048 * CUS * CLOCK
    hbm = gemm[0]
    assert hbm.peak_name == "MFMA f16"
    assert hbm.flops == 2 * 4096 * 2048 * 1024
    # 35% of the f16 peak before the DRAM model; its C write-back through DRAM and the first touches' page
    # walks put this small GEMM (2 x 4096 x 2048 x 1024) just under that
    assert 0.3 * f16 <= hbm.flops_per_s <= f16
    assert hbm.intensity > f16 / CDNA3.hbm_bytes_per_s and bound(hbm, CDNA3) == "compute"
    assert hbm.intensity > 1000 * points["triad"][0].intensity
    assert pct_of_roof(binding_point(gemm, CDNA3), CDNA3) >= 30


def test_summary_says_where_each_kernel_is_bound(points):
    lines = roofline_summary(points, CDNA3)
    assert len(lines) == 3
    copy, triad, gemm = lines
    assert copy.startswith("copy: 0 TFLOP/s") and "of the HBM ceiling at that intensity (HBM-bandwidth-bound)" in copy
    assert re.search(r"AI 0\.1[6-9]\d FLOP/B at HBM", triad) and "L2 0.167" in triad and "VALU f32" in triad
    assert gemm.startswith("gemm: ") and "MFMA f16" in gemm and "% of its peak" in gemm


def test_png_draws_every_ceiling_and_every_kernel(points, tmp_path):
    out = plot_roofline(points, CDNA3, tmp_path / "roof.png")
    assert out == tmp_path / "roof.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = draw_roofline(points, CDNA3)
    ax = fig.axes[0]
    labels = {t.get_text() for t in ax.texts}
    assert labels == {"HBM 5.32 TB/s", "MALL 17.2 TB/s", "L2 34.4 TB/s", "LDS 81.7 TB/s",
                      "MFMA fp8 2.61 PFLOP/s", "MFMA f16/bf16 1.31 PFLOP/s", "MFMA xf32 654 TFLOP/s",
                      "MFMA f32/f64, VALU f32 163 TFLOP/s", "VALU f64 81.7 TFLOP/s"}
    assert "cdna3" in ax.get_title()
    assert ax.get_xscale() == ax.get_yscale() == "log"
    marked = {(float(line.get_xdata()[0]), float(line.get_ydata()[0])) for line in ax.lines
              if line.get_marker() not in (None, "None", "")}
    for name in ("triad", "gemm"):
        for p in points[name]:
            assert (p.intensity, p.flops_per_s) in marked
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("copy (no FLOPs") and legend[1:3] == ["triad", "gemm"]
    assert {"AI at HBM", "AI at MALL", "AI at L2", "AI at LDS"} <= set(legend)


def test_cdna2_plot_has_no_mall_line(tmp_path):
    labels = [t.get_text() for t in draw_roofline({}, load_arch("cdna2")).axes[0].texts]
    assert "HBM 1.64 TB/s" in labels and not any(t.startswith("MALL") for t in labels)


def test_a_saved_run_gives_the_same_points(runs, points, tmp_path):
    path = tmp_path / "gemm.json"
    path.write_text(json.dumps(runs["gemm"].to_dict()))
    assert kernel_points(path) == points["gemm"]
    assert kernel_points(json.loads(path.read_text()), CDNA3) == points["gemm"]
    by_name = {k: v for k, v in runs["gemm"].to_dict().items() if k != "resolved_arch"}
    assert kernel_points(by_name) == points["gemm"]


def test_runs_that_cannot_be_placed_say_why(runs):
    with pytest.raises(RooflineError, match="simulated on 'cdna3', not on this 'cdna2'"):
        kernel_points(runs["copy"], "cdna2")
    untimed = runs["copy"].to_dict()
    del untimed["counters"]["GRBM_GUI_ACTIVE"]
    with pytest.raises(RooflineError, match="timed run"):
        kernel_points(untimed)


def test_cli_roofline_of_a_kernel_and_a_saved_run(tmp_path, cli):
    (tmp_path / "triad.s").write_text(generate("stream", "cdna3", op="triad", n=1 << 20))
    assert cli("run", "triad.s", "--json", "triad.json").returncode == 0
    proc = cli("roofline", "triad.s", "triad.json", "-o", "roof.png")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("triad: ") and "HBM-bandwidth-bound" in lines[0]
    assert lines[1].replace("triad.json:", "", 1) == lines[0].replace("triad:", "", 1)   # the saved run lands alike
    assert (tmp_path / "roof.png").read_bytes()[:4] == b"\x89PNG"
    proc = cli("roofline", "triad.json", "--arch", "cdna2")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
