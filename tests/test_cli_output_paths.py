"""Every output flag refuses a path it cannot write before any simulation: one line, exit 2."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SAXPY = str(REPO / "workloads" / "saxpy.s")
STUDY = """\
name: paths
arch: cdna3
vary:
  arch.hbm.channels: [64, 128]
workload: k.s
metrics: [time_us]
"""

# (command before the path, flag, file name, command after the path); the file commands write FILE
FILE_FLAGS = [
    (["run", SAXPY, "--json"], "--json", "r.json", []),
    (["run", SAXPY, "--csv"], "--csv", "r.csv", []),
    (["run", SAXPY, "--trace"], "--trace", "r.json", []),
    (["gen", "gemm", "--m", "64", "--n", "64", "--k", "64", "-o"], "-o", "k.s", []),
    (["roofline", SAXPY, "-o"], "-o", "roof.png", []),
    (["plot", "results", "--x", "a", "--y", "b", "-o"], "-o", "plot.png", []),
]
FOLDER_FLAGS = [
    (["sweep", "study.yaml", "-o"], "-o"),
    (["tune", "gemm", "--m", "256", "--n", "256", "--k", "256", "-o"], "-o"),
]


def _bad_places(tmp_path: Path, name: str) -> dict:
    """_bad_places are paths for ``name`` that cannot be written, by why; tests run as root, so a path
    below a regular file stands for an unwritable folder."""
    (tmp_path / "plain.txt").write_text("a file\n")
    (tmp_path / "a_folder").mkdir()
    return {"missing folder": (f"no_such_folder/{name}", "no folder no_such_folder"),
            "a folder as the file": ("a_folder", "is a folder"),
            "below a file": (f"plain.txt/{name}", "plain.txt is a file, not a folder"),
            "below a file, deeper": (f"plain.txt/sub/{name}", "plain.txt is a file, not a folder")}


def _refused_in_one_line(proc, flag: str, path: str, why: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{flag} {path}" in lines[0] and why in lines[0], lines[0]
    assert proc.stdout == ""   # nothing ran: no report, no roofline summary


@pytest.mark.parametrize("before,flag,name,after", FILE_FLAGS, ids=[f"{c[0][0]} {c[1]}" for c in FILE_FLAGS])
@pytest.mark.parametrize("case", ["missing folder", "a folder as the file", "below a file", "below a file, deeper"])
def test_unwritable_output_file_is_refused_before_anything_runs(cli, tmp_path, before, flag, name, after, case):
    path, why = _bad_places(tmp_path, name)[case]
    _refused_in_one_line(cli(*before, path, *after), flag, path, why)


@pytest.mark.parametrize("before,flag", FOLDER_FLAGS, ids=[c[0][0] for c in FOLDER_FLAGS])
@pytest.mark.parametrize("path,why", [("plain.txt", "is a file, not a folder"),
                                      ("plain.txt/results", "plain.txt is a file, not a folder")])
def test_output_folder_below_or_onto_a_file_is_refused(cli, tmp_path, before, flag, path, why):
    (tmp_path / "plain.txt").write_text("a file\n")
    (tmp_path / "study.yaml").write_text(STUDY)
    (tmp_path / "k.s").write_text(Path(SAXPY).read_text())
    _refused_in_one_line(cli(*before, path), flag, path, why)


@pytest.mark.parametrize("before,flag", [(["roofline", SAXPY, "-o"], "-o"),
                                         (["plot", "results", "--x", "a", "--y", "b", "-o"], "-o")])
def test_image_output_needs_an_image_suffix(cli, before, flag):
    _refused_in_one_line(cli(*before, "roof.txt"), flag, "roof.txt", "say a file ending in .png")


def test_json_to_stdout_is_not_a_path(cli):
    proc = cli("run", SAXPY, "--no-timing", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    assert '"counters"' in proc.stdout


def test_gen_writes_into_an_existing_folder(cli, tmp_path):
    (tmp_path / "out").mkdir()
    proc = cli("gen", "stream", "-o", "out/k.s")
    assert proc.returncode == 0, proc.stderr
    assert "; gpusim-launch:" in (tmp_path / "out" / "k.s").read_text()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full: a file whose every write fails (Linux)")
@pytest.mark.parametrize("flag", ["--json", "--csv"])
def test_an_output_whose_write_fails_after_the_run_is_one_line_naming_the_flag(cli, flag):
    """The checks above cannot foresee a disk that fills: the run reports, then the write fails in one line."""
    proc = cli("run", SAXPY, "--no-timing", flag, "/dev/full")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"error: {flag} /dev/full: cannot be written: No space left on device"]
    assert "executed" in proc.stdout   # the report came first


def test_a_timeout_past_what_a_timer_can_wait_means_none(cli):
    proc = cli("run", SAXPY, "--no-timing", "--timeout", "inf")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
