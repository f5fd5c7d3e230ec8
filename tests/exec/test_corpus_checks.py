"""Every corpus kernel runs on its own target and passes its gpusim-check lines,
and a wrong reference is reported as a failure that names the wrong elements."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from exec_support import REPO

from gpusim import api

CORPUS = REPO / "tests" / "data" / "corpus"
TARGET_ARCH = {"gfx942": "cdna3", "gfx90a": "cdna2"}
CASES = [(target, path) for target in TARGET_ARCH for path in sorted((CORPUS / target).glob("*.s"))]


def test_corpus_has_31_kernels_per_target():
    for target in TARGET_ARCH:
        assert len(list((CORPUS / target).glob("*.s"))) == 31, target


@pytest.mark.parametrize("target, path", CASES, ids=[f"{t}/{p.stem}" for t, p in CASES])
def test_corpus_kernel_passes_its_checks(target, path):
    kernel = api.load_kernel(path)
    assert kernel.target == target
    result = api.simulate(kernel, TARGET_ARCH[target], check=True)
    assert result.checks, f"{path.name} has no gpusim-check line"
    assert all(c.elements > 0 for c in result.checks)
    assert result.checks_passed, "\n".join(c.describe() for c in result.checks)
    assert result.counters["SQ_WAVES"] > 0


def _with_check_rhs(kernel, rhs: str):
    spec = dataclasses.replace(kernel.module.checks[0], rhs=rhs)
    kernel.module = dataclasses.replace(kernel.module, checks=[spec])
    return kernel


def test_wrong_reference_fails_and_names_the_first_wrong_element():
    kernel = api.load_kernel(CORPUS / "gfx942" / "saxpy.s")
    # the right answer everywhere except element 1234, which is doubled
    kernel = _with_check_rhs(kernel, "(a * x + y) * np.where(np.arange(y.size) == 1234, 2, 1)")
    result = api.simulate(kernel, "cdna3", check=True)
    assert not result.checks_passed
    (chk,) = result.checks
    assert not chk.passed
    assert chk.elements == 4000
    assert chk.mismatches == 1
    index, got, expected = chk.first_wrong[0]
    assert index == (1234,)
    assert expected == pytest.approx(2 * got, rel=1e-5)
    text = chk.describe()
    assert text.startswith("FAIL")
    assert "1 of 4000 elements differ" in text
    assert "[1234]" in text


def test_wrong_reference_everywhere_counts_every_element_and_lists_the_first_ones():
    kernel = _with_check_rhs(api.load_kernel(CORPUS / "gfx942" / "vadd_tail.s"), "a + b + 1")
    result = api.simulate(kernel, "cdna3", check=True)
    (chk,) = result.checks
    assert not result.checks_passed
    assert chk.mismatches == chk.elements == 1000
    assert [w[0] for w in chk.first_wrong][:3] == [(0,), (1,), (2,)]
    assert all(np.isclose(e, g + 1) for _, g, e in chk.first_wrong)
