"""gpusim explain names the bound of four kernels with different bottlenecks, from their counters alone.

Each kernel is simulated once (module-scoped fixtures) on cdna3:

* HBM-bound stream: a 64 MiB copy; HBM runs near its peak (a 16 MiB one spends a fifth of its
  time on the end-of-kernel write-back through the XCDs' fabric ports, after its last wave, and
  reaches 56% of the HBM peak).
* MFMA-bound GEMM: 4096x4864x2048 f16 with a 256x128x64 tile on 4x2 waves: two workgroups on
  every CU and 128-byte LDS rows, so the matrix cores are the busiest unit (45% busy; with K = 1024
  the tile loads' bursts at the fabric ports leave them at 37%; the 2048x2048x1024
  GEMM with the default 128x128x32 tile leaves 48 CUs without a workgroup and one wave per SIMD:
  its MFMA units are busy under a quarter of the time, and explain rightly calls it latency-bound).
* LDS-conflict transpose: 2048x2048 f32 through an unpadded [32][32] LDS tile; its column reads
  are 32-way bank conflicts.
* Latency chase: one lane chasing pointers through 1 MiB, one wave on the whole GPU.
"""
import json

import pytest

import gpusim
from gpusim.errors import UsageError
from gpusim.report.compare import flatten
from gpusim.report.explain import BOUNDS, explain, format_explain, metric_text
from gpusim.templates.registry import generate


def _run(family: str, **params):
    kernel = gpusim.kernel_from_text(generate(family, "cdna3", **params), family)
    return gpusim.simulate(kernel, "cdna3", timing=True, outputs=False)


@pytest.fixture(scope="module")
def stream():
    return _run("stream", op="copy", n=1 << 24)


@pytest.fixture(scope="module")
def gemm():
    return _run("gemm", m=4096, n=4864, k=2048, tile="256x128x64", waves="4x2")


@pytest.fixture(scope="module")
def transpose():
    return _run("transpose", variant="lds", rows=2048, cols=2048, tile=32)


@pytest.fixture(scope="module")
def chase():
    return _run("chase", footprint_bytes=1 << 20, steps=512)


KERNELS = ("stream", "gemm", "transpose", "chase")


@pytest.fixture(params=KERNELS)
def run(request):
    return request.getfixturevalue(request.param)


def test_stream_is_hbm_bound(stream):
    main = explain(stream)[0]
    m = stream.metrics
    assert main.bound == "hbm-bandwidth"
    assert m["HBM_Bandwidth_Pct_of_Peak"] >= 60
    assert f"{metric_text('HBM_Bandwidth_Pct_of_Peak', m['HBM_Bandwidth_Pct_of_Peak'])} of its peak" in main.sentence
    assert "GPUSIM_HBM_READ_BYTES_sum" in main.evidence and "HBM_Bandwidth_Pct_of_Peak" in main.evidence
    assert "latency/occupancy" not in [f.bound for f in explain(stream)]  # vmcnt waits here are the bandwidth


def test_gemm_is_mfma_bound(gemm):
    main = explain(gemm)[0]
    m = gemm.metrics
    assert main.bound == "mfma"
    assert m["MFMA_Util"] >= 40
    assert m["MFMA_Util"] > max(m["VALU_Util"], m["LDS_Util"], m["VMEM_Util"], m["HBM_Bandwidth_Pct_of_Peak"],
                                m["L2_Bandwidth_Pct_of_Peak"])
    assert main.values["MFMA_Util"] == m["MFMA_Util"]
    assert "GPUSIM_MFMA_BUSY_CYCLES" in main.evidence


def test_unpadded_transpose_is_bound_by_lds_bank_conflicts(transpose):
    findings = explain(transpose)
    main = findings[0]
    assert main.bound == "lds-bank-conflicts"
    assert transpose.metrics["LDS_Bank_Conflict_Pct"] >= 50
    assert "SQ_LDS_BANK_CONFLICT" in main.evidence and "LDS_Bank_Conflict_Pct" in main.evidence
    assert "pad" in main.advice
    assert [f.bound for f in findings].count("lds-bank-conflicts") == 1


def test_chase_is_latency_bound_with_few_waves(chase):
    findings = explain(chase)
    main = findings[0]
    m = chase.metrics
    assert main.bound == "latency/occupancy"
    # the sentence says why: vmcnt waits dominate, bandwidth is far from peak, few waves per SIMD
    assert m["Wave_Stall_VMEM_Pct"] >= 30 and m["HBM_Bandwidth_Pct_of_Peak"] < 10
    assert m["Achieved_Waves_per_Busy_SIMD"] <= 2
    for name in ("Wave_Stall_VMEM_Pct", "HBM_Bandwidth_Pct_of_Peak", "Achieved_Waves_per_Busy_SIMD"):
        assert name in main.values
    assert "memory latency is exposed" in main.sentence and "occupancy allows 8" in main.sentence
    assert "the grid, not occupancy" in main.advice  # one wave, where occupancy allows 8 per SIMD
    assert "launch/too-few-waves" in [f.bound for f in findings[1:]]


