"""Latency ladder: load-to-use cycles of a single-lane pointer chase per memory level.

The chase follows a random single-cycle permutation, so each step's load depends
on the previous one. Two versions of it are timed: the hand-written
benchmarks/kernels/pointer_chase.s, and benchmarks/kernels/pointer_chase_clang.s,
the same loop as clang-19 compiles it (from pointer_chase_clang.cl), whose loop
overhead differs (the published figures include the chain's own instructions). For a footprint
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
COMPILED = Path(__file__).with_name("kernels") / "pointer_chase_clang.s"
TARGETS = {"L1": 116, "L2": 209, "MALL": 400, "HBM": 860}


def chase_cycles(arch, elements: int, steps: int, kernel: Path = KERNEL) -> int:
    """chase_cycles times the chase ``kernel`` over ``elements`` u32 slots for ``steps`` dependent loads."""
    import gpusim
    from gpusim.engine.timing import time_kernel

    text = kernel.read_text().replace("u32[2048]", f"u32[{elements}]").replace(
        "steps i32 4096", f"steps i32 {steps}")
    path = Path(tempfile.mkdtemp()) / "chase.s"
    path.write_text(text)
    return time_kernel(gpusim.load_kernel(path), arch).cycles


def warm_step(arch, footprint_bytes: int, kernel: Path = KERNEL) -> float:
    """warm_step is the per-step cycles of the second pass over a footprint."""
    n = footprint_bytes // 4
    return (chase_cycles(arch, n, 2 * n, kernel) - chase_cycles(arch, n, n, kernel)) / n


def cold_step(arch, footprint_bytes: int, steps: int = 2048, kernel: Path = KERNEL) -> float:
    """cold_step is the per-step cycles of a chase that almost never reuses a line."""
    n = footprint_bytes // 4
    return (chase_cycles(arch, n, 2 * steps, kernel) - chase_cycles(arch, n, steps, kernel)) / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="cdna3")
    ap.add_argument("--mall", action="store_true", help="also measure the MALL (a 16 MiB warm chase; slow)")
    args = ap.parse_args()
    from gpusim.arch import load_arch
    arch = load_arch(args.arch)
    levels = [("L1", warm_step, 8 << 10), ("L2", warm_step, 256 << 10)]
    if args.mall:
        levels.append(("MALL", warm_step, 16 << 20))
    levels.append(("HBM", cold_step, 64 << 20))
    print(f"{'level':6s} {'[H] target':>11s} {'hand-written':>13s} {'error':>7s} {'clang-19':>9s} {'error':>7s}")
    for level, step, footprint in levels:
        t = TARGETS[level]
        hand = step(arch, footprint, kernel=KERNEL)
        compiled = step(arch, footprint, kernel=COMPILED)
        print(f"{level:6s} {t:11d} {hand:13.1f} {100 * (hand - t) / t:6.1f}% {compiled:9.1f} "
              f"{100 * (compiled - t) / t:6.1f}%", flush=True)


if __name__ == "__main__":
    main()
