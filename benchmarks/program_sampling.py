"""Sampled launches in a program: each launch against its full simulation, in a chain (issue 19).

``gpusim run app.yaml`` samples each launch of a program as ``gpusim run k.s`` samples a dispatch (the
grid method under ``--sample auto``). A launch starts from the caches the one before it left, and a
sampled launch leaves only what its detailed part touched: the skipped middle of its grid moves no
lines (gpusim.system.kernel_launch.run_launch). This benchmark measures what that changes, on chains
whose second kernel reads what the first wrote:

  triad_chain      a = b + 3 c, then b = a + 0.5 c: the STREAM triad over 256M f32 elements (3 GiB a
                   launch, 12 times the 256 MiB MALL), its second launch reading the first's output
  transpose_chain  b = a^T, then c = b^T, then a = c^T: the LDS-tiled transpose of a 8192x8192 f32 matrix
                   (256 MiB a buffer, the MALL's size), each launch reading the previous one's output in
                   another order than it was written

For each launch it prints the full simulation's cycles, the sampled run's, their difference, the
sampled run's error estimate (SamplingOutcome.error_pct) and the share of its wave-instructions timed in
detail; then the program's total time both ways and the host seconds of each run.

Usage:

    python benchmarks/program_sampling.py                  # both chains at their large sizes (~8 min on 2 cores)
    python benchmarks/program_sampling.py --quick          # 16M elements and 4096^2, sampled at any rate (a smoke run)
    python benchmarks/program_sampling.py --interval 1     # the grid method's interval, as --sample-interval
    python benchmarks/program_sampling.py --json out.json  # also write every figure
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))                      # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sampling_cases  # noqa: E402
from gpusim.engine.sampling_policy import SamplingPolicy  # noqa: E402
from gpusim.system.simulate import simulate_program  # noqa: E402

# the quick sizes' grids are a few rounds long: the default interval would leave them in full
ANY_RATE = SamplingPolicy(mode="on", steady_pct=100.0, grid_interval_pct=100.0)


def _program(buffers: dict, kernel: Path, launches: list) -> str:
    """_program is a one-GPU program text: ``buffers`` (name -> type), then ``kernel`` launched once per
    ``(name, args)`` of ``launches`` in one stream."""
    lines = ["system: {gpus: {arch: cdna3, count: 1}}", "buffers:"]
    lines += [f'  {name}: {{type: "{kind}", gpu: 0}}' for name, kind in buffers.items()]
    lines += ["streams:", "  - name: s", "    gpu: 0", "    ops:"]
    lines += [f"      - {{kernel: {kernel}, args: {{{args}}}, name: {name}}}" for name, args in launches]
    return "\n".join(lines) + "\n"


def _triad_chain(folder: Path, quick: bool) -> str:
    n = 1 << 24 if quick else 1 << 28
    kernel = folder / "triad.s"
    kernel.write_text(sampling_cases.template_text("stream_triad.s", n=n)())
    return _program({"a": f"f32[{n}] zeros", "b": f"f32[{n}] uniform(-1,1) seed=2",
                     "c": f"f32[{n}] uniform(-1,1) seed=3"}, kernel,
                    [("triad_1", "a: a, b: b, c: c, s: 3.0"), ("triad_2", "a: b, b: a, c: c, s: 0.5")])


def _transpose_chain(folder: Path, quick: bool) -> str:
    w = 4096 if quick else 8192
    kernel = folder / "transpose.s"
    kernel.write_text(sampling_cases.template_text("transpose_lds_tile.s", rows=w, cols=w)())
    return _program({"a": f"f32[{w},{w}] uniform(-1,1) seed=7", "b": f"f32[{w},{w}] zeros",
                     "c": f"f32[{w},{w}] zeros"}, kernel,
                    [("transpose_1", "a: a, b: b"), ("transpose_2", "a: b, b: c"), ("transpose_3", "a: c, b: a")])


CHAINS = {"triad_chain": _triad_chain, "transpose_chain": _transpose_chain}


def _timed(path: Path, sample) -> tuple:
    t0 = time.perf_counter()
    result = simulate_program(path, values=False, sample=sample)   # timing only: no arithmetic to wait for
    return result, time.perf_counter() - t0


def measure(name: str, folder: Path, quick: bool, sample) -> dict:
    """measure runs chain ``name`` in full and sampled (``sample``) and returns every figure."""
    path = folder / f"{name}.yaml"
    path.write_text(CHAINS[name](folder, quick))
    full, full_s = _timed(path, None)
    sampled, sampled_s = _timed(path, sample)
    launches = []
    for f, s in zip(full.launches, sampled.launches):
        launches.append({"kernel": f["kernel"], "full_cycles": f["cycles"], "sampled_cycles": s["cycles"],
                         "error_pct": 100.0 * (s["cycles"] / f["cycles"] - 1), "sampled": s["sampled"],
                         "estimate_pct": s["sample_error_pct"], "detail_pct": 100.0 * s["simulated_fraction"]})
    return {"chain": name, "launches": launches, "full_total_us": full.total_us,
            "sampled_total_us": sampled.total_us,
            "total_error_pct": 100.0 * (sampled.total_us / full.total_us - 1),
            "estimate_pct": sampled.sampling["error_pct"], "full_host_s": full_s, "sampled_host_s": sampled_s}


def report(row: dict) -> str:
    lines = [f"{row['chain']}: total {row['full_total_us']:,.1f} us full, {row['sampled_total_us']:,.1f} us sampled "
             f"({row['total_error_pct']:+.2f}%, estimate ±{row['estimate_pct']:.2f}%); host {row['full_host_s']:.1f} s "
             f"full, {row['sampled_host_s']:.1f} s sampled ({row['full_host_s'] / row['sampled_host_s']:.1f}x)",
             f"  {'launch':<14}{'full cycles':>14}{'sampled':>14}{'error':>9}{'estimate':>10}{'in detail':>11}"]
    for r in row["launches"]:
        estimate = f"±{r['estimate_pct']:.2f}%" if r["sampled"] else "full"
        lines.append(f"  {r['kernel']:<14}{r['full_cycles']:>14,}{r['sampled_cycles']:>14,}{r['error_pct']:>+8.2f}%"
                     f"{estimate:>10}{r['detail_pct']:>10.1f}%")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="the small sizes, sampled at any rate (a smoke run)")
    ap.add_argument("--interval", type=float, default=None, metavar="PCT",
                    help="the grid method's interval (default: the policy's, as gpusim run)")
    ap.add_argument("--chains", nargs="+", choices=sorted(CHAINS), default=list(CHAINS))
    ap.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    ns = ap.parse_args(argv)
    sample = ANY_RATE if ns.quick else SamplingPolicy(mode="auto")
    if ns.interval is not None:
        sample = SamplingPolicy(mode=sample.mode, steady_pct=sample.steady_pct, grid_interval_pct=ns.interval)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ns.chains:
            rows.append(measure(name, Path(tmp), ns.quick, sample))
            print(report(rows[-1]), flush=True)
    if ns.json:
        Path(ns.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
