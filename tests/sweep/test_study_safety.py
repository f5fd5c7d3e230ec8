"""Study files are untrusted: names are text and plain folder names, and a huge grid is refused
from its axis sizes before anything is expanded."""
from __future__ import annotations

import re
import time

import pytest

from gpusim.sweep import StudyError, load_study
from gpusim.sweep.results import default_folder
from gpusim.sweep.study import DEFAULT_MAX_POINTS, folder_name_problem
from study_files import write

BODY = "workload: {gen: stream, n: 16384}\n"


@pytest.mark.parametrize("name, phrase", [
    ("../../x", "holds a path separator"),
    ("results/../../etc", "holds a path separator"),
    ("/tmp/x", "holds a path separator"),
    ("a\\\\b", "holds a path separator"),
    ('"a\\0b"', "holds a NUL"),
    ("..", "is not a plain folder name"),
    ('"."', "is not a plain folder name"),
    ('"C:x"', "no drive"),
    ('""', "is empty"),
    ("x" * 200, "longer than 128"),
])
def test_a_name_that_is_not_a_plain_folder_name_is_refused_at_its_line(tmp_path, name, phrase):
    path = write(tmp_path, f"arch: cdna3\nname: {name}\n" + BODY)
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert re.match(r"\S*study\.yaml:2:7: error: 'name' ", str(info.value)), str(info.value)
    assert phrase in info.value.message


@pytest.mark.parametrize("field, value, phrase", [
    ("name", "123", "'name' is text (the results folder's name), got a number (123)"),
    ("name", "[a, b]", "'name' is text (the results folder's name), got a list"),
    ("name", "{a: 1}", "'name' is text (the results folder's name), got a mapping"),
    ("name", "true", "got a boolean"),
    ("arch", "[cdna3]", "'arch' names a shipped architecture (cdna3) or a YAML file, got a list"),
    ("arch", "3", "got a number (3)"),
])
def test_a_field_that_must_be_text_is_refused_at_its_key(tmp_path, field, value, phrase):
    path = write(tmp_path, f"{field}: {value}\n" + BODY)
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert re.match(r"\S*study\.yaml:1:1: error: ", str(info.value)), str(info.value)
    assert phrase in info.value.message


def test_a_template_name_and_a_workload_file_must_be_text(tmp_path):
    with pytest.raises(StudyError, match=r"study\.yaml:1:\d+: error: 'gen' names a template, got a list"):
        load_study(write(tmp_path, "workload: {gen: [stream]}\n"))
    with pytest.raises(StudyError, match=r"study\.yaml:1:\d+: error: a workload file is a path to a \.s kernel"):
        load_study(write(tmp_path, 'workload: "a\\0.s"\n'))
    with pytest.raises(StudyError, match=r"study\.yaml:1:\d+: error: metrics: 5 is not a metric name"):
        load_study(write(tmp_path, "metrics: [5]\n" + BODY))


def test_a_plain_name_is_the_results_folder(tmp_path):
    study = load_study(write(tmp_path, "name: lds-and-tiles_2\n" + BODY))
    assert str(default_folder(study)) == "results/lds-and-tiles_2"
    assert folder_name_problem("a.b c") == ""


def test_a_huge_grid_is_refused_from_its_axis_sizes_at_once(tmp_path):
    values = "[" + ", ".join(str(64 * v) for v in range(1, 10001)) + "]"
    keys = ("gen.stream.n", "arch.hbm.channels", "arch.cu.lds.size_bytes")
    path = write(tmp_path, "name: huge\n" + BODY + "vary:\n" + "".join(f"  {k}: {values}\n" for k in keys))
    started = time.process_time()
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert time.process_time() - started < 60  # counted, not expanded (expanding would take days)
    assert re.match(r"\S*study\.yaml:3:1: error: ", str(info.value)), str(info.value)
    assert info.value.message == (
        "the study has 1000000000000 points (vary.gen.stream.n: 10000 x vary.arch.hbm.channels: 10000 x "
        f"vary.arch.cu.lds.size_bytes: 10000), more than --max-points {DEFAULT_MAX_POINTS}; narrow the grid "
        "or raise --max-points")


def test_cli_list_of_a_trillion_points_is_refused_in_one_line(tmp_path, cli):
    values = "[" + ", ".join(str(64 * v) for v in range(1, 10001)) + "]"
    keys = ("gen.stream.n", "arch.hbm.channels", "arch.cu.lds.size_bytes")
    write(tmp_path, "name: huge\n" + BODY + "vary:\n" + "".join(f"  {k}: {values}\n" for k in keys))
    proc = cli("sweep", "study.yaml", "--list")
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "study.yaml:3:1: error: the study has 1000000000000 points (vary.gen.stream.n: 10000 x "
        "vary.arch.hbm.channels: 10000 x vary.arch.cu.lds.size_bytes: 10000), more than --max-points 10000"), lines


def test_the_workload_files_count_as_an_axis(tmp_path):
    for name in ("a.s", "b.s", "c.s"):
        (tmp_path / name).write_text("")
    path = write(tmp_path, "workloads: [a.s, b.s, c.s]\nvary:\n  arch.hbm.channels: [64, 128]\n")
    with pytest.raises(StudyError, match=r"6 points \(workloads: 3 x vary.arch.hbm.channels: 2\), more than "
                                         r"--max-points 5"):
        load_study(path, max_points=5)


def test_cli_list_refuses_a_huge_grid_and_max_points_raises_the_limit(tmp_path, cli):
    values = "[" + ", ".join(str(65536 * v) for v in range(1, 101)) + "]"
    write(tmp_path, "name: big\n" + BODY + f"vary:\n  gen.stream.n: {values}\n  arch.hbm.channels: [64, 128]\n")
    proc = cli("sweep", "study.yaml", "--list", "--max-points", "150")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("study.yaml:3:1: error: the study has 200 points "
                                                   "(vary.gen.stream.n: 100 x vary.arch.hbm.channels: 2)"), lines
    proc = cli("sweep", "study.yaml", "--list", "--max-points", "200")
    assert proc.returncode == 0, proc.stderr
    assert "200 points on cdna3" in proc.stdout
    proc = cli("sweep", "study.yaml", "--list", "--max-points", "0")
    assert proc.returncode == 2 and "--max-points must be positive" in proc.stderr


def test_cli_refuses_an_escaping_name_before_writing_anything(tmp_path, cli):
    work = tmp_path / "work"
    work.mkdir()
    write(work, "name: ../../escaped\n" + BODY)
    proc = cli("sweep", "study.yaml", cwd=work)
    assert proc.returncode == 2
    assert proc.stderr.startswith("study.yaml:1:7: error: 'name' '../../escaped' holds a path separator")
    assert not (tmp_path / "escaped").exists() and not (work / "results").exists()
