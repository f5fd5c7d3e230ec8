"""Tuning a template: search its parameter space, prune what cannot run, simulate the most promising.

``gpusim tune gemm --arch my.yaml --m 8192 --n 8192 --k 8192`` does four steps:

1. Enumerate (:func:`candidates`). The family's search space (``SPACES``: for gemm the tile
   BMxBNxBK with BM, BN in 32..256 and BK in 16..64, eight wave layouts, both MFMA shapes of the
   dtype, 16- and 8-byte loads, single or double LDS buffer, prefetch 0 or 1) is crossed with the
   problem the user fixed (m, n, k, dtype, and any searched parameter given, which then takes only
   that value). A combination is kept only if the template's own ``problems()`` accepts it on the
   architecture (tile divides the problem, waves divide the tile, LDS and registers fit, ...).
2. Prune by occupancy (:func:`prune`). Each valid kernel is generated and its occupancy computed
   on the architecture from the ``.amdhsa_*`` descriptor it declares (the numbers
   ``kernel_occupancy`` gives for the assembled kernel, without assembling thousands of them).
   A kernel of which not one workgroup fits on a CU is dropped, counted by the resource that
   refused it (LDS, registers, wave slots, ...).
3. Pre-filter by a static estimate (:func:`estimate_cycles`, :func:`shortlist`). This is a
   heuristic, not a measurement: it only decides which ``max_points`` kernels are worth
   simulating. It is a per-CU roofline of the busiest CU, in shader cycles::

       W        = ceil(workgroups / CUs)                  wave quantization: the busiest CU's workgroups
       active   = min(SIMDs, min(W, wg_per_cu) x waves per workgroup)   SIMDs kept busy (occupancy)
       compute  = W x flops per workgroup / (matrix peak per CU x active / SIMDs)
       memory   = W x global bytes per workgroup / per-CU bandwidth    (tile arithmetic intensity)
       estimate = max(compute, memory)

   where the per-CU bandwidth is the smaller of the L1's bytes per clock and the CU's share of
   its XCD's L2 (channels x bytes per clock per channel / CUs per XCD): a tile's loads mostly hit
   the L2, which neighbouring workgroups fill. Candidates are ordered by estimate, with estimates
   within about 5% of each other counted as equal (the same ratio to the best estimate, to one
   decimal: the model is not finer than that), and among equals by how few searched parameters
   differ from the template's defaults (the estimate cannot tell load width, prefetch or double
   buffering apart; the simulation does). The budget is spread over at least four kernel shapes
   (tile and waves): each shape gets at most ``max_points // 4`` points on the first pass, and
   what is left of the budget goes to the next candidates in order.
4. Simulate (:func:`tune`). The shortlist becomes a study of explicit points
   (``study_from_parts``) run by ``run_study`` on local processes or a Dask cluster; the ``ok``
   rows are ranked by ``time_us``. A big kernel's time is sampled (``sample``, as ``gpusim run
   --sample``; default auto): a sampled row records the sampling and its error estimate, and
   :func:`format_tune` says when the best two are closer than their error. :func:`format_tune`
   prints the best ones and the ``gpusim gen`` command that reproduces the winner.
"""
from __future__ import annotations

import itertools
import math
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from gpusim.engine.sampling_policy import DEFAULT_SAMPLE_MODE
from gpusim.report.columns import aligned
from gpusim.sweep.study import StudyError
from gpusim.templates.registry import TemplateError, parse_dims, template
from gpusim.templates.writer import dtype_bytes

TUNE_METRICS = ("time_us", "cycles", "tflops", "MFMA_Util", "L2_Hit_Rate")
DEFAULT_MAX_POINTS = 24
MIN_SHAPES = 4   # the budget is spread over at least this many kernel shapes

# the MFMA shapes the gemm template has an instruction for, by dtype (its problems() still judges each)
_GEMM_MFMA = {"f16": ("32x32x8", "16x16x16"), "bf16": ("32x32x8", "16x16x16"), "f32": ("32x32x2", "16x16x4")}


@dataclass(frozen=True)
class Work:
    """Work is what one workgroup of a kernel does: its floating-point operations and global bytes read."""

    flops: float
    bytes: float
    dtype: str


