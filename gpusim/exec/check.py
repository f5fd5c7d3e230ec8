"""Verifying a kernel's outputs against the numpy expressions of its ``gpusim-check`` lines.

The left side sees every buffer's final contents, the right side their
initial contents; both see scalars, ``np`` and the dtype names.
"""
from __future__ import annotations

from dataclasses import dataclass

import builtins

import numpy as np

from gpusim.asm.ir import CheckSpec
from gpusim.errors import HeaderError
from gpusim.exec.buffers import NUMPY_DTYPES


@dataclass
class CheckResult:
    """CheckResult is the outcome of one check line."""

    spec: CheckSpec
    passed: bool
    elements: int
    mismatches: int
    worst_rel_error: float
    first_wrong: list  # [(index tuple, got, expected)]

    def describe(self) -> str:
        """describe returns a one-line summary for the report."""
        s = self.spec
        head = f"{s.lhs} {s.op} {s.rhs}"
        if self.passed:
            tol = f", max rel err {self.worst_rel_error:.2e}" if s.op == "~=" else ""
            return f"PASS {head}: {self.elements} elements{tol}"
        wrong = "; ".join(f"[{','.join(map(str, idx))}] got {g} expected {e}" for idx, g, e in self.first_wrong)
        return (f"FAIL {head}: {self.mismatches} of {self.elements} elements differ"
                f"{f' (max rel err {self.worst_rel_error:.2e})' if s.op == '~=' else ''}; first: {wrong}")


def _namespace(values: dict, scalars: dict) -> dict:
    ns = {"np": np, "numpy": np}
    ns.update({name: np.dtype(t) for name, t in NUMPY_DTYPES.items()})
    ns.update(scalars)
    ns.update(values)
    return ns


def _evaluate(expr: str, ns: dict, spec: CheckSpec):
    try:
        return np.asarray(eval(compile(expr, "<gpusim-check>", "eval"), {"__builtins__": builtins}, dict(ns)))
    except Exception as exc:  # a user's expression: report it, never a traceback
        raise HeaderError(f"check expression '{expr}' failed: {type(exc).__name__}: {exc}", spec.loc) from None


def run_checks(checks: list[CheckSpec], final: dict, initial: dict, scalars: dict) -> list[CheckResult]:
    """run_checks evaluates every check; it raises HeaderError only for a broken expression."""
    results = []
    for spec in checks:
        got = _evaluate(spec.lhs, _namespace(final, scalars), spec)
        want = _evaluate(spec.rhs, _namespace(initial, scalars), spec)
        try:
            got_b, want_b = np.broadcast_arrays(got, want)
        except ValueError:
            raise HeaderError(f"check '{spec.lhs} {spec.op} {spec.rhs}': shapes {got.shape} and {want.shape} "
                              "do not match", spec.loc) from None
        if spec.op == "==":
            bad = ~((got_b == want_b) | (_isnan(got_b) & _isnan(want_b)))
            rel = np.zeros(1)
        else:
            g = got_b.astype(np.float64)
            w = want_b.astype(np.float64)
            err = np.abs(g - w)
            bad = ~((err <= spec.atol + spec.rtol * np.abs(w)) | (np.isnan(g) & np.isnan(w)))
            with np.errstate(divide="ignore", invalid="ignore"):
                rel = np.where(np.abs(w) > 0, err / np.abs(w), err)
        idx = np.argwhere(bad)[:5]
        first = [(tuple(int(x) for x in i), got_b[tuple(i)].item(), want_b[tuple(i)].item()) for i in idx]
        worst = float(np.nanmax(rel)) if rel.size else 0.0
        results.append(CheckResult(spec, not bad.any(), int(got_b.size), int(bad.sum()), worst, first))
    return results


def _isnan(a: np.ndarray) -> np.ndarray:
    return np.isnan(a) if np.issubdtype(a.dtype, np.floating) else np.zeros(a.shape, bool)
