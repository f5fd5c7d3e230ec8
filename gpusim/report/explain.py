"""Explain a timed run: what bounds the kernel and what to try, in a few sentences read off its counters.

``explain(result_or_dict)`` returns :class:`Finding` s, the main bound first; ``format_explain``
prints them. Every number comes from a derived metric (gpusim.report.metrics), a raw counter, the
occupancy record or the architecture's CU count, and every sentence lists the names it rests on, so
a reader can check each claim against ``gpusim run --json``. Nothing is read from the source code.

Decision table (thresholds are the module constants named in brackets; % are of the metric's own
denominator: peak, SIMD-cycles, CU-cycles or resident wave-cycles). Every rule that fires gives a
finding; the first is the main bound.

====  ====================  ==================================================================
step  bound                 fires when
====  ====================  ==================================================================
1     hbm-bandwidth         HBM_Bandwidth_Pct_of_Peak >= 60          [BANDWIDTH_PCT]
1     l2-bandwidth          L2_Bandwidth_Pct_of_Peak >= 60           [BANDWIDTH_PCT]
1     mfma                  MFMA_Util >= 40                          [UNIT_PCT]
1     valu                  VALU_Util >= 40                          [UNIT_PCT]
1     lds-bank-conflicts    LDS_Util >= 40 and LDS_Bank_Conflict_Pct >= 50  [UNIT_PCT, CONFLICT_PCT]
1     lds-bandwidth         LDS_Util >= 40 and LDS_Bank_Conflict_Pct < 50
1     l1-bandwidth          VMEM_Util >= 40 (the vector L1 moves lines most cycles: uncoalesced)
      (step-1 findings are ordered by that percentage, highest first: the unit nearest its peak)
2     lds-bank-conflicts    LDS_Bank_Conflict_Pct >= 50 and Wave_Stall_LGKM_Pct +
                            Wave_Stall_Unit_Busy_Pct >= 25           [LDS_WAIT_PCT]
3     latency/occupancy     HBM and L2 bandwidth < 60% of peak, and either
                            Wave_Stall_VMEM_Pct >= 30 and the largest stall   [STALL_PCT]
                            or Achieved_Waves_per_Busy_SIMD <= 2 with stalls (100 -
                            Wave_Issue_Pct) >= 50% of wave-cycles    [FEW_WAVES, STALLED_PCT]
4     barrier               Wave_Stall_Barrier_Pct >= 30             [STALL_PCT]
5     dependency            Wave_Stall_Dependency_Pct >= 30          [STALL_PCT]
6     instruction-issue     Wave_Issue_Pct + Wave_Stall_Arbiter_Pct >= 50   [ISSUE_PCT]
7     launch/too-few-waves  SQ_WORKGROUPS < CUs or SQ_WAVES < SIMDs of the GPU, and
                            CU_Idle_Pct >= 25                        [IDLE_PCT]
8     mixed                 nothing above fired: the busiest unit and the largest stall
====  ====================  ==================================================================

Why these: a unit at or near its peak is a bound whatever the stalls say (a saturated HBM shows
up as vmcnt waits too, which is why step 3 requires bandwidth below its threshold). Below every
peak, time goes to waiting, and the wave-cycle shares (they add up to 100) say on what. Latency is
hidden by other waves or by more independent work per wave, so step 3 compares the waves that were
resident with what occupancy allows: achieved well under the allowance means the grid (not the
registers or LDS) keeps waves few. A bound is named once, by the first rule that names it. A
functional run (``--no-timing``) has no cycles to explain.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

from gpusim.errors import UsageError
from gpusim.report.metrics import METRIC_BY_NAME
from gpusim.report.record import read_run
from gpusim.report.units import percent, si

BANDWIDTH_PCT = 60.0   # HBM or L2 bandwidth this share of peak bounds the kernel
UNIT_PCT = 40.0        # an MFMA / VALU / LDS unit or the vector L1 busy this share of its cycles bounds the kernel
CONFLICT_PCT = 50.0    # LDS busy cycles that replay bank conflicts
LDS_WAIT_PCT = 25.0    # wave-cycles at lgkmcnt or waiting for a busy unit, with conflicts
STALL_PCT = 30.0       # a stall cause taking this share of wave-cycles names a bound
FEW_WAVES = 2.0        # resident waves per SIMD (while its CU held waves) too few to hide stalls
STALLED_PCT = 50.0     # wave-cycles not issuing, for the few-waves clause of step 3
ISSUE_PCT = 50.0       # wave-cycles issuing or ready but not picked
IDLE_PCT = 25.0        # CU-cycles without a resident wave, for a grid smaller than the GPU
GRID_SHORT = 0.75      # achieved waves under this share of occupancy's allowance: the grid keeps them few

BOUNDS = {
    "hbm-bandwidth": "HBM bandwidth",
    "l2-bandwidth": "L2 bandwidth",
    "mfma": "the matrix cores (MFMA)",
    "valu": "the vector ALUs (VALU)",
    "lds-bank-conflicts": "LDS bank conflicts",
    "lds-bandwidth": "LDS bandwidth",
    "l1-bandwidth": "vector L1 requests (uncoalesced access)",
    "latency/occupancy": "exposed latency (too few waves or loads in flight)",
    "barrier": "barriers",
    "dependency": "register dependencies",
    "instruction-issue": "instruction issue",
    "launch/too-few-waves": "a grid too small for the GPU",
    "mixed": "no single unit",
}
"""BOUNDS maps every bound a Finding may name to the words format_explain uses for it."""

_STALLS = (("Wave_Stall_VMEM_Pct", "at s_waitcnt vmcnt"), ("Wave_Stall_LGKM_Pct", "at s_waitcnt lgkmcnt"),
           ("Wave_Stall_Barrier_Pct", "at s_barrier"), ("Wave_Stall_Dependency_Pct", "on a register dependency"),
           ("Wave_Stall_Unit_Busy_Pct", "waiting for a busy unit"),
           ("Wave_Stall_Arbiter_Pct", "losing issue arbitration"), ("Wave_Stall_Nop_Pct", "in s_nop or s_sleep"),
           ("Wave_Stall_Ifetch_Pct", "refilling the instruction buffer"))
_STALLS_BESIDE_UNITS = tuple(s for s in _STALLS
                             if s[0] not in ("Wave_Stall_Unit_Busy_Pct", "Wave_Stall_Arbiter_Pct"))
_UNITS = (("mfma", "MFMA_Util", "MFMA", "SIMD-cycles"), ("valu", "VALU_Util", "VALU", "SIMD-cycles"),
          ("lds-bandwidth", "LDS_Util", "LDS", "CU-cycles"))


@dataclass(frozen=True)
class Finding:
    """Finding is one statement about a run: the bound it names, the sentence, what to try and its evidence.

    ``evidence`` lists the raw counters, then the derived metrics, then the occupancy fields
    (``occupancy.limiter``) and architecture keys (``arch.gpu.xcds``) the sentence rests on;
    ``values`` maps every metric the sentence quotes to its value, as ``metric_text`` writes it.
    """

    bound: str
    sentence: str
    advice: str
    evidence: tuple
    values: Mapping[str, float] = field(default_factory=dict)


def metric_text(name: str, value: float) -> str:
    """metric_text writes a metric's value in its unit: 86%, 4.55 TB/s, 1.97 waves, 12,345 cycles."""
    unit = METRIC_BY_NAME[name].unit
    if unit == "%":
        return percent(value)
    if unit == "GB/s":
        return si(value * 1e9, "B/s")
    if unit == "waves":
        return f"{value:.2f}"
    return f"{value:,.0f} {unit}"


