"""How far Triton's math functions, run on gpusim, land from numpy: the largest error in units in the last place.

Each function of Triton's HIP libdevice (AMD's ocml, which Triton links into the kernel) is compiled for gfx942
by Triton's own compiler, in f32 and f64, and run functionally on 256 random arguments over a range where it is
finite; the error of each result is measured against numpy's (or Python's math module's) float64 value, in ulps
of the result's type. ocml promises a few ulp for these functions, so a larger error points at an instruction
gpusim runs wrongly, or at the compiled code itself: Triton fuses multiplies and adds across ocml's code by
default (``enable_fp_fusion``), which breaks the error terms of its double-double arithmetic (f64 atanh, asinh,
tanh and pow, f32 atanh and pow lose up to hundreds of ulps so, on the hardware as on gpusim); ``--no-fusion``
compiles without it. Errors near a function's zeros (lgamma near 1 and 2) are large in ulps of a tiny result.
About four minutes on 2 cores (plus Triton's and numba's first compiles). Usage:

    python benchmarks/libdevice_accuracy.py                 # Triton's defaults
    python benchmarks/libdevice_accuracy.py --no-fusion     # enable_fp_fusion=False
    python benchmarks/libdevice_accuracy.py --only cos,pow  # some functions
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

# name: (float64 reference, lowest argument, highest argument, arity)
FUNCTIONS = {
    "exp": (np.exp, -20, 20, 1), "exp2": (np.exp2, -20, 20, 1),
    "expm1": (np.expm1, -5, 5, 1), "log": (np.log, 1e-3, 1e6, 1), "log2": (np.log2, 1e-3, 1e6, 1),
    "log10": (np.log10, 1e-3, 1e6, 1), "log1p": (np.log1p, -0.5, 100, 1), "sqrt": (np.sqrt, 0, 1e6, 1),
    "rsqrt": (lambda x: 1 / np.sqrt(x), 1e-3, 1e6, 1),
    "sin": (np.sin, -100, 100, 1), "cos": (np.cos, -100, 100, 1), "tan": (np.tan, -1.5, 1.5, 1),
    "asin": (np.arcsin, -1, 1, 1), "acos": (np.arccos, -1, 1, 1), "atan": (np.arctan, -100, 100, 1),
    "sinh": (np.sinh, -10, 10, 1), "cosh": (np.cosh, -10, 10, 1), "tanh": (np.tanh, -10, 10, 1),
    "asinh": (np.arcsinh, -100, 100, 1), "acosh": (np.arccosh, 1, 100, 1), "atanh": (np.arctanh, -0.99, 0.99, 1),
    "erf": (np.vectorize(math.erf), -4, 4, 1), "erfc": (np.vectorize(math.erfc), -4, 4, 1),
    "lgamma": (np.vectorize(math.lgamma), 0.1, 50, 1),
    "pow": (np.power, 0.1, 10, 2), "atan2": (np.arctan2, -10, 10, 2), "hypot": (np.hypot, -100, 100, 2),
    "fmod": (np.fmod, -100, 100, 2),
}
KERNEL = '''
import triton
import triton.language as tl
from triton.language.extra.hip import libdevice

@triton.jit
def kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
    y = tl.load(y_ptr + i)
    tl.store(out_ptr + i, {call})
'''


def _kernel(name: str, arity: int, folder: Path):
    """_kernel is a Triton kernel applying libdevice's ``name`` (Triton reads a kernel's source from its file)."""
    path = folder / f"libdevice_{name}.py"
    path.write_text(KERNEL.format(call=f"libdevice.{name}(x)" if arity == 1 else f"libdevice.{name}(x, y)"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


def max_ulps(name: str, dtype, fusion: bool, folder: Path, rng) -> float:
    """max_ulps runs ``name`` on 256 arguments of ``dtype`` and returns its largest error in ulps."""
    import gpusim.triton as gt

    reference, lo, hi, arity = FUNCTIONS[name]
    x, y = (rng.uniform(lo, hi, 256).astype(dtype) for _ in range(2))
    out = np.zeros(256, dtype)
    gt.simulate(_kernel(name, arity, folder), grid=(1,), args=(x, y, out), constexprs={"BLOCK": 256},
                timing=False, options=None if fusion else {"enable_fp_fusion": False})
    want = reference(x.astype(np.float64)) if arity == 1 else reference(x.astype(np.float64), y.astype(np.float64))
    ulps = np.abs(out.astype(np.float64) - want) / np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
    return float(np.max(np.where(np.isfinite(want), ulps, 0.0)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-fusion", action="store_true", help="compile with enable_fp_fusion=False")
    parser.add_argument("--only", help="comma-separated function names (default: all)")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(FUNCTIONS)
    unknown = [n for n in names if n not in FUNCTIONS]
    if unknown:
        parser.error(f"unknown function(s) {', '.join(unknown)}; known: {', '.join(FUNCTIONS)}")
    rng = np.random.default_rng(5)
    print(f"{'function':10s} {'f32 ulps':>10s} {'f64 ulps':>10s}   (enable_fp_fusion={not args.no_fusion})")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            row = [max_ulps(name, dtype, not args.no_fusion, Path(tmp), rng) for dtype in (np.float32, np.float64)]
            flag = "  over 4" if max(row) > 4 else ""
            print(f"{name:10s} {row[0]:10.2f} {row[1]:10.2f}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
