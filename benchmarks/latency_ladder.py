"""Latency ladder: load-to-use cycles of a single-lane pointer chase per memory level.

What it reproduces. The MI300X targets ([H] in cdna-facts.md: the SC25 CDNA3 artifact's
data/5_Memory/MI300X/exec/gpu-latency.out) come from the gpu-latency benchmark of gpu-benches: one
wave chases a random single cycle of elements 64 bytes apart (8-byte pointers, skip factor 8), each
element holding the address of the next, with the chain unrolled 32 deep in a loop that is not
unrolled. On gfx942 that is ``global_load_dwordx2 v[0:1], v[0:1], off`` then ``s_waitcnt vmcnt(0)``,
over and over: between two dependent loads there is nothing but the load and its wait, and the loop's
own work is shared by 32 loads. The per-step time is the level's load-to-use latency, no address
arithmetic or loop overhead in it.

How. The chased table comes from the launch header, ``next buffer u32[m,16] init=cycle_offsets``:
row i's first u32 is the byte offset of the next row of one random single cycle, rows 64 bytes
apart as in the published benchmark. A loaded offset is the next load's address as it is,
``global_load_dword v1, v1, s[4:5]`` (an SGPR base plus a 32-bit VGPR offset; the same vector
memory path as a 64-bit VGPR address). A header-built table was chosen over the alternatives:
converting indices to offsets or addresses in a prologue would write the table, leaving it in the
L2 and MALL, so the cold HBM step would not be cold; a MUBUF ``idxen`` chase over indices (stride-4
buffer resource) needs no header help but is not what the published kernel runs, and clang-19 has no
OpenCL builtin that compiles to it. Two kernels chase it: the hand-written
benchmarks/kernels/pointer_chase.s and benchmarks/kernels/pointer_chase_clang.s, clang-19's build of
pointer_chase_clang.cl; both keep the published shape (32 loads and waits per trip, the counter's
SALU work under the first load).

For a footprint that fits a level, the warm per-step time (the second pass, measured as the
difference of two runs) is that level's load-to-use latency; HBM is measured cold (first touches of a
64 MiB footprint miss every level, the MALL too, since nothing writes the table). Usage:

    python benchmarks/latency_ladder.py [--arch cdna3] [--mall]
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

KERNEL = Path(__file__).with_name("kernels") / "pointer_chase.s"
COMPILED = Path(__file__).with_name("kernels") / "pointer_chase_clang.s"
TARGETS = {"L1": 116, "L2": 209, "MALL": 400, "HBM": 860}
ELEMENT_BYTES = 64   # one chased element per row of 16 u32, as the published benchmark's 8 B x skip 8
UNROLL = 32          # loads per trip of the kernels' loop: steps must be a multiple of it


def chase_cycles(arch, elements: int, steps: int, kernel: Path = KERNEL) -> int:
    """chase_cycles times the chase ``kernel`` over ``elements`` 64-byte elements for ``steps`` dependent loads."""
    import gpusim
    from gpusim.engine.timing import time_kernel

    if steps % UNROLL:
        raise ValueError(f"steps {steps} is not a multiple of the kernels' unroll, {UNROLL}")
    text = kernel.read_text().replace("u32[128,16]", f"u32[{elements},16]").replace(
        "steps i32 4096", f"steps i32 {steps}")
    path = Path(tempfile.mkdtemp()) / "chase.s"
    path.write_text(text)
    return time_kernel(gpusim.load_kernel(path), arch).cycles


def warm_step(arch, footprint_bytes: int, kernel: Path = KERNEL) -> float:
    """warm_step is the per-step cycles of the second pass over a footprint."""
    n = footprint_bytes // ELEMENT_BYTES
    return (chase_cycles(arch, n, 2 * n, kernel) - chase_cycles(arch, n, n, kernel)) / n


def cold_step(arch, footprint_bytes: int, steps: int = 2048, kernel: Path = KERNEL) -> float:
    """cold_step is the per-step cycles of a chase that almost never reuses a line."""
    n = footprint_bytes // ELEMENT_BYTES
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