# ---------------------------------------------------------------- the run, read alike from a Result or its dict
@dataclass
class _Run:
    counters: dict
    metrics: dict
    occupancy: Optional[dict]  # {"waves_per_simd", "limiter"} or None
    cus: int
    simds: int


def _run_of(result_or_dict, arch) -> _Run:
    r = read_run(result_or_dict, arch)
    if not r.timed or "GPUSIM_WAVE_CYCLES" not in r.counters:
        raise UsageError(f"{r.label}: explain needs a timed run (a --no-timing run has no cycles to explain)")
    return _Run(r.counters, r.metrics, r.occupancy, r.arch.cus, r.arch.cus * r.arch.cu.simds)


class _Quote:
    """_Quote writes numbers into a sentence and remembers what each rests on."""

    def __init__(self, run: _Run):
        self.run = run
        self.counters: list = []
        self.metrics: list = []
        self.other: list = []
        self.values: dict = {}

    def m(self, name: str) -> str:
        """m quotes a metric: its value in its unit; its input counters become evidence. '-' if the run lacks it."""
        if name not in self.run.metrics:
            return "-"
        value = self.run.metrics[name]
        self.values[name] = value
        _add(self.metrics, name)
        for counter in METRIC_BY_NAME[name].inputs:
            if counter in self.run.counters:
                _add(self.counters, counter)
        return metric_text(name, value)

    def c(self, name: str) -> str:
        """c quotes a raw counter."""
        _add(self.counters, name)
        return f"{self.run.counters[name]:,}"

    def occupancy(self) -> str:
        """occupancy quotes the occupancy record: '8 allowed (limiter: waves)'."""
        o = self.run.occupancy
        if o is None:
            return "no occupancy record"
        _add(self.other, "occupancy.waves_per_simd")
        _add(self.other, "occupancy.limiter")
        return f"occupancy allows {o['waves_per_simd']:g}, limiter: {o['limiter']}"

    def arch(self, keys: tuple, value: int) -> str:
        """arch quotes a number that rests on architecture keys (``gpu.xcds``, ``gpu.cus_per_xcd``)."""
        for key in keys:
            _add(self.other, f"arch.{key}")
        return f"{value:,}"

    def finding(self, bound: str, sentence: str, advice: str) -> Finding:
        return Finding(bound, sentence, advice, tuple(self.counters + self.metrics + self.other), dict(self.values))


