"""gpusim sweep: studies are checked before anything runs, run the same on local processes and on a
Dask cluster, survive failing points, dead workers and interruptions, and plot."""
import json
import os
import re
import signal
from pathlib import Path

import pytest

from gpusim.sweep import StudyError, load_study, read_results, run_study
from gpusim.sweep.point import run_point
from study_files import write

REPO = Path(__file__).resolve().parents[2]
SAXPY = REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s"

STREAM_STUDY = """\
name: stream-vec
arch: cdna3
vary:
  arch.hbm.channels: [64, 128]
  gen.stream.vec: [1, 4]
workload: {gen: stream, op: copy, n: 65536}
metrics: [time_us, hbm_gbs, l2_tbs, L2_hit_rate, TCC_EA_RDREQ_sum]
"""
VARYING = ("host_s",)   # the only column that may differ between two runs of a study


def stable(rows):
    return [{k: v for k, v in r.items() if k not in VARYING} for r in rows]


# --- a study is checked before anything runs ---------------------------------------------------

@pytest.mark.parametrize("vary, message", [
    ("arch.cu.lds_size_bytes: [65536]", r"study.yaml:4:\d+: error: vary.arch.cu.lds_size_bytes: .*unknown key "
                                        r"'lds_size_bytes' in cu"),
    ("arch.hbm.channels: [64, 0]", r"study.yaml:4:\d+: error: vary.arch.hbm.channels: hbm.channels: must be >= 1"),
    ("gen.stream.vec: []", r"study.yaml:4:3: error: vary.gen.stream.vec: give a non-empty list"),
    ("gen.stream.vecs: [1]", r"study.yaml:4:\d+: error: .*has no parameter 'vecs' \(did you mean 'vec'\?\)"),
    ("gen.gemm.tile: [64x64x32]", r"study.yaml:4:\d+: error: vary.gen.gemm.tile: .*template is 'stream'"),
    ("gen.stream.vec: [1, 3]", r"study.yaml:4:\d+: error: vary.gen.stream.vec: --vec: 3 is not one of 1, 2, 4"),
    ("workgroups: [1, 2]", r"study.yaml:4:\d+: error: vary: unknown key 'workgroups'"),
])
def test_invalid_studies_name_the_key_and_line(tmp_path, vary, message):
    path = write(tmp_path, f"name: bad\narch: cdna3\nvary:\n  {vary}\nworkload: {{gen: stream, n: 16384}}\n")
    with pytest.raises(StudyError) as err:
        load_study(path)
    assert re.search(message, str(err.value)), str(err.value)


def test_a_combination_the_architecture_rejects_fails_before_running(tmp_path):
    # each value alone is valid; together the L2 cannot hold the channels' lines
    arch = load_study(write(tmp_path, "vary: {}\nworkload: {gen: stream, n: 16384}\n")).arch
    from gpusim.arch import load_arch
    l2 = load_arch(arch).l2
    text = (f"vary:\n  arch.l2.size_bytes: [{l2.size_bytes}, 65536]\n  arch.l2.channels: [{l2.channels}, 64]\n"
            "workload: {gen: stream, n: 16384}\n")
    with pytest.raises(StudyError, match=r"study.yaml:2:\d+: error: vary: the combination arch.l2.size_bytes=65536, "
                                         r"arch.l2.channels=64 is not a valid architecture"):
        load_study(write(tmp_path, text))


def test_unknown_metric_and_top_level_key_are_named(tmp_path):
    with pytest.raises(StudyError, match=r"study.yaml:2:\d+: error: metrics: unknown metric 'tflop' "
                                         r"\(did you mean 'tflops'\?\)"):
        load_study(write(tmp_path, "workload: {gen: stream, n: 16384}\nmetrics: [tflop]\n"))
    with pytest.raises(StudyError, match=r"study.yaml:2:1: error: unknown study key 'varry' \(did you mean 'vary'"):
        load_study(write(tmp_path, "workload: {gen: stream, n: 16384}\nvarry: {}\n"))


