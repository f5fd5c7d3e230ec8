"""Where the grid method's skipped middle runs (gpusim.engine.middle): beside the timing loop only where no
workgroup's sliced run stores what another may read; the faults it finds are tested in test_sampling.py."""
from pathlib import Path

import pytest

import gpusim
from gpusim.asm.value_slice import value_slice
from gpusim.engine.middle import MiddlePlace, middle_place

ROOT = Path(__file__).resolve().parents[2]


def _place(path: Path, **kw) -> MiddlePlace:
    program = gpusim.load_kernel(str(path)).program
    return middle_place(program, value_slice(program), **kw)


@pytest.mark.parametrize("path", [ROOT / "workloads" / "saxpy.s", ROOT / "workloads" / "transpose_lds_tile.s",
                                  # its compares of loaded values only select data: no load is in the slice
                                  ROOT / "workloads" / "silu_to_f16.s",
                                  ROOT / "tests" / "data" / "corpus" / "gfx942" / "f16_math.s",
                                  # its taps are scalar loads through a base it advances, whose values only feed data
                                  ROOT / "benchmarks" / "kernels" / "fir.s"])
def test_a_middle_whose_slice_stores_nothing_runs_beside_the_loop(path):
    assert _place(path, grid=True, with_functional=False) == MiddlePlace(in_loop=False, beside=True)


@pytest.mark.parametrize("path", [ROOT / "workloads" / "bitonic_step.s",
                                  ROOT / "tests" / "data" / "corpus" / "gfx942" / "gather.s"])
def test_a_middle_whose_addresses_read_what_workgroups_store_runs_in_the_loop_in_order(path):
    # their slices load buffers, so every store is in them: a workgroup may read what an earlier one wrote
    assert _place(path, grid=True, with_functional=False) == MiddlePlace(in_loop=True, beside=False)


@pytest.mark.parametrize("path", [ROOT / "workloads" / "saxpy.s", ROOT / "workloads" / "bitonic_step.s"])
def test_a_functional_run_after_the_timed_one_or_no_grid_method_leaves_the_loop_nothing_to_run(path):
    nothing = MiddlePlace(in_loop=False, beside=False)
    assert _place(path, grid=True, with_functional=True) == nothing
    assert _place(path, grid=False, with_functional=False) == nothing