def _add(seq: list, name: str) -> None:
    if name not in seq:
        seq.append(name)


def _get(run: _Run, name: str) -> float:
    return run.metrics.get(name, 0.0)


# ---------------------------------------------------------------- step 1: a unit near its peak
def _bandwidth(run: _Run, bound: str) -> Optional[Finding]:
    what, rate, pct, advice = {
        "hbm-bandwidth": ("HBM", "HBM_Bandwidth", "HBM_Bandwidth_Pct_of_Peak",
                          ("move fewer bytes: fuse with the kernel before or after, use a narrower type, or keep "
                           "reused data on chip (L2, LDS); if every byte is needed the kernel is at its roofline")),
        "l2-bandwidth": ("the L2", "L2_Bandwidth", "L2_Bandwidth_Pct_of_Peak",
                         ("reuse more from LDS or registers (a larger tile), and make each request a whole "
                          "128-byte line")),
    }[bound]
    if _get(run, pct) < BANDWIDTH_PCT:
        return None
    q = _Quote(run)
    text = (f"{what} moves {q.m(rate)}, {q.m(pct)} of its peak; waves spend {q.m('Wave_Stall_VMEM_Pct')} of "
            f"their cycles at s_waitcnt vmcnt and the L2 hit rate is {q.m('L2_Hit_Rate')}.")
    return q.finding(bound, text, advice)


# what most often stands between MFMA bursts, and what shortens it
_MFMA_ADVICE = {
    "Wave_Stall_VMEM_Pct": "the loop's global loads are not hidden: prefetch deeper or double-buffer",
    "Wave_Stall_LGKM_Pct": "the LDS fragment reads are not hidden: issue them a k-step earlier",
    "Wave_Stall_Barrier_Pct": "cut barriers per loop trip (LDS double buffering) or use fewer waves per workgroup",
}


def _mfma(run: _Run) -> Optional[Finding]:
    if _get(run, "MFMA_Util") < UNIT_PCT:
        return None
    q = _Quote(run)
    stall = max(_STALLS_BESIDE_UNITS, key=lambda s: _get(run, s[0]))[0]
    text = (f"the MFMA units are busy {q.m('MFMA_Util')} of SIMD-cycles; besides waiting for them, waves stall "
            f"most {_largest_stall(q, _STALLS_BESIDE_UNITS)}.")
    advice = ("this is where a matrix kernel wants to be; a narrower type (bf16, fp8) has a higher peak; "
              + _MFMA_ADVICE.get(stall, "shorten what stands between MFMA bursts"))
    return q.finding("mfma", text, advice)