def test_the_grid_is_the_product_of_the_varied_values(tmp_path):
    study = load_study(write(tmp_path, STREAM_STUDY))
    points = study.points()
    assert [p.params for p in points] == [
        {"arch.hbm.channels": 64, "gen.stream.vec": 1}, {"arch.hbm.channels": 64, "gen.stream.vec": 4},
        {"arch.hbm.channels": 128, "gen.stream.vec": 1}, {"arch.hbm.channels": 128, "gen.stream.vec": 4}]
    assert study.columns == ("arch.hbm.channels", "gen.stream.vec")


def test_a_point_runs_what_the_cli_would_run(tmp_path):
    study = load_study(write(tmp_path, STREAM_STUDY))
    row = run_point(study.to_dict(), {"arch.hbm.channels": 64, "gen.stream.vec": 4})
    assert row["status"] == "ok", row["error"]
    import gpusim
    from gpusim.arch.loader import arch_overrides
    from gpusim.templates.registry import generate
    arch = arch_overrides(gpusim.load_arch("cdna3"), {"hbm.channels": 64})
    kernel = gpusim.kernel_from_text(generate("stream", arch, op="copy", n=65536, vec=4))
    result = gpusim.simulate(kernel, arch, timing=True, outputs=False)
    assert row["time_us"] == pytest.approx(result.time_us)
    assert row["TCC_EA_RDREQ_sum"] == result.counters["TCC_EA_RDREQ_sum"]
    # l2_tbs: the stream's loads and stores through the L2 (TCC_REQ x 128 B) per second, in TB/s
    assert row["l2_tbs"] == pytest.approx(result.counters["TCC_REQ_sum"] * 128 / result.time_us * 1e-6)
    assert row["arch_hash"] == arch.hash()[:16]


# --- running: local processes and Dask agree; failures lose nothing -----------------------------

def test_local_processes_and_a_dask_cluster_give_identical_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    study = load_study(write(tmp_path, STREAM_STUDY))
    local = run_study(study, tmp_path / "local", workers=2, progress=False)
    assert local.counts == {"ok": 4}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        dask = run_study(study, tmp_path / "dask", scheduler=c.scheduler_address, progress=False)
    assert dask.counts == {"ok": 4}
    rows_local, rows_dask = read_results(tmp_path / "local"), read_results(tmp_path / "dask")
    assert stable(rows_local) == stable(rows_dask)
    # every point reads the same bytes from beyond the L2, in different times
    reads = {r["TCC_EA_RDREQ_sum"] for r in rows_local}
    assert len(reads) == 1 and reads.pop() >= 65536 * 4 // 64
    assert len({r["time_us"] for r in rows_local}) > 1
    # each distinct architecture is recorded next to the results
    assert sorted(p.stem for p in (tmp_path / "local" / "archs").glob("*.yaml")) == \
        sorted({r["arch_hash"] for r in rows_local})


def test_a_dask_worker_killed_mid_study_loses_no_point(tmp_path):
    distributed = pytest.importorskip("distributed")
    study = load_study(write(tmp_path, STREAM_STUDY.replace("[1, 4]", "[1, 2, 4]")))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        with distributed.Client(c) as client:
            pids = list(client.run(os.getpid).values())
            killed = []

            def kill_one(row):
                if not killed:
                    killed.append(pids[0])
                    os.kill(pids[0], signal.SIGKILL)
            outcome = run_study(study, tmp_path / "out", scheduler=client, progress=False, on_row=kill_one)
    assert killed and outcome.counts == {"ok": 6}
    rows = read_results(tmp_path / "out")
    assert sorted(r["point"] for r in rows) == list(range(6))


