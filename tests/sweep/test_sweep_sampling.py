"""Sampled timing in studies and tuning: the ``sample:`` key, the sampling columns of each row, and what
``gpusim tune`` says of sampled times.

The engine decides what is sampled; where a test needs a sampled point it wraps gpusim.api.simulate
to give the Result the SamplingOutcome it needs."""
import dataclasses
from pathlib import Path

import pytest

from gpusim import api
from gpusim.cli import main
from gpusim.engine.sampling_policy import SamplingOutcome
from gpusim.sweep import StudyError, load_study, read_results
from gpusim.sweep.point import SAMPLE_COLUMNS, run_point
from gpusim.sweep.results import ResultsFolder
from gpusim.sweep.study import Study, study_from_parts
from gpusim.sweep.tune import TuneOutcome, format_tune
from study_files import write

REPO = Path(__file__).resolve().parents[2]
STUDY = """\
name: stream-sample
arch: cdna3
vary:
  gen.stream.vec: [1, 4]
workload: {gen: stream, op: copy, n: 16384}
metrics: [time_us, cycles]
"""
POINT = {"gen.stream.vec": 4}


def with_sample(value: str) -> str:
    return STUDY + f"sample: {value}\n"   # line 7


# --- the study key ------------------------------------------------------------------------------

@pytest.mark.parametrize("written, mode", [(None, "auto"), ("off", "off"), ("on", "on"), ("'on'", "on"),
                                           ("auto", "auto")])
def test_sample_key_gives_each_point_its_mode(tmp_path, written, mode):
    study = load_study(write(tmp_path, STUDY if written is None else with_sample(written)))
    assert study.sample == mode and study.to_dict()["sample"] == mode


def test_the_sample_mode_is_part_of_the_study_hash(tmp_path):
    hashes = {load_study(write(tmp_path, with_sample(m), f"{m}.yaml")).hash() for m in ("auto", "on", "off")}
    assert len(hashes) == 3
    assert load_study(write(tmp_path, STUDY)).hash() == load_study(write(tmp_path, with_sample("auto"))).hash()


@pytest.mark.parametrize("value, message", [
    ("sometimes", r"study.yaml:7:9: error: 'sample' is one of auto, on, off \(sampled timing of each point, as "
                  r"gpusim run --sample\), got 'sometimes' \[in: sample: sometimes\]$"),
    ("offf", r"study.yaml:7:9: error: 'sample' is one of auto, on, off .*\(did you mean 'off'\?\)"),
    ("2", r"study.yaml:7:9: error: 'sample' is one of auto, on, off .*got a number \(2\)"),
])
def test_a_bad_sample_mode_is_named_at_its_line(tmp_path, value, message):
    with pytest.raises(StudyError, match=message):
        load_study(write(tmp_path, with_sample(value)))


def test_a_program_study_samples_its_launches_as_told(tmp_path, monkeypatch):
    program = REPO / "workloads" / "pipeline_2stream.yaml"
    studies = {m: load_study(write(tmp_path, f"workload: {{program: {program}}}\nmetrics: [total_us]\nsample: {m}\n", f"{m}.yaml"))
               for m in ("auto", "off")}
    assert {m: s.sample for m, s in studies.items()} == {"auto": "auto", "off": "off"}
    # a folder of program rows timed in full before launches could be sampled keeps its hash under off only
    assert studies["auto"].hash() != studies["off"].hash()
    from gpusim.system import simulate as program_sim
    seen = []
    monkeypatch.setattr(program_sim, "simulate_program", lambda prog, **kw: seen.append(kw["sample"]) or _Sampled())
    row = run_point(studies["auto"].to_dict(), {})
    assert seen == ["auto"]
    assert row["status"] == "ok", row
    # one of two launches sampled, its error estimate 1 us of a 200 us program
    assert (row["sampled"], row["sample_method"], row["sample_error_pct"]) == (True, "full+grid", 0.5)


class _Sampled:
    """a ProgramResult as run_point reads it: two launches, the second sampled"""
    launches = [{"sample_method": "full"}, {"sample_method": "grid"}]
    sampling = {"launches": 1, "of_launches": 2, "kernel_us": 100.0, "error_us": 1.0, "error_pct": 0.5}
    total_us = 200.0


