"""The grid method's rules replayed offline on full runs' round boundaries (issue 19).

The grid method (gpusim.engine.sampling) decides in the timing loop when a head of the grid is long enough
to project the middle from: after each round of workgroups completes, two windows of rounds must agree and
the noise interval that the head's later half would leave on the projection (skip.interval_ppm) must be
within ``grid_interval_pct``. Trying another rule on the real runs costs every grid case's sampled run
again (about 12 minutes for the 32 large ones on 2 cores). This script instead captures, once, the cycle at
which each round completed in a run that never jumps (a SamplingPolicy whose interval no head can meet,
so every workgroup runs in detail: the full simulation's cycles), and then replays rules on those
boundaries in a second:

  shipped   the loop's own rule: the jump at the first boundary where it would jump (windows steady,
            skip.interval_ppm within the interval), the middle costed at the later half's end-to-end rate
            (what gpusim.engine.sampling.project does);
  lsq       the later half's rate and its interval from a least-squares line through its boundaries: the
            slope's standard error shrinks as n^-1.5 where the end-to-end rate's shrinks as n^-1, if a
            boundary's jitter about the line is independent of the next one's;
  lsq-rate  the shipped jump point, the middle costed at the least-squares slope.

For each it prints the round it would jump at, the share of the grid's workgroups run in detail and the
error of the projected middle against the full run's own middle, over the full cycles. The replay costs the
middle from the boundary after the jump to the last one the run recorded (about one round short of the
sampled run's resume point) and does not model the sampled run's tail, so it lands within about 0.5% of a
sampled run's error (item 9 of docs/sampling.md); workgroups that differ by their data are replayed as if
alike.

    python benchmarks/grid_rules.py --timelines grid_timelines.json        # captures, then replays
    python benchmarks/grid_rules.py --timelines grid_timelines.json        # replays what it captured
    python benchmarks/grid_rules.py --timelines t.json --cases 'saxpy,stream*'
    python benchmarks/grid_rules.py --timelines t.json --deciles          # how each grid's rate moves
    python benchmarks/grid_rules.py --timelines noref.json --cases stream_copy --arch noref.yaml --deciles
    python benchmarks/grid_rules.py --timelines grid_timelines.json --strata 4
    python benchmarks/grid_rules.py --timelines huge_timelines.json --huge --cases relu

``--strata N`` replays, beside the shipped rule, systematic sampling: after the head, N evenly spaced strata,
each measured over a warm-up round and one window and costed at that window's rate (no noise interval, no
adaptive head), which follows a rate that drifts across the grid where one head cannot.

``--deciles`` prints, instead of the replay, each grid's cycles per round over each tenth of its rounds
against its rate past the first tenth: the drift that no head sees (docs/sampling.md, "Where the drift comes
from"). ``--arch`` captures on another architecture (a shipped name or a YAML file, as ``gpusim run
--arch``): an arch file of ``extends: cdna3`` that turns one part of the model off shows whether it makes
the drift.

The capture observes the timing loop's round boundaries by wrapping gpusim.engine.timing's ``project`` and
``_sample_plan`` (an instrument of this benchmark, not an API).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))                      # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sampling_cases  # noqa: E402
from sampling import select  # noqa: E402

ARCH = "cdna3"
NEVER_PCT = 1e-6   # an interval no head meets: the grid method never jumps, every workgroup runs in detail


def capture(case, arch: str = ARCH) -> dict | None:
    """capture runs ``case`` (large) on ``arch`` with the grid method's plan but an interval no head meets and
    returns its record: the arch, the plan (jump_at, resume_at, round, window), the round boundaries' cycles and
    the full cycles; None when ``auto`` would not sample it by the grid method."""
    import gpusim
    from gpusim.engine import timing
    from gpusim.engine.sampling_policy import SamplingPolicy

    seen: dict = {}
    plan_sample, project = timing._sample_plan, timing.project

    def plan_hook(kernel, arch, policy, probe, **kw):
        plan = plan_sample(kernel, arch, policy, probe, **kw)   # auto's plan, but for the interval
        if not kw.get("first_workgroups"):                      # not the runaway probe's own run
            if plan.method != "grid":
                raise LookupError(plan.reason)
            seen["plan"] = dict(jump_at=plan.jump_at, resume_at=plan.resume_at, round=plan.round, window=plan.window)
        return plan

    def project_hook(plan, Z, cycles, *args, **kw):
        seen["round_t"] = [int(t) for t in Z.round_t]
        return project(plan, Z, cycles, *args, **kw)

    timing._sample_plan, timing.project = plan_hook, project_hook
    try:
        started = time.perf_counter()
        result = gpusim.simulate(case.load(), arch, timing=True, outputs=False,
                                 sample=SamplingPolicy(mode="auto", grid_interval_pct=NEVER_PCT))
    except LookupError:
        return None
    finally:
        timing._sample_plan, timing.project = plan_sample, project
    recorded = seen["round_t"]
    last = max(k for k, t in enumerate(recorded) if t > 0 or k == 0)
    return dict(name=case.name, arch=arch, tolerance_pct=case.tolerance_pct, cycles=int(result.cycles),
                seconds=round(time.perf_counter() - started, 1), plan=seen["plan"], round_t=recorded[:last + 1])


def endpoint_rate(t: np.ndarray) -> tuple:
    """endpoint_rate is the shipped estimate over boundaries ``t``: (cycles per round end to end, its relative
    95% half-width, skip.rate_half_width)."""
    from gpusim.engine.kernels import skip
    from gpusim.engine.sampling import t95_table
    n = t.size - 1
    return (t[-1] - t[0]) / n, skip.rate_half_width(t.astype(np.int64), t95_table(t.size))


def lsq_rate(t: np.ndarray) -> tuple:
    """lsq_rate is the least-squares slope through boundaries ``t`` (cycles per round) and its relative 95%
    half-width: Student's point at n - 1 degrees of freedom times the slope's standard error."""
    from gpusim.engine.sampling import t95_table
    n = t.size - 1
    x = np.arange(n + 1, dtype=float)
    slope, intercept = np.polyfit(x, t.astype(float), 1)
    if n < 2:
        return slope, -1.0
    residual = math.sqrt(float(((t - (intercept + slope * x)) ** 2).sum()) / (n - 1))
    sxx = float(((x - x.mean()) ** 2).sum())
    return slope, float(t95_table(n - 1)[-1]) * residual / math.sqrt(sxx) / slope


RULES = {   # name: (the estimate that decides the jump, the estimate that costs the middle)
    "shipped": (endpoint_rate, endpoint_rate),
    "lsq": (lsq_rate, lsq_rate),
    "lsq-rate": (endpoint_rate, lsq_rate),
}


def replay(rec: dict, rule: str, policy) -> dict:
    """replay is where ``rule`` would have jumped on ``rec``'s boundaries under ``policy`` (a SamplingPolicy:
    its window test and interval) and what it would have projected: {k: the boundary it jumps after (None: it
    never does), detail: the share of workgroups in detail, error_pct: (projected - full middle) / full
    cycles}."""
    from gpusim.engine.kernels import skip
    decide, cost = RULES[rule]
    plan, t, cycles = rec["plan"], np.asarray(rec["round_t"], np.int64), rec["cycles"]
    per_round, window, resume = plan["round"], plan["window"], plan["resume_at"]
    workgroups = resume + policy.grid_tail_rounds * per_round   # the sampled run's tail rounds too
    last = t.size - 1
    for k in range(max(2 * window, plan["jump_at"] // per_round - 1), last - 1):
        if not skip.windows_steady(t, k, window, policy.steady_permil):
            continue
        first = (k + 1) // 2
        rate, relative = decide(t[first:k + 1])
        if relative < 0 or (skip.projection_interval_ppm(t[k], rate, relative, k, resume, per_round)
                            > policy.grid_interval_ppm):
            continue
        middle_rate = cost(t[first:k + 1])[0]
        error = middle_rate * (last - k - 1) - (t[last] - t[k + 1])
        return dict(k=k, detail=1 - (resume - (k + 1) * per_round) / workgroups, error_pct=100 * error / cycles)
    return dict(k=None, detail=1.0, error_pct=0.0)


def replay_strata(rec: dict, strata: int, policy) -> dict | None:
    """replay_strata is what systematic sampling would have projected on ``rec``'s boundaries: the head (the
    first ``policy.grid_head_fraction`` of the rounds, at least two windows) in detail, then the rest up to the
    last recorded boundary cut into ``strata`` equal strata, each starting with one warm-up round and one window
    of ``policy.grid_window_rounds`` rounds in detail, its other rounds costed at that window's rate.
    {detail: the share of rounds in detail (the tail round too), error_pct: (projected - full rest) / full
    cycles}; None when a stratum is too short for its warm-up round, its window and one skipped round."""
    t = np.asarray(rec["round_t"], np.int64)
    last = t.size - 1
    window = policy.grid_window_rounds
    head = max(2 * window, math.ceil(policy.grid_head_fraction * last))
    span = (last - head) / strata
    if span < window + 2:
        return None
    projected = 0
    for s in range(strata):
        start, end = head + round(s * span), head + round((s + 1) * span)
        measured = start + 1 + window   # the warm-up round, then the window
        rate = (t[measured] - t[start + 1]) / window
        projected += (t[measured] - t[start]) + (end - measured) * rate
    error = projected - (t[last] - t[head])
    detail = (head + strata * (1 + window) + policy.grid_tail_rounds) / (last + policy.grid_tail_rounds)
    return dict(detail=detail, error_pct=100 * error / rec["cycles"])


def print_strata(records: list, strata: int, policy) -> None:
    """print_strata prints ``replay_strata`` of every record long enough for it, beside the shipped rule's replay
    of the same record, and both summaries."""
    print(TABLE_HEAD + f"{f'{strata} strata':>22s}  {'shipped':>22s}")
    rows = []
    for rec in records:
        o = replay_strata(rec, strata, policy)
        if o is None:
            continue
        shipped = replay(rec, "shipped", policy)
        rows.append((rec, o, shipped))
        print(_row_head(rec) + "  ".join(f"{_cell(rec, x):>22s}" for x in (o, shipped)))
    print(f"\neach cell: error of the projection over the full cycles, share of rounds in detail; {strata} strata "
          f"of one warm-up round and a window of {policy.grid_window_rounds}, after a head of "
          f"{policy.grid_head_fraction:g} of the rounds")
    for column, name in ((1, "strata"), (2, "shipped")):
        print_summary(name, [(row[0], row[column]) for row in rows])


TABLE_HEAD = f"{'case':28s} {'rounds':>6s} {'full cycles':>12s}  "   # every table's first columns


def _row_head(rec: dict) -> str:
    """_row_head is ``rec``'s first columns under TABLE_HEAD: its name, recorded rounds and full cycles."""
    return f"{rec['name']:28s} {len(rec['round_t']) - 1:6d} {rec['cycles']:12,d}  "


