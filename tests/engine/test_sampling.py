"""Sampled timing (gpusim.engine.sampling) against the full simulation, on small grids of the benchmark's cases.

Issue 19's targets are 1% (GEMM, stream) and 3% (the rest) at large sizes; the methods do not meet them yet
(README, "Sampled timing"). The error bounds here are today's measured errors with a little room: they
catch a change that makes sampling drift further, and are to be tightened as the methods improve.
"""
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.errors import KernelFault
from gpusim.engine.loop_skip import skippable_loops
from gpusim.engine.sampling import plan_sampling
from gpusim.engine.sampling_policy import SamplingPolicy, policy_with_settings
from gpusim.asm.value_slice import value_slice

_CASES = Path(__file__).resolve().parents[2] / "benchmarks" / "sampling_cases.py"


def _cases():
    spec = importlib.util.spec_from_file_location("bench_sampling_cases", _CASES)
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))   # for its dataclasses
    spec.loader.exec_module(module)
    return {c.name: c for c in module.cases("small")}


CASES = _cases()


@pytest.fixture(scope="module")
def arch():
    return gpusim.load_arch("cdna3")


def _timed(name, arch, sample, **kw):
    return gpusim.simulate(CASES[name].load(), arch, timing=True, outputs=False, sample=sample, **kw)


# the small stream triad's 6.7 rounds are too few for its completion rate to settle within 3%, or for a
# narrow interval, so the tests of the grid method's mechanics let any rate count as steady
ANY_RATE = SamplingPolicy(mode="on", steady_pct=100.0, grid_interval_pct=100.0)


def _error(sampled, full):
    return (sampled.cycles - full.cycles) / full.cycles


def test_grid_sampling_is_deterministic_and_stays_near_the_full_simulation(arch):
    full = _timed("stream_triad", arch, "off")
    first = _timed("stream_triad", arch, ANY_RATE)
    again = _timed("stream_triad", arch, ANY_RATE)
    s = first.sampling
    assert s.method == "grid" and s.sampled
    assert (first.cycles, first.counters) == (again.cycles, again.counters)   # bit for bit
    assert 0.5 < s.simulated_fraction < 0.95         # two windows of 2 rounds before the jump, of 6.7 rounds
    assert s.cycles_low <= first.cycles <= s.cycles_high
    assert abs(_error(first, full)) < 0.06           # measured today: +4.1%
    from gpusim.engine.sampling import METHOD_ERROR
    assert s.method_error_pct == pytest.approx(100.0 * METHOD_ERROR["grid"] * (1.0 - s.simulated_fraction))
    # every head workgroup ran the same instructions, so the projected total is exact
    assert not s.counts_estimated
    assert first.counters["GPUSIM_INSTS_TOTAL"] == full.counters["GPUSIM_INSTS_TOTAL"]


def test_a_sampled_runs_error_estimate_adds_its_methods_measured_error_to_the_noise(arch):
    from gpusim.engine.sampling import METHOD_ERROR
    result = _timed("stream_triad_grid_stride", arch, "on")
    s = result.sampling
    skipped = 1.0 - s.simulated_fraction
    assert s.method == "loop" and skipped > 0.5
    assert s.method_error_pct == pytest.approx(100.0 * METHOD_ERROR["loop"] * skipped)
    noise = 100.0 * (s.cycles_high - s.cycles_low) / 2 / result.cycles
    assert s.noise_pct(result.cycles) == pytest.approx(noise)
    assert s.error_pct(result.cycles) == pytest.approx(np.hypot(noise, s.method_error_pct))


def test_loop_sampling_counts_every_instruction_exactly_and_is_deterministic(arch):
    full = _timed("stream_triad_grid_stride", arch, "off")
    sampled = _timed("stream_triad_grid_stride", arch, "on")
    again = _timed("stream_triad_grid_stride", arch, "on")
    assert (sampled.cycles, sampled.counters) == (again.cycles, again.counters)   # bit for bit
    assert sampled.sampling.method == "loop"
    assert sampled.sampling.simulated_fraction < 0.5
    # fast-forwarded iterations are executed functionally and counted one by one
    for name, value in full.counters.items():
        if name.startswith("SQ_INSTS") or name == "GPUSIM_INSTS_TOTAL":
            assert sampled.counters[name] == value, name
    assert abs(_error(sampled, full)) < 0.10         # measured today: -9.1%


