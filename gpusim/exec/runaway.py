"""What a kernel's control flow says about loops that cannot end.

:func:`endless_instructions` marks the instructions from which no path of the program reaches ``s_endpgm``
or a conditional or computed branch: a wave that gets there loops forever whatever its registers hold
(real hardware hangs). The interpreter and the timing loop check it after every taken branch, so such a
wave is stopped at once instead of at the instruction limit. :func:`loop_around` names the loop an
instruction sits in, for fault messages.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from gpusim.asm import sems as S
from gpusim.asm.program import M_TARGET, Program

# a wave may leave a region through these: the end, a branch on a register, a jump to a register
_EXITS = (S.S_ENDPGM, S.S_CBRANCH, S.S_SETPC_B64, S.S_SWAPPC_B64)


def endless_instructions(program: Program) -> np.ndarray:
    """endless_instructions is uint8[rows]: 1 where a wave can never reach an exit, whatever its state.

    Exits are s_endpgm, s_cbranch_*, s_setpc_b64, s_swappc_b64 and falling past the last row; every
    other instruction goes on to the next, s_branch to its target. A wave among the marked
    instructions can only loop among them.
    """
    sem, mods = program.sem, program.mods
    n = sem.shape[0]
    preds: list[list[int]] = [[] for _ in range(n)]
    can_exit = np.zeros(n, bool)
    for i in range(n):
        s = int(sem[i])
        if s in _EXITS or (s != S.S_BRANCH and i == n - 1):
            can_exit[i] = True
        elif s == S.S_BRANCH:
            t = int(mods[i, M_TARGET])
            if 0 <= t < n:
                preds[t].append(i)
            else:
                can_exit[i] = True   # a target outside the program faults: not a loop
        else:
            preds[i + 1].append(i)
    todo = [i for i in range(n) if can_exit[i]]
    while todo:
        j = todo.pop()
        for i in preds[j]:
            if not can_exit[i]:
                can_exit[i] = True
                todo.append(i)
    return (~can_exit).astype(np.uint8)


def loop_around(program: Program, i: int) -> Optional[tuple[int, int]]:
    """loop_around is (first, last) instruction of the innermost backward branch's range holding ``i``.

    A backward branch at ``last`` jumping to ``first <= i <= last``; None when ``i`` is in no loop.
    """
    best = None
    for j in range(i, program.sem.shape[0]):
        if int(program.sem[j]) in (S.S_BRANCH, S.S_CBRANCH):
            t = int(program.mods[j, M_TARGET])
            if t <= i and (best is None or j - t < best[1] - best[0]):
                best = (t, j)
    return best
