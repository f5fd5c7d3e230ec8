"""Which loops of a program the sampled timing may fast-forward (gpusim.engine.sampling's loop method).

A wave fast-forwards a loop by executing the rest of it functionally, alone, with no time passing, then
goes on in detail from the loop's exit. That is faithful when what the wave computes in those iterations
does not depend on other waves running meanwhile, and when the skipped iterations do nothing whose
timing the rest of the dispatch can see beyond their average rate. A loop qualifies when it is outermost
(no backward branch encloses it) and its body has:

- no s_endpgm, and no computed jump anywhere in the program;
- no atomic (global or LDS): atomics' results and contention depend on every other wave's timing;
- no LDS instruction whose values steer control flow or addresses (another wave of the workgroup may
  have written what it reads in an iteration that wave runs later);
- no global or scalar load whose values steer control or addresses together with a store in the same
  body (the loop could read what it wrote);
- no s_memtime / s_memrealtime / s_getreg (what they read depends on time).
"""
from __future__ import annotations

import numpy as np

from gpusim.asm import sems as S
from gpusim.asm.program import M_TARGET, Program

_TIME_READS = frozenset((S.S_MEMTIME, S.ID.get("S_GETREG_B32", -1)))
_ATOMICS = frozenset((S.MEM_ATOMIC, S.DS_ATOMIC))
_STORES = frozenset((S.MEM_STORE, S.S_STORE, S.MEM_ATOMIC))
_LOADS = frozenset((S.MEM_LOAD, S.S_LOAD, S.S_BUFFER_LOAD))


def back_edges(program: Program) -> list[tuple[int, int]]:
    """back_edges lists (head, back edge) for every s_branch / s_cbranch_* at row b jumping to a row h <= b."""
    out = []
    for b in range(int(program.sem.shape[0])):
        if int(program.sem[b]) in (S.S_BRANCH, S.S_CBRANCH):
            h = int(program.mods[b, M_TARGET])
            if 0 <= h <= b:
                out.append((h, b))
    return out


def why_not_skippable(program: Program, needed: np.ndarray, head: int, edge: int) -> str:
    """why_not_skippable is '' when the loop of rows ``head``..``edge`` may be fast-forwarded, else the
    reason in words (``needed``: gpusim.asm.value_slice's rows whose values steer control or addresses)."""
    sems = [int(x) for x in program.sem[head:edge + 1]]
    rows = range(head, edge + 1)
    if any(s in (S.S_SETPC_B64, S.S_SWAPPC_B64) for s in (int(x) for x in program.sem)):
        return "the program has a computed jump"
    if S.S_ENDPGM in sems:
        return "the loop can end the wave"
    if any(s in _ATOMICS for s in sems):
        return "the loop has atomics, whose contention depends on every wave"
    if any(S.VMEM_END <= s < S.LDS_END and needed[i] for s, i in zip(sems, rows)):
        return "the loop's addresses or branches depend on LDS contents other waves write"
    if any(s in _LOADS and needed[i] for s, i in zip(sems, rows)) and any(s in _STORES for s in sems):
        return "the loop's addresses or branches depend on memory the loop writes"
    if any(s in _TIME_READS for s in sems):
        return "the loop reads the clock"
    return ""


def skippable_loops(program: Program, needed: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """skippable_loops returns (skip_head, refusals): skip_head[b] = h (int64[rows], else -1) for the back
    edge b of every outermost loop h..b that may be fast-forwarded, and why each other outermost loop may
    not ("rows h-b: reason")."""
    skip_head = np.full(program.rows, -1, dtype=np.int64)
    edges = back_edges(program)
    refusals = []
    for h, b in edges:
        if any(h2 <= h and b <= b2 and (h2, b2) != (h, b) for h2, b2 in edges):
            continue   # inside another loop: only outermost loops are fast-forwarded
        reason = why_not_skippable(program, needed, h, b)
        if reason:
            refusals.append(f"rows {h}-{b}: {reason}")
        else:
            skip_head[b] = h
    return skip_head, refusals
