"""The Python API: load_kernel, simulate, Result and its counters."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim import api
from gpusim.errors import GpusimError, HeaderError, UsageError

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "data" / "corpus"
VADD = CORPUS / "gfx942" / "vadd_tail.s"


def test_package_exposes_the_api():
    assert gpusim.load_kernel is api.load_kernel
    assert gpusim.simulate is api.simulate
    assert gpusim.load_arch is api.load_arch
    with pytest.raises(AttributeError):
        gpusim.no_such_function  # noqa: B018


def test_load_kernel_reads_descriptor_header_and_target():
    k = api.load_kernel(VADD)
    assert k.name == "vadd_tail" and k.target == "gfx942"
    assert k.descriptor["next_free_vgpr"] == 8 and k.descriptor["user_sgpr_count"] == 2
    assert k.module.launch.grid == (4, 1, 1) and k.module.launch.block == (256, 1, 1)
    assert [a.name for a in k.module.args] == ["a", "b", "c", "n"]
    assert len(k.module.checks) == 1
    assert len(k.program) == 20
    assert api.load_kernel(CORPUS / "gfx90a" / "vadd_tail.s").target == "gfx90a"


def test_load_kernel_overrides_do_not_touch_the_file_defaults():
    k = api.load_kernel(VADD, grid="2,1,1", block=(128,), args={"n": "500"})
    assert k.module.launch.grid == (2, 1, 1) and k.module.launch.block == (128, 1, 1)
    assert {a.name: a.value for a in k.module.args}["n"] == 500
    assert api.load_kernel(VADD).module.launch.grid == (4, 1, 1)


def test_load_kernel_errors_are_gpusim_errors(tmp_path):
    with pytest.raises(GpusimError):
        api.load_kernel(tmp_path / "missing.s")
    with pytest.raises(HeaderError, match="unknown argument 'nn'"):
        api.load_kernel(VADD, args={"nn": "1"})
    with pytest.raises(UsageError, match="no kernel 'nope'"):
        api.load_kernel(VADD, kernel="nope")


def test_simulate_returns_a_result_with_outputs_and_checks():
    r = api.simulate(api.load_kernel(VADD), "cdna3", check=True)
    assert r.kernel == "vadd_tail" and r.target == "gfx942" and r.arch.name == "cdna3"
    assert r.grid == (4, 1, 1) and r.block == (256, 1, 1)
    assert r.checks_passed and len(r.checks) == 1 and r.checks[0].elements == 1000
    assert set(r.outputs) == {"a", "b", "c"}
    np.testing.assert_array_equal(r.outputs["c"], r.outputs["a"] + r.outputs["b"])
    assert r.occupancy is not None and r.occupancy.limiter


def test_simulate_accepts_an_arch_object_and_cdna2():
    arch = api.load_arch("cdna2")
    r = api.simulate(api.load_kernel(CORPUS / "gfx90a" / "saxpy.s"), arch, check=True)
    assert r.arch is arch and r.checks_passed


def test_simulate_without_check_lines_refuses_check(tmp_path):
    text = VADD.read_text().replace("; gpusim-check: c == a + b\n", "")
    (tmp_path / "nocheck.s").write_text(text)
    k = api.load_kernel(tmp_path / "nocheck.s")
    assert api.simulate(k).checks == []
    with pytest.raises(HeaderError, match="no '; gpusim-check:' line"):
        api.simulate(k, check=True)


def test_result_to_dict_is_json_ready():
    r = api.simulate(api.load_kernel(VADD), "cdna3", check=True)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert {"kernel", "target", "arch", "arch_hash", "grid", "block", "counters", "checks", "resolved_arch"} <= set(d)
    assert d["counters"] == r.counters
    assert d["checks"][0]["passed"] is True and d["checks"][0]["check"] == "c == a + b"
    assert d["resolved_arch"]["gfx_target"] == "gfx942"
    assert len(d["arch_hash"]) == 64


def test_result_to_frame_when_pandas_is_there():
    pd = pytest.importorskip("pandas")
    frame = api.simulate(api.load_kernel(VADD)).to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["kind", "name", "instance", "value", "unit"]
    counters = frame[frame["kind"] == "counter"]
    assert dict(zip(counters["name"], counters["value"]))["SQ_WAVES"] == 16


def test_simulate_is_functional_unless_asked_for_timing():
    r = api.simulate(api.load_kernel(VADD))
    assert r.cycles is None and r.instances == {} and "GRBM_GUI_ACTIVE" not in r.counters


def test_flops_of_an_mfma_kernel_are_2mnk_per_mfma():
    r = api.simulate(api.load_kernel(CORPUS / "gfx942" / "mfma_gemm_32x32x8f16.s"))
    c = r.counters
    assert c["SQ_INSTS_VALU_MFMA_F16"] == c["SQ_INSTS_MFMA"] > 0
    assert 512 * c["SQ_INSTS_VALU_MFMA_MOPS_F16"] == 2 * 32 * 32 * 8 * c["SQ_INSTS_MFMA"]
    # a 64x64x64 GEMM: 2 * 64**3 FLOPs, all of them in MFMAs
    assert r.metrics["MFMA_FLOPs"] == 2 * 64 ** 3 and r.metrics["VALU_FLOPs"] == 0


def test_flops_of_a_vector_fma_kernel_count_64_lanes_per_wave_instruction():
    """saxpy does one v_fmac_f32 per wave with work (each stores once), all 64 lanes counted as rocprof does."""
    k = api.load_kernel(CORPUS / "gfx942" / "saxpy.s")
    r = api.simulate(k)
    c = r.counters
    assert c["SQ_INSTS_VALU_FMA_F32"] == c["SQ_INSTS_VMEM_WR"] > 0
    assert r.metrics["VALU_FLOPs"] == 64 * 2 * c["SQ_INSTS_VALU_FMA_F32"]


def test_vadd_tail_counters_match_its_listing():
    """Every wave of vadd_tail runs the same 20 instructions (the last wave still
    has 40 live lanes, so s_cbranch_execz does not skip): 8 VALU, 1 SALU, 3 SMEM,
    2 VMEM loads, 1 store, 1 branch, 3 s_waitcnt and s_endpgm."""
    c = api.simulate(api.load_kernel(VADD)).counters
    waves = 16
    assert c["SQ_WAVES"] == waves and c["SQ_WORKGROUPS"] == 4
    assert c["SQ_INSTS_VALU"] == 8 * waves
    assert c["SQ_INSTS_SALU"] == 1 * waves
    assert c["SQ_INSTS_SMEM"] == 3 * waves
    assert c["SQ_INSTS_VMEM_RD"] == 2 * waves and c["SQ_INSTS_VMEM_WR"] == 1 * waves
    assert c["SQ_INSTS_BRANCH"] == 1 * waves
    assert c["SQ_INSTS_LDS"] == 0 and c["SQ_INSTS_MFMA"] == 0
    assert c["GPUSIM_INSTS_TOTAL"] == 20 * waves


@pytest.mark.parametrize("name, grid, block", [
    ("vadd_tail", None, None),
    ("gemm_lds_tiled", None, None),
    ("mfma_gemm_32x32x8f16", None, None),
    ("wave_min_swizzle", None, None),
    ("saxpy", "3,1,1", "100,1,1"),
    ("saxpy", "2,1,1", "65,1,1"),
    ("saxpy", "1,1,1", "1,1,1"),
])
def test_sq_waves_is_workgroups_times_waves_per_workgroup(name, grid, block):
    k = api.load_kernel(CORPUS / "gfx942" / f"{name}.s", grid=grid, block=block)
    g, b = k.module.launch.grid, k.module.launch.block
    c = api.simulate(k).counters
    assert c["SQ_WORKGROUPS"] == g[0] * g[1] * g[2]
    assert c["SQ_WAVES"] == c["SQ_WORKGROUPS"] * math.ceil(b[0] * b[1] * b[2] / 64)


def test_mfma_kernel_counts_mfma_inside_valu():
    c = api.simulate(api.load_kernel(CORPUS / "gfx942" / "mfma_gemm_32x32x8f16.s")).counters
    assert c["SQ_INSTS_MFMA"] > 0
    assert c["SQ_INSTS_VALU"] >= c["SQ_INSTS_MFMA"]


def test_simulation_is_deterministic():
    k = api.load_kernel(CORPUS / "gfx942" / "hist_global_atomic.s")
    a, b = api.simulate(k, check=True), api.simulate(k, check=True)
    assert a.counters == b.counters
    for name in a.outputs:
        np.testing.assert_array_equal(a.outputs[name], b.outputs[name])


def test_kernel_occupancy_matches_the_result():
    k = api.load_kernel(CORPUS / "gfx942" / "mfma_gemm_32x32x8f16.s")
    occ = api.kernel_occupancy(k, api.load_arch("cdna3"))
    assert occ.waves_per_simd == 8 and occ.limiter == "waves"
    assert api.simulate(k).occupancy.waves_per_simd == occ.waves_per_simd
    # an architecture's name, as simulate takes it (it used to fail with "'str' object has no attribute 'cu'")
    assert api.kernel_occupancy(k, "cdna3") == occ and api.kernel_occupancy(k) == occ
