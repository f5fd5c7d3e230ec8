"""Roofline: an architecture's bandwidth and compute ceilings, and kernels placed under them.

As rocprof-compute's hierarchical roofline, a kernel is one achieved FLOP/s
placed at several arithmetic intensities, one per memory level: its FLOPs
divided by the bytes that level moved (HBM, MALL, L2, LDS). Every figure
comes from gpusim.report.metrics (the FLOP counts, the bytes per level, the
peaks), so the plot, the summary and ``gpusim run`` agree.

The roof of a point is ``min(P, AI x B)``: ``P`` the compute ceiling of the
unit and type that did most of the kernel's FLOPs (metrics.dominant_peak),
``AI`` the point's intensity and ``B`` its level's bandwidth ceiling. A
kernel's *binding level* is the one with the lowest roof, and the share of
that roof it achieved says how close it runs to what the architecture allows
at its intensities.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Mapping, NamedTuple, Optional, Union

from gpusim.errors import GpusimError
from gpusim.report.metrics import (
    METRIC_BY_NAME, compute_peak, dominant_peak, level_bytes, level_peak_bytes_per_s,
)
from gpusim.report.record import read_run
from gpusim.report.units import si

LEVELS = ("HBM", "MALL", "L2", "LDS")
_MARKERS = {"HBM": "o", "MALL": "s", "L2": "^", "LDS": "D"}
# MFMA input types drawn as ceilings, as the arch.peaks field and the counter suffix name them
# (INT8 MFMA does integer operations, not FLOPs, so it has no FLOP ceiling)
_MFMA_TYPES = (("fp8", "F8"), ("f16", "F16"), ("bf16", "BF16"), ("xf32", "XF32"), ("f32", "F32"), ("f64", "F64"))
_VALU_TYPES = (("f32", "F32"), ("f64", "F64"))


class RooflineError(GpusimError):
    """RooflineError is a run that cannot be placed on a roofline (no timing, or another architecture)."""


class Ceiling(NamedTuple):
    """Ceiling is one roof line: a memory level's bandwidth (B/s) or a unit and type's compute peak (FLOP/s)."""

    name: str   # "HBM", "MALL", "L2", "LDS", "MFMA f16", "VALU f64", ...
    kind: str   # "bandwidth" or "compute"
    value: float
    unit: str   # "B/s" or "FLOP/s"

    @property
    def label(self) -> str:
        """label is what the plot writes on the line: name and value, 'HBM 5.32 TB/s'."""
        return f"{self.name} {si(self.value, self.unit)}"


class Point(NamedTuple):
    """Point is a kernel's achieved FLOPs over the bytes one memory level moved, in the kernel's time.

    ``peak_name`` is the compute ceiling (a Ceiling name) of the unit and type
    that did most of its FLOPs, None for a kernel without FLOPs.
    """

    level: str
    flops: float
    nbytes: float
    seconds: float
    peak_name: Optional[str]

    @property
    def intensity(self) -> float:
        """intensity is the arithmetic intensity in FLOP/byte."""
        return self.flops / self.nbytes

    @property
    def flops_per_s(self) -> float:
        """flops_per_s is the kernel's achieved FLOP/s (the same at every level)."""
        return self.flops / self.seconds

    @property
    def bytes_per_s(self) -> float:
        """bytes_per_s is the level's achieved bandwidth."""
        return self.nbytes / self.seconds


def _peak_name(unit: str, dtype: str) -> str:
    """_peak_name is the Ceiling name of a metrics.Peak: MFMA by input type; VALU FP16/FP32 at the FP32 rate."""
    if unit == "MFMA":
        return "MFMA " + dict((t, n) for n, t in _MFMA_TYPES).get(dtype, dtype.lower())
    return "VALU f64" if dtype == "F64" else "VALU f32"


def ceilings(arch) -> list:
    """ceilings returns the architecture's roof lines, bandwidths first (HBM, MALL if present, L2, LDS), then
    compute peaks from the highest MFMA type down (fp8, f16, bf16, xf32, f32, f64, each if the arch has it)
    and VALU f32 (the packed-FP32 rate, v_pk_fma_f32) and f64.

    Bandwidths are over the whole GPU (metrics.level_peak_bytes_per_s); compute peaks are arch.peaks x CUs x
    shader clock (metrics.compute_peak).
    """
    from gpusim.arch import load_arch
    arch = load_arch(arch)
    out = [Ceiling(level, "bandwidth", bw, "B/s") for level, bw in level_peak_bytes_per_s(arch).items()]
    matrix = arch.peaks.matrix_flops_per_cu_per_clk
    for field, dtype in _MFMA_TYPES:
        if getattr(matrix, field) > 0:
            out.append(Ceiling(f"MFMA {field}", "compute", compute_peak(arch, "MFMA", dtype), "FLOP/s"))
    for field, dtype in _VALU_TYPES:
        value = compute_peak(arch, "VALU", dtype)
        if value > 0:
            out.append(Ceiling(f"VALU {field}", "compute", value, "FLOP/s"))
    return out


