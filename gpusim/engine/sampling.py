"""Sampled timing: simulate a representative part of a big dispatch in full detail and project the rest.

A full GPU's dispatch is tens of millions of wave-instructions; most of them repeat what the machine
already did. Sampling keeps the timing loop's detail where the machine's state changes (the first
rounds of workgroups filling an empty GPU, the main loop's first iterations, the epilogue's stores, the
last partial round) and replaces the repetition with a measured rate. Two methods, chosen per dispatch
(:func:`plan_sampling`):

``loop``
    Each wave runs the first ``loop_head_iterations`` iterations of a long loop in full detail, all
    CUs loaded, then fast-forwards through the rest of that loop functionally (the same address and
    control slice the timed run executes, so branches, trip counts and faults stay exact) and continues
    in detail from the loop's exit. The skipped iterations cost the cycles per iteration the wave itself
    measured over its last head iterations; a workgroup's skipped cycles delay every later workgroup of
    its slot (gpusim.engine.kernels.skip).

``grid``
    The first ``grid_head_rounds`` rounds of workgroups and the last ``grid_tail_rounds`` run in full
    detail, as one continuous dispatch (the dispatcher jumps from the head to the tail), so the tail runs
    on the caches, queues and contention the head left. The skipped middle costs the steady completion
    rate measured between the end of the first round and the jump. It applies only while every
    simulated workgroup of the head executed the same number of instructions.

Counters of the skipped work are the counters accumulated over the measuring window, scaled by how much
more work was skipped than the window did (instruction counts of fast-forwarded iterations are exact),
so stall breakdowns, hit rates and bandwidths keep adding up. :class:`SamplingOutcome` says what was
done, the fraction simulated in detail and a 95% confidence interval on cycles from the spread of the
measured rates.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Optional, Union

SAMPLE_MODES = ("auto", "on", "off")
# a dispatch estimated at more wave-instructions than this is sampled under ``auto`` (about 2 s of full
# simulation at the timing loop's 2-3 M wave-instructions per second, benchmarks/timed_rate.py)
SAMPLE_ABOVE_WAVE_INSTRUCTIONS = 4_000_000


@dataclass(frozen=True)
class SamplingPolicy:
    """SamplingPolicy says whether and how a timed dispatch may be sampled.

    ``mode``: ``auto`` samples a dispatch estimated above ``above_wave_instructions`` wave-instructions
    (its first workgroup's count times the grid), ``on`` samples whatever a method applies to (tests and
    studies of small grids), ``off`` simulates every workgroup in full. ``loop_head_iterations``: the
    iterations of a long loop each wave runs in detail before it fast-forwards (the second half of them
    measures its cycles per iteration); a loop is long when the first workgroup runs it at least
    ``4 * loop_head_iterations`` times. ``grid_head_rounds`` / ``grid_tail_rounds``: the rounds of
    workgroups (every workgroup slot of the GPU once) simulated at the start and at the end of the grid;
    the grid method needs at least ``grid_head_rounds + grid_tail_rounds + 2`` rounds.
    """

    mode: str = "auto"
    above_wave_instructions: int = SAMPLE_ABOVE_WAVE_INSTRUCTIONS
    loop_head_iterations: int = 8
    grid_head_rounds: int = 3
    grid_tail_rounds: int = 1

    def __post_init__(self):
        if self.mode not in SAMPLE_MODES:
            raise ValueError(f"sample mode {self.mode!r} is not one of {', '.join(SAMPLE_MODES)}")
        if self.loop_head_iterations < 2 or self.loop_head_iterations % 2:
            raise ValueError("loop_head_iterations must be an even number of at least 2")
        if self.grid_head_rounds < 2 or self.grid_tail_rounds < 1:
            raise ValueError("grid sampling needs at least 2 head rounds and 1 tail round")


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
    of the ``samples`` measured rates (per-wave cycles per iteration, or per-batch completion rates); it
    covers sampling noise, not the method's own bias, which benchmarks/sampling.py measures.
    """

    method: str
    reason: str
    simulated_fraction: float = 1.0
    detailed_cycles: int = 0
    cycles_low: int = 0
    cycles_high: int = 0
    samples: int = 0

    @property
    def sampled(self) -> bool:
        """sampled is True when part of the dispatch was projected rather than simulated."""
        return self.method != "full"

    def error_pct(self, cycles: int) -> float:
        """error_pct is the confidence interval's half-width as a percentage of ``cycles``."""
        if not self.sampled or cycles <= 0:
            return 0.0
        return 100.0 * (self.cycles_high - self.cycles_low) / 2 / cycles

    def to_dict(self) -> dict:
        """to_dict is the outcome as plain JSON values (``sampled`` included)."""
        d = asdict(self)
        d["sampled"] = self.sampled
        return d


def full_outcome(reason: str, cycles: int = 0) -> SamplingOutcome:
    """full_outcome is the outcome of a dispatch simulated in full, for ``reason``."""
    return SamplingOutcome("full", reason, 1.0, cycles, cycles, cycles, 0)


def plan_sampling(*args, **kwargs) -> Optional[object]:   # replaced below by the real planner
    raise NotImplementedError
