"""The sampling methods' own error, calibrated on one set of cases and checked on another (issue 19).

A sampled run's 95% confidence interval (gpusim.engine.sampling) comes from the spread of the rates it
measured: sampling noise. It says nothing of the method's bias, what extrapolating those rates over the
skipped work gets wrong (a loop whose iterations slow down after the measuring window, a grid whose rate
climbs after its head). This script measures that bias against full simulations:

  training  a ``benchmarks/sampling.py --json`` run (by default the small cases, ``--quick``). For each
            sampled case, r = |sampled - full| / sampled / s, where s = 1 - the fraction simulated in detail
            (the share of the work projected rather than simulated). Per method, the ``--quantile`` of r
            (default 0.95, the next-higher sample) is the method's error per unit of skipped share:
            gpusim.engine.sampling.METHOD_ERROR.
  held out  another such run (by default the large cases). For each sampled case it checks whether the full
            cycles lie within the bound sqrt(ci^2 + (100 METHOD_ERROR s)^2) % of the sampled cycles (ci:
            the run's noise interval), and prints how many do, per method, beside the noise interval's
            own coverage.

A method the training run never sampled (no small case is grid-sampled: their rates never settle within
their few rounds) is trained on the held-out run's cases of one group instead (``--train-group``, by default
the clang OpenCL corpus), which then leave that method's held-out check: the grid method is calibrated on
the corpus kernels and checked on the workloads and the HIP kernels.

    python benchmarks/sampling.py --quick --json small.json
    python benchmarks/sampling.py --json large.json
    python benchmarks/sampling_bias.py small.json large.json

With ``--use-shipped`` the held-out check uses the METHOD_ERROR gpusim ships instead of the one just
calibrated (they match when the shipped figures came from this training run).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

METHODS = ("loop", "grid")


def sampled_cases(run: dict) -> list:
    """sampled_cases are the records of a benchmarks/sampling.py --json run whose sampled run skipped work."""
    return [c for c in run["cases"] if c.get("method") in METHODS and c.get("simulated_fraction", 1.0) < 1.0]


def skipped_share(case: dict) -> float:
    """skipped_share is the part of the case's wave-instructions projected rather than simulated."""
    return 1.0 - float(case["simulated_fraction"])


def miss_pct(case: dict) -> float:
    """miss_pct is how far the case's sampled cycles are from its full ones, as a % of the sampled cycles
    (the bound is a % of a run's own, projected, cycles)."""
    return 100.0 * abs(case["sampled_cycles"] - case["full_cycles"]) / case["sampled_cycles"]


def error_per_skipped(case: dict) -> float:
    """error_per_skipped is |sampled - full| / sampled over the case's skipped share."""
    return miss_pct(case) / 100.0 / skipped_share(case)


def borrow_training(training: list, held_out: list, group: str) -> tuple[list, list, list]:
    """borrow_training moves the ``held_out`` cases of ``group`` whose method has no case in ``training`` into
    the training set; returns (training, held_out, the cases moved)."""
    trained = {c["method"] for c in training}
    borrowed = [c for c in held_out if c["method"] not in trained and c.get("group") == group]
    return training + borrowed, [c for c in held_out if c not in borrowed], borrowed


def calibrate(training: list, quantile: float) -> dict:
    """calibrate returns {method: the ``quantile`` of error_per_skipped over ``training``'s cases of that
    method (the next-higher sample, so few cases err wide)}; a method without cases is left out."""
    out = {}
    for method in METHODS:
        r = [error_per_skipped(c) for c in training if c["method"] == method]
        if r:
            out[method] = float(np.quantile(np.array(r), quantile, method="higher"))
    return out


def bound_pct(case: dict, method_error: dict) -> float:
    """bound_pct is the case's error bound as a % of its sampled cycles: its noise interval and its method's
    error per skipped share times its skipped share, added in quadrature."""
    bias = 100.0 * method_error.get(case["method"], 0.0) * skipped_share(case)
    return math.hypot(case.get("ci_pct") or 0.0, bias)


def coverage(cases: list, method_error: dict) -> dict:
    """coverage is {method: (cases, within the noise interval, within the bound)} over ``cases``."""
    out = {}
    for method in METHODS:
        mine = [c for c in cases if c["method"] == method]
        noise = sum(miss_pct(c) <= (c.get("ci_pct") or 0.0) for c in mine)
        bound = sum(miss_pct(c) <= bound_pct(c, method_error) for c in mine)
        out[method] = (len(mine), noise, bound)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("training", type=Path, help="benchmarks/sampling.py --json of the training cases")
    parser.add_argument("held_out", type=Path, help="benchmarks/sampling.py --json of the held-out cases")
    parser.add_argument("--quantile", type=float, default=0.95, help="the quantile of the training errors "
                        "per skipped share taken as the method's error (default 0.95)")
    parser.add_argument("--train-group", default="corpus", choices=("workloads", "kernels", "corpus"),
                        help="the held-out run's group whose cases train a method the training run never sampled "
                             "(default: corpus)")
    parser.add_argument("--use-shipped", action="store_true",
                        help="check the held-out cases against gpusim's METHOD_ERROR, not the calibrated one")
    args = parser.parse_args(argv)
    if not 0 < args.quantile <= 1:
        parser.error(f"--quantile {args.quantile}: not in (0, 1]")
    try:
        runs = [json.loads(p.read_text()) for p in (args.training, args.held_out)]
        training, held_out, borrowed = borrow_training(*(sampled_cases(r) for r in runs), args.train_group)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"sampling_bias.py: cannot read the runs: {err}", file=sys.stderr)
        return 2
    calibrated = calibrate(training, args.quantile)
    print(f"training: {args.training} ({len(training) - len(borrowed)} sampled cases)"
          + (f" and {len(borrowed)} {args.train_group} cases of {args.held_out}" if borrowed else ""))
    for method in METHODS:
        mine = sorted((error_per_skipped(c), c["name"]) for c in training if c["method"] == method)
        if mine:
            listed = ", ".join(f"{name} {r:.4f}" for r, name in mine)
            print(f"  {method}: error per skipped share, q{args.quantile:g} = {calibrated[method]:.4f} ({listed})")
    if args.use_shipped:
        from gpusim.engine.sampling import METHOD_ERROR
        used, label = dict(METHOD_ERROR), "gpusim's METHOD_ERROR"
    else:
        used, label = calibrated, "the calibrated figures"
    print(f"held out: {args.held_out} ({len(held_out)} sampled cases), bound from {label}: "
          + ", ".join(f"{m} {v:.4f}" for m, v in used.items()))
    print(f"  {'case':26s} {'method':6s} {'error':>8s} {'noise CI':>9s} {'bound':>8s}  within")
    for c in held_out:
        b = bound_pct(c, used)
        print(f"  {c['name']:26s} {c['method']:6s} {c['error_pct']:+7.2f}% {c.get('ci_pct') or 0.0:8.2f}% "
              f"{b:7.2f}%  {'yes' if miss_pct(c) <= b else 'NO'}")
    for method, (n, noise, bound) in coverage(held_out, used).items():
        if n:
            print(f"  {method}: full cycles within the noise interval in {noise} of {n}, within the bound in "
                  f"{bound} of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
