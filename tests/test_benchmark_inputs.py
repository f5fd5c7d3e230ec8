"""The benchmarks' scaled kernels still load: their header rewrites match the corpus files they edit.

The benchmarks are not run in CI (they time the host), so a change to a corpus kernel's header (saxpy's
buffers becoming ``f32[n]``) would otherwise break them unnoticed. Nothing here simulates.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.engine.sampling_policy import SamplingPolicy

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("quick", [True, False])
def test_every_timed_rate_case_loads_at_its_scaled_size(tmp_path, quick):
    timed = _module("timed_rate")
    for case in timed.cases(quick, full=True):
        kernel = gpusim.load_kernel(timed.scaled(case.kernel, case.subs, tmp_path))
        assert kernel.module.launch.grid[0] * kernel.module.launch.grid[1] > 16, case.label   # scaled up from the corpus size


@pytest.mark.parametrize("quick", [True, False])
def test_every_functional_rate_case_loads(quick):
    functional = _module("functional_rate")
    for label, path in functional.cases(quick):
        assert gpusim.load_kernel(path).name, label


def test_every_hardware_accuracy_row_loads_at_its_size(tmp_path):
    accuracy = _module("hardware_accuracy")
    rows = accuracy.measured_rows()
    # the in-repo copy of the MI300A table: 20 vectoradd, 20 relu, 20 fir, 19 transpose sizes
    assert len(rows) == 79 and {r.family for r in rows} == set(accuracy.FAMILIES)
    for fam in accuracy.FAMILIES:
        splits = [r.split for r in sorted((r for r in rows if r.family == fam), key=lambda r: r.order)]
        assert splits[:4] == ["train", "test", "train", "test"], fam   # alternate sizes within a family
    over = [r.label for r in rows if r.footprint_bytes > accuracy.simulator_buffer_limit()]
    assert over == ["matrixtranspose 49152x49152"]   # 2 x 9.7 GB: over gpusim's 16 GiB, reported as not simulated
    for row in rows:
        if row.footprint_bytes > accuracy.simulator_buffer_limit():
            continue
        kernel = gpusim.load_kernel(accuracy.rewritten_kernel(row, tmp_path))
        launch = kernel.module.launch
        workitems = launch.grid[0] * launch.grid[1] * launch.block[0] * launch.block[1]
        if row.family == "matrixtranspose":      # one work-item per 4x4 block of the W x W matrix
            assert workitems * 16 * 4 * 2 == row.footprint_bytes, row.label
        elif row.family == "fir":                # one work-item per output
            assert workitems == int(row.size.split("_")[0]), row.label
        else:                                    # one work-item per element, 256-wide workgroups
            assert workitems == -(-int(row.size) // 256) * 256, row.label


def test_every_sampling_case_loads_at_both_sizes():
    cases = _module("sampling_cases")
    assert cases.uncovered() == []   # every workloads/, benchmarks/kernels/ and corpus kernel has a case
    small, large = cases.cases("small"), cases.cases("large")
    assert [c.name for c in small] == [c.name for c in large]

    def extent(kernel):   # workgroups, buffer elements, the integer scalars (sizes, trip counts) added up
        args = kernel.module.args
        return (int(np.prod(kernel.module.launch.grid)),
                sum(int(np.prod(a.shape)) for a in args if a.kind == "buffer"),
                sum(a.value for a in args if a.kind != "buffer" and isinstance(a.value, int)))

    for s, l in zip(small, large):
        ks, kl = s.load(), l.load()
        es, el = extent(ks), extent(kl)
        assert s.size != l.size and el != es and all(b >= a for a, b in zip(es, el)), s.name   # large is larger
    by_name = {c.name: c for c in large}
    for h in cases.cases("huge"):   # issue 19's own examples, past their large namesakes
        eh, el = extent(h.load()), extent(by_name[h.name].load())
        assert eh[0] > el[0] and eh[1] > el[1], h.name
    assert [c.size for c in cases.cases("huge")] == ["n=512M", "32768^2 f32", "n=1G"]
    assert by_name["gemm_128x128"].size == "4096^3 f16"          # issue 19's required sizes
    assert by_name["transpose_lds_padded"].size == "16384^2 f32"
    assert by_name["stream_triad"].size == "n=256M"


@pytest.mark.skipif(shutil.which("clang-19") is None or shutil.which("llvm-mc-19") is None,
                    reason="needs clang-19 and llvm-mc-19")
@pytest.mark.parametrize("quick", [True, False])
def test_every_program_sampling_chain_loads_its_kernels_at_their_buffers_sizes(tmp_path, quick):
    from gpusim.system.loader import load_program
    bench = _module("program_sampling")
    for name, chain in bench.CHAINS.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(chain(tmp_path, quick))
        program = load_program(str(path))   # refuses a kernel argument whose buffer has another shape
        assert len(program.kernels) >= 1 and len(program.streams[0].ops) >= 2, name


def test_hardware_accuracy_kernels_are_what_their_hip_sources_compile_to():
    build = subprocess.run([sys.executable, str(BENCHMARKS / "kernels" / "build_hip.py"), "--check"],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr


def test_the_sampling_benchmark_refuses_a_bad_policy_setting_by_name_before_running_anything():
    run = subprocess.run([sys.executable, str(BENCHMARKS / "sampling.py"), "--list", "--policy", "loop_warm_cache=false"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "sampling setting 'loop_warm_cache' is not one of" in run.stderr
    assert "did you mean 'loop_warm_caches'?" in run.stderr
    assert run.stdout == ""   # refused before the case list


def test_the_sampling_floor_measures_window_noise_against_the_whole_run_rate():
    floor = _module("sampling_floor")
    cycles, rounds = 100_000, 200.0          # 500 cycles per round
    at = np.arange(0, cycles + 1, 250, dtype=float)
    steady = floor.window_noise(cycles, rounds, at, 64.0 * at)
    assert steady["sd_pct"] == {w: 0.0 for w in floor.WINDOWS}
    assert steady["rounds_for_target"] == floor.WINDOWS[0]
    # the rate alternates 60 / 68 bytes per cycle every 5 rounds: a 5-round window (sliding by a quarter)
    # sees any mix of the two, longer ones average them out
    rate = np.where((at // 2500) % 2 == 0, 60.0, 68.0)
    moved = np.concatenate(([0.0], np.cumsum(rate[:-1] * 250)))
    bursty = floor.window_noise(cycles, rounds, at, moved)
    start = 0.1 * cycles
    mean = (np.interp(cycles, at, moved) - np.interp(start, at, moved)) / (cycles - start)
    t0 = np.arange(start, cycles - 2500, 2500 / 4)
    reference = 100 * np.std((np.interp(t0 + 2500, at, moved) - np.interp(t0, at, moved)) / 2500 / mean - 1)
    assert bursty["sd_pct"][5] == pytest.approx(reference)
    assert bursty["sd_pct"][5] > 2.0 and bursty["sd_pct"][10] < 0.5
    assert bursty["rounds_for_target"] == 10
    short = floor.window_noise(cycles, 20.0, at, moved)   # 5,000 cycles a round: no room for two 20-round windows
    assert short["sd_pct"][20] is None and short["sd_pct"][40] is None


def test_the_sampling_floor_places_a_sampled_run_among_the_five_full_results():
    floor = _module("sampling_floor")
    rec = {"perturbed_cycles": {"base": 504_812, "a+1": 491_363, "a-1": 502_267, "b+1": 490_141, "b-1": 489_893}}
    floor.place_sampled(rec, {"sampled_cycles": 490_141})
    assert rec["sampled_in_range"] is True
    assert rec["sampled_vs_median_pct"] == pytest.approx(100 * (490_141 - 491_363) / 491_363)
    floor.place_sampled(rec, {"sampled_cycles": 489_892})
    assert rec["sampled_in_range"] is False


def _bias_case(name, method, error_pct, fraction, ci_pct):
    """a sampled case of 1,000 sampled cycles whose full run differs by ``error_pct`` of them"""
    return {"name": name, "method": method, "error_pct": error_pct, "simulated_fraction": fraction,
            "ci_pct": ci_pct, "sampled_cycles": 1000, "full_cycles": 1000 - 10 * error_pct}


def test_the_sampling_bias_calibrates_per_skipped_share_and_checks_the_bound_on_other_cases():
    bias = _module("sampling_bias")
    training = [_bias_case(f"t{i}", "loop", e, f, 0.1) for i, (e, f) in
                enumerate([(-1.0, 0.5), (2.0, 0.0), (0.3, 0.7), (-6.0, 0.4), (0.0, 0.9)])]
    training.append(_bias_case("g", "grid", 1.5, 0.75, 2.0))
    got = bias.calibrate(training, 0.6)
    r = np.array([0.02, 0.02, 0.01, 0.10, 0.0])   # |sampled - full| / sampled / (1 - fraction)
    assert got["loop"] == pytest.approx(np.quantile(r, 0.6, method="higher")) == pytest.approx(0.02)
    assert got["grid"] == pytest.approx(0.06)
    held_out = [_bias_case("a", "loop", 4.0, 0.5, 0.2),    # bound hypot(0.2, 100 x 0.02 x 0.5 = 1.0): outside
                _bias_case("b", "loop", -0.9, 0.5, 0.2),   # inside the bound, outside the noise
                _bias_case("c", "grid", 0.5, 0.8, 1.0)]    # inside the noise
    assert bias.bound_pct(held_out[0], got) == pytest.approx(np.hypot(0.2, 1.0))
    assert bias.coverage(held_out, got) == {"loop": (2, 0, 1), "grid": (1, 1, 1)}
    assert [c["name"] for c in bias.sampled_cases({"cases": held_out + [dict(held_out[0], method="full")]})] \
        == ["a", "b", "c"]


def test_a_method_the_training_run_never_sampled_trains_on_one_group_of_the_held_out_run():
    bias = _module("sampling_bias")
    training = [_bias_case("t", "loop", 1.0, 0.5, 0.1)]
    held_out = [dict(_bias_case("c1", "grid", 1.0, 0.5, 0.1), group="corpus"),
                dict(_bias_case("c2", "loop", 1.0, 0.5, 0.1), group="corpus"),   # loop has training: stays held out
                dict(_bias_case("w1", "grid", 1.0, 0.5, 0.1), group="workloads")]
    trained, checked, borrowed = bias.borrow_training(training, held_out, "corpus")
    assert [c["name"] for c in borrowed] == ["c1"]
    assert [c["name"] for c in trained] == ["t", "c1"]
    assert [c["name"] for c in checked] == ["c2", "w1"]
    assert bias.borrow_training(training, held_out, "kernels")[2] == []


@pytest.mark.parametrize("estimated, sampled, says", [
    (True, 1_000_500, None),
    (True, 1_005_000, "instruction count off by 0.50%"),
    (False, 1_000_001, "instruction counts differ"),
])
def test_the_sampling_benchmark_holds_instruction_counts_exact_unless_the_run_estimated_them(estimated, sampled, says):
    bench = _module("sampling")
    rec = {"name": "k", "scale": "large", "error_pct": 0.0, "tolerance_pct": 3.0, "speedup": 20.0,
           "sampled_s": 1.0, "wave_instructions": 1_000_000, "sampled_wave_instructions": sampled,
           "counts_estimated": estimated}
    assert bench.misses(rec) == ([says] if says else [])



def _run_record(name, method, error_pct, in_bound, speedup, detail, tolerance_pct=1.0):
    """_run_record is one case's record as benchmarks/sampling.py --json writes it, with the figures given."""
    return {"name": name, "size": "n", "scale": "large", "workgroups": 1000, "rounds": 10.0, "full_cycles": 1000,
            "sampled_cycles": round(1000 * (1 + error_pct / 100)), "error_pct": error_pct, "ci_pct": 0.1,
            "bound_pct": 1.0, "full_in_bound": in_bound if method else None, "method": method,
            "simulated_fraction": detail, "full_s": speedup, "sampled_s": 1.0, "setup_s": 0.1, "speedup": speedup,
            "tolerance_pct": tolerance_pct, "misses": [] if abs(error_pct) <= tolerance_pct else ["|error|"],
            "reason": "", "wave_instructions": 10, "sampled_wave_instructions": 10}


