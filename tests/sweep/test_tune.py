"""gpusim tune's search: valid candidates only, occupancy pruning, the budgeted shortlist, ranked simulations."""
import itertools
import re
import shlex
from types import SimpleNamespace

import pytest

from gpusim.api import kernel_from_text, kernel_occupancy, simulate
from gpusim.arch import load_arch
from gpusim.arch.loader import arch_overrides
from gpusim.sweep.tune import (Candidate, Work, candidates, estimate_cycles, format_tune, gen_command, prune,
                               search, search_axes, search_space, shortlist, tune)
from gpusim.templates.gemm import plan_of
from gpusim.templates.registry import TemplateError, generate, template

PROBLEM = {"m": 512, "n": 512, "k": 128}
# a reduced gemm space: tiles from 4 KiB to 68 KiB of LDS, some of which do not divide into the waves
SPACE = {
    "tile": ["32x32x16", "64x32x16", "64x64x32", "128x128x32", "256x256x64"],
    "waves": ["1x1", "2x2", "4x2"],
    "mfma": ["32x32x8", "16x16x16"],
    "vec": [16, 8],
    "lds-double-buffer": [False, True],
}


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def _key(params: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in params.items()))


def test_candidates_are_exactly_the_combinations_gen_accepts(cdna3):
    got = candidates("gemm", cdna3, PROBLEM, space=SPACE)
    accepted = []
    for combo in itertools.product(*SPACE.values()):
        params = {**PROBLEM, **dict(zip(SPACE, combo))}
        try:
            generate("gemm", cdna3, **params)
        except TemplateError:
            continue
        accepted.append(params)
    assert 0 < len(accepted) < 120   # the space holds both valid and invalid combinations
    assert sorted(map(_key, got)) == sorted(map(_key, accepted))
    t = template("gemm")
    assert all(t.problems(t.values(c), cdna3) == [] for c in got)


def test_gemm_space_follows_the_dtype_and_the_fixed_parameters():
    axes = search_axes("gemm", {**PROBLEM, "dtype": "f32"})
    assert axes["mfma"] == ["32x32x2", "16x16x4"]
    assert len(axes["tile"]) == 4 * 4 * 3 and len(axes["waves"]) == 8
    assert axes["vec"] == [16, 8] and axes["lds-double-buffer"] == [False, True] and axes["prefetch"] == [0, 1]
    fixed = search_axes("gemm", {**PROBLEM, "tile": "128X128X32", "lds_double_buffer": "yes"})
    assert fixed["tile"] == ["128x128x32"] and fixed["lds-double-buffer"] == [True]
    assert search_axes("gemm", PROBLEM)["mfma"] == ["32x32x8", "16x16x16"]


def test_families_without_a_search_space_are_refused():
    with pytest.raises(TemplateError, match="no search space for 'stream'"):
        search_space("stream")
    with pytest.raises(TemplateError, match="no kernel template"):
        search_space("gemmm")
    with pytest.raises(TemplateError, match="no parameter"):
        search_axes("gemm", {"tiles": "64x64x32"})


