"""VGPR index mode: which instructions of a program run with M0-relative vector registers.

gfx9's ``s_set_gpr_idx_on S0, gpr_idx(SRC0,SRC1,SRC2,DST)`` puts S0[7:0] in M0[7:0] and the mode bits in
M0[15:12] and turns index mode on until ``s_set_gpr_idx_off``; a vector ALU instruction in between adds
M0[7:0] to each of its VGPR operands whose bit is set (AMD's Vega ISA guide, S_SET_GPR_IDX_ON; gfx90a
and gfx942 are gfx9 too).
``s_set_gpr_idx_idx`` and ``s_set_gpr_idx_mode`` change the index and the bits. LLVM turns the mode on
around single ``v_mov_b32``s, in straight-line code, to read (SRC0) or write (DST) an element of an array
kept in VGPRs at an index the same in every lane (a private array indexed at run time).

The hardware keeps the on/off state in the MODE register; gpusim decides it when it encodes the program,
from program order: the instructions after an ``s_set_gpr_idx_on`` and before the next ``s_set_gpr_idx_off``.
That is the hardware's answer wherever no branch enters or leaves the span, so a span that holds a label or
a branch is refused, and inside one ``v_mov_b32`` (without DPP or SDWA) is the one vector instruction
supported yet. Its semantic id becomes V_MOVREL_B32, which the executor runs with the M0-relative
registers (gpusim.exec.kernels.valu).
"""
from __future__ import annotations

import numpy as np

from gpusim.asm import sems as S
from gpusim.asm.ir import AsmModule
from gpusim.asm.program import M_DPP, M_FAST, M_SDWA, NO_DPP
from gpusim.errors import UnsupportedInstruction

_JUMPS = (S.S_BRANCH, S.S_CBRANCH, S.S_SETPC_B64, S.S_SWAPPC_B64)


def mark_index_mode(module: AsmModule, sem: np.ndarray, mods: np.ndarray) -> None:
    """mark_index_mode gives the v_mov_b32s inside an index-mode span the semantic id V_MOVREL_B32 (and takes
    them off the executor's fast path), in place. Raises UnsupportedInstruction at a label, a branch or any
    other vector instruction inside a span."""
    label_rows = {row: name for name, row in module.labels.items()}
    opened = None   # the s_set_gpr_idx_on of the span we are in
    for i, ins in enumerate(module.instructions):
        if opened is not None and i in label_rows:
            raise UnsupportedInstruction(
                f"label '{label_rows[i]}' inside VGPR index mode is not supported yet", ins.loc,
                f"gpusim takes the mode as on from the s_set_gpr_idx_on at line {opened.line} to the next "
                "s_set_gpr_idx_off in program order, so no branch may enter or leave that span")
        if ins.mnemonic == "s_set_gpr_idx_on":
            opened = ins.loc
            continue
        if ins.mnemonic == "s_set_gpr_idx_off":
            opened = None
            continue
        if opened is None:
            continue
        s = int(sem[i])
        if s in _JUMPS:
            raise UnsupportedInstruction(
                f"'{ins.mnemonic}' inside VGPR index mode is not supported yet", ins.loc,
                f"the mode is on from the s_set_gpr_idx_on at line {opened.line}; end it with s_set_gpr_idx_off "
                "before the branch")
        if S.is_vector(s):
            if s != S.V_MOV_B32 or mods[i, M_DPP] != NO_DPP or mods[i, M_SDWA]:
                raise UnsupportedInstruction(
                    f"'{ins.mnemonic}' in VGPR index mode is not supported yet", ins.loc,
                    "gpusim runs v_mov_b32 (no DPP or SDWA) with M0-relative registers, as LLVM emits it")
            sem[i] = S.V_MOVREL_B32
            mods[i, M_FAST] = 0


def uses_index_mode(sem: np.ndarray) -> bool:
    """uses_index_mode tells whether a program has a v_mov_b32 in VGPR index mode (its runs must keep every
    VGPR of the allocation, numbered as written)."""
    return bool(np.any(sem == S.V_MOVREL_B32))