@dataclass(frozen=True)
class SearchSpace:
    """SearchSpace is what ``tune`` varies for one template family and how it sizes a kernel's work.

    ``axes(problem)`` maps each searched parameter to its values, given the parsed problem values
    (the MFMA shapes depend on the dtype); ``shape`` names the parameters whose values make a
    kernel's shape, over which the simulation budget is spread; ``work(values)`` is one
    workgroup's :class:`Work` for the static estimate.
    """

    axes: Callable[[dict], dict]
    shape: tuple
    work: Callable[[dict], Work]


def _gemm_axes(problem: dict) -> dict:
    dims = (32, 64, 128, 256)
    return {
        "tile": [f"{bm}x{bn}x{bk}" for bm in dims for bn in dims for bk in (16, 32, 64)],
        "waves": ["1x1", "1x2", "2x1", "2x2", "4x1", "1x4", "2x4", "4x2"],
        "mfma": list(_GEMM_MFMA[problem["dtype"]]),
        "vec": [16, 8],
        "lds-double-buffer": [False, True],
        "prefetch": [0, 1],
    }


def _gemm_work(values: dict) -> Work:
    bm, bn, _ = parse_dims(values["tile"], 3)
    k, dtype = values["k"], values["dtype"]
    return Work(flops=2.0 * bm * bn * k, bytes=float((bm + bn) * k * dtype_bytes(dtype)), dtype=dtype)


SPACES = {
    "gemm": SearchSpace(axes=_gemm_axes, shape=("tile", "waves"), work=_gemm_work),
}


def search_space(family: str) -> SearchSpace:
    """search_space is the SearchSpace of ``family``; TemplateError when the family has none (or is unknown)."""
    template(family)   # an unknown family fails here, naming the known ones
    if family not in SPACES:
        raise TemplateError(f"no search space for {family!r}: gpusim tune searches {', '.join(SPACES)}",
                            hint=f"vary {family}'s parameters with a study file instead (gpusim sweep)")
    return SPACES[family]


def _canonical(family: str, given: dict) -> dict:
    """_canonical parses ``given`` (parameter name -> value, '-' or '_') with the family's parameter types."""
    t = template(family)
    by_name = {p.name: p for p in t.params}
    t.values(given)   # unknown names and bad values raise TemplateError here
    return {k.replace("_", "-"): by_name[k.replace("_", "-")].parse(v) for k, v in given.items()}


def search_axes(family: str, fixed: dict, space: Optional[dict] = None) -> dict:
    """search_axes maps each searched parameter of ``family`` to the values tried, with ``fixed`` held.

    ``space`` (parameter -> values) replaces the family's own search space; a searched parameter
    that ``fixed`` gives takes only that value. Values are parsed to the parameter's type.
    """
    t = template(family)
    fixed = _canonical(family, fixed)
    problem = t.values(fixed)
    raw = search_space(family).axes(problem) if space is None else dict(space)
    axes = {}
    for name, values in raw.items():
        key = name.replace("_", "-")
        if key in fixed:
            axes[key] = [fixed[key]]
            continue
        parsed = list(_canonical(family, {key: v})[key] for v in values)
        if not parsed:
            raise TemplateError(f"the search space gives no values for --{key}")
        axes[key] = list(dict.fromkeys(parsed))
    return axes


def candidates(family: str, arch, fixed: dict, space: Optional[dict] = None) -> list:
    """candidates lists every valid combination of ``family``'s search space on ``arch`` with ``fixed`` held.

    Each is a dict of parameter values (the fixed ones and the searched ones) that
    ``generate(family, arch, **c)`` accepts: combinations whose ``problems()`` is not empty are left out.
    """
    from gpusim.arch import load_arch

    t = template(family)
    arch = load_arch(arch)
    fixed = _canonical(family, fixed)
    axes = search_axes(family, fixed, space)
    out = []
    for combo in itertools.product(*axes.values()):
        given = {**fixed, **dict(zip(axes, combo))}
        if not t.problems(t.values(given), arch):
            out.append(given)
    return out


