"""Counters of one dispatch that need no timing model: instructions per issue unit from per-instruction
execution counts.

gpusim.api.simulate and gpusim.system.kernel_launch both build their counters with these.
"""
from __future__ import annotations

import numpy as np

from gpusim.asm import flops, isa, sems
from gpusim.asm.program import Program

# counters that count instructions per issue unit (AMD profiler names)
_UNIT_COUNTERS = {
    "valu": ("SQ_INSTS_VALU",), "trans": ("SQ_INSTS_VALU", "SQ_INSTS_VALU_TRANS"),
    "mfma": ("SQ_INSTS_VALU", "SQ_INSTS_MFMA"), "salu": ("SQ_INSTS_SALU",), "smem": ("SQ_INSTS_SMEM",),
    "lds": ("SQ_INSTS_LDS",), "branch": ("SQ_INSTS_BRANCH",), "msg": ("GPUSIM_INSTS_OTHER",),
}


def instruction_counters(program: Program, counts: np.ndarray) -> dict:
    """instruction_counters sums per-instruction execution counts into SQ_INSTS_* counters.

    Names are AMD's where a profiler counter exists (SQ_INSTS_VALU includes
    MFMA, as on CDNA). ``GPUSIM_INSTS_OTHER`` counts what no SQ_INSTS_*
    counter does (s_waitcnt, s_nop, s_barrier, s_endpgm, s_setprio, the cache
    write-backs and invalidates buffer_wbl2 / buffer_inv, ...) and
    ``GPUSIM_INSTS_TOTAL`` every wave-instruction, so that
    TOTAL = VALU + SALU + SMEM + VMEM_RD + VMEM_WR + LDS + BRANCH + OTHER.
    The FLOP counters (SQ_INSTS_VALU_FMA_F32, SQ_INSTS_VALU_MFMA_MOPS_F16,
    ...) follow gpusim.asm.flops.
    """
    out = {"SQ_INSTS_VALU": 0, "SQ_INSTS_MFMA": 0, "SQ_INSTS_VALU_TRANS": 0, "SQ_INSTS_SALU": 0,
           "SQ_INSTS_SMEM": 0, "SQ_INSTS_VMEM_RD": 0, "SQ_INSTS_VMEM_WR": 0, "SQ_INSTS_LDS": 0,
           "SQ_INSTS_BRANCH": 0, "GPUSIM_INSTS_OTHER": 0, "GPUSIM_INSTS_TOTAL": 0}
    out.update(dict.fromkeys(flops.COUNTERS, 0))
    for i in np.flatnonzero(counts):
        for name, per_instruction in flops.flop_counts(program.defs[i]):
            out[name] += per_instruction * int(counts[i])
    for u, name in enumerate(isa.UNITS):
        sel = program.unit == u
        n = int(counts[sel].sum())
        out["GPUSIM_INSTS_TOTAL"] += n
        if name == "vmem":
            reads = int(counts[sel & (program.sem == sems.MEM_LOAD)].sum())
            maintenance = int(counts[sel & (program.sem == sems.MEM_CACHE)].sum())  # buffer_wbl2, buffer_inv
            out["SQ_INSTS_VMEM_RD"] += reads
            out["SQ_INSTS_VMEM_WR"] += n - reads - maintenance
            out["GPUSIM_INSTS_OTHER"] += maintenance
            continue
        for c in _UNIT_COUNTERS[name]:
            out[c] += n
    return out