def _valu(run: _Run) -> Optional[Finding]:
    if _get(run, "VALU_Util") < UNIT_PCT:
        return None
    q = _Quote(run)
    text = (f"the VALUs are busy {q.m('VALU_Util')} of SIMD-cycles; waves issue {q.m('Wave_Issue_Pct')} of "
            "their cycles.")
    return q.finding("valu", text, "move matrix-shaped math to MFMA, use packed instructions (v_pk_fma_f32), "
                                   "or cut the address and index arithmetic")


def _lds(run: _Run) -> Optional[Finding]:
    if _get(run, "LDS_Util") < UNIT_PCT:
        return None
    q = _Quote(run)
    text = (f"the LDS is busy {q.m('LDS_Util')} of CU-cycles and {q.m('LDS_Bank_Conflict_Pct')} of those "
            f"cycles replay bank conflicts ({q.c('SQ_LDS_BANK_CONFLICT')} cycles)")
    if _get(run, "LDS_Bank_Conflict_Pct") >= CONFLICT_PCT:
        return q.finding("lds-bank-conflicts", text + _lds_waits(q) + ".", _CONFLICT_ADVICE)
    text += f"; the LDS moves {q.m('LDS_Bandwidth_Pct_of_Peak')} of its peak bytes."
    return q.finding("lds-bandwidth", text, "read wider (ds_read_b64/b128), keep reused values in registers, or "
                                            "split the tile so fewer waves read the same data")


def _l1(run: _Run) -> Optional[Finding]:
    if _get(run, "VMEM_Util") < UNIT_PCT:
        return None
    q = _Quote(run)
    c = run.counters
    per = c["TCP_TOTAL_CACHE_ACCESSES_sum"] / max(c["SQ_INSTS_VMEM_RD"] + c["SQ_INSTS_VMEM_WR"], 1)
    text = (f"the vector L1 moves cache lines in {q.m('VMEM_Util')} of CU-cycles: "
            f"{q.c('TCP_TOTAL_CACHE_ACCESSES_sum')} line accesses for {q.c('SQ_INSTS_VMEM_RD')} loads and "
            f"{q.c('SQ_INSTS_VMEM_WR')} stores, {per:.1f} per instruction.")
    return q.finding("l1-bandwidth", text, "coalesce: let a wave's lanes touch consecutive addresses (transpose "
                                           "through LDS if the layout is against you), so one instruction needs "
                                           "few cache lines")


# each step-1 rule and the metric it is ranked by
_STEP1 = ((lambda r: _bandwidth(r, "hbm-bandwidth"), "HBM_Bandwidth_Pct_of_Peak"),
          (lambda r: _bandwidth(r, "l2-bandwidth"), "L2_Bandwidth_Pct_of_Peak"),
          (_mfma, "MFMA_Util"), (_valu, "VALU_Util"), (_lds, "LDS_Util"), (_l1, "VMEM_Util"))


def _throughput(run: _Run) -> list:
    """_throughput returns the step-1 findings, the unit nearest its peak first."""
    found = [(_get(run, metric), f) for rule, metric in _STEP1 if (f := rule(run)) is not None]
    found.sort(key=lambda pair: -pair[0])
    return [f for _, f in found]


_CONFLICT_ADVICE = ("pad each LDS row by one 4-byte word (tile[T][T+1]) or swizzle the index, so the words a "
                    "wave reads at once lie on different banks")


def _lds_waits(q: _Quote) -> str:
    return (f"; waves wait for a busy unit {q.m('Wave_Stall_Unit_Busy_Pct')} and at s_waitcnt lgkmcnt "
            f"{q.m('Wave_Stall_LGKM_Pct')} of their cycles")


