"""What sampled timing may do and what it did: its modes, SamplingPolicy and SamplingOutcome.

Light on purpose (no numpy, no numba): the CLI imports it to build its --help. gpusim.engine.sampling
plans and projects a sampled dispatch.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from typing import Iterable, Union

SAMPLE_MODES = ("auto", "on", "off")
# the mode a timed run of the CLI, a study or tune uses when none is given (gpusim.simulate's own default is
# off): auto, which samples only by the grid method, the one whose projections benchmarks/sampling.py finds
# within 1.6% of the full simulation on every large case; the loop method, up to 33% off where a loop's rate
# drifts, is used only when asked for (on). See README "Sampled timing".
DEFAULT_SAMPLE_MODE = "auto"
# the methods each mode may use (gpusim.engine.sampling.plan_sampling)
MODE_METHODS = {"auto": ("grid",), "on": ("grid", "loop"), "off": ()}
# a dispatch estimated at more wave-instructions than this is sampled under ``auto`` (about 2 s of full
# simulation at the timing loop's 2-3 M wave-instructions per second, benchmarks/timed_rate.py)
SAMPLE_ABOVE_WAVE_INSTRUCTIONS = 4_000_000


@dataclass(frozen=True)
class SamplingPolicy:
    """SamplingPolicy says whether and how a timed dispatch may be sampled (gpusim.engine.sampling).

    ``mode``: ``auto`` samples a dispatch estimated above ``above_wave_instructions`` wave-instructions
    (its first workgroup's count times the grid) by the grid method, ``on`` samples whatever either method
    applies to, however small (the loop method, experimental, only here; tests and studies of small grids),
    ``off`` simulates every workgroup in full (MODE_METHODS).

    The loop method takes a loop the first workgroup runs at least ``4 * loop_head_iterations`` times per
    wave. Every wave runs at least ``loop_head_iterations`` iterations of it in detail; its last
    ``2 * loop_measure_iterations`` make two measuring windows of cycles per iteration, pooled over the waves
    of one rate class. The GPU warps once no class's rate moved by more than ``steady_pct`` percent from the
    first window to the second (else it waits a window and looks again, so a loop whose rate keeps drifting
    runs in detail), and only while the GPU is full (not once a workgroup slot has emptied with no
    workgroup left to fill it) and each workgroup's waves are within ``2 * loop_measure_iterations``
    iterations of each other in one loop. A warp makes ``loop_warp_fraction`` of the largest shift that
    leaves every wave ``loop_tail_iterations`` iterations to run in detail, at most ``loop_max_warps`` of
    them per dispatch (0: no limit); the iterations it fast-forwards warm the caches unless
    ``loop_warm_caches`` is False (faster, for studying what warming changes).

    The grid method runs a head of at least ``grid_head_fraction`` of the grid's rounds (a round fills every
    workgroup slot of the GPU once) and at least ``grid_head_rounds``, then until the last two windows of
    ``grid_window_rounds`` rounds took cycles within ``steady_pct`` percent of each other (a grid too short
    for two such windows and the tail gets shorter ones, shortened no further than 2) and the 95% confidence
    interval the head's round boundaries give the projected cycles (gpusim.engine.kernels.skip.interval_ppm)
    is within ``grid_interval_pct`` percent of them; the last ``grid_tail_rounds`` rounds run in detail too.
    It needs ``grid_min_rounds`` (``grid_head_rounds + grid_tail_rounds + 2``) rounds.

    The measurements behind each default are in docs/sampling.md ("Why the defaults are what they are").
    Raises ValueError for a setting outside its range.
    """

    mode: str = "auto"
    above_wave_instructions: int = SAMPLE_ABOVE_WAVE_INSTRUCTIONS
    loop_head_iterations: int = 8
    loop_measure_iterations: int = 4
    loop_tail_iterations: int = 2
    loop_max_warps: int = 0
    steady_pct: float = 3.0
    loop_warm_caches: bool = True
    loop_warp_fraction: float = 1.0
    grid_head_rounds: int = 3
    grid_head_fraction: float = 0.1
    grid_tail_rounds: int = 1
    grid_window_rounds: int = 4
    grid_interval_pct: float = 0.5

    @property
    def steady_permil(self) -> int:
        """steady_permil is ``steady_pct`` in whole parts per thousand, as the timing loop's steadiness tests
        take it (gpusim.engine.kernels.skip)."""
        return int(round(10 * self.steady_pct))

    @property
    def grid_interval_ppm(self) -> int:
        """grid_interval_ppm is ``grid_interval_pct`` in whole parts per million, as the timing loop's jump
        test takes it (gpusim.engine.kernels.skip.interval_ppm)."""
        return int(round(1e4 * self.grid_interval_pct))

    @property
    def grid_min_rounds(self) -> int:
        """grid_min_rounds is the fewest rounds of workgroups the grid method samples: its head, two more, its tail."""
        return self.grid_head_rounds + self.grid_tail_rounds + 2

    def __post_init__(self):
        if self.mode not in SAMPLE_MODES:
            raise ValueError(f"sample mode {self.mode!r} is not one of {', '.join(SAMPLE_MODES)}")
        if not 1 <= self.loop_measure_iterations <= self.loop_head_iterations // 2:
            raise ValueError("loop_measure_iterations must be at least 1 and at most half loop_head_iterations")
        if not 0 < self.loop_warp_fraction <= 1:
            raise ValueError("loop_warp_fraction must be above 0 and at most 1")
        if not 0 < self.steady_pct <= 100:
            raise ValueError("steady_pct must be above 0 and at most 100")
        if not 0 < self.grid_interval_pct <= 100:
            raise ValueError("grid_interval_pct must be above 0 and at most 100")
        if self.grid_window_rounds < 1:
            raise ValueError("grid_window_rounds must be at least 1")
        if self.loop_max_warps < 0:
            raise ValueError("loop_max_warps must be 0 (no limit) or more")
        if self.loop_tail_iterations < 1:
            raise ValueError("loop_tail_iterations must be at least 1")
        if not 0 <= self.grid_head_fraction < 1:
            raise ValueError("grid_head_fraction must be at least 0 and below 1")
        if self.grid_head_rounds < 2 or self.grid_tail_rounds < 1:
            raise ValueError("grid sampling needs at least 2 head rounds and 1 tail round")


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def policy_with_settings(mode: str, settings: Iterable[str]) -> SamplingPolicy:
    """policy_with_settings is SamplingPolicy(mode=``mode``) with each ``NAME=VALUE`` of ``settings`` set:
    NAME a SamplingPolicy field other than ``mode``, VALUE read as the field's type (a bool from
    true/false, yes/no, on/off or 1/0). Studies of the methods use it (benchmarks/sampling.py --policy).
    Raises ValueError naming the setting: no ``=``, an unknown name (with the closest one), a value of the
    wrong type or out of the field's range (SamplingPolicy's own checks)."""
    from gpusim.errors import did_you_mean
    kinds = {f.name: str(f.type) for f in fields(SamplingPolicy) if f.name != "mode"}
    changes = {}
    for setting in settings:
        name, eq, text = (part.strip() for part in setting.partition("="))
        if not eq or not name:
            raise ValueError(f"sampling setting {setting!r} is not NAME=VALUE")
        if name not in kinds:
            hint = did_you_mean(name, kinds)
            raise ValueError(f"sampling setting {name!r} is not one of {', '.join(sorted(kinds))}"
                             + (f"; {hint}" if hint else ""))
        changes[name] = _setting_value(name, kinds[name], text)
    try:
        return replace(SamplingPolicy(mode=mode), **changes)
    except ValueError as err:
        raise ValueError(f"sampling settings {', '.join(settings)}: {err}") from None


def _setting_value(name: str, kind: str, text: str) -> Union[bool, int, float]:
    """_setting_value reads ``text`` as a value of the SamplingPolicy field ``name`` of type ``kind``."""
    if kind == "bool" and text.lower() in _TRUE + _FALSE:
        return text.lower() in _TRUE
    if kind in ("int", "float"):
        try:
            return int(text) if kind == "int" else float(text)
        except ValueError:
            pass
    raise ValueError(f"sampling setting {name}={text!r}: not {'an' if kind == 'int' else 'a'} {kind}")


def interval_problem(pct: float, mode: str) -> str:
    """interval_problem says what is wrong with asking the grid method for a ``pct`` percent interval under sample
    mode ``mode`` (gpusim run --sample-interval, a study's sample_interval, tune), else ''."""
    if not 0 < pct <= 100:
        return f"{pct:g} is not a percentage above 0 and at most 100"
    if mode not in ("auto", "on"):
        return "it applies to sampled timing: give sample mode auto or on"
    return ""


def sample_with_interval(mode: str, pct: Union[float, None]) -> Union[str, SamplingPolicy]:
    """sample_with_interval is what a run of sample mode ``mode`` passes to simulate as ``sample`` when the grid
    method's interval is ``pct`` percent (None: the policy's default): the mode itself, or a SamplingPolicy of
    both (the mode alone under ``off``, which samples nothing). ``pct`` is not checked (interval_problem)."""
    return mode if pct is None or mode == "off" else SamplingPolicy(mode=mode, grid_interval_pct=pct)


def sampling_policy(sample: Union[str, SamplingPolicy, None]) -> SamplingPolicy:
    """sampling_policy turns a mode name, a policy or None (``off``) into a SamplingPolicy."""
    if sample is None:
        return SamplingPolicy(mode="off")
    if isinstance(sample, SamplingPolicy):
        return sample
    return SamplingPolicy(mode=str(sample))


@dataclass(frozen=True)
class SamplingOutcome:
    """SamplingOutcome is what sampling did to one timed dispatch.

    ``method``: ``loop``, ``grid`` or ``full`` (every workgroup in detail); ``reason`` says why, in words
    a report prints (the threshold, the loop, or why a method did not apply). ``simulated_fraction``:
    wave-instructions timed in detail over all the dispatch's wave-instructions (1.0 for ``full``).
    ``detailed_cycles``: the cycles of the detailed part as it ran (the compressed dispatch);
    ``cycles_low`` .. ``cycles_high``: a 95% confidence interval on the projected cycles from the spread
    of the ``samples`` measured rates (per-wave cycles per iteration, or the grid head's round boundaries); it
    covers sampling noise, not the method's own bias. ``method_error_pct``: that bias, as a percentage of
    the projected cycles: the method's error per unit of skipped work measured against full simulations
    (gpusim.engine.sampling.METHOD_ERROR, benchmarks/sampling_bias.py) times the share of the work skipped.
    ``error_pct`` adds the two in quadrature: the error estimate a report, a sweep row or tune uses.
    ``counts_estimated``: the instruction counts of the skipped part are the measuring window's scaled to
    it, not counted (a grid whose workgroups differ by their data; every other sampled run counts them
    exactly).
    """

    method: str
    reason: str
    simulated_fraction: float = 1.0
    detailed_cycles: int = 0
    cycles_low: int = 0
    cycles_high: int = 0
    samples: int = 0
    method_error_pct: float = 0.0
    counts_estimated: bool = False

    @property
    def sampled(self) -> bool:
        """sampled is True when part of the dispatch was projected rather than simulated."""
        return self.method != "full"

    def noise_pct(self, cycles: int) -> float:
        """noise_pct is the confidence interval's half-width as a percentage of ``cycles``: sampling noise."""
        if not self.sampled or cycles <= 0:
            return 0.0
        return 100.0 * (self.cycles_high - self.cycles_low) / 2 / cycles

    def error_pct(self, cycles: int) -> float:
        """error_pct is the error estimate as a percentage of ``cycles``: the sampling noise (``noise_pct``)
        and the method's measured error (``method_error_pct``) added in quadrature; 0 for a full run."""
        if not self.sampled:
            return 0.0
        return math.hypot(self.noise_pct(cycles), self.method_error_pct)

    def to_dict(self) -> dict:
        """to_dict is the outcome as plain JSON values (``sampled`` included)."""
        d = asdict(self)
        d["sampled"] = self.sampled
        return d


def sampling_columns(outcome, cycles: int) -> dict:
    """sampling_columns are the columns a results row gives a timing of ``cycles`` with SamplingOutcome
    ``outcome`` (None: timed without one, in full): ``sampled``, ``sample_method`` (``full`` unless part was
    projected) and ``sample_error_pct`` (SamplingOutcome.error_pct; 0 in full)."""
    if outcome is None or not outcome.sampled:
        return {"sampled": False, "sample_method": "full", "sample_error_pct": 0.0}
    return {"sampled": True, "sample_method": outcome.method, "sample_error_pct": outcome.error_pct(cycles)}


def full_outcome(reason: str, cycles: int = 0) -> SamplingOutcome:
    """full_outcome is the outcome of a dispatch simulated in full, for ``reason``."""
    return SamplingOutcome("full", reason, 1.0, cycles, cycles, cycles, 0)
