"""gpusim's integer execution against the host CPU's, over many random expressions: a differential fuzz.

    python benchmarks/alu_differential.py [--seeds N] [--first S] [--division | --floating | --half] [--timing]

Each seed is 24 random C integer expressions over 256 lanes of full-range inputs (tests/exec/random_expressions.py),
compiled by clang-19 for gfx942 and run by gpusim, and compiled for the host (-O1) and run there; it prints the
seeds whose results differ, with the expressions that differ, and the count of lane results compared.
tests/exec/test_alu_against_host.py runs a few seeds of it.

A difference is not always gpusim's: LLVM 19's AMDGPU backend miscompiles some expressions, and gpusim runs that
code as the hardware would. Read the assembly of a differing expression (clang-19 -x hip --cuda-device-only -S
--offload-arch=gfx942) before blaming the simulator. Two seen here (2026-11-29): with --division, divisions whose
dividend is all ones or a sign extension are narrowed to 24- or 32-bit ones by their sign bits (fixed in later
LLVM, llvm/llvm-project#116733 and its follow-ups; 2 of 60 seeds from 1000); without it, seed 1089 (1 of 200
seeds from 1000): a 64-bit popcount of a value whose high word is known to be all ones counts the bits of s0,
the kernarg pointer's low word, instead (``v_bcnt_u32_b32 v0, s0, v0``).

--division adds unsigned and signed division and remainder. --floating runs float and double expressions instead
(+ - * / fma sqrt, rounding, copysign, conversions; NaNs compared as NaNs): they found (2026-11-29, 11 of 100
seeds) that -0 / y took y's sign and that about 1 in 200 subnormal quotients was an ulp off, both in gpusim's
v_div_fixup (tests/exec/test_division_edges.py). --half runs _Float16 expressions (+ - * / through gfx942's f16
instructions, sqrt and trunc through float, conversions): they found that gpusim read v_fma_mix's f32 sources as
f16 when op_sel_hi is left out, which broke every f16 division (tests/exec/test_fma_mix_sources.py); after the
fix 1 of 100 seeds from 1000 differs, for LLVM's reason (seed 1092: +0 - x compiled as -x, a -0 where x is 0).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "exec"))
from random_expressions import EXPRESSIONS, LANES, run_both  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="how many seeds (default 100)")
    parser.add_argument("--first", type=int, default=1000, help="the first seed (default 1000)")
    parser.add_argument("--division", action="store_true", help="include / and %% (see the module docstring)")
    parser.add_argument("--floating", action="store_true", help="float and double expressions instead of integer")
    parser.add_argument("--half", action="store_true", help="_Float16 expressions instead of integer")
    parser.add_argument("--timing", action="store_true", help="run gpusim's timing model, not the functional one")
    ns = parser.parse_args()
    start, differing = time.perf_counter(), 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(ns.first, ns.first + ns.seeds):
            got, want = run_both(seed, folder, division=ns.division, timing=ns.timing, floating=ns.floating,
                                 half=ns.half)
            wrong = sorted({int(e) for e in np.nonzero(got != want)[0]})
            if wrong:
                differing += 1
                e = wrong[0]
                lane = int(np.nonzero(got[e] != want[e])[0][0])
                print(f"seed {seed}: expressions {wrong} differ; expression {e}, lane {lane}: gpusim "
                      f"{int(got[e, lane]):#x}, host {int(want[e, lane]):#x}")
    compared = ns.seeds * EXPRESSIONS * LANES
    print(f"{differing} of {ns.seeds} seeds differ; {compared:,} lane results compared "
          f"({'_Float16' if ns.half else 'floating-point' if ns.floating else 'integer, with' if ns.division else 'integer, without'}"
          f"{'' if ns.floating or ns.half else ' division'}, {'timed' if ns.timing else 'functional'}) "
          f"in {time.perf_counter() - start:.0f} s")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
