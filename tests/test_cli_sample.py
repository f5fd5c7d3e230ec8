"""``gpusim run --sample``: the flag's help and validation, how the mode reaches gpusim.simulate (auto by
default, off with a trace), the report's ``sampled`` line and the ``sampling`` object of ``--json``.

The engine decides what is sampled; these tests give the CLI a Result whose ``sampling`` is the
SamplingOutcome they need (gpusim.api.simulate replaced by a wrapper of the real one)."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from gpusim import api
from gpusim.cli import main
from gpusim.engine.sampling_policy import SAMPLE_ABOVE_WAVE_INSTRUCTIONS, SamplingOutcome, full_outcome
from gpusim.report.text import format_run

REPO = Path(__file__).resolve().parent.parent
VADD = str(REPO / "tests" / "data" / "corpus" / "gfx942" / "vadd_tail.s")
PROGRAM = str(REPO / "workloads" / "tp_mlp_8gpu.yaml")


def _loop_outcome(cycles: int) -> SamplingOutcome:
    """a loop-sampled outcome whose 95% interval is cycles +- 0.4%, from 4,096 per-wave rates"""
    half = round(cycles * 0.004)
    return SamplingOutcome("loop", "main loop of 512 iterations", 0.091, cycles // 10, cycles - half,
                           cycles + half, 4096)


@pytest.fixture
def simulated(monkeypatch):
    """simulated replaces gpusim.api.simulate with the real one plus a chosen ``sampling``: set
    ``calls.outcome`` (a function of the cycles, or None); ``calls.kwargs`` holds each call's keywords."""
    real = api.simulate

    class Calls:
        outcome = None
        kwargs: list = []

    calls = Calls()
    calls.kwargs = []

    def fake(kernel, arch="cdna3", **kwargs):
        calls.kwargs.append(kwargs)
        result = real(kernel, arch, **kwargs)
        if result.cycles is not None and calls.outcome is not None:
            result = dataclasses.replace(result, sampling=calls.outcome(result.cycles))
        return result

    monkeypatch.setattr(api, "simulate", fake)
    return calls


