"""The plain-text report ``gpusim run PROGRAM.yaml`` prints: totals, then one table per topic.

Everything shown comes from the ProgramResult (gpusim.system.result), so the report and ``--json`` agree.
"""
from __future__ import annotations

from gpusim.report.columns import aligned
from gpusim.report.units import si


def _table(title: str, header: list, rows: list) -> list:
    """_table is ``title`` and the rows under it, indented: the first column left-aligned, the others (numbers)
    right-aligned in the body; the header row is left-aligned."""
    if not rows:
        return []
    lines = aligned([header] + [[str(c) for c in r] for r in rows], right=range(1, len(header)), header_left=True)
    return [title] + ["  " + line for line in lines]


def _us(x: float) -> str:
    return f"{x:,.1f}"


def format_program(result) -> str:
    """format_program renders a ProgramResult: total time, GPUs, streams, collectives, links, overlap,
    launches (and the memo's reuse) and checks."""
    launches = result.launches
    reused = sum(1 for r in launches if r["reused"])
    lines = [f"program    {result.program}",
             f"total      {_us(result.total_us)} us from the first operation to the last stream's end",
             f"launches   {len(launches)} kernels, {len(launches) - reused} timed on the engine, {reused} reused "
             f"(same timing inputs)"]
    sampled = result.sampling
    if sampled["launches"]:
        lines.append(f"sampled    {sampled['launches']} of {sampled['of_launches']} launches timed from a sample of "
                     f"their grid ({_us(sampled['kernel_us'])} us of kernels); their error estimates sum to "
                     f"±{_us(sampled['error_us'])} us, {sampled['error_pct']:.2f}% of the total (--sample off: "
                     "every launch in full)")
    ov = result.overlap
    if ov["communication_us"]:
        lines.append(f"overlap    {_us(ov['hidden_us'])} of {_us(ov['communication_us'])} GPU-us of communication "
                     f"ran beside a kernel ({100 * ov['hidden_fraction']:.0f}% hidden)")
    total = max(result.total_us, 1e-12)
    lines += _table("GPUs", ["gpu", "arch", "busy us", "busy %", "kernels us", "copies us", "comm us", "hidden us"],
                    [[g["gpu"], g["arch"], _us(g["busy_us"]), f"{100 * g['busy_us'] / total:.0f}",
                      _us(g["kernel_us"]), _us(g["copy_us"]), _us(g["communication_us"]),
                      _us(g["hidden_communication_us"])] for g in result.gpus])
    lines += _table("streams", ["stream", "gpu", "ops", "busy us", "waiting us", "ends at us"],
                    [[s["stream"], s["gpu"], s["operations"], _us(s["busy_us"]), _us(s["waiting_us"]),
                      _us(s["end_us"])] for s in result.streams])
    lines += _table("collectives (bandwidths as rccl-tests reports them)",
                    ["collective", "algorithm", "gpus", "size", "time us", "algbw GB/s", "busbw GB/s"],
                    [[c["kind"], c["algorithm"], len(c["gpus"]), si(c["bytes"], "B"), _us(c["time_us"]),
                      f"{c['algbw_gbps']:.1f}", f"{c['busbw_gbps']:.1f}"] for c in result.collectives])
    used = [r for r in result.links if r.get("bytes", 0)]
    lines += _table("links (used ones)", ["link", "bytes", "busy us", "util %", "GB/s"],
                    [[r["link"], si(r["bytes"], "B"), _us(r["busy_us"]), f"{100 * r['utilisation']:.0f}",
                      f"{r['gbps']:.1f}"] for r in used])
    per_kernel: dict = {}
    for r in launches:
        k = per_kernel.setdefault(r["kernel"], [0, 0.0, 0, 0])
        k[0] += 1
        k[1] += r["kernel_time_us"]
        k[2] += r["reused"]
        k[3] += r.get("sampled", False)
    header = ["kernel", "launches", "reused"] + (["sampled"] if sampled["launches"] else []) + ["kernel us (sum)",
                                                                                               "mean us"]
    lines += _table("kernels", header,
                    [[name, n, re] + ([sa] if sampled["launches"] else []) + [_us(t), _us(t / n)]
                     for name, (n, t, re, sa) in per_kernel.items()])
    for c in result.checks:
        status = "PASS" if c.passed else f"FAIL ({c.mismatches:,} of {c.elements:,} elements differ)"
        lines.append(f"check      {c.spec.lhs} {c.spec.op} {c.spec.rhs}: {status}")
    return "\n".join(lines)
