"""Speed of the timing model, in simulated wave-instructions per host second.

Runs real clang-19 kernels from the corpus, scaled up to fill the GPU, with
``gpusim.simulate(kernel, "cdna3", timing=True, outputs=False)`` -- what
``gpusim run`` does without --check: only the values an address, branch or EXEC
depends on are computed (gpusim.asm.value_slice), cycles and counters are those
of the full run -- and prints,
per case, the simulated wave-instructions and cycles, the host seconds of the
simulate() call, the rate and the process's peak resident memory. Each case
runs in a fresh 'spawn' subprocess so that its peak RSS is its own. A first
subprocess compiles numba's kernels (cached on disk) and its time is printed
separately; in each case's process a warm-up run of the same kernel at its
tiny corpus size comes first, so only the cache load is paid there, and
outside the measured seconds.

Cases:
  saxpy       streaming: corpus saxpy over 8M f32 (32768 workgroups)
  GEMM        mfma_gemm_128x128f16 at 4096x4096x512 (1024 workgroups of 4
              waves, every one of the 304 CUs busy)
  GEMM 4096^3 with --full only: the 4096x4096x4096 f16 GEMM, whose target is
              under 60 s on a 2-core machine and >= 2 M wave-instructions/s

Usage:

    python benchmarks/timed_rate.py            # saxpy 8M, GEMM 4096x4096x512
    python benchmarks/timed_rate.py --outputs  # every value computed, as with --check
    python benchmarks/timed_rate.py --quick    # smaller sizes (saxpy 1M, GEMM 2560x2432x128)
    python benchmarks/timed_rate.py --full     # also the 4096^3 GEMM against its target
"""
from __future__ import annotations

import argparse
import multiprocessing
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run from a checkout without installing; spawned workers run this too
CORPUS = REPO / "tests" / "data" / "corpus" / "gfx942"
ARCH = "cdna3"


@dataclass
class Case:
    """Case is one benchmark: a corpus kernel, the header rewrites that scale it, and an optional target."""

    label: str
    kernel: str
    subs: dict
    max_seconds: Optional[float] = None   # target: host seconds at most
    min_rate: Optional[float] = None      # target: wave-instructions per second at least


def scaled(name: str, subs: dict, folder: Path) -> Path:
    """scaled writes into ``folder`` a copy of a corpus kernel whose header lines are rewritten by regex."""
    text = (CORPUS / f"{name}.s").read_text()
    for pattern, repl in subs.items():
        text, n = re.subn(pattern, repl, text, flags=re.M)
        assert n, f"{name}: pattern {pattern!r} not found"
    path = folder / f"{name}_big.s"
    path.write_text(text)
    return path


def saxpy(n: int) -> Case:
    return Case(f"saxpy f32 n={n >> 20}M", "saxpy", {
        r"^; gpusim-launch: .*$": f"; gpusim-launch: grid={n // 256},1,1 block=256,1,1",
        r"^; gpusim-arg: n i32 \d+$": f"; gpusim-arg: n i32 {n}"})   # x and y are f32[n]


def gemm(m: int, n: int, k: int, **target) -> Case:
    """gemm scales mfma_gemm_128x128f16 (corpus header: M=N=256, K=64) to M x N x K."""
    assert m % 128 == 0 and n % 128 == 0 and k % 32 == 0
    return Case(f"gemm f16 {m}x{n}x{k} ({m * n >> 14} WGs)", "mfma_gemm_128x128f16", {
        r"^; gpusim-launch: .*$": f"; gpusim-launch: grid={n // 128},{m // 128},1 block=256,1,1",
        r"A buffer f16\[256,64\]": f"A buffer f16[{m},{k}]",
        r"B buffer f16\[64,256\]": f"B buffer f16[{k},{n}]",
        r"C buffer f32\[256,256\]": f"C buffer f32[{m},{n}]",
        r"^; gpusim-arg: N i32 256$": f"; gpusim-arg: N i32 {n}",
        r"^; gpusim-arg: K i32 64$": f"; gpusim-arg: K i32 {k}"}, **target)


def cases(quick: bool, full: bool) -> list:
    if quick:
        out = [saxpy(1 << 20), gemm(2560, 2432, 128)]
    else:
        out = [saxpy(8 << 20), gemm(4096, 4096, 512)]
    if full:
        out.append(gemm(4096, 4096, 4096, max_seconds=60.0, min_rate=2e6))
    return out