@dataclass(frozen=True)
class Candidate:
    """Candidate is one valid kernel that fits on a CU: its parameters, occupancy and static estimate."""

    params: dict
    occupancy: object
    workgroups: int
    estimate: float      # heuristic cycles of the busiest CU (see the module docstring)
    distance: int        # searched parameters that differ from the template's defaults


_DESCRIPTOR = re.compile(r"^\s*\.amdhsa_(\w+)\s+(\d+)\s*$", re.M)
_LAUNCH = re.compile(r"gpusim-launch:\s*grid=(\d+),(\d+),(\d+)\s+block=(\d+),(\d+),(\d+)")


def text_occupancy(text: str, arch):
    """text_occupancy computes the occupancy of a generated kernel on ``arch`` from its descriptor and launch line.

    Returns (Occupancy, workgroups in the grid); raises KernelDoesNotFit when not one workgroup fits.
    """
    from gpusim.arch.occupancy import descriptor_occupancy

    descriptor = {name: int(value) for name, value in _DESCRIPTOR.findall(text)}
    launch = _LAUNCH.search(text)
    if launch is None:
        raise TemplateError("a generated kernel has no gpusim-launch line")
    gx, gy, gz, bx, by, bz = (int(v) for v in launch.groups())
    return descriptor_occupancy(arch, descriptor, bx * by * bz), gx * gy * gz


_REASONS = (("LDS", "LDS"), ("VGPR", "registers"), ("AGPR", "registers"), ("SGPR", "SGPRs"),
            ("wave slots", "wave slots"), ("barrier", "workgroup slots"), ("work-item", "workgroup size"),
            ("workgroup", "workgroup size"))


def _reason(message: str) -> str:
    return next((label for word, label in _REASONS if word in message), "other")


def estimate_cycles(work: Work, occupancy, workgroups: int, arch) -> float:
    """estimate_cycles is the static estimate of a kernel's time on ``arch``: a per-CU roofline (heuristic).

    See the module docstring: the busiest CU's workgroups times the larger of their MFMA time (at
    the SIMDs their waves can occupy) and their global-load time at the CU's share of L2 bandwidth.
    """
    per_cu = math.ceil(workgroups / arch.cus)
    resident = min(per_cu, occupancy.workgroups_per_cu)
    simds = arch.cu.simds
    active = min(simds, resident * occupancy.waves_per_workgroup)
    peak = getattr(arch.peaks.matrix_flops_per_cu_per_clk, work.dtype)
    compute = per_cu * work.flops / (peak * active / simds)
    l2_share = arch.l2.channels * arch.l2.bytes_per_clk_per_channel / arch.gpu.cus_per_xcd
    memory = per_cu * work.bytes / min(arch.cu.l1.bytes_per_clk, l2_share)
    return max(compute, memory)


def prune(family: str, arch, cands: Sequence[dict], axes: Optional[Sequence[str]] = None) -> tuple:
    """prune generates each candidate, keeps those that fit on a CU of ``arch`` and estimates their time.

    ``axes`` are the searched parameters (for the distance from the defaults; default: all given).
    Returns (list of Candidate in the order given, Counter of why the others were dropped:
    'LDS', 'registers', 'wave slots', ...).
    """
    from gpusim.arch import load_arch
    from gpusim.arch.occupancy import KernelDoesNotFit

    t = template(family)
    space = search_space(family)
    arch = load_arch(arch)
    defaults = t.values({})
    kept, dropped = [], Counter()
    for given in cands:
        values = t.values(given)
        try:
            occ, workgroups = text_occupancy(t.build(values).text(), arch)
        except KernelDoesNotFit as err:
            dropped[_reason(str(err))] += 1
            continue
        names = axes if axes is not None else given
        distance = sum(1 for name in names if values[name] != defaults[name])
        kept.append(Candidate(dict(given), occ, workgroups,
                              estimate_cycles(space.work(values), occ, workgroups, arch), distance))
    return kept, dropped


