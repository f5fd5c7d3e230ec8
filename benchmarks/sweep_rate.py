"""Throughput of ``gpusim sweep``: points per minute for a 48-point what-if study.

The study crosses GEMM tiles with HBM channels, LDS size and L2 size on cdna3 (3 x 4 x 2 x 2 =
48 points, each a 2048x2048x1024 f16 GEMM, timing model, values not computed) and runs it
with ``run_study`` on local worker processes, exactly as ``gpusim sweep`` does. It prints the
wall time, points per minute, the mean host seconds per point inside the workers and the
process start-up share (wall x workers - the points' own seconds), and leaves the results
folder (and a plot of TFLOP/s against HBM channels per tile) where it says.

Usage:

    python benchmarks/sweep_rate.py                 # one worker per core
    python benchmarks/sweep_rate.py --workers 1     # serial, for comparison
    python benchmarks/sweep_rate.py --scheduler tcp://host:8786
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run from a checkout without installing

STUDY = """\
name: gemm-tiles-vs-memory
arch: cdna3
vary:
  gen.gemm.tile: [64x64x32, 128x128x32, 256x128x32]
  arch.hbm.channels: [32, 64, 96, 128]
  arch.cu.lds.size_bytes: [65536, 131072]
  arch.l2.size_bytes: [2097152, 4194304]
workload: {gen: gemm, m: 2048, n: 2048, k: 1024, dtype: f16}
metrics: [time_us, tflops, MFMA_Util, L2_Hit_Rate, HBM_Bandwidth]
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, help="local worker processes (default: one per core)")
    ap.add_argument("--scheduler", help="a Dask scheduler address instead of local processes")
    ap.add_argument("-o", "--output", help="results folder (default: a new temporary folder)")
    args = ap.parse_args()

    from gpusim.report.plot import plot_results
    from gpusim.sweep import load_study, read_results, run_study
    from gpusim.sweep.runner import compile_once, default_workers

    work = Path(tempfile.mkdtemp(prefix="sweep_rate_"))
    out = Path(args.output) if args.output else work / "results"
    if out.exists():
        shutil.rmtree(out)
    (work / "study.yaml").write_text(STUDY)
    study = load_study(work / "study.yaml")
    workers = args.workers or default_workers()
    compile_once(workers)   # a stale numba cache is compiled here, outside the measured time
    t0 = time.perf_counter()
    outcome = run_study(study, out, workers=workers, scheduler=args.scheduler, progress=False)
    wall = time.perf_counter() - t0
    rows = read_results(out)
    inside = sum(r["host_s"] or 0.0 for r in rows)
    n = len(rows)
    print(f"study: {n} points ({', '.join(f'{v} {k}' for k, v in sorted(outcome.counts.items()))}), "
          f"{'Dask ' + args.scheduler if args.scheduler else f'{workers} local worker process(es)'}")
    print(f"wall {wall:.1f} s = {60 * n / wall:.1f} points/minute; mean {inside / n:.2f} host s per point "
          f"inside the workers; start-up and hand-over {max(0.0, wall * workers - inside):.1f} worker-seconds")
    png = plot_results(out, x="arch.hbm.channels", y="tflops", hue="gen.gemm.tile",
                       where={"arch.cu.lds.size_bytes": 65536, "arch.l2.size_bytes": 4194304},
                       output=out / "tflops_vs_hbm_channels.png")
    print(f"results: {outcome.table}\nplot:    {png}")


if __name__ == "__main__":
    main()