def test_every_quoted_number_is_the_metric_and_every_name_exists(run):
    counters, metrics = run.counters, run.metrics
    occupancy = {"waves_per_simd", "limiter"}
    arch_keys = set(flatten(run.arch.to_dict()))
    for f in explain(run):
        assert f.bound in BOUNDS
        assert f.values, f.sentence
        for name, value in f.values.items():
            assert value == metrics[name]
            assert metric_text(name, value) in f.sentence, (name, f.sentence)
            assert name in f.evidence
        for name in f.evidence:
            if name.startswith("occupancy."):
                assert name[len("occupancy."):] in occupancy
            elif name.startswith("arch."):
                assert name[len("arch."):] in arch_keys
            else:
                assert name in counters or name in metrics, name


def test_the_json_of_a_run_gives_the_same_findings(run, tmp_path):
    findings = explain(run)
    assert explain(run.to_dict()) == findings
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run.to_dict()))
    assert explain(json.loads(path.read_text())) == findings
    assert explain(str(path)) == findings


def test_format_puts_the_main_bound_first_with_its_evidence(stream):
    findings = explain(stream)
    text = format_explain(findings)
    first = text.splitlines()[0]
    assert first.startswith("Bound by HBM bandwidth: ")
    assert first.endswith(f"[rests on: {', '.join(findings[0].evidence)}]")
    assert text.splitlines()[1].startswith("  Try: ")


def test_a_functional_run_has_nothing_to_explain():
    kernel = gpusim.kernel_from_text(generate("stream", "cdna3", op="copy", n=1 << 14), "stream")
    with pytest.raises(UsageError, match="timed run"):
        explain(gpusim.simulate(kernel, "cdna3"))


_WAVE_COUNTERS = {"issue": "GPUSIM_WAVE_ISSUE_CYCLES", "vmcnt": "GPUSIM_STALL_WAITCNT_VM_CYCLES",
                  "lgkmcnt": "GPUSIM_STALL_WAITCNT_LGKM_CYCLES", "barrier": "GPUSIM_STALL_BARRIER_CYCLES",
                  "dependency": "GPUSIM_STALL_DEPENDENCY_CYCLES", "unit": "GPUSIM_STALL_UNIT_BUSY_CYCLES",
                  "arbiter": "GPUSIM_STALL_ARBITER_CYCLES", "nop": "GPUSIM_STALL_NOP_CYCLES",
                  "ifetch": "GPUSIM_STALL_IFETCH_CYCLES"}


def _reshaped(run, shares: dict, waves_per_busy_simd: float = 6.0, big_grid: bool = True) -> dict:
    """_reshaped is a run's JSON with its wave-cycles split as ``shares`` (percent) among the causes."""
    d = json.loads(json.dumps(run.to_dict()))
    c = d["counters"]
    total = int(waves_per_busy_simd * c["GPUSIM_CU_BUSY_CYCLES"] * run.arch.cu.simds)
    for cause, counter in _WAVE_COUNTERS.items():
        c[counter] = total * shares.get(cause, 0) // 100
    c["GPUSIM_WAVE_CYCLES"] = sum(c[counter] for counter in _WAVE_COUNTERS.values())
    if big_grid:
        c["SQ_WORKGROUPS"] = c["SQ_WAVES"] = 100_000
    return d


@pytest.mark.parametrize("shares, bound", [
    ({"issue": 20, "barrier": 60, "vmcnt": 20}, "barrier"),
    ({"issue": 20, "dependency": 60, "vmcnt": 20}, "dependency"),
    ({"issue": 55, "arbiter": 20, "vmcnt": 25}, "instruction-issue"),
    ({"issue": 25, "vmcnt": 15, "lgkmcnt": 15, "barrier": 15, "dependency": 15, "unit": 15}, "mixed"),
])
def test_the_stall_rules_of_the_table(chase, shares, bound):
    findings = explain(_reshaped(chase, shares))
    assert findings[0].bound == bound, format_explain(findings)


def test_few_waves_name_latency_even_without_vmcnt_waits(chase):
    d = _reshaped(chase, {"issue": 20, "barrier": 40, "unit": 40}, waves_per_busy_simd=1.0, big_grid=False)
    bounds = [f.bound for f in explain(d)]
    assert bounds[:2] == ["latency/occupancy", "barrier"] and bounds[-1] == "launch/too-few-waves"