def shortlist(cands: Sequence[Candidate], max_points: int, shape: Sequence[str] = ("tile", "waves")) -> list:
    """shortlist picks the ``max_points`` candidates to simulate (a heuristic pre-filter: see the module doc).

    Candidates are ordered by (estimate / best estimate rounded to one decimal, distance from the
    defaults, estimate, order given); the first pass takes at most ``max(1, max_points // MIN_SHAPES)``
    per shape (the values of ``shape``), the second fills the rest of the budget in order.
    """
    if max_points < 1:
        raise StudyError(f"the simulation budget must be at least 1 point, not {max_points}")
    if not cands:
        return []
    best = min(c.estimate for c in cands)
    order = sorted(range(len(cands)), key=lambda i: (round(cands[i].estimate / best, 1), cands[i].distance,
                                                     cands[i].estimate, i))
    per_shape = max(1, max_points // MIN_SHAPES)
    taken, count = [], Counter()
    for i in order:
        key = tuple(str(cands[i].params.get(s)) for s in shape)
        if len(taken) < max_points and count[key] < per_shape:
            taken.append(i)
            count[key] += 1
    chosen = set(taken)
    taken += [i for i in order if i not in chosen][:max_points - len(taken)]
    return [cands[i] for i in taken]


@dataclass
class Search:
    """Search is the outcome of steps 1-3: the axes searched, what was dropped at each step, and the shortlist."""

    family: str
    fixed: dict
    axes: dict
    enumerated: int
    valid: int
    pruned: Counter
    kept: list
    cut: int

    @property
    def varied(self) -> tuple:
        """varied are the searched parameters with more than one value (the columns of the results)."""
        return tuple(k for k, v in self.axes.items() if len(v) > 1)


def search(family: str, arch, fixed: dict, *, max_points: int = DEFAULT_MAX_POINTS,
           space: Optional[dict] = None) -> Search:
    """search enumerates, prunes by occupancy and shortlists ``family``'s kernels on ``arch`` (no simulation)."""
    from gpusim.arch import load_arch

    arch = load_arch(arch)
    fixed = _canonical(family, fixed)
    axes = search_axes(family, fixed, space)
    valid = candidates(family, arch, fixed, space)
    fitting, pruned = prune(family, arch, valid, axes=list(axes))
    kept = shortlist(fitting, max_points, search_space(family).shape)
    return Search(family, fixed, axes, math.prod(len(v) for v in axes.values()), len(valid), pruned, kept,
                  len(fitting) - len(kept))


@dataclass
class TuneOutcome:
    """TuneOutcome is a finished tuning: the simulated rows, fastest first, and what each step dropped.

    ``rows`` are the ``ok`` result rows ranked by ``time_us``, each with ``params`` (every parameter
    ``gpusim gen`` needs) and ``estimate`` (the static estimate, cycles); ``failed`` the other rows.
    ``counts`` holds enumerated, valid, pruned, cut, simulated and failed; ``pruned`` the reasons.
    ``arch`` is the architecture as ``gpusim gen --arch`` takes it (a name or a path), ``folder``
    the results folder (None when it was a temporary one, removed since); ``top`` how many rows
    :func:`format_tune` shows by default.
    """

    family: str
    arch: str
    fixed: dict
    varied: tuple
    rows: list
    failed: list
    counts: dict
    pruned: dict
    folder: Optional[str] = None
    top: int = 5

    @property
    def best(self) -> Optional[dict]:
        """best is the fastest ok row, or None when none ran."""
        return self.rows[0] if self.rows else None


def gen_command(family: str, params: dict, arch_ref: str = "cdna3", output: Optional[str] = None) -> str:
    """gen_command is the ``gpusim gen`` command line that writes the kernel of ``params``."""
    t = template(family)
    values = _canonical(family, params)
    parts = ["gpusim", "gen", family]
    for prm in t.params:
        if prm.name not in values:
            continue
        value = values[prm.name]
        if prm.kind == "bool":
            if value:
                parts.append(f"--{prm.name}")
        else:
            parts += [f"--{prm.name}", str(value)]
    if arch_ref != "cdna3":
        parts += ["--arch", str(arch_ref)]
    if output:
        parts += ["-o", output]
    return " ".join(parts)


def _arch_ref(arch_ref, arch, folder: Path) -> str:
    """_arch_ref is what workers load: a shipped name, an absolute path, or the Arch saved in ``folder``."""
    from gpusim.arch import format_arch

    if not isinstance(arch_ref, (str, Path)):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "arch.yaml"
        path.write_text(format_arch(arch))
        return str(path.resolve())
    ref = str(arch_ref)
    return str(Path(ref).resolve()) if Path(ref).is_file() else ref


def tune(family: str, arch_ref, fixed: dict, *, top: int = 5, max_points: int = DEFAULT_MAX_POINTS,
         out=None, workers: Optional[int] = None, scheduler=None, progress: bool = True, resume: bool = False,
         space: Optional[dict] = None, metrics: Sequence[str] = TUNE_METRICS, sample: str = DEFAULT_SAMPLE_MODE,
         sample_interval: Optional[float] = None) -> TuneOutcome:
    """tune searches ``family``'s kernels for the problem ``fixed`` on ``arch_ref`` and simulates the best guesses.

    ``arch_ref`` is a shipped name, a YAML path or an Arch (saved as ``arch.yaml`` in the results
    folder). Steps 1-3 (see the module docstring) choose at most ``max_points`` kernels; they run
    as a study in ``out`` (a temporary folder, removed afterwards, when None) with ``workers``
    local processes or on the Dask ``scheduler``; ``resume`` finishes a study ``out`` already holds.
    ``top`` is how many rows format_tune shows. ``sample`` is each kernel's sampling mode
    (gpusim.engine.sampling.SAMPLE_MODES; auto samples a big dispatch) and ``sample_interval`` the grid
    method's interval in percent (None: the default; only with auto or on). Writes only under ``out``; with
    ``progress`` prints the search counts to stderr and a progress bar.
    """
    from gpusim.arch import load_arch
    from gpusim.sweep.results import read_results
    from gpusim.sweep.runner import run_study
    from gpusim.sweep.study import study_from_parts

    from gpusim.engine.sampling_policy import SAMPLE_MODES
    if sample not in SAMPLE_MODES:
        raise StudyError(f"sample mode {sample!r} is not one of {', '.join(SAMPLE_MODES)}")
    from gpusim.engine.sampling_policy import interval_problem
    problem = interval_problem(sample_interval, sample) if sample_interval is not None else ""
    if problem:
        raise StudyError(f"sample interval: {problem}")
    arch = load_arch(arch_ref)
    found = search(family, arch, fixed, max_points=max_points, space=space)
    if not found.kept:
        raise StudyError(f"no {family} kernel of the search space can run on {arch.name}: "
                         f"{found.valid} of {found.enumerated} combinations are valid, "
                         f"{sum(found.pruned.values())} pruned by occupancy ({_reasons(found.pruned)})")
    if progress:
        print(_search_line(found) + f"; simulating {len(found.kept)}", file=sys.stderr)
    varied = found.varied
    fixed_all = {k: v for k, v in found.kept[0].params.items() if k not in varied}
    points = [{f"gen.{family}.{k}": c.params[k] for k in varied} for c in found.kept]
    with tempfile.TemporaryDirectory(prefix="gpusim-tune-") as tmp:
        folder = Path(out) if out is not None else Path(tmp) / "results"
        ref = _arch_ref(arch_ref, arch, folder if out is not None else Path(tmp))
        study = study_from_parts(f"tune-{family}", ref, family, fixed_all, points, metrics=metrics, sample=sample,
                                 sample_interval=sample_interval)
        run_study(study, folder, workers=workers, scheduler=scheduler, resume=resume, progress=progress)
        rows = read_results(folder)
    if out is None and not isinstance(arch_ref, (str, Path)):
        ref = arch.name   # the saved copy went with the temporary folder
    ok, failed = [], []
    for row in rows:
        cand = found.kept[int(row["point"])]
        row = {**row, "params": dict(cand.params), "estimate": cand.estimate}
        (ok if row.get("status") == "ok" and row.get("time_us") is not None else failed).append(row)
    ok.sort(key=lambda r: (r["time_us"], r["point"]))
    counts = {"enumerated": found.enumerated, "valid": found.valid, "pruned": sum(found.pruned.values()),
              "cut": found.cut, "simulated": len(rows), "failed": len(failed)}
    return TuneOutcome(family, ref, dict(found.fixed), varied, ok, failed, counts, dict(found.pruned),
                       str(folder) if out is not None else None, top)


def _reasons(pruned: Counter) -> str:
    return ", ".join(f"{why} {n}" for why, n in sorted(pruned.items(), key=lambda kv: -kv[1])) or "none"


def _search_line(found: Search) -> str:
    return (f"{found.family}: {found.enumerated} combinations, {found.valid} valid, "
            f"{sum(found.pruned.values())} pruned by occupancy ({_reasons(found.pruned)}), "
            f"{found.cut} cut by the static estimate (a heuristic pre-filter)")


def _shown(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _number(value, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def format_tune(outcome: TuneOutcome, top: Optional[int] = None) -> str:
    """format_tune renders the search counts, the best ``top`` configurations (default: outcome.top) and the
    ``gpusim gen`` command of the best."""
    top = outcome.top if top is None else top
    c = outcome.counts
    problem = " ".join(f"{k}={_shown(v)}" for k, v in outcome.fixed.items())
    pruned = f" ({_reasons(Counter(outcome.pruned))})" if outcome.pruned else ""
    lines = [f"tune {outcome.family} ({problem}) on {outcome.arch}: {c['enumerated']} combinations, "
             f"{c['valid']} valid, {c['pruned']} pruned by occupancy{pruned}, {c['cut']} cut by the static "
             f"estimate (a heuristic pre-filter), {c['simulated']} simulated, {c['failed']} failed"]
    if not outcome.rows:
        why = outcome.failed[0].get("error") if outcome.failed else ""
        lines.append(f"no configuration simulated successfully{': ' + str(why) if why else ''}")
        return "\n".join(lines) + "\n"
    head = ["rank", *outcome.varied, "time_us", "TFLOP/s", "MFMA%", "waves/SIMD", "limiter"]
    body = []
    for rank, row in enumerate(outcome.rows[:top], 1):
        body.append([str(rank), *(_shown(row["params"][k]) for k in outcome.varied),
                     _number(row.get("time_us"), ".2f"), _number(row.get("tflops"), ".1f"),
                     _number(row.get("MFMA_Util"), ".1f"), _number(row.get("waves_per_simd"), "g"),
                     str(row.get("limiter") or "-")])
    numeric = {0, *range(len(head) - 5, len(head) - 1)}
    lines.append(f"best {len(body)} of {len(outcome.rows)} simulated, fastest first:")
    lines += [line.rstrip() for line in aligned([head, *body], right=numeric)]
    lines.extend(_sampling_notes(outcome.rows))
    lines.append("best: " + gen_command(outcome.family, outcome.rows[0]["params"], outcome.arch,
                                        output=f"{outcome.family}_best.s"))
    return "\n".join(lines) + "\n"


def _sampling_notes(rows: Sequence[dict]) -> list:
    """_sampling_notes are format_tune's lines on sampled times: how many rows were sampled and their largest
    error estimate, and whether the best two are closer than their errors (sampling cannot rank them)."""
    sampled = [r for r in rows if r.get("sampled") is True]
    if not sampled:
        return []
    worst = max(r.get("sample_error_pct") or 0.0 for r in sampled)
    lines = [f"sampled: {len(sampled)} of {len(rows)} times projected from a sampled simulation (error estimate "
             f"up to {worst:.1f}%: sampling noise and the method's measured error); --sample off times each in full"]
    if len(rows) >= 2 and (rows[0].get("sampled") is True or rows[1].get("sampled") is True):
        first, second = rows[0]["time_us"], rows[1]["time_us"]
        gap = 100.0 * (second - first) / first if first else 0.0
        margin = (rows[0].get("sample_error_pct") or 0.0) + (rows[1].get("sample_error_pct") or 0.0)
        if gap <= margin:
            lines.append(f"the best two are {gap:.1f}% apart, within their sampling error ({margin:.1f}%): "
                         "time them with --sample off to rank them")
    return lines
