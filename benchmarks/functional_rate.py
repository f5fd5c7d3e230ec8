"""Functional execution rate of the numba interpreter, in wave-instructions per second.

Runs real clang-19 kernels from the corpus, scaled up so that set-up is
small, and a hand-written VALU loop, on one core; prints the rate (set-up,
execution and the numpy check together, best of two) with numba's one-time
compile time reported separately. Usage:

    python benchmarks/functional_rate.py            # all cases
    python benchmarks/functional_rate.py --quick    # smaller sizes
"""
from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus" / "gfx942"


def scaled(name: str, subs: dict[str, str], target: str = "gfx942") -> Path:
    """scaled writes a copy of a corpus kernel whose header lines are rewritten by regex."""
    text = (CORPUS.parent / target / f"{name}.s").read_text()
    for pattern, repl in subs.items():
        text, n = re.subn(pattern, repl, text, flags=re.M)
        assert n, f"{name}: pattern {pattern!r} not found"
    path = Path(tempfile.mkdtemp()) / f"{name}_big.s"
    path.write_text(text)
    return path


def cases(quick: bool):
    n = 256 if quick else 512
    g = n // 16
    gemm = {
        r"^; gpusim-launch: .*$": f"; gpusim-launch: grid={g},{g},1 block=16,16,1",
        r"f32\[64,64\]": f"f32[{n},{n}]",
        r"^; gpusim-arg: ([MNK]) i32 64$": rf"; gpusim-arg: \1 i32 {n}",
        r"^; gpusim-check: .*$": "; gpusim-check: C ~= A @ B rtol=1e-4 atol=1e-4"}
    yield "gemm_naive f32 %dx%dx%d" % (n, n, n), scaled("gemm_naive", gemm)
    yield "gemm_naive f32 %dx%dx%d gfx90a" % (n, n, n), scaled("gemm_naive", gemm, "gfx90a")
    m = 1 << (18 if quick else 21)
    yield "saxpy f32 n=%d" % m, scaled("saxpy", {
        r"^; gpusim-launch: .*$": f"; gpusim-launch: grid={m // 256},1,1 block=256,1,1",
        r"^; gpusim-arg: n i32 \d+$": f"; gpusim-arg: n i32 {m}"})   # x and y are f32[n]
    yield "divergent_loop (corpus size)", CORPUS / "divergent_loop.s"
    yield "VALU loop (hand-written)", Path(__file__).with_name("kernels") / "valu_loop.s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import gpusim
    from gpusim.exec.kernels import interpreter
    warm = gpusim.load_kernel(CORPUS / "vadd_tail.s")
    gpusim.simulate(warm, "cdna3")
    print(f"numba compile/cache load: {time.perf_counter() - t0:.1f} s "
          f"(first run after install compiles; later runs load the cache)")
    print(f"{'case':36s} {'wave-instr':>12s} {'seconds':>8s} {'Minstr/s':>9s}  check")
    for label, path in cases(args.quick):
        kernel = gpusim.load_kernel(path)
        best = None
        for _ in range(2):
            t = time.perf_counter()
            arch = "cdna2" if kernel.target == "gfx90a" else "cdna3"
            result = gpusim.simulate(kernel, arch, check=bool(kernel.module.checks))
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        n = result.counters["GPUSIM_INSTS_TOTAL"]
        status = "pass" if result.checks_passed else "FAIL"
        print(f"{label:36s} {n:12,d} {best:8.2f} {n / best / 1e6:9.2f}  {status}")


if __name__ == "__main__":
    main()