def _ceiling_values(arch) -> dict:
    return {c.name: c.value for c in ceilings(arch)}


def kernel_points(run, arch=None) -> list:
    """kernel_points places one run on the roofline: one Point per memory level that moved bytes, HBM first.

    ``run`` is a timed gpusim.Result, the dict of ``Result.to_dict()`` / ``gpusim run --json``, or the path
    of such a JSON file (its architecture is rebuilt from ``resolved_arch``). ``arch``, if given (an Arch or
    its name), must be the architecture the run was simulated on: the kernel time in seconds depends on its
    clock. FLOPs are metrics' Total_FLOPs (VALU and floating-point MFMA), time its Kernel_Time_us, bytes
    metrics.level_bytes. Raises RooflineError for a run without timing or made on another architecture.
    """
    from gpusim.arch import load_arch
    record = read_run(run)
    counters, run_on, name = record.counters, record.arch, record.kernel
    wanted = None if arch is None else load_arch(arch)
    if wanted is not None and wanted != run_on:
        raise RooflineError(f"{name} was simulated on '{run_on.name}', not on this '{wanted.name}'",
                            hint="plot it on its own architecture or simulate it again with --arch")
    if not counters.get("GRBM_GUI_ACTIVE"):
        raise RooflineError(f"{name} has no kernel time: a roofline needs a timed run (not --no-timing)")
    seconds = METRIC_BY_NAME["Kernel_Time_us"].formula(counters, run_on) * 1e-6
    flops = float(METRIC_BY_NAME["Total_FLOPs"].formula(counters, run_on))
    peak = dominant_peak(counters, run_on)
    peak_name = None if peak is None else _peak_name(peak.unit, peak.dtype)
    moved = level_bytes(counters, run_on)
    return [Point(level, flops, float(moved[level]), seconds, peak_name)
            for level in LEVELS if moved.get(level)]


def roof(point: Point, arch) -> float:
    """roof is the FLOP/s the architecture allows at the point's intensity: min(P, AI x B).

    ``P`` is the compute ceiling of the kernel's dominant unit and type (none for a kernel without FLOPs),
    ``AI`` the point's intensity and ``B`` the bandwidth ceiling of its level.
    """
    values = _ceiling_values(arch)
    by_bandwidth = point.intensity * values[point.level]
    return by_bandwidth if point.peak_name is None else min(values[point.peak_name], by_bandwidth)


def bound(point: Point, arch) -> str:
    """bound says which side of its level's ridge the point is on: "bandwidth" or "compute"."""
    values = _ceiling_values(arch)
    if point.peak_name is None:
        return "bandwidth"
    return "bandwidth" if point.intensity * values[point.level] < values[point.peak_name] else "compute"


def pct_of_roof(point: Point, arch) -> float:
    """pct_of_roof is the percent of the attainable roof at its intensity: 100 x FLOP/s / roof(point).

    Bandwidth-bound, that is 100 x the level's achieved bytes/s over its bandwidth ceiling, which is also
    what it is for a kernel without FLOPs (the limit as the intensity goes to zero).
    """
    values = _ceiling_values(arch)
    if bound(point, arch) == "bandwidth":
        return 100.0 * point.bytes_per_s / values[point.level]
    return 100.0 * point.flops_per_s / values[point.peak_name]


def binding_point(points: list, arch) -> Point:
    """binding_point is the point of the level with the lowest roof, the level that limits the kernel.

    With the same FLOP/s at every level, the lowest roof is the highest pct_of_roof (which also ranks
    kernels without FLOPs, by bandwidth use).
    """
    return max(points, key=lambda p: pct_of_roof(p, arch))


