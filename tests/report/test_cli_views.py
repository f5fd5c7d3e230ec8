"""gpusim explain and gpusim report on the command line: kernels or saved runs in, plain text out."""
from gpusim.templates.registry import generate


def test_explain_a_kernel_and_its_saved_run_alike(tmp_path, cli):
    (tmp_path / "copy.s").write_text(generate("stream", "cdna3", op="copy", n=1 << 24))
    direct = cli("explain", "copy.s")
    assert direct.returncode == 0, direct.stderr
    assert direct.stdout.startswith("Bound by HBM bandwidth: ") and "[rests on: " in direct.stdout
    assert "  Try: " in direct.stdout
    assert cli("run", "copy.s", "--json", "copy.json").returncode == 0
    saved = cli("explain", "copy.json")
    assert saved.returncode == 0 and saved.stdout == direct.stdout


def test_report_names_the_arch_change_and_marks_what_moved(tmp_path, cli):
    (tmp_path / "copy.s").write_text(generate("stream", "cdna3", op="copy", n=1 << 20))
    (tmp_path / "half.yaml").write_text("extends: cdna3\nname: half_hbm\nhbm:\n  channels: 64\n")
    assert cli("run", "copy.s", "--json", "a.json").returncode == 0
    assert cli("run", "copy.s", "--arch", "half.yaml", "--json", "b.json").returncode == 0
    proc = cli("report", "a.json", "b.json")   # not a terminal: no colour codes
    assert proc.returncode == 0, proc.stderr
    assert "arch: cdna3 vs half_hbm (hbm.channels 128 -> 64)" in proc.stdout and "\x1b[" not in proc.stdout
    time_row = next(line for line in proc.stdout.splitlines() if line.lstrip("* ").startswith("time "))
    assert time_row.startswith("*") and " us < " in time_row.split("x")[0]   # half the channels: slower, a wins
    proc = cli("report", "a.json", "missing.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "missing.json" in proc.stderr