def _largest_stall(q: _Quote, causes=_STALLS) -> str:
    name, what = max(causes, key=lambda s: _get(q.run, s[0]))
    return f"{what} ({q.m(name)} of wave-cycles)"


# ---------------------------------------------------------------- steps 2-8
def _conflicts(run: _Run) -> Optional[Finding]:
    waits = _get(run, "Wave_Stall_LGKM_Pct") + _get(run, "Wave_Stall_Unit_Busy_Pct")
    if _get(run, "LDS_Bank_Conflict_Pct") < CONFLICT_PCT or waits < LDS_WAIT_PCT:
        return None
    q = _Quote(run)
    text = (f"{q.m('LDS_Bank_Conflict_Pct')} of the LDS's busy cycles replay bank conflicts "
            f"({q.c('SQ_LDS_BANK_CONFLICT')} cycles; the LDS is busy {q.m('LDS_Util')} of CU-cycles)"
            + _lds_waits(q) + ".")
    return q.finding("lds-bank-conflicts", text, _CONFLICT_ADVICE)


def _memory_saturated(run: _Run) -> bool:
    return max(_get(run, "HBM_Bandwidth_Pct_of_Peak"), _get(run, "L2_Bandwidth_Pct_of_Peak")) >= BANDWIDTH_PCT


def _latency(run: _Run) -> Optional[Finding]:
    if _memory_saturated(run):
        return None
    shares = {name: _get(run, name) for name, _ in _STALLS}
    vm = shares["Wave_Stall_VMEM_Pct"]
    vm_bound = vm >= STALL_PCT and vm == max(shares.values())
    waves = _get(run, "Achieved_Waves_per_Busy_SIMD")
    few = waves <= FEW_WAVES and 100.0 - _get(run, "Wave_Issue_Pct") >= STALLED_PCT
    if not (vm_bound or few):
        return None
    q = _Quote(run)
    if vm_bound:
        text = (f"waves spend {q.m('Wave_Stall_VMEM_Pct')} of their cycles at s_waitcnt vmcnt while HBM moves "
                f"only {q.m('HBM_Bandwidth_Pct_of_Peak')} of its peak and the L2 {q.m('L2_Bandwidth_Pct_of_Peak')} "
                f"(L2 hit rate {q.m('L2_Hit_Rate')}): memory latency is exposed, not bandwidth")
    else:
        top = sorted((s for s in _STALLS if shares[s[0]] >= 1.0), key=lambda s: -shares[s[0]])[:3]
        text = ("waves stall " + ", ".join(f"{what} {q.m(name)}" for name, what in top)
                + " of their cycles, and too few share a SIMD to cover each other")
    text += (f"; {q.m('Achieved_Waves_per_Busy_SIMD')} waves per SIMD were resident while their CU held waves "
             f"({q.occupancy()}).")
    o = run.occupancy
    if o is not None and waves < GRID_SHORT * o["waves_per_simd"]:
        advice = ("the grid, not occupancy, keeps waves few: launch more workgroups (a smaller tile, split-K), "
                  "or keep more independent loads in flight per wave (unroll, prefetch deeper, double buffering)")
    elif o is not None and o["limiter"] in ("vgprs", "sgprs", "lds"):
        what = {"vgprs": "fewer VGPRs/AGPRs per wave", "sgprs": "fewer SGPRs per wave",
                "lds": "less LDS per workgroup"}[o["limiter"]]
        advice = (f"occupancy is limited by {o['limiter']}: use {what} to fit more waves, or keep more independent "
                  "loads in flight per wave (unroll, prefetch deeper)")
    else:
        advice = ("occupancy is already at its limit: keep more independent loads in flight per wave (unroll, "
                  "prefetch deeper, double buffering) so that each wait covers several loads")
    return q.finding("latency/occupancy", text, advice)


def _stall(run: _Run, name: str, bound: str, what: str, advice: str) -> Optional[Finding]:
    if _get(run, name) < STALL_PCT:
        return None
    q = _Quote(run)
    return q.finding(bound, f"waves spend {q.m(name)} of their cycles {what}.", advice)


