"""The registers each instruction reads and writes, as the timing loop's dependency scoreboard needs them.

The timing loop keeps, per wave, the cycle each register's latest value is ready and holds an instruction
until every register it reads is ready. Rather than decode the operand slots of ``Program.ops`` at every
issue, it walks flat lists built here once per kernel from ``gpusim.asm.program.register_set`` (the operand
decoding the value slice uses too). Registers are renumbered densely over the ones the program touches
(scalar and vector in one space), so a wave's scoreboard row is a few host cache lines, cheap to clear at
launch and to keep in cache, whatever SGPR/VGPR numbers the kernel uses. Entries follow register order
(scalar registers first, each file ascending), so the lowest entry of a set is its lowest register.
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
    least 1); ``registers[e]`` is the register of entry ``e`` as gpusim.asm.program.register_set numbers it
    (scalar r is r, vector r is SREG_FILE + r)."""

    reads_at: np.ndarray
    reads: np.ndarray
    writes_at: np.ndarray
    writes: np.ndarray
    entries: int
    registers: np.ndarray


def register_lists(ops: np.ndarray) -> RegisterLists:
    """register_lists builds the RegisterLists of a program's operand table ``ops`` (Program.ops layout)."""
    def registers_of(i: int, slots: tuple) -> list[int]:
        out = []
        bits = register_set(ops, i, slots)
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    read_regs = [registers_of(i, SOURCE_SLOTS) for i in range(len(ops))]
    write_regs = [registers_of(i, DESTINATION_SLOTS) for i in range(len(ops))]
    touched = sorted({r for x in read_regs + write_regs for r in x})
    index = {r: e for e, r in enumerate(touched)}

    def flatten(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        at = np.zeros(len(lists) + 1, np.int64)
        at[1:] = np.cumsum([len(x) for x in lists])
        return at, np.array([r for x in lists for r in x], np.int64)

    reads_at, reads = flatten([[index[r] for r in x] for x in read_regs])
    writes_at, writes = flatten([[index[r] for r in x] for x in write_regs])
    return RegisterLists(reads_at, reads, writes_at, writes, max(len(index), 1), np.array(touched, np.int64))
