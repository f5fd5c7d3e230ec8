"""The benchmarks' scaled kernels still load: their header rewrites match the corpus files they edit.

The benchmarks are not run in CI (they time the host), so a change to a corpus kernel's header (saxpy's
buffers becoming ``f32[n]``) would otherwise break them unnoticed. Nothing here simulates.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import gpusim

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("quick", [True, False])
def test_every_timed_rate_case_loads_at_its_scaled_size(tmp_path, quick):
    timed = _module("timed_rate")
    for case in timed.cases(quick, full=True):
        kernel = gpusim.load_kernel(timed.scaled(case.kernel, case.subs, tmp_path))
        assert kernel.module.launch.grid[0] * kernel.module.launch.grid[1] > 16, case.label   # scaled up from the corpus size


@pytest.mark.parametrize("quick", [True, False])
def test_every_functional_rate_case_loads(quick):
    functional = _module("functional_rate")
    for label, path in functional.cases(quick):
        assert gpusim.load_kernel(path).name, label
