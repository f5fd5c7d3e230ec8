"""The registers each instruction reads and writes, as the timing loop's dependency scoreboard needs them.

The timing loop keeps, per wave, the cycle each register's latest value is ready and holds an instruction
until every register it reads is ready. Rather than decode the operand slots of ``Program.ops`` at every
issue, it walks flat lists built here once per kernel from ``gpusim.asm.program.register_set`` (the operand
decoding the value slice uses too). Registers are renumbered densely over the ones the program touches
(scalar and vector in one space), so a wave's scoreboard row is a few host cache lines, cheap to clear at
launch and to keep in cache, whatever SGPR/VGPR numbers the kernel uses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.asm.program import DESTINATION_SLOTS, SOURCE_SLOTS, register_set


@dataclass(frozen=True)
class RegisterLists:
    """RegisterLists holds, for instruction ``i``, the scoreboard entries it reads,
    ``reads[reads_at[i]:reads_at[i + 1]]``, and writes, ``writes[writes_at[i]:writes_at[i + 1]]`` (int64
    arrays); ``entries`` is how many distinct registers the program touches (the scoreboard row length, at
    least 1)."""

    reads_at: np.ndarray
    reads: np.ndarray
    writes_at: np.ndarray
    writes: np.ndarray
    entries: int


def register_lists(ops: np.ndarray) -> RegisterLists:
    """register_lists builds the RegisterLists of a program's operand table ``ops`` (Program.ops layout)."""
    index: dict[int, int] = {}

    def entries_of(i: int, slots: tuple) -> list[int]:
        out = []
        bits = register_set(ops, i, slots)
        while bits:
            low = bits & -bits
            out.append(index.setdefault(low.bit_length() - 1, len(index)))
            bits ^= low
        return out

    def flatten(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        at = np.zeros(len(lists) + 1, np.int64)
        at[1:] = np.cumsum([len(x) for x in lists])
        return at, np.array([r for x in lists for r in x], np.int64)

    reads_at, reads = flatten([entries_of(i, SOURCE_SLOTS) for i in range(len(ops))])
    writes_at, writes = flatten([entries_of(i, DESTINATION_SLOTS) for i in range(len(ops))])
    return RegisterLists(reads_at, reads, writes_at, writes, max(len(index), 1))