def _issue(run: _Run) -> Optional[Finding]:
    if _get(run, "Wave_Issue_Pct") + _get(run, "Wave_Stall_Arbiter_Pct") < ISSUE_PCT:
        return None
    q = _Quote(run)
    text = (f"waves issue {q.m('Wave_Issue_Pct')} of their cycles and lose {q.m('Wave_Stall_Arbiter_Pct')} "
            f"to another wave's turn; the CUs issue in {q.m('CU_Issue_Pct')} of CU-cycles: the instruction count "
            "is the limit.")
    return q.finding("instruction-issue", text, "issue fewer instructions: wider loads (dwordx4), less scalar and "
                                                "address arithmetic, loops unrolled")


def _launch(run: _Run) -> Optional[Finding]:
    c = run.counters
    short = c["SQ_WORKGROUPS"] < run.cus or c["SQ_WAVES"] < run.simds
    if not short or _get(run, "CU_Idle_Pct") < IDLE_PCT:
        return None
    q = _Quote(run)
    text = (f"the grid has {q.c('SQ_WORKGROUPS')} {_plural(c['SQ_WORKGROUPS'], 'workgroup')} "
            f"({q.c('SQ_WAVES')} {_plural(c['SQ_WAVES'], 'wave')}) for "
            f"{q.arch(_CU_KEYS, run.cus)} CUs ({q.arch(_CU_KEYS + ('cu.simds',), run.simds)} SIMDs): CUs hold no wave in "
            f"{q.m('CU_Idle_Pct')} of CU-cycles.")
    return q.finding("launch/too-few-waves", text, "give the GPU more work per launch: more, smaller workgroups "
                                                   "(a smaller tile, split-K), or batch several problems")


_CU_KEYS = ("gpu.xcds", "gpu.cus_per_xcd")


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _mixed(run: _Run) -> Finding:
    q = _Quote(run)
    _, name, unit, cycles = max(_UNITS, key=lambda u: _get(run, u[1]))
    text = (f"no unit is near its peak (busiest: the {unit} at {q.m(name)} of {cycles}, HBM at "
            f"{q.m('HBM_Bandwidth_Pct_of_Peak')} of peak) and no stall dominates (the largest share is waves "
            f"{_largest_stall(q)}).")
    return q.finding("mixed", text, "look at the largest stall first; a trace (gpusim run --trace) shows where "
                                    "waves wait")


def explain(result_or_dict, arch=None) -> list:
    """explain returns the findings of a timed run, the main bound first; it mutates nothing.

    ``result_or_dict`` is a :class:`gpusim.api.Result`, its ``to_dict()`` or the path of the JSON
    ``gpusim run --json`` wrote (gpusim.report.record.read_run); the metrics are computed from its
    counters on ``arch`` (an Arch or name), by default the run's own architecture. Raises
    UsageError for a functional run.
    """
    run = _run_of(result_or_dict, arch)
    findings = _throughput(run)
    for rule in (
        _conflicts,
        _latency,
        lambda r: _stall(r, "Wave_Stall_Barrier_Pct", "barrier", "at s_barrier",
                         "cut barriers per loop trip (LDS double buffering), use smaller workgroups, or even out "
                         "the work waves do between barriers"),
        lambda r: _stall(r, "Wave_Stall_Dependency_Pct", "dependency", "waiting for a register a unit still writes",
                         "put independent instructions between a result's producer and its use (unroll, "
                         "interleave two iterations)"),
        _issue,
        _launch,
    ):
        f = rule(run)
        if f is not None and not any(f.bound == g.bound for g in findings):
            findings.append(f)
    return findings or [_mixed(run)]


def format_explain(findings) -> str:
    """format_explain renders findings as text: the main bound, then the rest, each with its advice and evidence."""
    lines = []
    for i, f in enumerate(findings):
        head = f"Bound by {BOUNDS[f.bound]}" if i == 0 else f"Also {BOUNDS[f.bound]}"
        lines.append(f"{head}: {f.sentence[0].upper()}{f.sentence[1:]} [rests on: {', '.join(f.evidence)}]")
        lines.append(f"  Try: {f.advice}.")
    return "\n".join(lines)
