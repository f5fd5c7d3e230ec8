"""Kernels the fuzz test (test_fuzz_kernels.py) found crashing the simulator, each pinned to its clean outcome.

Each case edits one line of a corpus kernel as the mutator did and runs it as the CLI would, functionally,
timed and timed without outputs (the value-sliced run). The edit is one llvm-mc-19 rejects, which is why
the cases are inline edits rather than fixtures under tests/exec/data.
"""
from __future__ import annotations

import pytest

from exec_support import REPO

from gpusim import api
from gpusim.errors import GpusimError

CORPUS = REPO / "tests" / "data" / "corpus" / "gfx942"
MODES = {"functional": {"check": True}, "timed": {"timing": True, "check": True},
         "timed-sliced": {"timing": True, "outputs": False}}


def outcome(name: str, old: str, new: str, mode: str) -> str:
    """outcome runs corpus kernel ``name`` with line text ``old`` replaced by ``new`` and says how it ended:
    'passed', 'check failed', or 'exit N: message' for a GpusimError (a refusal, a fault)."""
    text = (CORPUS / name).read_text()
    assert text.count(old) == 1, old
    try:
        kernel = api.kernel_from_text(text.replace(old, new), name)
        result = api.simulate(kernel, "cdna3", max_instructions=200_000, **MODES[mode])
    except GpusimError as err:
        return f"exit {err.exit_code}: {err.message}"
    return "passed" if result.checks_passed else "check failed"


@pytest.mark.parametrize("mode", MODES)
def test_a_saveexec_into_a_single_sgpr_runs_in_every_mode(mode):
    """s_and_saveexec_b64 into one SGPR: the value slice's EXEC tracking took the missing pair as register
    -1 and raised 'ValueError: negative shift count' in the value-sliced run. Writing s0 clobbers the kernarg
    pointer, so the next s_load faults (an operand-width check at load time may refuse the form instead)."""
    result = outcome("vadd_tail.s", "s_and_saveexec_b64 s[2:3], vcc", "s_and_saveexec_b64 s0, vcc", mode)
    assert result.startswith("exit 2: ") or (
        result.startswith("exit 3: kernel 'vadd_tail' faulted: memory access outside every buffer")
        and "pc 0x20 's_load_dwordx4 s[4:7], s[0:1], 0x0', workgroup (0, 0, 0), wave 0" in result), result
