"""Fuzzing the simulator with mutated real kernels: every outcome is a clean one.

Corpus kernels are mutated (tests/exec/kernel_mutator.py: lines deleted, duplicated and swapped,
registers renumbered, immediates and branch targets changed, s_endpgm dropped) and each result runs
as the CLI runs it, functionally and on the timing model, with and without values. The outcome must be
what a user can act on: the check passes or fails, the input is refused (GpusimError, exit 2) or the
kernel faults like a GPU (KernelFault, exit 3). Never a signal, a Python traceback or a hang. The runs
happen in a worker subprocess (tests/exec/fuzz_worker.py) so that a segfault is caught and reported
with the kernel that caused it.

The run is bounded for CI: a fixed number of examples, derandomized, and a small instruction limit so
that a mutated loop that never ends faults quickly.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fuzz_worker import CLEAN_OUTCOMES, MODES, KernelRunner
from kernel_mutator import OPERATIONS, choices_from, mutate, seed_texts

LIMIT = 200_000   # wave-instructions: a corpus kernel needs at most a few thousand
EXAMPLES = 150
SEEDS = seed_texts()


@pytest.fixture(scope="module")
def runner():
    r = KernelRunner(timeout_s=60.0)
    yield r
    r.close()


def _assert_clean(runner: KernelRunner, text: str, what: list[str]) -> set:
    seen = set()
    for mode in MODES:
        outcome, detail = runner.run(text, mode, LIMIT)
        seen.add(outcome)
        assert outcome in CLEAN_OUTCOMES, (
            f"{mode} run ended with a {outcome} after mutations {what}:\n{detail}\n--- kernel ---\n{text}")
    return seen


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, len(SEEDS) - 1), count=st.integers(1, 3),
       draws=st.lists(st.integers(0, 1 << 16), min_size=12, max_size=12))
@example(seed=0, count=1, draws=[OPERATIONS.index("drop_endpgm")] + [0] * 11)
@example(seed=2, count=1, draws=[OPERATIONS.index("branch_to_end")] + [3] * 11)
def test_a_mutated_kernel_passes_fails_its_check_is_refused_or_faults(runner, seed, count, draws):
    path, text = SEEDS[seed]
    mutated, what = mutate(text, choices_from(draws), count)
    _assert_clean(runner, mutated, [path, *what])


@pytest.mark.parametrize("path, text", SEEDS, ids=[p.rsplit("/", 1)[-1] for p, _ in SEEDS])
def test_every_seed_kernel_passes_in_every_mode(runner, path, text):
    """The unmutated kernels pass: the fuzz test starts from working code (a harness that refuses
    everything would make the test above pass vacuously)."""
    for mode in MODES:
        outcome, detail = runner.run(text, mode, LIMIT)
        assert outcome == "passed", (path, mode, detail)


def test_the_runner_reports_a_crashing_simulator_as_a_signal(runner):
    """A worker killed by a signal is reported, and the next kernel gets a fresh worker."""
    outcome, _ = runner.run("import-time crash", "crash-by-signal", LIMIT)
    assert outcome == "signal"
    outcome, _ = runner.run(SEEDS[0][1], "functional", LIMIT)
    assert outcome == "passed"
