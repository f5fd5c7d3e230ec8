"""Latency ladder: load-to-use cycles of a single-lane pointer chase per memory level.

The chase (benchmarks/kernels/pointer_chase.s) follows a random single-cycle
permutation, so each step's load depends on the previous one. For a footprint
that fits a level, the warm per-step time (the last pass, measured as the
difference of two runs) is that level's load-to-use latency; HBM is measured
cold (first touches of a 64 MiB footprint miss every level, the MALL too). Targets are the MI300X
pointer-chase figures of cdna-facts.md [H]. Usage:

    python benchmarks/latency_ladder.py [--arch cdna3] [--mall]
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

KERNEL = Path(__file__).with_name("kernels") / "pointer_chase.s"
TARGETS = {"L1": 116, "L2": 209, "MALL": 400, "HBM": 860}


def chase_cycles(arch, elements: int, steps: int) -> int:
    """chase_cycles times the chase over ``elements`` u32 slots for ``steps`` dependent loads."""
    import gpusim
    from gpusim.engine.timing import time_kernel

    text = KERNEL.read_text().replace("u32[2048]", f"u32[{elements}]").replace(
        "steps i32 4096", f"steps i32 {steps}")
    path = Path(tempfile.mkdtemp()) / "chase.s"
    path.write_text(text)
    return time_kernel(gpusim.load_kernel(path), arch).cycles


def warm_step(arch, footprint_bytes: int) -> float:
    """warm_step is the per-step cycles of the second pass over a footprint."""
    n = footprint_bytes // 4
    return (chase_cycles(arch, n, 2 * n) - chase_cycles(arch, n, n)) / n


def cold_step(arch, footprint_bytes: int, steps: int = 2048) -> float:
    """cold_step is the per-step cycles of a chase that almost never reuses a line."""
    n = footprint_bytes // 4
    return (chase_cycles(arch, n, 2 * steps) - chase_cycles(arch, n, steps)) / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="cdna3")
    ap.add_argument("--mall", action="store_true", help="also measure the MALL (a 16 MiB warm chase; slow)")
    args = ap.parse_args()
    from gpusim.arch import load_arch
    arch = load_arch(args.arch)
    rows = [("L1", warm_step(arch, 8 << 10)), ("L2", warm_step(arch, 256 << 10))]
    if args.mall:
        rows.append(("MALL", warm_step(arch, 16 << 20)))
    rows.append(("HBM", cold_step(arch, 64 << 20)))
    print(f"{'level':6s} {'cycles/step':>12s} {'[H] target':>11s} {'error':>7s}")
    for level, cyc in rows:
        t = TARGETS[level]
        print(f"{level:6s} {cyc:12.1f} {t:11d} {100 * (cyc - t) / t:6.1f}%")


if __name__ == "__main__":
    main()