def _run(capsys, *args) -> tuple:
    code = main(["run", VADD, *args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- help and validation
def test_run_help_teaches_sampling_and_names_the_threshold(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())   # argparse wraps the help: compare unwrapped
    assert "--sample {auto,on,off}" in out
    assert f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,} (4 M) wave" in out   # argparse may break after the hyphen
    assert "about 2 s of full simulation" in out
    for phrase in ("off simulates every workgroup in detail", "--check stay exact", "regression goldens",
                   "wave traces", "95% confidence interval", "the method's own error as measured against full",
                   "--trace and --timeline record every wave",
                   "Ignored with --no-timing", "gpusim run k.s --sample off", "auto, the default",
                   "by the grid method", "a grid of under 6 rounds runs in full",
                   "on also uses the experimental loop method"):
        assert phrase in out, phrase


@pytest.mark.parametrize("command", [["run", VADD], ["tune", "gemm"]])
def test_a_bad_sample_mode_is_one_line_and_exit_2(capsys, command):
    code = main([*command, "--sample", "sometimes"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "argument --sample: invalid choice: 'sometimes' (choose from 'auto', 'on', 'off')" in err


def test_a_program_file_samples_its_launches_auto_by_default_and_as_told(monkeypatch, tmp_path, capsys):
    from gpusim.system import simulate as program_sim
    real, seen = program_sim.simulate_program, []

    def recording(*args, **kwargs):
        seen.append(kwargs["sample"])
        return real(*args, **kwargs)
    monkeypatch.setattr(program_sim, "simulate_program", recording)
    app = _small_program(tmp_path)
    for args in ((), ("--sample", "off"), ("--sample", "on", "--sample-interval", "2")):
        assert main(["run", app, *args]) == 0
    assert seen[:2] == ["auto", "off"]
    assert (seen[2].mode, seen[2].grid_interval_pct) == ("on", 2.0)
    out = capsys.readouterr().out
    assert "launches   1 kernels" in out and "\nsampled" not in out   # 4,000 elements: too small to sample


def _small_program(tmp_path) -> str:
    path = tmp_path / "app.yaml"
    path.write_text(f"""system: {{gpus: {{arch: cdna3, count: 1}}}}
buffers:
  x: {{type: "f32[4000] uniform(-1,1) seed=1", gpu: 0}}
  y: {{type: "f32[4000] uniform(-1,1) seed=2", gpu: 0}}
streams:
  - {{name: s, gpu: 0, ops: [{{kernel: {REPO / "workloads" / "saxpy.s"}, args: {{x: x, y: y}}}}]}}
""")
    return str(path)


# ---------------------------------------------------------------- the mode that reaches simulate
def test_the_mode_is_auto_by_default_and_the_flag_otherwise(simulated, capsys):
    for args, mode in (((), "auto"), (("--sample", "off"), "off"), (("--sample", "on"), "on"),
                       (("--no-timing",), None)):   # a functional run has nothing to sample
        code, _, err = _run(capsys, *args)
        assert code == 0, err
        assert simulated.kwargs[-1]["sample"] == mode, args


def test_a_trace_forces_the_full_simulation_with_a_note(simulated, capsys, tmp_path):
    trace = str(tmp_path / "t.json")
    code, _, err = _run(capsys, "--trace", trace)
    assert code == 0 and simulated.kwargs[-1]["sample"] == "off"
    assert "note:" not in err   # the default (auto) given up for a trace needs no note
    code, _, err = _run(capsys, "--trace", trace, "--sample", "on")
    assert code == 0 and simulated.kwargs[-1]["sample"] == "off"
    assert "note: --sample on ignored: --trace records every wave, so the run is simulated in full" in err
    code, _, err = _run(capsys, "--timeline", "--sample", "auto")
    assert code == 0 and simulated.kwargs[-1]["sample"] == "off"
    assert "note: --sample auto ignored: --timeline records every wave" in err


# ---------------------------------------------------------------- report and JSON
def test_a_sampled_run_says_so_under_the_time_line(simulated, capsys):
    simulated.outcome = _loop_outcome
    code, out, _ = _run(capsys)
    assert code == 0
    lines = out.splitlines()
    time_at = next(i for i, line in enumerate(lines) if line.startswith("time "))
    cycles = int(re.match(r"time\s+([\d,]+) cycles", lines[time_at]).group(1).replace(",", ""))
    assert lines[time_at + 1] == (f"sampled  loop: 9.1% of wave-instructions simulated in detail; cycles {cycles:,} "
                                  "± 0.4% from sampling noise alone (95% CI, 4,096 per-wave rates; not the method's "
                                  "bias); --sample off for the full simulation")


def test_the_sampled_line_adds_the_methods_measured_error_to_the_noise(simulated, capsys):
    simulated.outcome = lambda cycles: dataclasses.replace(_loop_outcome(cycles), method_error_pct=1.2)
    _, out, _ = _run(capsys)
    assert ("± 1.3%: sampling noise ± 0.4% (95% CI, 4,096 per-wave rates) and the loop method's error measured "
            "against full runs ± 1.2%; --sample off for the full simulation") in out   # hypot(0.4, 1.2) = 1.26


def test_a_run_timed_in_full_says_why_only_when_that_is_news(simulated, capsys):
    simulated.outcome = lambda cycles: full_outcome("workgroups differ in instruction count", cycles)
    _, out, _ = _run(capsys, "--sample", "on")
    assert "sampled  no, timed in full: workgroups differ in instruction count" in out
    for args in ((), ("--sample", "off")):   # a small dispatch under auto is expected to run in full
        _, out, _ = _run(capsys, *args)
        assert "sampled" not in out, args


def test_format_run_tells_a_large_auto_run_why_it_ran_in_full():
    kernel = api.load_kernel(VADD)
    result = api.simulate(kernel, "cdna3", timing=True, outputs=False)
    counters = dict(result.counters, GPUSIM_INSTS_TOTAL=SAMPLE_ABOVE_WAVE_INSTRUCTIONS + 1)
    big = dataclasses.replace(result, counters=counters, sampling=full_outcome("no long loop", result.cycles))
    assert "sampled  no, timed in full: no long loop" in format_run(big, kernel, sample="auto")
    assert "sampled" not in format_run(big, kernel, sample="off")
    assert "sampled" not in format_run(big, kernel)   # mode unknown: nothing to say of a full run
    few = dataclasses.replace(result, sampling=SamplingOutcome("grid", "", 0.2, 10, result.cycles,
                                                               result.cycles, 1))
    assert "(no confidence interval: 1 measured rate)" in format_run(few, kernel)


def test_json_records_the_sampling_outcome(simulated, capsys, tmp_path):
    simulated.outcome = _loop_outcome
    path = tmp_path / "run.json"
    assert _run(capsys, "--json", str(path))[0] == 0
    doc = json.loads(path.read_text())
    expected = _loop_outcome(doc["cycles"]).to_dict()
    assert doc["sampling"] == expected and doc["sampling"]["sampled"] is True
    assert doc["sampling"]["method"] == "loop" and doc["sampling"]["samples"] == 4096


def test_json_sampling_is_null_without_an_outcome(capsys, tmp_path):
    for args in ((), ("--no-timing",)):
        path = tmp_path / "run.json"
        assert _run(capsys, "--json", str(path), *args)[0] == 0
        doc = json.loads(path.read_text())
        assert "sampling" in doc
        if "--no-timing" in args or doc["sampling"] is None:
            assert doc["sampling"] is None
        else:   # the engine reports an outcome: a dispatch this small runs in full
            assert doc["sampling"]["method"] == "full" and doc["sampling"]["sampled"] is False


# ---------------------------------------------------------------- --sample-interval
def test_the_sample_interval_reaches_simulate_as_the_grid_methods_interval(simulated, capsys):
    from gpusim.engine.sampling_policy import SamplingPolicy
    code, _, err = _run(capsys, "--sample", "on", "--sample-interval", "2.5")
    assert code == 0, err
    assert simulated.kwargs[-1]["sample"] == SamplingPolicy(mode="on", grid_interval_pct=2.5)
    code, _, err = _run(capsys, "--sample-interval", "2.5")   # the default mode, auto
    assert code == 0, err
    assert simulated.kwargs[-1]["sample"] == SamplingPolicy(mode="auto", grid_interval_pct=2.5)
    code, _, err = _run(capsys, "--sample", "on", "--sample-interval", "2.5", "--timeline")
    assert code == 0 and simulated.kwargs[-1]["sample"] == "off"   # a timeline records every wave: full
    assert "note: --sample on ignored" in err


@pytest.mark.parametrize("args, says", [
    (("--sample", "auto", "--sample-interval", "0"), "--sample-interval 0: 0 is not a percentage above 0 and at most 100"),
    (("--sample", "auto", "--sample-interval", "150"), "--sample-interval 150: 150 is not a percentage above 0"),
    (("--sample", "off", "--sample-interval", "2"),
     "--sample-interval 2: it applies to sampled timing: give sample mode auto or on"),
    (("--sample", "on", "--sample-interval", "2", "--no-timing"), "--sample-interval 2: it applies to sampled timing"),
    (("--sample", "on", "--sample-interval", "much"), "argument --sample-interval: invalid float value: 'much'"),
])
def test_a_bad_sample_interval_is_one_line_and_exit_2(capsys, args, says):
    code, out, err = _run(capsys, *args)
    assert code == 2 and out == ""
    assert says in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_program_file_refuses_a_sample_interval_with_sample_off(tmp_path, capsys):
    code = main(["run", _small_program(tmp_path), "--sample", "off", "--sample-interval", "2"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == "error: --sample-interval 2: it applies to sampled timing: give sample mode auto or on"


@pytest.mark.parametrize("args", [("--sample", "off", "--sample-interval", "2"),
                                  ("--sample", "auto", "--sample-interval", "-1")])
def test_tune_refuses_a_bad_sample_interval_before_searching(capsys, args):
    code = main(["tune", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--list", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error: --sample-interval") and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- explain and roofline
def test_explain_and_roofline_sample_as_run_does_and_say_so(simulated, capsys, tmp_path):
    for command in (["explain", VADD], ["roofline", VADD, "-o", str(tmp_path / "roof.png")]):
        assert main(command) == 0
        assert simulated.kwargs[-1]["sample"] == "auto", command   # the default of a timed run
        assert "sampled" not in capsys.readouterr().out             # a small dispatch: nothing to say
        assert main([*command, "--sample", "off"]) == 0
        assert simulated.kwargs[-1]["sample"] == "off"
        capsys.readouterr()
    simulated.outcome = _loop_outcome
    assert main(["explain", VADD]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sampled  loop: 9.1% of wave-instructions simulated in detail; cycles ")
    assert out.splitlines()[1].startswith("Bound by ")
    assert main(["roofline", VADD, "-o", str(tmp_path / "roof.png")]) == 0
    assert "vadd_tail: sampled  loop: 9.1% of wave-instructions simulated in detail" in capsys.readouterr().out
