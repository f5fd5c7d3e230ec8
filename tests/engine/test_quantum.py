"""CUs advance in windows of ``quantum`` cycles (time_kernel's argument): a host-speed choice that must not
change what a kernel computes, and changes its cycles only slightly."""
import re
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import QUANTUM_CYCLES, time_kernel

REPO = Path(__file__).resolve().parents[2]
GEMM = REPO / "tests" / "data" / "corpus" / "gfx942" / "mfma_gemm_128x128f16.s"


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def test_one_cu_kernels_do_not_depend_on_the_window(cdna3):
    k = gpusim.load_kernel(Path(__file__).parent / "data" / "barrier.s")
    assert {time_kernel(k, cdna3, quantum=q).cycles for q in (1, 64, 4096)} == {37}


def test_a_multi_cu_gemm_computes_the_same_and_takes_nearly_the_same_time(tmp_path, cdna3):
    text = GEMM.read_text()
    for pattern, repl in {r"^; gpusim-launch: .*$": "; gpusim-launch: grid=8,4,1 block=256,1,1",
                          r"f16\[256,64\]": "f16[512,256]", r"f16\[64,256\]": "f16[256,1024]",
                          r"f32\[256,256\]": "f32[512,1024]", r"N i32 256": "N i32 1024", r"K i32 64": "K i32 256"}.items():
        text = re.sub(pattern, repl, text, flags=re.M)
    path = tmp_path / "gemm.s"
    path.write_text(text)
    k = gpusim.load_kernel(path)
    strict, windowed = (time_kernel(k, cdna3, quantum=q) for q in (1, QUANTUM_CYCLES))
    assert (strict.instruction_counts == windowed.instruction_counts).all()
    assert (strict.functional.final["C"] == windowed.functional.final["C"]).all()
    assert abs(windowed.cycles - strict.cycles) <= 0.05 * strict.cycles