def _num(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def _pct(value: float) -> str:
    return f"{value:.0f}" if value >= 1 else f"{value:.2g}"


def roofline_summary(points_by_kernel: Mapping, arch) -> list:
    """roofline_summary returns one line per kernel: its FLOP/s, its binding level and intensity there, the
    percent of the roof at that intensity (see pct_of_roof) and what bounds it, and its intensity per level."""
    lines = []
    values = _ceiling_values(arch)
    for label, points in points_by_kernel.items():
        if not points:
            lines.append(f"{label}: moved no bytes at any memory level; nothing to place")
            continue
        p = binding_point(points, arch)
        side = f"{p.level}-bandwidth-bound" if bound(p, arch) == "bandwidth" else f"{p.peak_name}-bound"
        of = f"the {p.level} ceiling" if bound(p, arch) == "bandwidth" else f"the {p.peak_name} ceiling"
        if p.peak_name is None:
            unit = " (no FLOPs)"
            per_level = "bandwidth per level: " + ", ".join(f"{q.level} {si(q.bytes_per_s, 'B/s')}"
                                                           for q in points)
        else:
            unit = f" ({p.peak_name}, {_pct(100.0 * p.flops_per_s / values[p.peak_name])}% of its peak)"
            per_level = "AI per level (FLOP/B): " + ", ".join(f"{q.level} {_num(q.intensity)}" for q in points)
        lines.append(f"{label}: {p.flops_per_s / 1e12:.3g} TFLOP/s{unit}, AI {_num(p.intensity)} FLOP/B at "
                     f"{p.level}: {_pct(pct_of_roof(p, arch))}% of {of} at that intensity ({side}); {per_level}")
    return lines


def _merged(ceils: list) -> list:
    """_merged joins compute ceilings of equal value into one line, 'MFMA f32/f64, VALU f32', so none hide."""
    groups: dict = {}
    for c in ceils:
        groups.setdefault(c.value, []).append(c.name)
    out = []
    for value, names in groups.items():
        parts: dict = {}
        for n in names:
            unit, dtype = n.split(" ", 1)
            parts.setdefault(unit, []).append(dtype)
        out.append(Ceiling(", ".join(f"{u} {'/'.join(d)}" for u, d in parts.items()), "compute", value, "FLOP/s"))
    return out


def draw_roofline(points_by_kernel: Mapping, arch):
    """draw_roofline draws the roofline figure (matplotlib, Agg) and returns it; plot_roofline saves it.

    Bandwidth ceilings are diagonals up to the highest compute ceiling, compute ceilings horizontal from
    where the highest bandwidth meets them (equal peaks share one line), each labelled with name and value
    (the Axes' texts, placed clear of the points and the legend). Every kernel gets a colour and every level
    a marker; a kernel without FLOPs cannot sit on log axes and is listed in the legend with its bandwidth
    use instead.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, LogLocator

    from gpusim.arch import load_arch
    arch = load_arch(arch)
    ceils = ceilings(arch)
    bws = [c for c in ceils if c.kind == "bandwidth"]
    computes = sorted(_merged([c for c in ceils if c.kind == "compute"]), key=lambda c: -c.value)
    top = computes[0].value
    fastest = max(c.value for c in bws)
    drawn = [p for pts in points_by_kernel.values() for p in pts if p.flops > 0]
    x_lo = min([0.01] + [p.intensity / 3 for p in drawn])
    x_hi = max([4 * top / bws[0].value] + [p.intensity * 3 for p in drawn])
    y_lo = min([bws[0].value * x_lo] + [p.flops_per_s / 3 for p in drawn])
    y_hi = 2.5 * top
    x_lo, x_hi = 10 ** math.floor(math.log10(x_lo)), 10 ** math.ceil(math.log10(x_hi))
    y_lo = 10 ** math.floor(math.log10(y_lo))

    fig, ax = plt.subplots(figsize=(9, 6), dpi=120)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_xlabel("Arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("Performance (FLOP/s)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_major_locator(LogLocator(base=10))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: si(v, "FLOP/s")))
    ax.grid(True, which="major", alpha=0.25)
    ax.grid(True, which="minor", alpha=0.08)
    ax.set_title(f"Roofline: {arch.name}\n{arch.description}", fontsize="medium")
    fig.tight_layout()

    for c in bws:
        ax.plot([x_lo, top / c.value], [c.value * x_lo, top], color="0.25", lw=1.3, zorder=2)
    for c in computes:
        ax.plot([c.value / fastest, x_hi], [c.value, c.value], color="0.25", lw=1.3, ls="-", zorder=2)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    handles = []
    for i, (label, points) in enumerate(points_by_kernel.items()):
        colour = colours[i % len(colours)]
        with_flops = [p for p in points if p.flops > 0]
        if with_flops:
            xs = [p.intensity for p in with_flops]
            ax.plot([min(xs), max(xs)], [with_flops[0].flops_per_s] * 2, color=colour, lw=0.8, ls=":", zorder=4)
            for p in with_flops:  # HBM biggest and lowest, so a level at the same intensity does not hide it
                k = LEVELS.index(p.level)
                ax.plot(p.intensity, p.flops_per_s, marker=_MARKERS[p.level], color=colour, ms=9 - k, ls="none",
                        markeredgecolor="black", markeredgewidth=0.6, zorder=5 + k)
            text = label
        elif points:
            p = binding_point(points, arch)
            text = f"{label} (no FLOPs, not drawn: {p.level} at {_pct(pct_of_roof(p, arch))}% of its ceiling)"
        else:
            text = f"{label} (no FLOPs and no bytes)"
        handles.append(Line2D([], [], color=colour, lw=5, label=text))
    used = [lv for lv in LEVELS if any(p.level == lv and p.flops > 0 for pts in points_by_kernel.values()
                                      for p in pts)]
    handles += [Line2D([], [], marker=_MARKERS[lv], color="0.5", markeredgecolor="black", ls="none", ms=7,
                       label=f"AI at {lv}") for lv in used]
    legend = ax.legend(handles=handles, loc="lower right", fontsize=8, framealpha=0.9) if handles else None
    _label_ceilings(fig, ax, bws, computes, drawn, legend, fastest)
    return fig


def _label_ceilings(fig, ax, bws: list, computes: list, drawn: list, legend, fastest: float) -> None:
    """_label_ceilings writes each ceiling's name and value along its line, at the first of a few places
    that covers no kernel point, no other label and not the legend. Runs once the layout is final: a
    diagonal's angle on screen depends on the axes' shape."""
    renderer = fig.canvas.get_renderer()
    to_screen = ax.transData.transform
    (x_lo, x_hi), (y_lo, _) = ax.get_xlim(), ax.get_ylim()
    taken = [to_screen((p.intensity, p.flops_per_s)) for p in drawn]
    boxes = [legend.get_window_extent(renderer)] if legend is not None else []

    def place(candidates, **style):
        text = None
        for x, y, kw in candidates:
            if text is not None:
                text.remove()
            text = ax.text(x, y, **style, **kw)
            box = text.get_window_extent(renderer).expanded(1.05, 1.15)
            if not any(box.contains(px, py) for px, py in taken) and not any(box.overlaps(b) for b in boxes):
                break
        return text.get_window_extent(renderer)

    # parallel diagonals' labels are apart on screen though their (rotated) boxes overlap: they avoid
    # only the points and the legend, and the horizontal labels avoid them all
    diagonal = []
    for c in bws:
        x0 = max(x_lo * 1.6, y_lo * 1.6 / c.value)  # a diagonal may enter through the bottom edge
        (a0, b0), (a1, b1) = to_screen([(x0, c.value * x0), (x0 * 10, c.value * x0 * 10)])
        angle = math.degrees(math.atan2(b1 - b0, a1 - a0))
        spots = [x0 * f for f in (1, 3, 10, 30)]
        diagonal.append(place([(x, c.value * x * 1.12, dict(ha="left", va="bottom")) for x in spots]
                              + [(x, c.value * x / 1.12, dict(ha="left", va="top")) for x in spots],
                              s=c.label, rotation=angle, rotation_mode="anchor", fontsize=8, color="0.1",
                              zorder=3))
    boxes += diagonal
    for c in computes:
        start = c.value / fastest * 1.15
        boxes.append(place([(x_hi / 1.15, c.value * 1.06, dict(ha="right", va="bottom")),
                            (x_hi / 1.15, c.value / 1.06, dict(ha="right", va="top")),
                            (start, c.value * 1.06, dict(ha="left", va="bottom")),
                            (start, c.value / 1.06, dict(ha="left", va="top"))],
                           s=c.label, fontsize=8, color="0.1", zorder=3))


def plot_roofline(points_by_kernel: Mapping, arch, output: Union[str, Path]) -> Path:
    """plot_roofline draws ``{label: kernel_points(...)}`` on ``arch``'s ceilings (draw_roofline) into the PNG
    ``output``; returns its path. Writes only that file."""
    import matplotlib.pyplot as plt
    fig = draw_roofline(points_by_kernel, arch)
    out = Path(output)
    fig.savefig(out)
    plt.close(fig)
    return out