@pytest.mark.parametrize("name", ["stream_triad", "stream_triad_grid_stride"])   # grid, loop
def test_sampled_counters_still_add_up(arch, name):
    r = _timed(name, arch, ANY_RATE)
    assert r.sampling.sampled
    c = r.counters
    assert c["GRBM_GUI_ACTIVE"] == r.cycles
    stalls = [v for k, v in c.items() if k.startswith("GPUSIM_STALL_") or k == "GPUSIM_WAVE_ISSUE_CYCLES"]
    assert sum(stalls) == c["GPUSIM_WAVE_CYCLES"]
    assert c["TCC_HIT_sum"] == sum(r.instances["TCC_HIT"])
    # the skipped time keeps the CUs busy: occupancy stays within what the kernel's resources allow
    assert 0 < c["GPUSIM_CU_BUSY_CYCLES"] <= r.cycles * arch.cus
    assert c["GPUSIM_WAVE_CYCLES"] <= c["GPUSIM_CU_BUSY_CYCLES"] * 4 * r.occupancy.waves_per_simd


def test_check_still_runs_every_workgroup_functionally(arch):
    kernel = CASES["stream_triad"].load()
    sampled = gpusim.simulate(kernel, arch, timing=True, check=True, sample=ANY_RATE)
    functional = gpusim.simulate(kernel, arch, check=True)
    assert sampled.sampling.sampled
    assert sampled.checks and all(c.passed for c in sampled.checks)
    for name, data in functional.outputs.items():
        np.testing.assert_array_equal(sampled.outputs[name], data)
    assert sampled.counters["SQ_INSTS_VMEM_WR"] == functional.counters["SQ_INSTS_VMEM_WR"]


def test_a_kernel_with_atomics_is_simulated_in_full(arch):
    full = _timed("hist_global_atomic", arch, "off")
    r = _timed("hist_global_atomic", arch, "on")
    assert r.sampling.method == "full" and "atomics" in r.sampling.reason
    assert r.cycles == full.cycles


def test_auto_leaves_a_small_dispatch_exact(arch):
    full = _timed("saxpy", arch, "off")
    r = _timed("saxpy", arch, "auto")
    assert r.sampling.method == "full" and r.sampling.reason.startswith("below the sampling threshold")
    assert r.cycles == full.cycles and r.counters == full.counters


def test_off_is_the_apis_default(arch):   # the command line's is auto (tests/test_cli_sample.py)
    r = gpusim.simulate(CASES["saxpy"].load(), arch, timing=True, outputs=False)
    assert r.sampling is None


@pytest.mark.parametrize("rounds, window", [(6.5, 2), (10, 3), (30, 4), (400, 4)])
def test_the_grid_measures_over_windows_of_4_rounds_unless_the_grid_is_too_short(rounds, window):
    # two windows and the tail round must fit in the grid, and a window is never below 2 rounds
    triad = CASES["stream_triad"].load().program
    slots = 2432
    plan = plan_sampling(triad, SamplingPolicy(mode="on"), workgroups=int(rounds * slots), slots=slots,
                         waves_per_workgroup=4, probe_counts=None, needed=value_slice(triad), few_workgroups=8)
    assert plan.method == "grid" and plan.window == window
    assert f"windows of {window} rounds" in plan.reason


@pytest.mark.parametrize("rounds", [1.1, 30])
def test_auto_leaves_a_long_loop_to_the_grid_method_or_the_full_run_and_on_warps_it(rounds):
    gemm = CASES["gemm_128x128"].load().program
    slots, waves = 912, 4
    probe = np.full(gemm.rows, 4096 * waves, np.int64)   # every row, the loop's edge too, run 4,096 times a wave
    plans = {mode: plan_sampling(gemm, SamplingPolicy(mode=mode), workgroups=int(rounds * slots), slots=slots,
                                 waves_per_workgroup=waves, probe_counts=probe, needed=value_slice(gemm),
                                 few_workgroups=8) for mode in ("auto", "on")}
    assert plans["on"].method == "loop" and plans["on"].reason.startswith("long loop (rows ")
    if rounds < SamplingPolicy().grid_min_rounds:
        assert plans["auto"].method == "full"
        assert plans["auto"].reason.startswith(f"{rounds:.1f} rounds of workgroups (the grid method needs 6); its "
                                               "long loop (rows ")
        assert "is sampled only under --sample on (the loop method, experimental" in plans["auto"].reason
    else:
        assert plans["auto"].method == "grid" and plans["auto"].jump_at == 3 * slots