def test_a_local_worker_killed_mid_study_loses_no_point(tmp_path):
    import multiprocessing
    study = load_study(write(tmp_path, STREAM_STUDY.replace("[1, 4]", "[1, 2, 4]")))
    killed = []

    def kill_one(row):
        children = multiprocessing.active_children()
        if not killed and children:
            killed.append(children[0].pid)
            os.kill(children[0].pid, signal.SIGKILL)
    outcome = run_study(study, tmp_path / "out", workers=2, progress=False, on_row=kill_one)
    assert killed and outcome.counts == {"ok": 6}
    assert sorted(r["point"] for r in read_results(tmp_path / "out")) == list(range(6))


def test_a_faulting_point_is_recorded_and_the_interrupted_study_resumes(tmp_path):
    good = SAXPY.read_text()
    (tmp_path / "good.s").write_text(good)
    (tmp_path / "bad.s").write_text(good.replace("x buffer f32[n]", "x buffer f32[1000]", 1))   # n=4000 reads past x
    study = load_study(write(tmp_path, "name: faults\nworkloads: [good.s, bad.s]\nvary:\n"
                                       "  arch.cu.l1.latency_cycles: [100, 120, 140]\nmetrics: [cycles]\n"))
    assert len(study.points()) == 6
    seen = []

    def stop_after_two(row):
        seen.append(row)
        if len(seen) == 2:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path / "out", workers=1, progress=False, on_row=stop_after_two)
    first = {r["point"]: r for r in read_results(tmp_path / "out")}
    assert len(first) == 2
    with pytest.raises(StudyError, match="already holds results; pass --resume"):
        run_study(study, tmp_path / "out", workers=1, progress=False)
    outcome = run_study(study, tmp_path / "out", workers=1, progress=False, resume=True)
    assert (outcome.ran, outcome.skipped) == (4, 2)
    rows = {r["point"]: r for r in read_results(tmp_path / "out")}
    assert sorted(rows) == list(range(6))
    for r in rows.values():
        if r["workload"] == "bad.s":
            assert r["status"] == "fault" and r["cycles"] is None
            assert re.search(r"kernel 'saxpy' faulted: .*'global_load_dword .*lane \d+", r["error"])
        else:
            assert r["status"] == "ok" and r["cycles"] > 0
    for point, row in first.items():   # the rows written before the interruption were kept as they were
        assert stable([rows[point]]) == stable([row])
    ok_cycles = [rows[p]["cycles"] for p in sorted(rows) if rows[p]["status"] == "ok"]
    assert ok_cycles == sorted(ok_cycles) and len(set(ok_cycles)) == 3   # slower L1, more cycles


def test_resuming_into_the_folder_of_another_study_is_refused(tmp_path):
    study = load_study(write(tmp_path, STREAM_STUDY))
    run_study(study, tmp_path / "out", workers=1, progress=False, fmt="csv")
    assert (tmp_path / "out" / "results.csv").exists()
    other = load_study(write(tmp_path, STREAM_STUDY.replace("n: 65536", "n: 32768"), "other.yaml"))
    with pytest.raises(StudyError, match="holds the results of another study"):
        run_study(other, tmp_path / "out", workers=1, progress=False, resume=True)
    rows = read_results(tmp_path / "out")
    assert [r["status"] for r in rows] == ["ok"] * 4 and isinstance(rows[0]["time_us"], float)


def test_edited_record_lines_are_run_again_and_an_unreadable_study_json_is_another_study(tmp_path):
    study = load_study(write(tmp_path, STREAM_STUDY))
    run_study(study, tmp_path / "out", workers=1, progress=False, fmt="csv")
    record = tmp_path / "out" / "points.jsonl"
    lines = record.read_text().splitlines()
    assert len(lines) == 4
    damaged = [json.loads(line) for line in lines]
    damaged[0]["point"] = "x"        # a point that is not an integer
    damaged[1]["status"] = 5         # a status that is not text
    del damaged[2]["_key"]           # a row of no point
    record.write_text("\n".join(json.dumps(r) for r in damaged) + "\n[1, 2]\nnot json\n" + lines[3] + "\n")
    outcome = run_study(study, tmp_path / "out", workers=1, progress=False, fmt="csv", resume=True)
    assert (outcome.ran, outcome.skipped) == (3, 1)
    assert sorted(r["point"] for r in read_results(tmp_path / "out")) == [0, 1, 2, 3]
    (tmp_path / "out" / "study.json").write_text("[not, an, object")
    with pytest.raises(StudyError, match="holds the results of another study"):
        run_study(study, tmp_path / "out", workers=1, progress=False, fmt="csv", resume=True)


