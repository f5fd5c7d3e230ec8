"""Compare two runs side by side: what differs between their settings and how each figure moved.

``compare(a, b)`` takes two Results, ``to_dict()`` dicts or JSON files of ``gpusim run --json``
(gpusim.report.record.read_run) and returns a :class:`Comparison`: one :class:`Row` per figure in
``ROWS`` (time, cycles, FLOP/s, bandwidths, utilisations, hit rates, stall shares, occupancy) and
the settings that differ (kernel, launch, architecture name and hash, and every resolved
architecture key whose value differs). ``format_compare`` prints it as a table.

Each row states which way is better (``ROWS``: lower time, higher FLOP/s, lower stall shares ...;
utilisations and shares of peak count higher as better, the same work in fewer cycles, though
across architectures each run is held to its own peak; rows without a better direction, such as
the wave-cycles spent issuing, say so). A figure both runs lack or have at 0 is left out. A row
*changed* when b differs from a by more than ``CHANGE`` (5%) of a; a percentage row must also
move by at least ``MIN_POINTS`` percentage points, so that a share going from 0.02% to 0.04%
is not news.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Union

from gpusim.report.record import RunRecord, read_run
from gpusim.report.units import si

CHANGE = 0.05      # relative change that makes a row "changed"
MIN_POINTS = 1.0   # and, for a percentage, the least change in percentage points

# (label, source, unit, better): source is a metric name, "counter:NAME" or "occupancy:FIELD";
# better is "lower", "higher" or "" (no better direction)
ROWS = (
    ("time", "Kernel_Time_us", "us", "lower"),
    ("cycles", "Kernel_Cycles", "cycles", "lower"),
    ("FLOP/s", "GFLOPs", "GFLOP/s", "higher"),
    ("FLOP/s % of peak", "FLOPs_Pct_of_Peak", "%", "higher"),
    ("wave-instructions", "counter:GPUSIM_INSTS_TOTAL", "instr", "lower"),
    ("HBM bytes", "HBM_Bytes", "B", "lower"),
    ("HBM bandwidth", "HBM_Bandwidth", "GB/s", "higher"),
    ("HBM % of peak", "HBM_Bandwidth_Pct_of_Peak", "%", "higher"),
    ("L2 bandwidth", "L2_Bandwidth", "GB/s", "higher"),
    ("LDS bandwidth", "LDS_Bandwidth", "GB/s", "higher"),
    ("MFMA busy", "MFMA_Util", "%", "higher"),
    ("VALU busy", "VALU_Util", "%", "higher"),
    ("LDS busy", "LDS_Util", "%", "higher"),
    ("VMEM busy", "VMEM_Util", "%", "higher"),
    ("IPC", "IPC", "instr/cycle", "higher"),
    ("L1 hit rate", "L1_Hit_Rate", "%", "higher"),
    ("L2 hit rate", "L2_Hit_Rate", "%", "higher"),
    ("MALL hit rate", "MALL_Hit_Rate", "%", "higher"),
    ("LDS bank conflicts", "LDS_Bank_Conflict_Pct", "%", "lower"),
    ("waves issuing", "Wave_Issue_Pct", "%", ""),
    ("waves at vmcnt", "Wave_Stall_VMEM_Pct", "%", "lower"),
    ("waves at lgkmcnt", "Wave_Stall_LGKM_Pct", "%", "lower"),
    ("waves at barrier", "Wave_Stall_Barrier_Pct", "%", "lower"),
    ("waves on dependency", "Wave_Stall_Dependency_Pct", "%", "lower"),
    ("waves on busy unit", "Wave_Stall_Unit_Busy_Pct", "%", "lower"),
    ("waves on arbitration", "Wave_Stall_Arbiter_Pct", "%", "lower"),
    ("CUs idle", "CU_Idle_Pct", "%", "lower"),
    ("occupancy allowed", "occupancy:waves_per_simd", "waves/SIMD", "higher"),
    ("occupancy limiter", "occupancy:limiter", "", ""),
    ("waves per busy SIMD", "Achieved_Waves_per_Busy_SIMD", "waves", "higher"),
)

_ALWAYS = ("Kernel_Time_us", "Kernel_Cycles")  # rows shown even when both runs lack them or have 0


@dataclass(frozen=True)
class Row:
    """Row is one figure of both runs: label, the two values (None where a run lacks it), unit and better way."""

    name: str
    a: Union[float, str, None]
    b: Union[float, str, None]
    unit: str
    better: str  # "lower", "higher" or ""
    source: str

    @property
    def numeric(self) -> bool:
        return isinstance(self.a, (int, float)) and isinstance(self.b, (int, float))

    @property
    def delta(self) -> Optional[float]:
        """delta is b - a (None unless both are numbers)."""
        return self.b - self.a if self.numeric else None

    @property
    def ratio(self) -> Optional[float]:
        """ratio is b / a (None unless both are numbers and a is not 0)."""
        return self.b / self.a if self.numeric and self.a else None

    @property
    def changed(self) -> bool:
        """changed says b differs from a by more than CHANGE of a (and MIN_POINTS for a percentage)."""
        if not self.numeric:
            return self.a != self.b
        if self.a == self.b:
            return False
        if self.unit == "%" and abs(self.delta) < MIN_POINTS:
            return False
        return self.a == 0 or abs(self.delta) > CHANGE * abs(self.a)

    @property
    def winner(self) -> Optional[str]:
        """winner is "a" or "b", whichever value is better, or None (equal, missing or no better way)."""
        if not self.better or not self.numeric or self.a == self.b:
            return None
        lower_wins = self.better == "lower"
        return "a" if (self.a < self.b) == lower_wins else "b"


@dataclass(frozen=True)
class Comparison:
    """Comparison is two runs side by side: the rows, and what differs between their settings.

    ``settings`` holds (what, a, b) for the kernel, launch and architecture when they differ;
    ``arch_diff`` holds (key path, a, b) for every resolved-architecture key that differs.
    """

    a: RunRecord
    b: RunRecord
    rows: tuple
    settings: tuple
    arch_diff: tuple

    def row(self, name: str) -> Row:
        """row returns the row labelled ``name`` (KeyError if there is none)."""
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(name)


def _value(run: RunRecord, source: str):
    if source.startswith("counter:"):
        return run.counters.get(source[8:])
    if source.startswith("occupancy:"):
        return None if run.occupancy is None else run.occupancy.get(source[10:])
    return run.metrics.get(source)


def flatten(tree, prefix: str = "") -> dict:
    """flatten turns a nested dict into {dotted key path: leaf value}: {"cu.lds.size_bytes": 65536, ...}."""
    out = {}
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


_UNSET = "(unset)"


def arch_differences(a: dict, b: dict) -> tuple:
    """arch_differences lists (key path, a value, b value) for each key of two resolved architectures that differs.

    The name and description are left out (the settings line names the architectures); a key
    only one side has shows "(unset)" on the other.
    """
    fa, fb = flatten(a), flatten(b)
    out = []
    for path in sorted(set(fa) | set(fb)):
        if path in ("name", "description"):
            continue
        va, vb = fa.get(path, _UNSET), fb.get(path, _UNSET)
        if va != vb:
            out.append((path, va, vb))
    return tuple(out)


def _launch(run: RunRecord) -> str:
    return (f"grid {'x'.join(map(str, run.grid))} block {'x'.join(map(str, run.block))}"
            if run.grid else "-")


def compare(a, b, arch_a=None, arch_b=None) -> Comparison:
    """compare returns the Comparison of run ``a`` (the baseline) with run ``b``; it mutates neither.

    Each run is a Result, its ``to_dict()`` or the path of a ``gpusim run --json`` file;
    ``arch_a``/``arch_b`` replace the architecture a run records (gpusim.report.record.read_run).
    """
    ra = a if isinstance(a, RunRecord) else read_run(a, arch_a, label=_label(a))
    rb = b if isinstance(b, RunRecord) else read_run(b, arch_b, label=_label(b))
    rows = []
    for name, source, unit, better in ROWS:
        va, vb = _value(ra, source), _value(rb, source)
        if va in (None, 0) and vb in (None, 0) and source not in _ALWAYS:
            continue
        rows.append(Row(name, va, vb, unit, better, source))
    settings = []
    if ra.kernel != rb.kernel:
        settings.append(("kernel", ra.kernel, rb.kernel))
    if _launch(ra) != _launch(rb):
        settings.append(("launch", _launch(ra), _launch(rb)))
    diff = arch_differences(ra.resolved_arch, rb.resolved_arch)
    if ra.arch_name != rb.arch_name or ra.arch_hash != rb.arch_hash:
        settings.append(("arch", ra.arch_name, rb.arch_name))
    return Comparison(ra, rb, tuple(rows), tuple(settings), diff)


def _label(run) -> Optional[str]:
    return os.fspath(run) if isinstance(run, (str, os.PathLike)) else None


# ---------------------------------------------------------------- text
_BOLD, _GREEN, _YELLOW, _RESET = "\x1b[1m", "\x1b[32m", "\x1b[33m", "\x1b[0m"
ARCH_KEYS_SHOWN = 4  # arch keys the header line names; the rest are counted


def format_value(value, unit: str, signed: bool = False) -> str:
    """format_value writes one value of a row in its unit: 7.36 us, 12,345 cycles, 4.55 TB/s, 42.0%."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    sign = "+" if signed and value > 0 else ""
    if unit == "%":
        return f"{sign}{value:.1f}%"
    if unit == "us":
        return f"{sign}{value:.2f} us"
    if unit in ("GB/s", "GFLOP/s"):
        return sign + si(value * 1e9, unit[1:])
    if unit == "B":
        return sign + si(value, "B")
    if unit in ("cycles", "instr"):
        return f"{sign}{value:,.0f}"
    return f"{sign}{value:.2f}"


