"""gpusim sweep of a Triton kernel: constexprs and compile options vary like any other key, the grid follows
them, and every mistake is named at the study's line before anything runs."""
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="Triton 3.x is not installed (pip install -e '.[triton]')")

from gpusim.sweep import load_study  # noqa: E402
from gpusim.sweep.point import run_point  # noqa: E402
from study_files import refused, write  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
N = 8192
WORKLOAD = f"""\
workload:
  triton: triton_kernels.py:add_kernel
  grid: "(n + BLOCK - 1) // BLOCK"
  args: {{x_ptr: "f32[{N}]:uniform(-1,1)", y_ptr: "f32[{N}]:uniform(-1,1)", out_ptr: "f32[{N}]", n: {N}}}
"""
STUDY = f"""\
name: vadd
arch: cdna3
{WORKLOAD}vary:
  triton.BLOCK: [128, 256, 512]
  triton.num_warps: [2, 4]
metrics: [time_us, cycles, hbm_tbs]
"""


@pytest.fixture
def folder(tmp_path):
    shutil.copy(REPO / "tests" / "frontends" / "triton_kernels.py", tmp_path / "triton_kernels.py")
    return tmp_path


def test_a_triton_study_varies_constexprs_and_num_warps(folder):
    study = load_study(write(folder, STUDY))
    assert study.triton["kernel"] == "add_kernel" and study.triton["grid"] == ["(n + BLOCK - 1) // BLOCK"]
    assert study.columns == ("triton.BLOCK", "triton.num_warps")
    assert len(study.points()) == 6
    spec = study.to_dict()
    rows = {}
    for params in ({"triton.BLOCK": 128, "triton.num_warps": 4}, {"triton.BLOCK": 512, "triton.num_warps": 4},
                   {"triton.BLOCK": 512, "triton.num_warps": 2}):
        row = run_point(spec, params)
        assert row["status"] == "ok", row["error"]
        assert row["time_us"] > 0 and row["cycles"] > 0 and row["arch_hash"]
        rows[params["triton.BLOCK"], params["triton.num_warps"]] = row["cycles"]
    # a bigger block is fewer, longer programs; fewer warps per block, more work per wave: times differ
    assert rows[128, 4] != rows[512, 4]
    assert rows[512, 4] != rows[512, 2]


def test_arch_keys_and_fixed_options_apply(folder):
    text = STUDY.replace("  triton.num_warps: [2, 4]\n", "  arch.hbm.channels: [32, 128]\n").replace(
        "  grid:", "  num_stages: 2\n  constexprs: {BLOCK: 256}\n  grid:")
    study = load_study(write(folder, text))
    assert study.triton["num_stages"] == 2 and study.triton["constexprs"] == {"BLOCK": 256}
    row = run_point(study.to_dict(), {"triton.BLOCK": 256, "arch.hbm.channels": 32})
    assert row["status"] == "ok", row["error"]


@pytest.mark.parametrize("vary, message", [
    ("triton.BLOK: [128]", r"study.yaml:\d+:\d+: error: vary.triton.BLOK: kernel 'add_kernel' has no constexpr "
                           r"'BLOK'.*\(did you mean 'triton.BLOCK'\?\)"),
    ("triton.num_warps: [4, 3]", r"study.yaml:\d+:\d+: error: vary.triton.num_warps: num_warps is a power of two"),
    ("triton.num_warps: [32]", r"study.yaml:\d+:\d+: error: vary.triton.num_warps: num_warps is a power of two"),
    ("triton.BLOCK: [abc]", r"study.yaml:\d+:\d+: error: vary.triton.BLOCK: a constexpr is a number"),
    ("triton.BLOCK: [0]", r"study.yaml:\d+:\d+: error: vary: division by zero"),
    ("gen.gemm.tile: [64x64x32]", r"study.yaml:\d+:\d+: error: vary: unknown key 'gen.gemm.tile' in a Triton study"),
    ("arch.hbm.chanels: [64]", r"study.yaml:\d+:\d+: error: vary.arch.hbm.chanels: "),
])
def test_a_bad_key_or_value_is_named_at_the_study_line(folder, vary, message):
    err = refused(folder, f"{WORKLOAD}vary:\n  {vary}\n")
    assert re.search(message, err), err
    assert re.search(r"study.yaml:6:", err), err   # the line of the vary entry


@pytest.mark.parametrize("change, message", [
    (("add_kernel", "add_kernal"), r"study.yaml:2:\d+: error: workload: .*no @triton.jit kernel 'add_kernal'"),
    (("triton_kernels.py", "missing.py"), r"study.yaml:2:\d+: error: Triton file missing.py not found"),
    (("(n + BLOCK - 1) // BLOCK", "m // BLOCK"), r"study.yaml:3:\d+: error: workload.grid: 'm' in 'm // BLOCK' "
                                                 r"is neither"),
    (("x_ptr:", "xx_ptr:"), r"study.yaml:4:\d+: error: workload.args: kernel 'add_kernel' has no runtime argument "
                            r"'xx_ptr'"),
    (("f32[", "f33["), r"study.yaml:4:\d+: error: workload.args.x_ptr: "),
    ((", n: 8192", ""), r"study.yaml:4:\d+: error: workload.args: kernel 'add_kernel' needs a value for n"),
    (("  grid:", "  num_warps: 5\n  grid:"), r"study.yaml:3:\d+: error: workload: num_warps is a power of two"),
])
def test_a_bad_workload_is_named_at_its_line(folder, change, message):
    err = refused(folder, WORKLOAD.replace(*change) + "vary:\n  triton.BLOCK: [128]\n")
    assert re.search(message, err), err


def test_a_constexpr_neither_fixed_nor_varied_is_refused(folder):
    err = refused(folder, WORKLOAD + "vary:\n  triton.num_warps: [4]\n")
    assert "needs constexprs BLOCK" in err and "triton.<NAME>" in err


def test_triton_keys_need_a_triton_workload(folder):
    err = refused(folder, "workload: {gen: gemm, m: 256, n: 256, k: 256}\nvary:\n  triton.BLOCK: [128]\n")
    assert re.search(r"study.yaml:3:\d+: error: vary.triton.BLOCK: triton.\* keys vary a Triton kernel", err), err


def test_a_triton_compile_failure_is_an_invalid_row(folder):
    study = load_study(write(folder, f"{WORKLOAD}vary:\n  triton.BLOCK: [100]\n"))   # tl.arange needs a power of 2
    row = run_point(study.to_dict(), {"triton.BLOCK": 100})
    assert row["status"] == "invalid" and "Triton could not compile" in row["error"]


def test_the_shipped_study_loads():
    study = load_study(REPO / "studies" / "triton_vadd_blocks.yaml")
    assert study.triton and len(study.points()) >= 3