def _cell(rec: dict, o: dict) -> str:
    """_cell is a replay outcome's table cell: its error, its share in detail, and MISS outside ``rec``'s target."""
    miss = abs(o["error_pct"]) > rec["tolerance_pct"]
    return f"{o['error_pct']:+6.2f}% {100 * o['detail']:4.0f}%{' MISS' if miss else '     '}"


def print_summary(name: str, outcomes: list) -> None:
    """print_summary prints one rule's line over ``outcomes`` ((record, replay outcome) pairs): how many are
    within their case's target, the mean and largest |error| and the median share in detail; nothing when
    there are none."""
    if not outcomes:
        return
    errors = [abs(o["error_pct"]) for _, o in outcomes]
    within = sum(abs(o["error_pct"]) <= rec["tolerance_pct"] for rec, o in outcomes)
    print(f"{name:9s} within target {within} of {len(outcomes)}; |error| mean {statistics.mean(errors):.2f}% max "
          f"{max(errors):.2f}%; in detail median {100 * statistics.median(o['detail'] for _, o in outcomes):.0f}%")


def deciles(rec: dict) -> list | None:
    """deciles is ``rec``'s cycles per round over each tenth of its rounds, in percent above its rate from the
    end of the first tenth to the last boundary (negative: faster); None for a grid of fewer than 20 rounds."""
    t = np.asarray(rec["round_t"], float)
    n = t.size - 1
    if n < 20:
        return None
    later = (t[n] - t[n // 10]) / (n - n // 10)
    cuts = [n * i // 10 for i in range(11)]
    return [100 * ((t[b] - t[a]) / (b - a) / later - 1) for a, b in zip(cuts, cuts[1:])]


def print_deciles(records: list) -> None:
    """print_deciles prints ``deciles`` of every record long enough for them."""
    print(TABLE_HEAD + " ".join(f"{f'{10 * i}-{10 * i + 10}%':>7s}" for i in range(10)))
    for rec in records:
        cells = deciles(rec)
        if cells is not None:
            print(_row_head(rec) + " ".join(f"{c:+7.1f}" for c in cells))
    print("\neach cell: cycles per round over that tenth of the rounds, percent above the rate after the first "
          "tenth (the first tenth fills the GPU; the last holds the drain)")


def main(argv=None) -> int:
    from gpusim.engine.sampling_policy import SamplingPolicy
    defaults = SamplingPolicy()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timelines", type=Path, required=True, metavar="FILE",
                    help="the captured boundaries: read from FILE when it exists, else captured and written there")
    ap.add_argument("--cases", help="case names, groups or globs (benchmarks/sampling.py --list); default all")
    ap.add_argument("--arch", default=ARCH, help=f"the architecture the capture runs on, a shipped name or a YAML "
                    f"file (default {ARCH}); a timelines file captured on another is refused")
    ap.add_argument("--huge", action="store_true",
                    help="the huge cases of benchmarks/sampling_cases.py (1G ReLU, 512M triad, 32768^2 transpose) "
                         "instead of the large ones")
    ap.add_argument("--deciles", action="store_true",
                    help="print each grid's cycles per round by tenth of its rounds instead of replaying the rules")
    ap.add_argument("--strata", type=int, metavar="N",
                    help="replay systematic sampling in N strata (each a warm-up round and one measuring window) "
                    "beside the shipped rule, instead of the rules")
    ap.add_argument("--interval", type=float, default=defaults.grid_interval_pct,
                    help=f"the interval the jump needs, percent (default {defaults.grid_interval_pct:g})")
    args = ap.parse_args(argv)
    try:
        policy = SamplingPolicy(grid_interval_pct=args.interval)
    except ValueError as exc:
        print(f"error: --interval {args.interval:g}: {exc}", file=sys.stderr)
        return 2
    todo = select(sampling_cases.cases("huge" if args.huge else "large"), args.cases)
    if args.timelines.exists():
        records = [r for r in json.loads(args.timelines.read_text()) if r["name"] in {c.name for c in todo}]
        other = {r.get("arch", ARCH) for r in records} - {args.arch}
        if other:
            print(f"error: {args.timelines} was captured on {', '.join(sorted(other))}, not {args.arch}: name "
                  f"another file to capture on {args.arch}", file=sys.stderr)
            return 2
    else:
        records = []
        for case in todo:
            print(f"capturing {case.name} ...", file=sys.stderr, flush=True)
            rec = capture(case, args.arch)
            if rec is not None:
                records.append(rec)
        args.timelines.write_text(json.dumps(records) + "\n")
        print(f"wrote {args.timelines} ({len(records)} grid cases)", file=sys.stderr)
    if args.deciles:
        print_deciles(records)
        return 0
    if args.strata is not None:
        if args.strata < 1:
            print(f"error: --strata {args.strata}: needs at least one stratum", file=sys.stderr)
            return 2
        print_strata(records, args.strata, policy)
        return 0
    print(TABLE_HEAD + "  ".join(f"{r:>22s}" for r in RULES))
    outcomes = {r: [] for r in RULES}
    for rec in records:
        cells = []
        for rule in RULES:
            o = replay(rec, rule, policy)
            outcomes[rule].append((rec, o))
            cells.append(_cell(rec, o))
        print(_row_head(rec) + "  ".join(f"{c:>22s}" for c in cells))
    print(f"\neach cell: error of the projected middle over the full cycles, share of workgroups in detail; "
          f"interval ±{args.interval:g}%")
    for rule, pairs in outcomes.items():
        print_summary(rule, pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