def test_cli_sweep_refuses_a_bad_sample_in_one_line(tmp_path, cli):
    write(tmp_path, with_sample("maybe"))
    proc = cli("sweep", "study.yaml", "--list")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "study.yaml:7:9: error: 'sample' is one of auto, on, off" in proc.stderr


# --- each row records the sampling ------------------------------------------------------------

def test_a_point_timed_in_full_records_it(tmp_path):
    row = run_point(load_study(write(tmp_path, with_sample("off"))).to_dict(), POINT)
    assert row["status"] == "ok", row["error"]
    assert {k: row[k] for k in SAMPLE_COLUMNS} == {"sampled": False, "sample_method": "full",
                                                  "sample_error_pct": 0.0}


@pytest.fixture
def sampled_grid(monkeypatch):
    """every timed simulate reports grid sampling with a 95% interval of cycles +- 1.5%; ``modes`` collects the
    sample keyword of each call"""
    real = api.simulate
    modes = []

    def fake(kernel, arch="cdna3", **kwargs):
        modes.append(kwargs.get("sample"))
        result = real(kernel, arch, **kwargs)
        c = result.cycles
        return dataclasses.replace(result, sampling=SamplingOutcome("grid", "steady rounds", 0.25, c // 4,
                                                                    c - round(c * 0.015), c + round(c * 0.015), 12))

    monkeypatch.setattr(api, "simulate", fake)
    return modes


def test_a_sampled_point_records_its_method_and_error(tmp_path, sampled_grid):
    for written, mode in (("auto", "auto"), ("on", "on")):
        study = load_study(write(tmp_path, STUDY if written is None else with_sample(written)))
        row = run_point(study.to_dict(), POINT)
        assert row["status"] == "ok", row["error"]
        assert sampled_grid[-1] == mode
        assert row["sampled"] is True and row["sample_method"] == "grid"
        assert row["sample_error_pct"] == pytest.approx(1.5, abs=0.01)


def test_a_sample_interval_reaches_each_point_and_the_study_hash(tmp_path, sampled_grid):
    from gpusim.engine.sampling_policy import SamplingPolicy
    study = load_study(write(tmp_path, with_sample("auto") + "sample_interval: 2.5\n"))
    assert study.sample_interval == 2.5
    row = run_point(study.to_dict(), POINT)
    assert row["status"] == "ok", row["error"]
    assert sampled_grid[-1] == SamplingPolicy(mode="auto", grid_interval_pct=2.5)
    plain = load_study(write(tmp_path, with_sample("auto"), "plain.yaml"))
    assert plain.sample_interval is None and plain.hash() != study.hash()
    run_point(plain.to_dict(), POINT)
    assert sampled_grid[-1] == "auto"


@pytest.mark.parametrize("value, message", [
    ("0", r"study.yaml:8:18: error: 'sample_interval' is a percentage above 0 and at most 100 .*got a number \(0\)"),
    ("much", r"study.yaml:8:18: error: 'sample_interval' is a percentage above 0 and at most 100"),
    ("true", r"study.yaml:8:18: error: 'sample_interval' is a percentage"),
])
def test_a_bad_sample_interval_is_named_at_its_line(tmp_path, value, message):
    with pytest.raises(StudyError, match=message):
        load_study(write(tmp_path, with_sample("auto") + f"sample_interval: {value}\n"))


def test_a_sample_interval_needs_a_sampled_study(tmp_path):
    assert load_study(write(tmp_path, STUDY + "sample_interval: 2\n")).sample_interval == 2   # auto, the default
    with pytest.raises(StudyError, match=r"study.yaml:8:18: error: 'sample_interval' applies with 'sample: auto'"):
        load_study(write(tmp_path, with_sample("off") + "sample_interval: 2\n"))


def test_results_tables_carry_the_sampling_columns(tmp_path, sampled_grid):
    study = load_study(write(tmp_path, STUDY))
    folder = ResultsFolder(tmp_path / "out", study, fmt="csv")
    at = folder.columns.index("limiter")
    assert folder.columns[at + 1:at + 4] == list(SAMPLE_COLUMNS)
    for point in study.points():
        folder.add(point, run_point(study.to_dict(), point.params))
    folder.close()
    rows = read_results(tmp_path / "out")
    assert [r["sampled"] for r in rows] == [True, True]   # booleans again, not the CSV's text
    assert [r["sample_method"] for r in rows] == ["grid", "grid"]
    assert all(r["sample_error_pct"] == pytest.approx(1.5, abs=0.01) for r in rows)


