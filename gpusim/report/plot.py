"""Plots of a sweep's results: a metric against one varied key (lines), or over two (a heat map).

``plot_results`` reads a results folder of ``gpusim sweep`` and draws with matplotlib (the
Agg backend: no display needed). Only rows with status ``ok`` are drawn. Every varied key
that is neither an axis nor the hue must take a single value among the rows kept (fix it
with ``where``): a plot never averages points silently.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from gpusim.errors import GpusimError, did_you_mean


class PlotError(GpusimError):
    """PlotError is a plot request the results cannot answer (exit code 2)."""


def plot_results(results, *, x: str, y: str, hue: Optional[str] = None, z: Optional[str] = None,
                 kind: Optional[str] = None, where: Optional[dict] = None, logx: bool = False,
                 output=None) -> Path:
    """plot_results draws ``y`` against ``x`` (per ``hue``), or ``z`` over ``x`` by ``y``; returns the PNG path.

    ``where`` maps varied keys to the value rows must have (text compared with the value's text).
    Raises PlotError naming the unknown key or the varied keys left free.
    """
    from gpusim.sweep.results import read_results
    folder = Path(results)
    rows = read_results(folder)
    meta = _meta(folder)
    varied = meta.get("varied") or _guess_varied(rows)
    kind = kind or ("heatmap" if z else "line")
    if kind == "heatmap" and not z:
        raise PlotError("a heat map needs --z METRIC (the value in each cell)")
    if kind == "line" and z:
        raise PlotError("--z is for heat maps; a line plot draws --y against --x")
    columns = set(rows[0]) if rows else set()
    axes = [x, y] if kind == "heatmap" else [x]
    for key in axes + ([hue] if hue else []) + list(where or {}):
        if key not in varied:
            raise PlotError(f"'{key}' is not a varied key of these results", hint=did_you_mean(key, varied)
                            or f"varied: {', '.join(varied)}")
    metric = z if kind == "heatmap" else y
    if metric not in columns:
        raise PlotError(f"'{metric}' is not a column of these results",
                        hint=did_you_mean(metric, sorted(columns)) or f"columns: {', '.join(sorted(columns))}")
    kept = [r for r in rows if r.get("status") == "ok" and r.get(metric) is not None
            and all(str(r.get(k)) == str(v) for k, v in (where or {}).items())]
    if not kept:
        raise PlotError("no rows with status ok match" + (f" {where}" if where else ""))
    free = [k for k in varied if k not in axes and k != hue and k not in (where or {})
            and len({str(r.get(k)) for r in kept}) > 1]
    if free:
        values = {k: [str(v) for v in _order(r.get(k) for r in kept)] for k in free}
        shown = "; ".join(f"{k} takes {', '.join(v)}" for k, v in values.items())
        raise PlotError(f"{shown}: fix it with --where {free[0]}={values[free[0]][0]} or plot it as --hue")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    title = meta.get("name", folder.name)
    if kind == "heatmap":
        _heatmap(fig, ax, kept, x, y, z)
    else:
        _lines(ax, kept, x, y, hue, logx)
    fixed = ", ".join(f"{k}={v}" for k, v in (where or {}).items())
    ax.set_title(title + (f"\n{fixed}" if fixed else ""), fontsize="medium")
    fig.tight_layout()
    out = Path(output) if output else (folder if folder.is_dir() else folder.parent) / \
        f"{metric}_vs_{x}{'_by_' + (hue or y) if (hue or kind == 'heatmap') else ''}.png".replace("/", "_")
    fig.savefig(out)
    plt.close(fig)
    return out


def _meta(folder: Path) -> dict:
    path = (folder if folder.is_dir() else folder.parent) / "study.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _guess_varied(rows: list) -> list:
    return [k for k in (rows[0] if rows else {}) if k.startswith(("arch.", "gen.", "system.", "params."))
            or k == "workload"]


def _order(values) -> list:
    """_order sorts numbers numerically and everything else by its text (tiles: by their product)."""
    def key(v):
        if isinstance(v, (int, float)):
            return (0, v, "")
        text = str(v)
        parts = text.split("x")
        if all(p.isdigit() for p in parts):
            size = 1
            for p in parts:
                size *= int(p)
            return (0, size, text)
        return (1, 0, text)
    return sorted(set(values), key=key)


def _numeric(values) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _lines(ax, rows, x, y, hue, logx) -> None:
    xs = _order(r[x] for r in rows)
    positions = xs if _numeric(xs) else list(range(len(xs)))
    where = dict(zip(xs, positions))
    groups = _order(r[hue] for r in rows) if hue else [None]
    for g in groups:
        mine = {r[x]: r[y] for r in rows if hue is None or r[hue] == g}
        pts = [(where[v], mine[v]) for v in xs if v in mine]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=None if g is None else str(g))
    if not _numeric(xs):
        ax.set_xticks(positions, [str(v) for v in xs])
    elif logx:
        ax.set_xscale("log", base=2)
    if len(xs) <= 12 and _numeric(xs):
        ax.set_xticks(positions, [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.grid(True, alpha=0.3)
    if hue:
        ax.legend(title=hue, fontsize="small")


def _heatmap(fig, ax, rows, x, y, z) -> None:
    import numpy as np
    xs, ys = _order(r[x] for r in rows), _order(r[y] for r in rows)
    grid = np.full((len(ys), len(xs)), np.nan)
    for r in rows:
        grid[ys.index(r[y]), xs.index(r[x])] = r[z]
    image = ax.imshow(grid, aspect="auto", origin="lower", cmap="viridis")
    fig.colorbar(image, ax=ax, label=z)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    finite = grid[np.isfinite(grid)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.3g}", ha="center", va="center", fontsize="small",
                        color="black" if grid[i, j] > middle else "white")
