"""Verifying a kernel's outputs against the numpy expressions of its ``gpusim-check`` lines.

The left side sees every buffer's final contents, the right side their
initial contents; both see scalars, ``np`` and the dtype names. The
expressions are in the safe language of :mod:`gpusim.check_expr`: they are
interpreted over an allow-list, never handed to Python's ``eval``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.asm.ir import CheckSpec
from gpusim.check_expr import CheckExprError, element_limit, evaluate, parse
from gpusim.errors import HeaderError


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


def _evaluate(expr: str, env: dict, limit: int, spec: CheckSpec) -> np.ndarray:
    """_evaluate runs one side of a check; a refused or failing expression is a HeaderError at the check line."""
    try:
        return np.asarray(evaluate(parse(expr), env, limit))
    except CheckExprError as err:
        message = err.message if err.message.startswith(("check expressions may not", "unknown name",
                                                         "invalid check")) else f"failed: {err.message}"
        raise HeaderError(f"check expression '{_short(expr)}': {message}", spec.loc, err.hint) from None


def _short(expr: str) -> str:
    return expr if len(expr) <= 80 else expr[:77] + "..."


def run_checks(checks: list[CheckSpec], final: dict, initial: dict, scalars: dict) -> list[CheckResult]:
    """run_checks evaluates every check; it raises HeaderError only for a broken expression."""
    results = []
    limit = element_limit(list(final.values()) + list(initial.values()))
    for spec in checks:
        got = _evaluate(spec.lhs, {**scalars, **final}, limit, spec)
        want = _evaluate(spec.rhs, {**scalars, **initial}, limit, spec)
        try:
            got_b, want_b = np.broadcast_arrays(got, want)
        except ValueError:
            raise HeaderError(f"check '{spec.lhs} {spec.op} {spec.rhs}': shapes {got.shape} and {want.shape} "
                              "do not match", spec.loc) from None
        if got_b.size > limit:
            raise HeaderError(f"check '{spec.lhs} {spec.op} {spec.rhs}': comparing shapes {got.shape} and "
                              f"{want.shape} makes {got_b.size} elements (the limit is {limit})", spec.loc)
        if got_b.dtype.kind not in "biufc" or want_b.dtype.kind not in "biufc":
            raise HeaderError(f"check '{spec.lhs} {spec.op} {spec.rhs}': both sides must be numbers, got "
                              f"{got.dtype} and {want.dtype}", spec.loc)
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
