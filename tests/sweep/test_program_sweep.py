"""gpusim sweep of an application program: system and params keys vary like any other key, the program's
figures are the metrics, and every mistake is named at the study's line before anything runs."""
import re
import shutil
from pathlib import Path

import pytest

from gpusim.sweep import load_study, read_results, run_study
from gpusim.sweep.point import run_point
from study_files import refused, write

REPO = Path(__file__).resolve().parents[2]

# two GPUs, each a saxpy then an all-reduce of 4 MiB over the xGMI link between them; the buffer that an op of
# the second GPU's stream peeks at comes from ${peer} (valid while peer < the GPU count)
PROGRAM = """\
params:
  algorithm: ring
  peer: 1
system:
  gpus: {arch: cdna3, count: 3}
buffers:
  x: {type: "f32[4000] uniform(-1,1) seed=1", gpus: all}
  y: {type: "f32[4000] uniform(-1,1) seed=5", gpus: all}
  g: {type: "f32[1048576] ones", gpus: all}
  p: {type: "f32[1024] zeros", gpu: "${peer}"}
streams:
  - name: s
    gpus: all
    ops:
      - kernel: saxpy.s
        args: {x: x, y: y}
      - all_reduce: {send: g, group: all, algorithm: "${algorithm}"}
"""
METRICS = ["total_us", "kernel_us", "comm_us", "hidden_fraction", "busbw_gbps", "algbw_gbps", "link_util_max",
           "launches", "launches_reused"]
STUDY = f"""\
name: links
workload: {{program: app.yaml}}
vary:
  system.link.bandwidth_gbps: [32, 128]
  params.algorithm: [ring, direct]
metrics: [{', '.join(METRICS)}]
"""


@pytest.fixture
def folder(tmp_path):
    shutil.copy(REPO / "workloads" / "saxpy.s", tmp_path / "saxpy.s")
    (tmp_path / "app.yaml").write_text(PROGRAM)
    return tmp_path


# --- a program study is checked before anything runs -------------------------------------------

def test_a_program_study_varies_the_program_keys(folder):
    study = load_study(write(folder, STUDY))
    assert study.program == str((folder / "app.yaml").resolve()) and study.arch == ""
    assert study.columns == ("system.link.bandwidth_gbps", "params.algorithm")
    assert [p.params for p in study.points()][1] == {"system.link.bandwidth_gbps": 32, "params.algorithm": "direct"}
    assert study.metrics == tuple(METRICS)
    plain = load_study(write(folder, "workload: {program: app.yaml}\n"))
    assert plain.metrics == ("total_us", "kernel_us", "comm_us", "hidden_fraction", "busbw_gbps", "link_util_max")


@pytest.mark.parametrize("vary, message", [
    ("system.link.bandwith_gbps: [64]", r"study.yaml:3:\d+: error: vary.system.link.bandwith_gbps: the program has no "
                                        r"key 'system.link.bandwith_gbps' \(did you mean 'bandwidth_gbps'\?\)"),
    ("params.algorithim: [ring]", r"study.yaml:3:\d+: error: vary.params.algorithim: the program has no parameter "
                                  r"'algorithim' \(did you mean 'algorithm'\?\)"),
    ("sytem.topology: [ring]", r"study.yaml:3:\d+: error: vary.sytem.topology: .*'sytem' \(did you mean 'system'\?\)"),
    ("system.link.bandwidth_gbps: [64, -1]", r"study.yaml:3:\d+: error: vary.system.link.bandwidth_gbps: "
                                             r".*bandwidth_gbps must be at least 0.001"),
    ("system.topology: [mesh, rnig]", r"study.yaml:3:\d+: error: vary.system.topology: unknown topology 'rnig' "
                                      r"\(did you mean 'ring'\?\)"),
    ("params.algorithm: [ring, fast]", r"study.yaml:3:\d+: error: vary.params.algorithm: unknown all_reduce "
                                       r"algorithm 'fast', at \S*app.yaml:17:\d+ \(algorithms: ring, direct"),
    ("arch.hbm.channels: [64]", r"study.yaml:3:\d+: error: vary.arch.hbm.channels: .*vary system.gpus.arch"),
    ("gen.gemm.tile: [64x64x32]", r"study.yaml:3:\d+: error: vary.gen.gemm.tile: .*params.<name>"),
])
def test_a_bad_key_or_value_is_named_at_its_study_line(folder, vary, message):
    text = refused(folder, f"workload: {{program: app.yaml}}\nvary:\n  {vary}\n")
    assert re.search(message, text), text


def test_values_valid_alone_but_not_together_fail_before_running(folder):
    # GPU count 2 alone is fine (p on GPU 1), peer 2 alone is fine (3 GPUs); together p sits on a GPU not there
    text = refused(folder, "workload: {program: app.yaml}\nvary:\n  system.gpus.count: [2, 3]\n  params.peer: [1, 2]\n")
    assert re.match(r".*study.yaml:3:\d+: error: vary: the combination system.gpus.count=2, params.peer=2 is not a "
                    r"valid program: .*GPU 2", text), text