def _header(cmp: Comparison) -> list:
    lines = [f"a: {cmp.a.label}", f"b: {cmp.b.label}"]
    for what, va, vb in cmp.settings:
        text = f"{what}: {va} vs {vb}"
        if what == "arch" and cmp.arch_diff:
            keys = ", ".join(f"{p} {x} -> {y}" for p, x, y in cmp.arch_diff[:ARCH_KEYS_SHOWN])
            more = len(cmp.arch_diff) - ARCH_KEYS_SHOWN
            text += f" ({keys}{f', and {more} more keys' if more > 0 else ''})"
        lines.append(text)
    same = [f"kernel {cmp.a.kernel}"] if cmp.a.kernel == cmp.b.kernel else []
    if _launch(cmp.a) == _launch(cmp.b):
        same.append(_launch(cmp.a))
    if cmp.a.arch_hash == cmp.b.arch_hash:
        same.append(f"arch {cmp.a.arch_name} ({cmp.a.arch_hash[:12]})")
    if same:
        lines.append("same: " + ", ".join(same))
    return lines


def format_compare(cmp: Comparison, color: bool = False) -> str:
    """format_compare renders a Comparison as a side-by-side table.

    The better value of each row is marked (green with ``color``, a trailing "<" without), and a
    changed row (see ``Row.changed``) is highlighted (bold, with its b/a ratio in yellow, with
    ``color``; a leading "*" without). The header names what differs between the runs.
    """
    lines = _header(cmp)
    table = []
    for r in cmp.rows:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        table.append((r, format_value(r.a, r.unit), format_value(r.b, r.unit),
                      format_value(r.delta, r.unit, signed=True) if r.numeric else "", ratio))
    wname = max(len("figure"), *(len(r.name) for r in cmp.rows)) if cmp.rows else 6
    wa = max([len("a")] + [len(t[1]) for t in table])
    wb = max([len("b")] + [len(t[2]) for t in table])
    wd = max([len("b - a")] + [len(t[3]) for t in table])
    lines.append(f"  {'figure':<{wname}}  {'a':>{wa}}    {'b':>{wb}}    {'b - a':>{wd}}  {'b/a':>7}  better")
    for r, va, vb, delta, ratio in table:
        win = r.winner
        better = {"lower": "lower", "higher": "higher"}.get(r.better, "")
        cell_a = _mark(f"{va:>{wa}}", win == "a", color)
        cell_b = _mark(f"{vb:>{wb}}", win == "b", color)
        flag, name, ratio_text = "  ", f"{r.name:<{wname}}", f"{ratio:>7}"
        if r.changed:
            if color:
                name, ratio_text = f"{_BOLD}{name}{_RESET}", f"{_YELLOW}{ratio_text}{_RESET}"
            else:
                flag = "* "
        lines.append(f"{flag}{name}  {cell_a}  {cell_b}  {delta:>{wd}}  {ratio_text}  {better}".rstrip())
    changed = sum(r.changed for r in cmp.rows)
    lines.append(f"{changed} of {len(cmp.rows)} figures changed by more than {CHANGE:.0%}"
                 + ("" if color else " (marked *); < marks the better value"))
    return "\n".join(lines)


def _mark(cell: str, better: bool, color: bool) -> str:
    if color:
        return (f"{_GREEN}{cell}{_RESET}" if better else cell) + "  "
    return cell + (" <" if better else "  ")
