"""Reads of registers nothing wrote: which registers a wave starts with, and how a run reports the reads.

A wave starts with the registers the AMDHSA launch sets (user and system SGPRs, the work-item ids in v0,
EXEC, the hardware registers) and every register an instruction of the wave writes from then on. The
granularity is the register, not the lane: a VGPR written under a partial EXEC counts as written for all
lanes, and a load's destination counts as written when the load issues. A read of any other register
returns 0, as gpusim's register files start zeroed; the interpreter and the timing loop count such
wave-instructions per instruction (gpusim.exec.kernels.interpreter.uninit_read), and the run reports
them as ``GPUSIM_UNINIT_READS`` with a warning naming the first.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from gpusim.asm.program import EXEC_HI, EXEC_LO, FLAT_SCRATCH_LO, M0, NULL, SCC, SREG_FILE, TTMP0, VCC_HI, VCC_LO

_SPECIAL = {FLAT_SCRATCH_LO: "flat_scratch_lo", FLAT_SCRATCH_LO + 1: "flat_scratch_hi", VCC_LO: "vcc_lo",
            VCC_HI: "vcc_hi", M0: "m0", NULL: "null", EXEC_LO: "exec_lo", EXEC_HI: "exec_hi", SCC: "scc"}
# scalar registers a kernel must write before reading (the rest above the SGPRs are set by hardware)
_UNSET_SPECIAL = (VCC_LO, VCC_HI, M0, SCC)
FIRST_SPECIAL = FLAT_SCRATCH_LO


def launch_set_registers(desc: dict, sgprs: int) -> list[int]:
    """launch_set_registers lists the registers (gpusim.asm.program.register_set numbering) a wave starts with.

    ``sgprs`` is how many leading SGPRs the launch fills (user SGPRs, then the system SGPRs: workgroup
    ids, workgroup info, private segment wave offset); v0 holds the work-item ids (packed, gfx90a and
    later); every hardware register above the SGPRs counts as set except VCC, M0 and SCC.
    """
    regs = list(range(sgprs))
    if desc.get("system_sgpr_private_segment_wavefront_offset"):
        regs.append(sgprs)
    regs += [r for r in range(FIRST_SPECIAL, SREG_FILE) if r not in _UNSET_SPECIAL]
    regs.append(SREG_FILE)
    return regs


def abi_written(registers: np.ndarray, launch_set: list[int]) -> np.ndarray:
    """abi_written is int64[entries]: 1 for each scoreboard entry (``registers[e]``) the launch sets."""
    out = np.zeros(max(len(registers), 1), np.int64)
    if len(registers):
        out[:len(registers)] = np.isin(registers, np.array(launch_set, np.int64))
    return out


def register_name(reg: int, accum_offset: int) -> str:
    """register_name spells register ``reg`` (register_set numbering) as the assembler does."""
    if reg >= SREG_FILE:
        v = reg - SREG_FILE
        return f"a{v - accum_offset}" if 0 < accum_offset <= v else f"v{v}"
    if reg in _SPECIAL:
        return _SPECIAL[reg]
    if TTMP0 <= reg < M0:
        return f"ttmp{reg - TTMP0}"
    return f"s{reg}"


def first_uninit_read(program, entry: int, uninit: np.ndarray, registers: np.ndarray,
                      accum_offset: int) -> Optional[str]:
    """first_uninit_read describes the lowest instruction with an uninitialised read, or None if none.

    ``uninit`` is the run's int64[instructions, 2] (count, lowest unwritten entry); ``entry`` is the kernel's
    first instruction, from which pc offsets count. E.g. ``pc 0x1c v_add_f32 v3, v2, v1 reads v2``.
    """
    hit = np.flatnonzero(uninit[:, 0])
    if not hit.size:
        return None
    i = int(hit[0])
    reg = register_name(int(registers[int(uninit[i, 1])]), accum_offset)
    return f"pc {program.pc_text(i, entry)} {program.describe(i)} reads {reg}"
