"""A saved run (``gpusim run --json``) is untrusted input to ``gpusim report`` and ``gpusim explain``: a file
that is not a run's JSON, or one whose fields hold what no run writes, is one UsageError naming the field,
never a traceback from the arithmetic of the report."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import gpusim
from gpusim.errors import UsageError
from gpusim.report.compare import compare
from gpusim.report.record import read_run

SAXPY = Path(__file__).resolve().parents[1] / "data" / "corpus" / "gfx942" / "saxpy.s"


@pytest.fixture(scope="module")
def saved():
    return json.loads(json.dumps(gpusim.simulate(gpusim.load_kernel(SAXPY), "cdna3", timing=True).to_dict()))


@pytest.mark.parametrize("field, value, phrase", [
    ("counters", [1, 2], "'counters' is a mapping of counter names to finite numbers"),
    ("counters", {"SQ_WAVES": "many"}, "(counter 'SQ_WAVES' is not)"),
    ("counters", {"SQ_WAVES": float("nan")}, "(counter 'SQ_WAVES' is not)"),
    ("kernel", 5, "'kernel' is a name, got 5"),
    ("grid", 7.5, "'grid' is a list of up to 3 integers"),
    ("block", ["256"], "'block' is a list of up to 3 integers"),
    ("cycles", "fast", "'cycles' is a number, got 'fast'"),
    ("occupancy", 3, "'occupancy' is a mapping with a number 'waves_per_simd'"),
    ("occupancy", {"waves_per_simd": None, "limiter": "lds"}, "'occupancy' is a mapping"),
    ("resolved_arch", [1], "'resolved_arch' is an architecture (a mapping)"),
])
def test_a_damaged_field_is_named(saved, field, value, phrase):
    run = copy.deepcopy(saved)
    run[field] = value
    with pytest.raises(UsageError) as info:
        read_run(run, label="b.json")
    message = str(info.value)
    assert message.startswith("error: b.json is not the JSON of a run: ") and phrase in message, message


def test_the_saved_run_itself_reads_and_compares(saved):
    record = read_run(saved, label="a.json")
    assert record.kernel == saved["kernel"] and record.counters == saved["counters"]
    assert compare(saved, saved).rows


@pytest.mark.parametrize("text, held", [("[]", "a list"), ("null", "null"), ("1e999999", "a number")])
def test_a_file_that_is_no_object_is_one_line(tmp_path, cli, saved, text, held):
    (tmp_path / "a.json").write_text(json.dumps(saved))
    (tmp_path / "b.json").write_text(text)
    for command in (("report", "a.json", "b.json"), ("explain", "b.json")):
        proc = cli(*command)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.strip() == f"error: b.json is not the JSON of a run (it holds {held}, not an object; " \
                                      "gpusim run --json writes one)", proc.stderr
