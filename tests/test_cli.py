"""The ``gpusim`` command line: help texts, ``arch show|list``, ``occupancy`` and
``run`` with its JSON output, run as a user would (a subprocess)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "data" / "corpus"
VADD = CORPUS / "gfx942" / "vadd_tail.s"
MFMA = CORPUS / "gfx942" / "mfma_gemm_32x32x8f16.s"

PER_UNIT = ("SQ_INSTS_VALU", "SQ_INSTS_SALU", "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD", "SQ_INSTS_VMEM_WR",
            "SQ_INSTS_LDS", "SQ_INSTS_BRANCH", "GPUSIM_INSTS_OTHER")


def gpusim(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, env=env, timeout=600)


COMPILE_NOTICE = "gpusim: compiling the simulator's kernels"


def ok(*args: str, cwd=None) -> str:
    """ok runs the CLI, expects exit 0 and nothing on stderr but the first-run compile notice."""
    proc = gpusim(*args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    assert [line for line in proc.stderr.splitlines() if not line.startswith(COMPILE_NOTICE)] == []
    return proc.stdout


def json_part(stdout: str) -> dict:
    """json_part returns the JSON document that ``--json -`` prints (after the text report)."""
    start = stdout.index("\n{") + 1 if not stdout.startswith("{") else 0
    return json.loads(stdout[start:])


# ---------------------------------------------------------------- help
def test_top_level_help_lists_the_commands():
    out = ok("--help")
    for command in ("run", "occupancy", "arch"):
        assert re.search(rf"^\s+{command}\b", out, re.M), command
    assert "gfx942" in out


def test_top_level_help_mentions_the_launch_header():
    assert "gpusim-launch" in ok("--help")


def test_run_help_documents_the_header_format():
    out = ok("run", "--help")
    for phrase in ("; gpusim-launch: grid=", "block=", "; gpusim-arg:", "buffer", "init=", "; gpusim-check:",
                   "--check", "--arch", "--grid", "--arg", "--max-instructions", "--json"):
        assert phrase in out, phrase


def test_run_help_teaches_the_report():
    out = ok("run", "--help")
    for phrase in ("--no-timing", "time", "FLOP/s", "bytes/s at HBM, L2 and LDS", "occupancy", "limiter",
                   "VALU", "MFMA", "SALU", "VMEM", "vmcnt", "lgkmcnt", "barrier", "dependency", "arbitration",
                   "no eligible wave", "idle", "hit rates", "bank-conflict", "TCC_HIT[3]", "TCC_HIT_sum", "--csv"):
        assert phrase in out, phrase


def test_old_timing_flag_is_accepted_but_not_advertised():
    assert not re.search(r"--timing\b", ok("run", "--help"))


def test_version():
    assert ok("--version").startswith("gpusim ")


# ---------------------------------------------------------------- arch
def test_arch_show_prints_resolved_keys():
    out = ok("arch", "show", "cdna3")
    assert out.startswith("# cdna3: fully resolved architecture")
    for line in ("name: cdna3", "gfx_target: gfx942", "wave_size: 64", "xcds: 8", "cus_per_xcd: 38",
                 "simds: 4", "max_waves_per_simd: 8", "vgpr_alloc_granule: 8"):
        assert re.search(rf"^\s*{re.escape(line)}\b", out, re.M), line
    assert re.search(r"^\s*lds:\s*$", out, re.M)


def test_arch_show_of_a_file_that_extends_cdna3_shows_the_override(tmp_path):
    (tmp_path / "big_lds.yaml").write_text("extends: cdna3\nname: big_lds\ncu:\n  lds:\n    size_bytes: 131072\n")
    out = ok("arch", "show", "big_lds.yaml", cwd=tmp_path)
    assert re.search(r"^name: big_lds\b", out, re.M)
    assert re.search(r"^gfx_target: gfx942\b", out, re.M), "inherited from cdna3"
    lds = out[out.index("  lds:"):]
    assert re.search(r"^\s+size_bytes: 131072\s+# from .*big_lds\.yaml", lds, re.M)
    assert "cdna3.yaml" in out.splitlines()[1]


def test_arch_list_names_the_shipped_architectures():
    out = ok("arch", "list")
    assert re.search(r"^cdna3\s+gfx942\s+304 CUs", out, re.M)
    assert re.search(r"^cdna2\s+gfx90a", out, re.M)


# ---------------------------------------------------------------- occupancy
def test_occupancy_of_an_mfma_kernel_names_the_limiter():
    out = ok("occupancy", str(MFMA), "--arch", "cdna3")
    assert "kernel mfma_gemm_32x32x8f16 (gfx942) on cdna3" in out
    assert re.search(r"36 VGPRs/lane \(20 arch \+ 16 AGPRs", out)
    assert re.search(r"^\s+limiter:\s+waves\b", out, re.M)
    assert "8 waves/SIMD" in out


def test_occupancy_limited_by_vgprs(tmp_path):
    text = MFMA.read_text().replace(".amdhsa_next_free_vgpr 36", ".amdhsa_next_free_vgpr 256", 1)
    (tmp_path / "fat.s").write_text(text)
    out = ok("occupancy", "fat.s", cwd=tmp_path)
    assert re.search(r"^\s+limiter:\s+vgprs\b", out, re.M), out
    assert "2 waves/SIMD" in out


def test_occupancy_arch_vgprs_never_exceed_the_total():
    out = ok("occupancy", str(CORPUS / "gfx942" / "gemm_lds_tiled.s"))
    total, arch = map(int, re.search(r"(\d+) VGPRs/lane \((\d+) arch", out).groups())
    assert arch <= total, out


# ---------------------------------------------------------------- run --json
@pytest.fixture(scope="module")
def vadd_json_runs():
    return [gpusim("run", str(VADD), "--check", "--json", "-") for _ in range(2)]


def test_run_json_has_counters_and_checks(vadd_json_runs):
    proc = vadd_json_runs[0]
    assert proc.returncode == 0, proc.stderr
    doc = json_part(proc.stdout)
    assert doc["kernel"] == "vadd_tail" and doc["target"] == "gfx942" and doc["arch"] == "cdna3"
    assert doc["grid"] == [4, 1, 1] and doc["block"] == [256, 1, 1]
    counters = doc["counters"]
    for name in ("SQ_WAVES", "SQ_INSTS_VALU", "SQ_INSTS_SALU", "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD",
                 "SQ_INSTS_VMEM_WR", "SQ_INSTS_LDS", "SQ_INSTS_BRANCH", "SQ_INSTS_MFMA", "GPUSIM_INSTS_TOTAL"):
        assert isinstance(counters[name], int), name
    assert counters["SQ_WAVES"] == 16
    assert doc["checks"] and all(c["passed"] for c in doc["checks"])
    assert doc["resolved_arch"]["name"] == "cdna3"


def test_run_json_counters_are_consistent(vadd_json_runs):
    counters = json_part(vadd_json_runs[0].stdout)["counters"]
    assert counters["GPUSIM_INSTS_TOTAL"] >= sum(counters[c] for c in PER_UNIT)
    assert counters["SQ_INSTS_MFMA"] <= counters["SQ_INSTS_VALU"]


def test_run_json_sq_insts_wave_is_the_sum_of_the_per_unit_counters(vadd_json_runs):
    counters = json_part(vadd_json_runs[0].stdout)["counters"]
    assert counters["GPUSIM_INSTS_TOTAL"] == sum(counters[c] for c in PER_UNIT)


def test_run_json_to_stdout_is_valid_json(vadd_json_runs):
    json.loads(vadd_json_runs[0].stdout)


def test_two_runs_give_identical_json(vadd_json_runs):
    first, second = (json_part(p.stdout) for p in vadd_json_runs)
    assert first["counters"] == second["counters"]
    assert first == second


def test_run_json_to_a_file(tmp_path):
    out = ok("run", str(VADD), "--json", str(tmp_path / "r.json"))
    assert "kernel   vadd_tail (gfx942) on cdna3" in out
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["counters"]["SQ_WAVES"] == 16


def test_run_json_has_per_instance_counters_that_add_up_to_the_sums(vadd_json_runs):
    doc = json_part(vadd_json_runs[0].stdout)
    per_instance = doc["counters_per_instance"]
    assert len(per_instance["TCC_HIT"]) == 8 * 16 and len(per_instance["TCP_TOTAL_CACHE_ACCESSES"]) == 304
    for name, values in per_instance.items():
        assert sum(values) == doc["counters"][name + "_sum"], name
    assert doc["metrics"]["Kernel_Cycles"] == doc["cycles"]
    assert doc["occupancy"] == {"waves_per_simd": 8, "limiter": "waves"}


# ---------------------------------------------------------------- run: report and exit codes
def test_run_report_and_check_pass():
    out = ok("run", str(VADD), "--check")
    assert "launch   grid 4x1x1 workgroups, block 256x1x1: 4 workgroups, 16 waves" in out
    assert "executed 320 wave-instructions (20.0 per wave)" in out
    assert re.search(r"^check\s+PASS c == a \+ b: 1000 elements", out, re.M)


def test_run_reports_the_timing_model_by_default():
    out = ok("run", str(VADD))
    labels = [line.split()[0] for line in out.splitlines() if line.strip() and not line.startswith(" ")]
    assert labels == ["kernel", "launch", "occupancy", "executed", "time", "profiler", "hipEvent", "compute",
                      "memory", "busy", "waves", "CUs", "caches", "LDS", "hazards"]
    assert re.search(r"^time\s+[\d,]+ cycles = [\d.]+ us at 2100 MHz", out, re.M)
    assert re.search(r"^profiler\s+[\d.]+ us kernel time as a profiler's kernel trace measures it", out, re.M)
    assert re.search(r"^hipEvent\s+[\d.]+ us as hipEvent timing around the launch measures it", out, re.M)
    assert re.search(r"^compute\s+[\d.]+ [kMGTP]?FLOP/s = .* of the f32 VALU peak", out, re.M)
    assert re.search(r"^memory\s+HBM .*B/s \(.* of peak .*\)  L2 .*B/s \(.*\)  LDS .*B/s", out, re.M)


def test_no_timing_runs_the_functional_model_only():
    out = ok("run", str(VADD), "--no-timing", "--check")
    assert "cycles" not in out and "/s" not in out and "us at" not in out
    assert re.search(r"^timing\s+not run \(--no-timing\)", out, re.M)
    assert "executed 320 wave-instructions (20.0 per wave)" in out and "PASS" in out


def test_old_timing_flag_still_runs_the_timing_model():
    assert re.search(r"^time\s+[\d,]+ cycles", ok("run", str(VADD), "--timing"), re.M)


def test_failed_check_exits_1_and_says_which_element(tmp_path):
    text = VADD.read_text().replace("; gpusim-check: c == a + b", "; gpusim-check: c == a + b + (np.arange(1000) == 7)")
    (tmp_path / "wrong.s").write_text(text)
    proc = gpusim("run", "wrong.s", "--check", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert re.search(r"^check\s+FAIL .*1 of 1000 elements differ; first: \[7\] got ", proc.stdout, re.M)


def test_cli_overrides_change_the_launch():
    out = ok("run", str(CORPUS / "gfx942" / "saxpy.s"), "--grid", "2", "--arg", "n=300")
    assert "grid 2x1x1 workgroups" in out and "2 workgroups, 8 waves" in out


def test_run_on_cdna2_target_file():
    out = ok("run", str(CORPUS / "gfx90a" / "vadd_tail.s"), "--arch", "cdna2", "--check")
    assert "vadd_tail (gfx90a) on cdna2" in out and "PASS" in out


def test_readme_tour_override_example_runs_as_written_and_resizes_the_buffers():
    line = next(ln for ln in (REPO / "README.md").read_text().splitlines() if "--arg n=16384" in ln)
    words = line.split("#")[0].split()
    assert words[:2] == ["gpusim", "run"]
    out = ok(*words[1:], cwd=REPO)
    assert re.search(r"^check\s+PASS y ~= a \* x \+ y: 16384 elements", out, re.M), out


def _on_a_terminal(*args: str) -> tuple[int, str, str]:
    """_on_a_terminal runs the CLI with its standard error on a pseudo-terminal of 120 columns (what a person
    at a terminal sees there) and its standard output on a pipe; returns (exit code, stdout, stderr)."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "gpusim.cli", *args], stdout=subprocess.PIPE, stderr=follower,
                            stdin=subprocess.DEVNULL, cwd=REPO, env=env)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # the child has closed its end
            break
        if not chunk:
            break
        seen += chunk
    out = proc.stdout.read().decode()
    os.close(leader)
    return proc.wait(timeout=600), out, seen.decode(errors="replace")


def test_a_long_timed_run_on_a_terminal_shows_its_progress_and_quiet_hides_it():
    # about 2 s of timing loop: past the bar's one-second delay
    args = ("run", "workloads/gemm_128x128.s", "--grid", "16,8,1")
    code, out, err = _on_a_terminal(*args)
    assert code == 0, err
    frames = [f for f in err.split("\r") if "gemm_f16_128x128x32 timed:" in f]
    assert frames and "3.96M/3.96M wave-instructions" in frames[-1], err
    assert re.search(r"^time\s+[\d,]+ cycles", out, re.M)
    code, quiet_out, err = _on_a_terminal(*args, "--quiet")
    assert code == 0 and "timed:" not in err, err
    assert quiet_out == out


def test_a_program_run_on_a_terminal_shows_its_launches():
    code, out, err = _on_a_terminal("run", "workloads/pipeline_2stream.yaml")
    assert code == 0, err
    frames = [f for f in err.split("\r") if f.startswith("program:")]
    assert frames and "3/3 launches" in frames[-1] and frames[-1].rstrip().endswith("saxpy on GPU 0, timed"), err
    assert re.search(r"^launches\s+3 kernels", out, re.M)