def test_prune_drops_kernels_whose_lds_exceeds_the_architecture(cdna3):
    cands = candidates("gemm", cdna3, PROBLEM, space=SPACE)
    kept, dropped = prune("gemm", cdna3, cands)
    assert len(kept) == len(cands) and not dropped

    small = arch_overrides(cdna3, {"cu.lds.size_bytes": 16384})
    t = template("gemm")
    too_big = [c for c in cands if plan_of(t.values(c)).lds_bytes > 16384]
    kept, dropped = prune("gemm", small, cands)
    assert too_big and len(kept) < len(cands)
    assert dict(dropped) == {"LDS": len(too_big)}
    assert sorted(_key(k.params) for k in kept) == sorted(_key(c) for c in cands if c not in too_big)
    assert all(k.occupancy.lds_bytes_allocated <= 16384 and k.occupancy.workgroups_per_cu >= 1 for k in kept)
    for k in kept[:: max(1, len(kept) // 3)]:   # the descriptor shortcut agrees with the assembled kernel
        kernel = kernel_from_text(generate("gemm", small, **k.params), "<gemm>")
        assert kernel_occupancy(kernel, small) == k.occupancy


def test_search_counts_what_occupancy_pruned_and_why(cdna3):
    narrow = arch_overrides(cdna3, {"cu.max_workitems_per_workgroup": 256})
    space = {"tile": ["64x64x32", "128x128x32"], "waves": ["1x1", "2x2", "2x4", "4x2"]}
    found = search("gemm", narrow, PROBLEM, max_points=24, space=space)
    eight_waves = [c for c in candidates("gemm", narrow, PROBLEM, space=space) if c["waves"] in ("2x4", "4x2")]
    assert found.enumerated == 8 and found.valid == 6
    assert eight_waves and dict(found.pruned) == {"workgroup size": len(eight_waves)}
    assert len(found.kept) == found.valid - len(eight_waves) and found.cut == 0
    assert all(c.params["waves"] not in ("2x4", "4x2") for c in found.kept)


def test_the_static_estimate_is_a_per_cu_roofline(cdna3):
    def occ(per_cu, waves):
        return SimpleNamespace(workgroups_per_cu=per_cu, waves_per_workgroup=waves)

    k = 8192
    big = Work(2.0 * 128 * 128 * k, 256 * k * 2.0, "f16")     # 4096 workgroups: 14 on the busiest of 304 CUs
    assert estimate_cycles(big, occ(2, 4), 4096, cdna3) == 14 * big.flops / 2048
    # one single-wave workgroup per CU keeps one SIMD of four busy
    assert estimate_cycles(big, occ(1, 1), 4096, cdna3) == 4 * 14 * big.flops / 2048
    small = Work(2.0 * 32 * 32 * k, 64 * k * 2.0, "f16")    # 65536 workgroups: 216 per CU, bound by L2 bandwidth
    assert estimate_cycles(small, occ(8, 4), 65536, cdna3) == pytest.approx(216 * small.bytes / (16 * 128 / 38))


def _fake(tile: str, estimate: float, distance: int, n: int = 0) -> Candidate:
    return Candidate({"tile": tile, "waves": "2x2", "vec": n}, None, 1, estimate, distance)


def test_shortlist_keeps_the_budget_ranks_by_estimate_and_spreads_shapes():
    cands = ([_fake("A", 100.0, 1 + i, i) for i in range(10)] + [_fake("B", 104.0, 0)]
             + [_fake("C", 150.0, 0), _fake("D", 200.0, 0), _fake("E", 900.0, 0)])
    picked = shortlist(cands, 4)
    # B is within 5% of the best estimate and closer to the defaults: it goes first; one per shape at 4 points
    assert [c.params["tile"] for c in picked] == ["B", "A", "C", "D"]
    picked = shortlist(cands, 8)   # two per shape on the first pass, then the next in order
    assert [c.params["tile"] for c in picked] == ["B", "A", "A", "C", "D", "E", "A", "A"]
    assert [c.distance for c in picked if c.params["tile"] == "A"] == [1, 2, 3, 4]
    assert len(shortlist(cands, 100)) == len(cands)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "results"
    return tune("gemm", "cdna3", PROBLEM, top=3, max_points=4, out=out, workers=2, progress=False, space=SPACE)


def test_tune_returns_simulated_rows_fastest_first(tuned):
    c = tuned.counts
    assert c["enumerated"] == 120 and c["simulated"] == 4 and c["failed"] == 0 and not tuned.failed
    assert c["valid"] == c["pruned"] + c["cut"] + c["simulated"]
    times = [r["time_us"] for r in tuned.rows]
    assert len(times) == 4 and times == sorted(times) and times[0] > 0
    assert len({_key(r["params"]) for r in tuned.rows}) == 4
    assert all(r["status"] == "ok" and r["cycles"] > 0 and r["waves_per_simd"] > 0 for r in tuned.rows)


def test_the_best_rows_command_reproduces_its_cycles(tuned):
    best = tuned.best
    words = shlex.split(gen_command("gemm", best["params"], tuned.arch))
    assert words[:3] == ["gpusim", "gen", "gemm"]
    given, i = {}, 3
    while i < len(words):   # --name value, or a bare flag for a boolean parameter
        if i + 1 < len(words) and not words[i + 1].startswith("--"):
            given[words[i][2:]] = words[i + 1]
            i += 2
        else:
            given[words[i][2:]] = True
            i += 1
    text = generate("gemm", "cdna3", **given)
    assert text == generate("gemm", "cdna3", **best["params"])
    result = simulate(kernel_from_text(text, "<best>"), "cdna3", timing=True, outputs=False)
    assert result.cycles == best["cycles"]


def test_format_tune_names_the_best_configuration(tuned):
    text = format_tune(tuned, top=2)
    lines = text.splitlines()
    best = tuned.best["params"]
    assert "120 combinations" in lines[0] and "4 simulated" in lines[0] and "heuristic" in lines[0]
    header = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    assert lines[header].split()[1:3] == ["tile", "waves"]
    first = lines[header + 1].split()
    assert first[:3] == ["1", best["tile"], best["waves"]]
    assert f"{tuned.best['time_us']:.2f}" in first
    assert lines[header + 2].split()[0] == "2" and lines[header + 3].startswith("best: ")
    assert lines[-1].startswith("best: gpusim gen gemm") and f"--tile {best['tile']}" in lines[-1]


def test_tune_runs_on_an_architecture_given_as_an_object(tmp_path, cdna3):
    small = arch_overrides(cdna3, {"cu.lds.size_bytes": 16384})
    outcome = tune("gemm", small, PROBLEM, max_points=1, out=tmp_path / "r", workers=1, progress=False,
                   space={"tile": ["32x32x16", "128x128x32"], "waves": ["1x1"]})
    assert load_arch(outcome.arch).cu.lds.size_bytes == 16384
    assert outcome.counts["valid"] == 1 and outcome.best["params"]["tile"] == "32x32x16"
    assert f"--arch {outcome.arch}" in format_tune(outcome)


def test_cli_tune_prints_the_best_and_refuses_bad_flags(tmp_path, cli):
    def gpusim(*args):
        return cli("tune", *args)
    proc = gpusim("gemm", "--m", "512", "--n", "512", "--k", "128", "--tile", "64x64x32", "--max-points", "2",
                  "--workers", "1", "--quiet", "-o", "tuned")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^   1  \S+ .*\d+\.\d+", proc.stdout, re.M), proc.stdout
    best = re.search(r"^best: (gpusim gen gemm .*)$", proc.stdout, re.M)
    assert best and "--tile 64x64x32" in best.group(1)
    assert (tmp_path / "tuned" / "points.jsonl").exists()
    proc = gpusim("stream", "--n", "4096")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "invalid choice" in proc.stderr
    proc = gpusim("gemm", "--max-points", "0")
    assert proc.returncode == 2 and proc.stderr.strip() == "error: --max-points must be positive"