def test_a_program_study_has_the_sampling_columns_but_no_occupancy(tmp_path):
    study = Study(name="p", arch="", vary={}, metrics=("total_us",), program=str(tmp_path / "app.yaml"))
    folder = ResultsFolder(tmp_path / "out", study, fmt="csv")
    assert folder.columns == ["point", "status", "total_us", *SAMPLE_COLUMNS, "arch_hash", "host_s", "error"]
    folder.close()


# --- tune ---------------------------------------------------------------------------------------

def test_tune_studies_take_the_sample_mode():
    assert study_from_parts("t", "cdna3", "gemm", {}, [{"gen.gemm.tile": "64x64x32"}]).to_dict()["sample"] == "auto"
    study = study_from_parts("t", "cdna3", "gemm", {}, [{"gen.gemm.tile": "64x64x32"}], sample="off")
    assert study.to_dict()["sample"] == "off"


def test_tune_refuses_an_unknown_sample_mode():
    from gpusim.sweep.tune import tune
    with pytest.raises(StudyError, match="sample mode 'sometimes' is not one of auto, on, off"):
        tune("gemm", "cdna3", {"m": 512, "n": 512, "k": 128}, sample="sometimes", progress=False)


def test_cli_tune_passes_sample(monkeypatch, capsys):
    import gpusim.sweep.tune as tune_module
    seen = []

    def fake_tune(family, arch, fixed, **kwargs):
        seen.append(kwargs["sample"])
        return _outcome([])

    monkeypatch.setattr(tune_module, "tune", fake_tune)
    main(["tune", "gemm", "--quiet"])
    main(["tune", "gemm", "--quiet", "--sample", "off"])
    capsys.readouterr()
    assert seen == ["auto", "off"]


def _row(point: int, tile: str, time_us: float, sampled: bool, error: float) -> dict:
    return {"point": point, "status": "ok", "time_us": time_us, "tflops": 1.0, "MFMA_Util": 50.0,
            "waves_per_simd": 2.0, "limiter": "lds", "sampled": sampled,
            "sample_method": "loop" if sampled else "full", "sample_error_pct": error,
            "params": {"m": 512, "n": 512, "k": 128, "tile": tile}}


def _outcome(rows) -> TuneOutcome:
    return TuneOutcome("gemm", "cdna3", {"m": 512, "n": 512, "k": 128}, ("tile",), rows, [],
                       {"enumerated": 3, "valid": 3, "pruned": 0, "cut": 0, "simulated": len(rows), "failed": 0},
                       {})


def test_format_tune_says_how_many_times_were_sampled_and_when_the_best_two_tie():
    close = [_row(0, "64x64x32", 100.0, True, 0.6), _row(1, "128x128x32", 100.8, True, 0.5),
             _row(2, "32x32x16", 150.0, False, 0.0)]
    text = format_tune(_outcome(close))
    assert ("sampled: 2 of 3 times projected from a sampled simulation (error estimate up to 0.6%: sampling noise and "
            "the method's measured error); --sample off times each in full") in text
    assert ("the best two are 0.8% apart, within their sampling error (1.1%): time them with --sample off "
            "to rank them") in text
    apart = [_row(0, "64x64x32", 100.0, True, 0.6), _row(1, "128x128x32", 110.0, True, 0.5)]
    text = format_tune(_outcome(apart))
    assert "sampled: 2 of 2" in text and "the best two" not in text
    full = [_row(0, "64x64x32", 100.0, False, 0.0), _row(1, "128x128x32", 100.1, False, 0.0)]
    assert "sampled" not in format_tune(_outcome(full))


def test_tune_passes_its_sample_interval_to_every_point_and_refuses_one_without_sampling(tmp_path):
    from gpusim.sweep.tune import tune
    with pytest.raises(StudyError, match="sample interval: it applies to sampled timing"):
        tune("gemm", "cdna3", {"m": 256, "n": 256, "k": 256}, sample="off", sample_interval=2.0, progress=False)
    study = study_from_parts("t", "cdna3", "gemm", {}, [{"gen.gemm.tile": "64x64x32"}], sample="auto",
                             sample_interval=2.0)
    assert study.to_dict()["sample_interval"] == 2.0
