"""The float functions gpusim's HIP header builds itself (expm1f, log1pf, tanhf, sinhf, coshf, erff) and two the
backend lowers (log10f, exp10f), run on gpusim over every binade of both signs and the special values, against
Python's double-precision math rounded to float: within a few ulp (OpenCL C's full-profile bounds are 3, 2, 5,
4, 4, 16, 3 and 3), the special values and the sign of zero exact. The header's declarations of what it cannot provide name the function where it is
called."""
from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.frontends import hip
from gpusim.frontends.hip import INCLUDE, HipCompileError

DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 compiles HIP")

def exp10(v: float) -> float:
    return 10.0 ** v


# each function, the ulp it was measured within (2026-11-29), in the kernel's output order
FUNCTIONS = [(math.expm1, 3), (math.log1p, 2), (math.tanh, 2), (math.sinh, 2), (math.cosh, 1), (math.erf, 1),
             (math.log10, 2), (exp10, 1)]
# where a logarithm's argument makes Python raise ValueError, the input at which its value is -inf (below it NaN)
POLES = {math.log1p: -1.0, math.log10: 0.0}


def _reference(f, v: float) -> float:
    """_reference is ``f(v)`` correctly rounded to float (to within double's own rounding)."""
    try:
        return float(np.float32(f(v)))
    except OverflowError:   # sinh, cosh, expm1, exp10 past float's range
        return math.copysign(math.inf, v) if f is math.sinh else math.inf
    except ValueError:      # log1p at -1 and log10 at 0 are -inf, below them NaN
        return -math.inf if v == POLES[f] else math.nan


def _ulp(got: float, want: float) -> float:
    if math.isnan(want) or math.isnan(got):
        return 0.0 if math.isnan(want) and math.isnan(got) else math.inf
    if math.isinf(want) or math.isinf(got) or want == 0.0:
        return 0.0 if got == want and math.copysign(1, got) == math.copysign(1, want) else math.inf
    return abs(got - want) / float(np.spacing(np.float32(abs(want))))


@pytest.fixture(scope="module")
def swept():
    with np.errstate(over="ignore"):
        r = gpusim.simulate(gpusim.load_kernel(DATA / "math_functions.hip"), "cdna3", timing=False)
    return r.outputs["x"].astype(np.float64), r.outputs["y"].reshape(-1, len(FUNCTIONS)).astype(np.float64)


@pytest.mark.parametrize("k", range(len(FUNCTIONS)), ids=[f.__name__ for f, _ in FUNCTIONS])
def test_header_math_is_within_its_ulp_bound_and_exact_on_special_values(swept, k):
    f, bound = FUNCTIONS[k]
    x, y = swept
    with np.errstate(over="ignore"):
        errors = [(_ulp(float(g), _reference(f, float(v))), float(v), float(g)) for v, g in zip(x, y[:, k])]
    worst = max(errors)
    assert worst[0] <= bound, f"{f.__name__}({worst[1]!r}) = {worst[2]!r}: {worst[0]} ulp"
    specials = x[131072:]   # +-0, +-inf, NaN, -1, 1, -2, in the errors above with 0 or inf ulp, nothing between
    assert len(specials) == 256 and np.isnan(specials).sum() == 32 and (specials == 0).sum() == 64


@pytest.mark.parametrize("statement, col, message", [
    ("d[threadIdx.x] = exp(d[threadIdx.x]);", 20, "'exp' is unavailable: not in gpusim's HIP header"),
    ("d[threadIdx.x] = __dmul_rz(d[threadIdx.x], 3.0);", 20,
     "'__dmul_rz' is unavailable: gpusim's HIP header rounds arithmetic to nearest only"),
], ids=["lacks (exp without ocml)", "refuses (directed rounding)"])
def test_a_function_the_header_lacks_or_refuses_is_named_where_it_is_called(tmp_path, statement, col, message):
    src = tmp_path / "k.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                   "__global__ void k(double *d) {\n"
                   f"  {statement}\n"
                   "}\n")
    with pytest.raises(HipCompileError) as info:
        gpusim.load_kernel(src)
    assert str(info.value).startswith(f"{src}:3:{col}: error: {message}")


def test_every_ocml_function_is_a_named_error_without_the_device_libraries(tmp_path):
    """gpusim_hip_ocml.h's one table gives each function both ways: without --device-libs each is refused by name."""
    table = (INCLUDE / "gpusim_hip_ocml.h").read_text()
    names = re.findall(r"F([1-4])\((float|double), (\w+), __ocml_\w+\)", table)
    assert len(names) > 80 and ("3", "float", "norm3df") in names
    calls = "\n".join(f"  o[{i}] = {name}({', '.join(['o[0]'] * int(n))});" for i, (n, _, name) in enumerate(names))
    src = tmp_path / "k.hip"
    src.write_text(f"__global__ void k(double *o) {{\n{calls}\n}}\n")
    done = subprocess.run(hip.compile_args(str(src), "gfx942", output="-") + ["-ferror-limit=0"],
                          capture_output=True, text=True)
    refused = set(re.findall(r"error: '(\w+)' is unavailable: not in gpusim's HIP header", done.stderr))
    assert refused == {name for _, _, name in names}