def test_kernel_metrics_and_keys_are_refused_in_a_program_study_and_back(folder):
    text = refused(folder, "workload: {program: app.yaml}\nmetrics: [total_us, time_us]\n")
    assert re.match(r".*study.yaml:2:\d+: error: metrics: 'time_us' is a kernel metric; a program study measures "
                    r"the program: total_us, ", text), text
    text = refused(folder, "workload: {program: app.yaml}\nmetrics: [total_uss]\n")
    assert "unknown program metric 'total_uss' (did you mean 'total_us'?)" in text
    text = refused(folder, "workload: {gen: stream, n: 16384}\nmetrics: [time_us, busbw_gbps]\n")
    assert re.match(r".*study.yaml:2:\d+: error: metrics: 'busbw_gbps' is a program metric", text), text
    text = refused(folder, "arch: cdna3\nworkload: {program: app.yaml}\n")
    assert re.match(r".*study.yaml:1:1: error: 'arch' is not a key of a program study: the program's system names",
                    text), text
    text = refused(folder, "workload: app.yaml\n")
    assert "a program is written workload: {program: app.yaml}" in text
    text = refused(folder, "workload: {program: nowhere.yaml}\n")
    assert re.match(r".*study.yaml:1:\d+: error: program file nowhere.yaml not found", text), text


def test_a_bad_program_keeps_its_own_file_and_line(folder):
    (folder / "app.yaml").write_text(PROGRAM.replace("count: 3}", "count: 3}\n  topolgy: mesh"))
    from gpusim.errors import ProgramError
    with pytest.raises(ProgramError, match=r"app.yaml:6:\d+: error: .*'topolgy'.*did you mean 'topology'"):
        load_study(write(folder, "workload: {program: app.yaml}\n"))


# --- running ---------------------------------------------------------------------------------

def test_rows_hold_the_program_figures_and_faster_links_finish_sooner(folder):
    study = load_study(write(folder, STUDY))
    outcome = run_study(study, folder / "out", workers=2, progress=False, fmt="csv")
    assert outcome.counts == {"ok": 4}
    rows = {(r["system.link.bandwidth_gbps"], r["params.algorithm"]): r for r in read_results(folder / "out")}
    header = (folder / "out" / "results.csv").read_text().splitlines()[0].split(",")
    assert header == ["point", "system.link.bandwidth_gbps", "params.algorithm", "status", *METRICS, "sampled",
                      "sample_method", "sample_error_pct", "arch_hash", "host_s", "error"]
    for (bw, algorithm), r in rows.items():
        assert all(r[m] is not None for m in METRICS), r
        assert r["launches"] == 3 and r["launches_reused"] == 2   # one saxpy per GPU, timed once
        assert r["comm_us"] < r["total_us"] and 0 < r["kernel_us"] < r["total_us"]
        assert 0 < r["link_util_max"] <= 1 and r["hidden_fraction"] == 0.0   # one stream per GPU: nothing hides
        # sampled by default (auto), but a 4,000-element saxpy is far below the threshold
        assert (r["sampled"], r["sample_method"], r["sample_error_pct"]) == (False, "full", 0.0)
    for algorithm in ("ring", "direct"):
        slow, fast = rows[(32, algorithm)], rows[(128, algorithm)]
        assert fast["total_us"] < slow["total_us"] and fast["comm_us"] < slow["comm_us"]
        assert fast["busbw_gbps"] > 2 * slow["busbw_gbps"]
        assert fast["kernel_us"] == slow["kernel_us"]   # the links do not touch the saxpy
    (arch,) = {r["arch_hash"] for r in rows.values()}
    assert (folder / "out" / "archs" / f"{arch}.yaml").exists()


def test_a_point_is_the_program_run_with_its_overrides_and_is_deterministic(folder):
    study = load_study(write(folder, STUDY))
    params = {"system.link.bandwidth_gbps": 128, "params.algorithm": "direct"}
    first, second = run_point(study.to_dict(), params), run_point(study.to_dict(), params)
    assert first["status"] == "ok", first["error"]
    assert {k: v for k, v in first.items() if k != "host_s"} == {k: v for k, v in second.items() if k != "host_s"}
    from gpusim.system.simulate import simulate_program
    result = simulate_program(folder / "app.yaml", overrides=params)
    assert first["total_us"] == result.total_us
    (largest,) = result.collectives
    assert (first["busbw_gbps"], first["algbw_gbps"]) == (largest["busbw_gbps"], largest["algbw_gbps"])


def test_a_point_the_program_refuses_at_run_time_is_a_row(folder):
    # more points than are loaded up front: a combination that cannot load becomes an 'invalid' row
    study = load_study(write(folder, "workload: {program: app.yaml}\nmetrics: [total_us]\n"))
    row = run_point(study.to_dict(), {"system.gpus.count": 1})
    assert row["status"] == "invalid" and row["total_us"] is None
    assert "GPU" in row["error"], row["error"]


def test_local_processes_and_a_dask_cluster_give_identical_program_rows(folder):
    distributed = pytest.importorskip("distributed")
    study = load_study(write(folder, STUDY.replace("[32, 128]", "[64]")))
    local = run_study(study, folder / "local", workers=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        dask = run_study(study, folder / "dask", scheduler=c.scheduler_address, progress=False)
    assert local.counts == dask.counts == {"ok": 2}

    def stable(rows):
        return [{k: v for k, v in r.items() if k != "host_s"} for r in rows]
    assert stable(read_results(folder / "local")) == stable(read_results(folder / "dask"))


def test_cli_lists_sweeps_and_plots_a_program_study(folder, cli):
    write(folder, STUDY)
    proc = cli("sweep", "study.yaml", "--list")
    assert proc.returncode == 0, proc.stderr
    assert "4 points on program " in proc.stdout and "app.yaml" in proc.stdout
    assert "   3  system.link.bandwidth_gbps=128  params.algorithm=direct" in proc.stdout
    proc = cli("sweep", "study.yaml", "-o", "res", "--workers", "2", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"ran 4 points: 4 ok; table res/results\.(parquet|csv)", proc.stdout)
    proc = cli("plot", "res", "--x", "system.link.bandwidth_gbps", "--y", "total_us", "--hue", "params.algorithm",
               "-o", "total.png")
    assert proc.returncode == 0, proc.stderr
    assert (folder / "total.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