def warm_up(kernel_names: list) -> float:
    """warm_up runs each kernel once at its corpus size on the timing model; returns the seconds it took."""
    t0 = time.perf_counter()
    import gpusim
    for name in kernel_names:
        gpusim.simulate(gpusim.load_kernel(CORPUS / f"{name}.s"), ARCH, timing=True)
    return time.perf_counter() - t0


def run_case(kernel_name: str, path: str, outputs: bool) -> dict:
    """run_case (in a fresh subprocess) warms up on the corpus-size kernel, then times the big one."""
    import resource

    warm = warm_up([kernel_name])
    rss_warm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    import gpusim
    t = time.perf_counter()
    kernel = gpusim.load_kernel(path)
    load = time.perf_counter() - t
    before = resource.getrusage(resource.RUSAGE_SELF)
    t = time.perf_counter()
    result = gpusim.simulate(kernel, ARCH, timing=True, check=False, outputs=outputs)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {"warm": warm, "load": load, "seconds": seconds, "user": after.ru_utime - before.ru_utime,
            "sys": after.ru_stime - before.ru_stime, "insts": result.counters["GPUSIM_INSTS_TOTAL"],
            "cycles": result.cycles, "waves": result.counters["SQ_WAVES"], "rss_warm_mib": rss_warm,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def verdict(case: Case, r: dict) -> str:
    """verdict prints a case's targets next to what it measured; empty when it has none."""
    parts = []
    if case.max_seconds is not None:
        ok = r["seconds"] < case.max_seconds
        parts.append(f"< {case.max_seconds:g} s {'met' if ok else 'MISSED'}")
    if case.min_rate is not None:
        ok = r["insts"] / r["seconds"] >= case.min_rate
        parts.append(f">= {case.min_rate / 1e6:g} M/s {'met' if ok else 'MISSED'}")
    return ", ".join(parts)


def row(label: str, r: dict, target: str) -> str:
    rate = r["insts"] / r["seconds"] / 1e6
    return (f"{label:34s} {r['insts']:12,d} {r['cycles']:12,d} {r['seconds']:8.2f} {r['user']:6.2f} "
            f"{r['sys']:6.2f} {rate:8.2f} {r['rss_mib']:8.0f} {r['rss_warm_mib']:8.0f} {r['warm']:6.1f}  {target}")


HEADER = (f"{'case':34s} {'wave-instr':>12s} {'cycles':>12s} {'seconds':>8s} {'user':>6s} {'sys':>6s} "
          f"{'Minstr/s':>8s} {'peak MiB':>8s} {'warm MiB':>8s} {'warm s':>6s}  target")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--full", action="store_true", help="also the 4096x4096x4096 GEMM against its target")
    ap.add_argument("--outputs", action="store_true",
                    help="compute every value (output buffers, as with --check) instead of the timing slice only")
    args = ap.parse_args()

    ctx = multiprocessing.get_context("spawn")
    folder = Path(tempfile.mkdtemp(prefix="timed_rate_"))
    rows = []
    try:
        todo = cases(args.quick, args.full)
        # numba compiles once here and caches on disk; each case's process then only loads the cache,
        # so neither its time nor its peak memory includes the compiler.
        with ctx.Pool(1) as pool:
            compile_s = pool.apply(warm_up, (sorted({c.kernel for c in todo}),))
        print(f"numba compile (or cache load) + corpus-size runs, fresh process: {compile_s:.1f} s", flush=True)
        print("values: " + ("every value computed (outputs=True)" if args.outputs else
                            "address/control slice only (outputs=False, as gpusim run without --check)"), flush=True)
        print(f"timing model on {ARCH}. seconds: one simulate(timing=True, check=False) call (user, sys: its CPU "
              "seconds; sys is mostly the kernel zeroing fresh pages of the model's state); peak MiB: the "
              "case process's ru_maxrss; warm MiB / warm s: its ru_maxrss and seconds after import, "
              "cache load and a corpus-size warm-up run (a peak equal to warm MiB is the warm-up's)", flush=True)
        print(HEADER, flush=True)
        for case in todo:
            path = scaled(case.kernel, case.subs, folder)
            with ctx.Pool(1) as pool:   # a fresh process per case: its own ru_maxrss
                r = pool.apply(run_case, (case.kernel, str(path), args.outputs))
            line = row(case.label, r, verdict(case, r))
            rows.append(line)
            print(line, flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("\nsummary")
    print(HEADER)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
