"""What a kernel's control flow says about loops that cannot end.

:func:`endless_instructions` marks the instructions from which no path of the program reaches ``s_endpgm``
or a conditional or computed branch: a wave that gets there loops forever whatever its registers hold
(real hardware hangs). The interpreter and the timing loop check it after every taken branch, so such a
wave is stopped at once instead of at the instruction limit. :func:`loop_around` names the loop an
instruction sits in, for fault messages. :func:`may_wait_on_others` tells whether a loop's exit can
depend on what other workgroups do, which decides whether one workgroup run alone (the timing model's
runaway probe) speaks for the whole dispatch.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from gpusim.asm import sems as S
from gpusim.asm.program import M_CACHE, M_TARGET, Program

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
    for t, j in _loops_holding(program, i):
        if best is None or j - t < best[1] - best[0]:
            best = (t, j)
    return best


def has_loops(program: Program) -> bool:
    """has_loops is True when the program has a backward branch (s_branch or s_cbranch_* to itself or an
    earlier instruction): without one, no instruction is in a loop, ``may_wait_on_others`` is True for
    every row, and a runaway probe can find nothing."""
    return any(0 <= _branch_target(program, j) <= j for j in range(program.sem.shape[0]))


def _branch_target(program: Program, j: int) -> int:
    """_branch_target is the target row of instruction ``j`` if it is s_branch or s_cbranch_*, else -1."""
    if int(program.sem[j]) in (S.S_BRANCH, S.S_CBRANCH):
        return int(program.mods[j, M_TARGET])
    return -1


def _loops_holding(program: Program, i: int):
    """_loops_holding yields (first, last) of every backward branch at ``last`` (s_branch or s_cbranch_*)
    whose target ``first`` is at or before instruction ``i``, so that ``i`` lies in its range."""
    for j in range(min(max(i, 0), program.sem.shape[0]), program.sem.shape[0]):
        t = _branch_target(program, j)
        if 0 <= t <= i:
            yield t, j


# what another workgroup's stores reach a spinning wave through: atomics, loads that bypass or refresh the
# non-coherent L1 (glc/sc0, slc/sc1), explicit invalidates, and s_sleep, the back-off of a spin-wait
_SYNC_SEMS = (S.MEM_ATOMIC, S.MEM_CACHE, S.S_DCACHE)
_COHERENT_LOAD_SEMS = (S.MEM_LOAD, S.S_LOAD, S.S_BUFFER_LOAD)
_SPIN_MNEMONICS = ("s_sleep",)


def may_wait_on_others(program: Program, i: int) -> bool:
    """may_wait_on_others is True when a loop holding instruction ``i`` may wait for another workgroup.

    It looks at every loop (backward branch range) holding ``i`` and answers True if one holds an
    atomic, a load with glc/sc0 or slc/sc1 set, a cache write-back or invalidate, or an s_sleep: the ways
    a kernel correct on the hardware waits for a flag another workgroup writes (a plain load may be served
    from the CU's non-coherent L1 forever). Without any of them the loop's trip count is the workgroup's
    own business: running it alone decides whether it ends. An ``i`` in no loop gives True (nothing known).
    """
    loops = list(_loops_holding(program, i))
    if not loops:
        return True
    first, last = min(t for t, _ in loops), max(j for _, j in loops)
    for j in range(first, last + 1):
        s = int(program.sem[j])
        if s in _SYNC_SEMS or program.mnemonics[j] in _SPIN_MNEMONICS:
            return True
        if s in _COHERENT_LOAD_SEMS and int(program.mods[j, M_CACHE]) & 3:
            return True
    return False