def test_the_sampling_benchmark_tables_its_cases_by_method_from_a_saved_run(tmp_path):
    records = [_run_record("a", "grid", -0.5, True, 3.0, 0.4), _run_record("b", "grid", 1.5, False, 5.0, 0.2),
               _run_record("c", "loop", -2.0, True, 2.0, 0.5, tolerance_pct=3.0),
               _run_record("d", None, 0.0, None, 0.9, 1.0),
               {"name": "e", "size": "n", "scale": "large", "failed": "MemoryError: "}]
    rows = {m["method"]: m for m in _module("sampling").by_method(records)}
    assert list(rows) == ["grid", "loop", "full"]   # the failed case is left out
    grid = rows["grid"]
    assert (grid["cases"], grid["within_error_target"], grid["within_bound"]) == (2, 1, 1)
    assert grid["mean_abs_error_pct"] == pytest.approx(1.0) and grid["max_abs_error_pct"] == pytest.approx(1.5)
    assert (grid["median_speedup"], grid["min_speedup"], grid["max_speedup"]) == (4.0, 3.0, 5.0)
    assert grid["median_detail"] == pytest.approx(0.3)
    assert rows["loop"]["within_error_target"] == 1 and rows["full"]["within_bound"] is None
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"scale": "large", "cases": records}))
    run = subprocess.run([sys.executable, str(BENCHMARKS / "sampling.py"), "--report", str(saved)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    table = run.stdout[run.stdout.index("by method"):].splitlines()
    assert table[2].split() == ["grid", "2", "1", "1.00%", "1.50%", "1", "4.0x", "(3.0-5.0x)", "30%"]
    assert table[4].split() == ["full", "1", "1", "0.00%", "0.00%", "0.9x", "(0.9-0.9x)", "100%"]
    saved.write_text("[1, 2]")
    run = subprocess.run([sys.executable, str(BENCHMARKS / "sampling.py"), "--report", str(saved)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a --json of this benchmark" in run.stderr

def test_the_kernel_profiler_reads_function_sizes_from_an_object_file(tmp_path):
    clang, nm = shutil.which("clang-19"), shutil.which("llvm-nm-19")
    if clang is None or nm is None:
        pytest.skip("clang-19 and llvm-nm-19 are needed to build an object file")
    source = tmp_path / "two.c"
    source.write_text("int small(int x) { return x + 1; }\n"
                      "int large(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i] * i; return s; }\n")
    obj = tmp_path / "two.o"
    subprocess.run([clang, "-O1", "-c", "-target", "x86_64-linux-gnu", str(source), "-o", str(obj)], check=True)
    listed = subprocess.run([nm, "-S", "--defined-only", str(obj)], capture_output=True, text=True, check=True)
    expected = {fields[3]: int(fields[1], 16) for fields in (line.split() for line in listed.stdout.splitlines())
                if len(fields) == 4 and fields[2] in "Tt"}
    profiler = _module("profile_kernels")
    assert dict(profiler.function_symbols(obj.read_bytes())) == expected == {"small": expected["small"],
                                                                              "large": expected["large"]}
    assert expected["large"] > expected["small"] > 0
    # gpusim's code-object reader still refuses the host's object unless asked to take any machine
    from gpusim.frontends.elf import CodeObjectError, Elf
    with pytest.raises(CodeObjectError, match="is not AMDGPU"):
        Elf(obj.read_bytes(), str(obj))


def test_the_kernel_profiler_maps_code_addresses_to_source_lines(tmp_path):
    clang, nm = shutil.which("clang-19"), shutil.which("llvm-nm-19")
    dwarfdump = shutil.which("llvm-dwarfdump-19")
    if clang is None or nm is None or dwarfdump is None:
        pytest.skip("clang-19, llvm-nm-19 and llvm-dwarfdump-19 are needed")
    source = tmp_path / "two.c"
    source.write_text("int small(int x) { return x + 1; }\n"
                      "int large(int *p, int n) {\n"
                      "  int s = 0;\n"
                      "  for (int i = 0; i < n; i++) s += p[i] * i;\n"
                      "  return s;\n"
                      "}\n")
    obj = tmp_path / "two.o"
    subprocess.run([clang, "-O1", "-gline-tables-only", "-c", "-target", "x86_64-linux-gnu", str(source), "-o",
                    str(obj)], check=True)
    listed = subprocess.run([nm, "--defined-only", str(obj)], capture_output=True, text=True, check=True)
    start = {fields[2]: int(fields[0], 16) for fields in (line.split() for line in listed.stdout.splitlines())
             if len(fields) == 3}
    rows = _module("profile_kernels").line_rows(obj.read_bytes(), dwarfdump)
    assert rows == sorted(rows)
    assert dict(rows)[start["small"]].endswith("two.c:1")
    lines_of_large = {int(where.rsplit(":", 1)[1]) for address, where in rows if address >= start["large"]}
    assert 4 in lines_of_large and lines_of_large <= {0, 2, 3, 4, 5, 6}   # 0: code the compiler kept no line for
    assert all(where.rsplit(":", 1)[0] == str(source) for _, where in rows)


def test_the_kernel_profiler_names_numba_functions_by_module_and_function():
    profiler = _module("profile_kernels")
    mangled = ("_ZN6gpusim6engine7kernels2cu9run_timedB2v1B54c8tJTC_2fWwGaMLSgd6CjA4xXKR0tsqKIYSQtVGpi4EHECT01gNZoAE"
               "530ProgramArrays_28array_28int32")
    assert profiler.short_name(mangled) == "cu.run_timed"
    assert profiler.short_name("_ZN6gpusim6memory7kernels7channel15channel_requestB4v452B42c8t") == \
        "channel.channel_request"
    assert profiler.short_name("memcpy") == "memcpy"


def test_the_kernel_profiler_refuses_an_unknown_case_before_compiling_anything():
    run = subprocess.run([sys.executable, str(BENCHMARKS / "profile_kernels.py"), "stream_triadd"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "no case 'stream_triadd'" in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def _replay_record(boundaries, jump_at_rounds=10, resume_rounds=200, per_round=100, window=4):
    """_replay_record is a captured case of benchmarks/grid_rules.py with round boundaries ``boundaries``."""
    t = np.asarray(boundaries, np.int64)
    return {"name": "k", "tolerance_pct": 1.0, "cycles": int(t[-1]) + 1000, "round_t": [int(x) for x in t],
            "plan": {"jump_at": jump_at_rounds * per_round, "resume_at": resume_rounds * per_round,
                     "round": per_round, "window": window}}


def test_the_grid_rule_replay_jumps_where_the_timing_loop_would_and_costs_the_middle_it_skips():
    from gpusim.engine.kernels.skip import interval_ppm
    from gpusim.engine.sampling import t95_table
    rules = _module("grid_rules")
    k = np.arange(200)
    jitter = np.where(k % 3 == 0, 40, np.where(k % 3 == 1, -15, -25))   # bursts that do not accumulate
    t = 1000 * k + jitter
    t[0] = 0
    rec = _replay_record(t)
    shipped = rules.replay(rec, "shipped", SamplingPolicy())
    # the loop's own test, boundary by boundary: both windows of 4 rounds within 3% (a window's jitter moves
    # it by 65 cycles of 4,000 at most), then interval_ppm within 0.5% = 5,000 parts per million, from
    # boundary 9 on (the next round is the 10th, jump_at)
    expected = next(j for j in range(9, 199)
                    if interval_ppm(t, t95_table(j + 1), j, 200 * 100, 100) <= 5_000)
    assert shipped["k"] == expected > 9
    first = (expected + 1) // 2
    rate = (t[expected] - t[first]) / (expected - first)
    middle = rate * (199 - expected - 1) - (t[199] - t[expected + 1])
    assert shipped["error_pct"] == pytest.approx(100 * middle / rec["cycles"])
    assert shipped["detail"] == pytest.approx(1 - (20_000 - 100 * (expected + 1)) / 20_100)
    # the least-squares slope of independent jitter narrows faster: it jumps sooner, and costs the same line
    lsq = rules.replay(rec, "lsq", SamplingPolicy())
    assert lsq["k"] < shipped["k"] and abs(lsq["error_pct"]) < 0.05


def test_the_grid_rule_replay_misses_a_rate_that_changes_after_the_head():
    rules = _module("grid_rules")
    t = np.concatenate(([0], np.cumsum(np.where(np.arange(199) < 60, 1000, 1100)))).astype(np.int64)
    rec = _replay_record(t)
    o = rules.replay(rec, "shipped", SamplingPolicy())
    assert o["k"] == 9   # a straight line: no jitter, the first boundary the plan allows
    slow_rounds = 199 - 60   # the full run's rounds at 1,100 cycles, which the replay costs at 1,000
    assert o["error_pct"] == pytest.approx(-100 * 100 * slow_rounds / rec["cycles"])
    assert rules.replay(_replay_record(t[:11]), "shipped", SamplingPolicy())["k"] is None   # no middle left to cost


def test_the_grid_deciles_show_a_rate_that_slows_over_the_grid_and_skip_short_grids():
    rules = _module("grid_rules")
    # 100 rounds: the first tenth at 800 cycles a round, then 1,000 slowing to 1,090 by 10 per tenth
    per_round = np.concatenate([np.full(10, 800)] + [np.full(10, 1000 + 10 * (i - 1)) for i in range(1, 10)])
    rec = _replay_record(np.concatenate(([0], np.cumsum(per_round))))
    later = (per_round[10:].sum()) / 90   # 1,040 cycles a round past the first tenth
    cells = rules.deciles(rec)
    assert len(cells) == 10
    assert cells[0] == pytest.approx(100 * (800 / later - 1))
    assert cells[1:] == pytest.approx([100 * ((1000 + 10 * (i - 1)) / later - 1) for i in range(1, 10)])
    assert rules.deciles(_replay_record(np.arange(20) * 1000)) is None   # 19 rounds: too few tenths to tell


def test_the_strata_replay_costs_each_stratum_at_its_own_window_and_needs_long_enough_strata(tmp_path, capsys):
    rules = _module("grid_rules")
    policy = SamplingPolicy()   # windows of 4 rounds, a head of a tenth of the rounds, one tail round
    # 199 recorded rounds at 1,000 cycles, 1,200 from round 110 on, 1,300 from round 150 on: the head is
    # rounds 0-19, the two strata 20-109 and 110-198, each measured over its rounds 1-4 (after the warm-up)
    per_round = np.where(np.arange(199) < 110, 1000, np.where(np.arange(199) < 150, 1200, 1300))
    rec = _replay_record(np.concatenate(([0], np.cumsum(per_round))))
    o = rules.replay_strata(rec, 2, policy)
    assert o["detail"] == pytest.approx((20 + 2 * (1 + 4) + 1) / (199 + 1))
    # the first stratum's rate is its own; the second's window sees 1,200, so its 49 rounds at 1,300 come
    # out 100 cycles short each
    assert o["error_pct"] == pytest.approx(-100 * 49 * 100 / rec["cycles"])
    # one stratum over the whole rest measures 1,000 a round: 89 rounds short by 200, 49 more by 300
    assert rules.replay_strata(rec, 1, policy)["error_pct"] == pytest.approx(
        -100 * (40 * 200 + 49 * 300) / rec["cycles"])
    # 30 rounds: a head of 8 leaves 22, too few for 8 strata of a warm-up round, a window and a skipped round
    assert rules.replay_strata(_replay_record(np.arange(31) * 1000), 8, policy) is None
    saved = tmp_path / "t.json"
    saved.write_text(json.dumps([{**rec, "name": "saxpy", "arch": "cdna3"}]))
    assert rules.main(["--timelines", str(saved), "--cases", "saxpy", "--strata", "2"]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[1].split()[:4] == ["saxpy", "199", f"{rec['cycles']:,d}", f"{o['error_pct']:+.2f}%"]
    assert f"strata    within target 0 of 1; |error| mean {abs(o['error_pct']):.2f}%" in printed   # 1% target
    assert rules.main(["--timelines", str(saved), "--cases", "saxpy", "--strata", "0"]) == 2
    assert "--strata 0: needs at least one stratum" in capsys.readouterr().err


def test_the_grid_rules_refuse_timelines_captured_on_another_arch(tmp_path, capsys):
    rules = _module("grid_rules")
    saved = tmp_path / "t.json"
    rec = {**_replay_record(np.arange(30) * 1000), "name": "saxpy", "arch": "cdna3"}
    saved.write_text(json.dumps([rec]))
    assert rules.main(["--timelines", str(saved), "--cases", "saxpy", "--arch", "cdna2"]) == 2
    assert f"{saved} was captured on cdna3, not cdna2" in capsys.readouterr().err
    assert rules.main(["--timelines", str(saved), "--cases", "saxpy", "--deciles"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:3] == ["saxpy", "29", "30,000"]