def test_only_outermost_loops_without_atomics_are_fast_forwarded():
    gemm = CASES["gemm_128x128"].load().program
    heads, refused = skippable_loops(gemm, value_slice(gemm))
    edges = np.flatnonzero(heads >= 0)
    assert len(edges) == 1 and heads[edges[0]] < edges[0] and not refused
    hist = CASES["hist_lds_atomic"].load().program
    heads, refused = skippable_loops(hist, value_slice(hist))
    assert not np.any(heads >= 0)
    assert refused and all("atomics" in r for r in refused)


def test_a_fault_in_fast_forwarded_iterations_is_reported_as_the_full_run_reports_it(arch):
    # 'a' a quarter of what the grid-stride loop writes: the store faults in an iteration past the head
    text = CASES["stream_triad_grid_stride"].text().replace("a buffer f32[33554432] out", "a buffer f32[8388608] out")
    kernel = gpusim.kernel_from_text(text, "faulty.s")
    reports = []
    for mode in ("off", "on"):
        with pytest.raises(KernelFault) as fault:
            gpusim.simulate(kernel, arch, timing=True, outputs=False, sample=mode)
        reports.append(str(fault.value))
    assert "past the end of buffer 'a'" in reports[0] and "workgroup (144, 0, 0), wave 1, lane 0" in reports[0]
    assert reports[1] == reports[0]


SAXPY = Path(__file__).resolve().parents[2] / "workloads" / "saxpy.s"


def _saxpy_stopping_at(stops: dict) -> str:
    """saxpy over 4M elements (16,384 workgroups, 6.7 rounds on cdna3) whose workgroups ``stops`` names (id:
    code) each first run their code: code that faults or never ends"""
    text = SAXPY.read_text().replace("grid=16,1,1", "grid=16384,1,1").replace("n i32 4000", "n i32 4194304")
    checks = "".join(f"\ts_cmp_eq_u32 s2, {workgroup}\n\ts_cbranch_scc0 .Lnot{workgroup}\n{stop}.Lnot{workgroup}:\n"
                     for workgroup, stop in stops.items())
    return text.replace("\tv_lshl_or_b32 v0, s2, 8, v0\n", "\tv_lshl_or_b32 v0, s2, 8, v0\n" + checks, 1)


# a load from address 0, outside every buffer; a branch to itself
NULL_LOAD = "\tv_mov_b32_e32 v4, 0\n\tv_mov_b32_e32 v5, 0\n\tglobal_load_dword v4, v[4:5], off\n\ts_waitcnt vmcnt(0)\n"
ENDLESS = ".Lspin:\n\ts_branch .Lspin\n"


@pytest.fixture(scope="module")
def skipped(arch):
    """skipped is a workgroup of the 4M saxpy that ANY_RATE's grid method skips, the first of its last round,
    which it times, and the workgroup it jumps from"""
    clean = gpusim.simulate(gpusim.kernel_from_text(_saxpy_stopping_at({1 << 20: NULL_LOAD}), "clean.s"), arch,
                            timing=True, outputs=False, sample=ANY_RATE)
    slots = clean.occupancy.workgroups_per_cu * arch.cus
    resume = 16384 - slots   # the last round, run in detail
    jump_from = round(clean.sampling.simulated_fraction * 16384) - slots
    assert clean.sampling.method == "grid" and jump_from < resume - 100
    return resume - 50, resume, jump_from


def _error_line(fault) -> str:
    return str(fault.value).split(": error: ")[1].split(";")[0]


@pytest.mark.parametrize("stop, says", [(NULL_LOAD, "memory access outside every buffer at address 0x0"),
                                        (ENDLESS, "")])
def test_a_fault_in_the_skipped_middle_of_a_grid_is_reported_as_the_full_run_reports_it(arch, skipped, stop, says):
    # the timing-only run computes no values and runs no functional pass: the grid method runs the workgroups
    # it skips for their addresses, so their faults are found (gpusim.engine.kernels.skipped_grid, on a
    # thread beside the timing loop: gpusim.engine.middle)
    workgroup, _, _ = skipped
    kernel = gpusim.kernel_from_text(_saxpy_stopping_at({workgroup: stop}), "stops.s")
    with pytest.raises(KernelFault) as functional:
        gpusim.simulate(kernel, arch, max_wave_instructions=100_000)
    with pytest.raises(KernelFault) as sampled:
        gpusim.simulate(kernel, arch, timing=True, outputs=False, sample=ANY_RATE, max_wave_instructions=100_000)
    assert f"workgroup ({workgroup}, 0, 0)" in str(sampled.value) and says in str(sampled.value)
    assert _error_line(sampled) == _error_line(functional)