# --- command line ------------------------------------------------------------------------------

def test_cli_sweep_then_plot(tmp_path, cli):
    write(tmp_path, STREAM_STUDY)
    proc = cli("sweep", "study.yaml", "-o", "res", "--workers", "2", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"ran 4 points: 4 ok; table res/results\.(parquet|csv)", proc.stdout)
    meta = json.loads((tmp_path / "res" / "study.json").read_text())
    assert meta["varied"] == ["arch.hbm.channels", "gen.stream.vec"]
    proc = cli("plot", "res", "--x", "arch.hbm.channels", "--y", "hbm_gbs", "--hue", "gen.stream.vec",
                  "-o", "bw.png")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "bw.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    proc = cli("plot", "res", "--x", "arch.hbm.channels", "--y", "gen.stream.vec", "--z", "time_us",
                  "-o", "heat.png")
    assert proc.returncode == 0 and (tmp_path / "heat.png").stat().st_size > 1000, proc.stderr
    # a varied key left free is refused rather than averaged
    proc = cli("plot", "res", "--x", "arch.hbm.channels", "--y", "hbm_gbs")
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("error: gen.stream.vec takes 1, 4: fix it with --where gen.stream.vec=1 or "
                                   "plot it as --hue")


def test_cli_refuses_a_bad_study_in_one_line(tmp_path, cli):
    write(tmp_path, "workload: {gen: stream, n: 16384}\nvary:\n  arch.hbm.channel: [64]\n")
    proc = cli("sweep", "study.yaml")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("study.yaml:3:") and "did you mean 'channels'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_lists_the_points_without_running(tmp_path, cli):
    write(tmp_path, STREAM_STUDY)
    proc = cli("sweep", "study.yaml", "--list")
    assert proc.returncode == 0, proc.stderr
    assert "4 points on cdna3" in proc.stdout
    assert "   3  arch.hbm.channels=128  gen.stream.vec=4" in proc.stdout
    assert not (tmp_path / "results").exists()


def test_a_warm_up_study_times_each_point_after_a_launch_of_itself(tmp_path):
    # 64K floats of a copy fit every cache: after the warm-up launch the timed run finds them in its XCDs' L2s,
    # whose kernel-start invalidate keeps device memory (l2.invalidate_keeps_device_memory)
    study = load_study(write(tmp_path, STREAM_STUDY.replace("arch: cdna3\n", "arch: cdna3\nwarm_up: true\n")))
    assert study.warm_up and study.to_dict()["warm_up"]
    row = run_point(study.to_dict(), {"arch.hbm.channels": 64, "gen.stream.vec": 4})
    cold = run_point(load_study(write(tmp_path, STREAM_STUDY, "cold.yaml")).to_dict(),
                     {"arch.hbm.channels": 64, "gen.stream.vec": 4})
    assert row["status"] == cold["status"] == "ok"
    assert row["time_us"] < cold["time_us"]   # the reads come from the warm L2s, not HBM
    assert row["TCC_EA_RDREQ_sum"] == 0 < cold["TCC_EA_RDREQ_sum"]


def test_warm_up_must_be_a_boolean(tmp_path):
    with pytest.raises(StudyError, match=r"study.yaml:3:10: error: 'warm_up' must be true or false"):
        load_study(write(tmp_path, STREAM_STUDY.replace("arch: cdna3\n", "arch: cdna3\nwarm_up: yes please\n")))
