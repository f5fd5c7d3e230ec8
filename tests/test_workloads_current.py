"""The template-made workloads are what their templates generate today, and each passes its check when
generated at a small size (the shipped sizes take minutes to check functionally; their own runs are in
the closing notes and `gpusim run workloads/NAME --arch cdna3`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.templates import generate, template

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "build_workloads.py"
sys.path.insert(0, str(SCRIPT.parent))
from build_workloads import WORKLOADS  # noqa: E402


def test_shipped_workloads_are_current():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr


# what shrinks each family to a size whose functional run and numpy check take a second or two
SMALL = {
    "attention": dict(seq_q=256, seq_k=256, heads=2),
    "stream": dict(n=1 << 16, workgroups=8),
    "transpose": dict(rows=128, cols=128),
    "reduce": dict(n=1 << 16),
    "softmax": dict(rows=8),
    "chase": dict(steps=64),
    "lds-bandwidth": dict(workgroups=2, reads=64),
}


def _small(family: str, params: dict) -> dict:
    """_small shrinks a workload: a GEMM to two tiles each way, the others by SMALL's overrides."""
    if family == "gemm":
        values = template("gemm").values(params)
        bm, bn, bk = (int(x) for x in values["tile"].split("x"))
        return dict(params, m=2 * bm, n=2 * bn, k=2 * bk * values["unroll"])
    small = dict(params, **SMALL[family])
    if family == "stream" and not small.get("grid_stride"):
        small.pop("workgroups")  # only a grid-stride kernel takes a workgroup count
    return small


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_each_workload_passes_its_check_at_a_small_size(tmp_path, name):
    family, params = WORKLOADS[name]
    path = tmp_path / name
    path.write_text(generate(family, **_small(family, params)))
    result = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True, timing=False)
    assert result.checks and result.checks_passed, result.checks