@pytest.mark.parametrize("outputs", [False, True])
def test_a_fault_in_the_skipped_middle_is_reported_before_a_later_one_of_the_last_round(arch, skipped, outputs):
    # the middle runs beside the timing loop, or in the functional run after it (outputs), and may end after
    # the loop has met the last round's fault: the fault reported is still the middle's, the first in
    # time, as the full simulation and the functional run report it
    workgroup, last_round, _ = skipped
    kernel = gpusim.kernel_from_text(_saxpy_stopping_at({workgroup: NULL_LOAD, last_round + 5: NULL_LOAD}), "two.s")
    with pytest.raises(KernelFault) as functional:
        gpusim.simulate(kernel, arch)
    with pytest.raises(KernelFault) as sampled:
        gpusim.simulate(kernel, arch, timing=True, outputs=outputs, sample=ANY_RATE)
    assert f"workgroup ({workgroup}, 0, 0)" in str(sampled.value)
    assert _error_line(sampled) == _error_line(functional)


@pytest.mark.parametrize("where", ["head", "last round"])
@pytest.mark.parametrize("outputs", [False, True])
def test_a_fault_the_timed_run_meets_is_reported_as_the_full_run_reports_it(arch, skipped, where, outputs):
    # a head workgroup that the thread beside the loop may also run, before the loop's jump tells it to skip
    # ahead; a last-round workgroup, after a middle without faults; with outputs, the functional run beside
    # the timed one is stopped or its fault, the same, comes second
    _, last_round, jump_from = skipped
    workgroup = jump_from - 10 if where == "head" else last_round + 5
    kernel = gpusim.kernel_from_text(_saxpy_stopping_at({workgroup: NULL_LOAD}), "one.s")
    with pytest.raises(KernelFault) as full:
        gpusim.simulate(kernel, arch, timing=True, outputs=False)
    with pytest.raises(KernelFault) as sampled:
        gpusim.simulate(kernel, arch, timing=True, outputs=outputs, sample=ANY_RATE)
    assert f"workgroup ({workgroup}, 0, 0)" in str(sampled.value)
    assert _error_line(sampled) == _error_line(full)


def test_a_grid_whose_rate_keeps_moving_is_simulated_in_full_and_says_why(arch):
    sampled, full = _timed("stream_triad", arch, "on"), _timed("stream_triad", arch, "off")
    assert sampled.sampling.method == "full"
    assert "completion rate kept moving by more than 3% between windows of 2 rounds" in sampled.sampling.reason
    assert (sampled.cycles, sampled.counters) == (full.cycles, full.counters)


def test_a_grid_is_projected_only_once_its_round_boundaries_give_the_interval_asked_for(arch):
    # any rate counts as steady here, so only the interval decides: the small triad's 6.7 rounds jitter too
    # much for the default +-0.5%, and the run says so and runs in full; +-100% lets it jump after the same head
    steady, full = SamplingPolicy(mode="on", steady_pct=100.0), _timed("stream_triad", arch, "off")
    narrow = _timed("stream_triad", arch, steady)
    assert narrow.sampling.method == "full"
    assert "never fell close enough to a straight line for a 95% interval of ±0.5% on the projected cycles" \
        in narrow.sampling.reason
    assert (narrow.cycles, narrow.counters) == (full.cycles, full.counters)
    wide = _timed("stream_triad", arch, policy_with_settings("on", ["steady_pct=100", "grid_interval_pct=100"]))
    assert wide.sampling.method == "grid" and wide.sampling.simulated_fraction < 0.95


def test_a_loop_whose_rate_keeps_moving_is_simulated_in_full_and_says_why(arch):
    # the small 1024^3 LDS-tiled GEMM: its cycles per iteration move by more than 3% window after window
    sampled, full = _timed("gemm_lds_tiled", arch, "on"), _timed("gemm_lds_tiled", arch, "off")
    assert sampled.sampling.method == "full"
    assert "kept moving by more than 3% between measuring windows" in sampled.sampling.reason
    assert (sampled.cycles, sampled.counters) == (full.cycles, full.counters)
    steadier = _timed("gemm_lds_tiled", arch, SamplingPolicy(mode="on", steady_pct=50.0))
    assert steadier.sampling.method == "loop"


def test_check_still_runs_when_a_sampled_plan_falls_back_to_the_full_run(arch):
    r = gpusim.simulate(CASES["bitonic_local"].load(), arch, timing=True, check=True, sample="on")
    assert r.sampling.method == "full" and "no moment came" in r.sampling.reason   # planned loop, never warped
    assert r.outputs is not None and r.checks and all(c.passed for c in r.checks)


def test_policy_settings_set_their_fields_with_the_fields_types_and_leave_the_rest_default():
    policy = policy_with_settings("on", ["loop_warm_caches=false", "grid_window_rounds = 2", "steady_pct=1.5"])
    assert policy.mode == "on"
    assert policy.loop_warm_caches is False and policy.grid_window_rounds == 2 and policy.steady_pct == 1.5
    assert policy.loop_head_iterations == SamplingPolicy().loop_head_iterations
    assert policy_with_settings("auto", []) == SamplingPolicy(mode="auto")


@pytest.mark.parametrize("setting, says", [
    ("loop_warm_cache=false", "sampling setting 'loop_warm_cache' is not one of"),
    ("mode=off", "sampling setting 'mode' is not one of"),          # the mode is --sample's
    ("loop_head_iterations=eight", "loop_head_iterations='eight': not an int"),
    ("loop_warm_caches=maybe", "loop_warm_caches='maybe': not a bool"),
    ("steady_pct", "'steady_pct' is not NAME=VALUE"),
    ("loop_warp_fraction=2", "loop_warp_fraction must be above 0 and at most 1"),
    ("grid_interval_pct=0", "grid_interval_pct must be above 0 and at most 100"),
])
def test_a_bad_policy_setting_is_refused_naming_it(setting, says):
    with pytest.raises(ValueError) as err:
        policy_with_settings("on", [setting])
    assert says in str(err.value)


def _divergent_loop(n):
    """the small divergent_loop case (each element loops randint(0, 48) times) at ``n`` elements"""
    text = CASES["divergent_loop"].text().replace("1048576", str(n)).replace("grid=4096,", f"grid={n // 256},")
    return gpusim.kernel_from_text(text, f"divergent_loop [n={n}]")


def test_workgroups_that_differ_by_their_data_are_projected_at_their_mean(arch):
    # 16,384 workgroups (6.7 rounds) whose wave-instruction counts differ with their data, but alike on
    # average over the grid: the grid method projects the middle from the head
    kernel = _divergent_loop(1 << 22)
    sampled = gpusim.simulate(kernel, arch, timing=True, outputs=False, sample=ANY_RATE)
    full = gpusim.simulate(kernel, arch, timing=True, outputs=False, sample="off")
    s = sampled.sampling
    assert s.method == "grid" and s.simulated_fraction < 0.95
    assert "the workgroups differ, 1,018 to 1,052 wave-instructions, alike on average in both halves" in s.reason
    assert abs(_error(sampled, full)) < 0.02                       # measured today: -0.6%, 89% in detail
    insts, exact = sampled.counters["GPUSIM_INSTS_TOTAL"], full.counters["GPUSIM_INSTS_TOTAL"]
    assert s.counts_estimated and insts != exact and abs(insts - exact) / exact < 0.005   # at the mean


def test_workgroups_whose_work_moves_across_the_grid_are_not_projected():
    from gpusim.engine.kernels.skip import work_moved
    per_round, k = 2432, 8   # cdna3: 304 CUs x 8 one-wave workgroups
    rng = np.random.default_rng(1)
    alike = np.concatenate([[0], np.cumsum(rng.integers(800, 900, (k, per_round)).sum(axis=1))])
    assert not work_moved(alike, k, per_round)            # differ by their data: one mean
    growing = np.concatenate([[0], np.cumsum([per_round * (850 + 10 * j) for j in range(k)])])
    assert work_moved(growing, k, per_round)              # a triangular loop: the later half does more
    assert work_moved(alike, 1, per_round)                # one boundary: no halves to compare
