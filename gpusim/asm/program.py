"""The encoded, struct-of-arrays form of a kernel that the executor runs.

A :class:`Program` holds one row per instruction in plain numpy arrays so
numba code can read it:

* ``sem[i]``: the semantic id (see :mod:`gpusim.asm.sems`) the executor
  dispatches on;
* ``ops[i, slot, field]``: operand slots ``D0 D1`` (destinations) and
  ``S0..S3`` (sources), each with ``KIND`` (one of the ``K_*`` kinds),
  ``VAL`` (register index or immediate bit pattern) and ``WIDTH`` (32-bit
  registers covered);
* ``mods[i, column]``: modifiers and decoded fields, columns named below.

Scalar registers use the hardware operand encoding (s0..s101 = 0..101,
vcc_lo 106, m0 124, exec_lo 126, scc 253, ...), so one per-wave array of 256
words holds every scalar operand. Vector registers use the unified gfx90a
file: ``v[n]`` is index n and ``a[n]`` is ``accum_offset + n``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from gpusim.asm.static_data import StaticData
from gpusim.errors import SourceLoc

# operand slots
D0, D1, S0, S1, S2, S3 = range(6)
N_SLOTS = 6
# operand fields
KIND, VAL, WIDTH = range(3)
# operand kinds
K_NONE, K_SREG, K_VREG, K_IMM = range(4)

# scalar register file indices (hardware operand encoding)
SGPR_COUNT = 102
FLAT_SCRATCH_LO, FLAT_SCRATCH_HI = 102, 103
XNACK_MASK_LO, XNACK_MASK_HI = 104, 105
VCC_LO, VCC_HI = 106, 107
TTMP0 = 108
M0 = 124
NULL = 125
EXEC_LO, EXEC_HI = 126, 127
SRC_SHARED_BASE, SRC_SHARED_LIMIT = 235, 236
SRC_PRIVATE_BASE, SRC_PRIVATE_LIMIT = 237, 238
SRC_VCCZ, SRC_EXECZ = 251, 252
SCC = 253
SREG_FILE = 256

SOURCE_SLOTS = (S0, S1, S2, S3)
DESTINATION_SLOTS = (D0, D1)


def register_set(ops: np.ndarray, i: int, slots) -> int:
    """register_set is the set of registers operand ``slots`` of instruction ``i`` name, as a bit set.

    Scalar register r is bit r; vector register r (unified file) is bit SREG_FILE + r. Immediates and
    absent operands name none.
    """
    m = 0
    for slot in slots:
        k = int(ops[i, slot, KIND])
        if k == K_SREG or k == K_VREG:
            first = int(ops[i, slot, VAL]) + (SREG_FILE if k == K_VREG else 0)
            m |= ((1 << max(int(ops[i, slot, WIDTH]), 1)) - 1) << first
    return m


# modifier columns
(
    M_NEG,  # bit k: negate float source k (neg_lo for packed ops)
    M_ABS,  # bit k: absolute value of float source k
    M_NEG_HI,  # bit k: negate high half of packed source k
    M_OPSEL,  # op_sel bits (bit 3: destination high half)
    M_OPSEL_HI,  # op_sel_hi bits (packed ops)
    M_CLAMP,
    M_OMOD,  # 0 none, 1 *2, 2 *4, 3 /2
    M_SIGN,  # sign-bit position of the float source type (15, 31, 63) or 0
    M_DTYPE,  # destination float kind for clamp/omod: 0 none, 1 f32, 2 f16, 3 f64
    M_OFFSET,  # memory offset (bytes), or offset0 for ds_*2
    M_OFFSET1,  # offset1 for ds_*2
    M_CACHE,  # cache-policy bits: 1 glc/sc0, 2 slc/sc1, 4 nt, 8 dlc
    M_ADDR,  # memory addressing bits: 1 saddr used, 2 offen, 4 idxen, 8 lds
    M_CBSZ,
    M_ABID,
    M_BLGP,
    M_DPP,  # DPP control (-1: no DPP), see gpusim.exec.kernels.lanes
    M_ROW_MASK,
    M_BANK_MASK,
    M_BOUND_CTRL,
    M_SDWA,  # 1 when the instruction is SDWA
    M_DST_SEL,  # SDWA selects: 0..3 BYTE_0..3, 4 WORD_0, 5 WORD_1, 6 DWORD
    M_DST_UNUSED,  # 0 pad, 1 sext, 2 preserve
    M_SRC0_SEL,
    M_SRC1_SEL,
    M_SEXT,  # bit k: sign-extend SDWA source k
    M_TARGET,  # branch target, an instruction index
    M_VMCNT,
    M_EXPCNT,
    M_LGKMCNT,
    M_SIMM,  # 16-bit immediate of SOPP/SOPK-like instructions
    M_SUB,  # sub-operation within a semantic family
    M_FAST,  # 1: a plain 32-bit VALU op the executor's fast path runs (no modifiers)
    N_MODS,
) = range(34)

NO_DPP = -1
SEL_DWORD = 6
# ``mods[i, M_SUB]`` of the end-of-text sentinel (an s_endpgm row): executing it is a fault, not the end
PAST_END = 1


@dataclass
class Program:
    """Program is an encoded kernel, ready for the executor.

    Arrays have one row per instruction of the module's text section, then
    one more: the end-of-text sentinel at row ``len(program)``, an
    ``s_endpgm`` row whose ``mods[M_SUB]`` is PAST_END and whose ``pc_bytes``
    is the address just past the last instruction. A wave that runs off the
    end of the code (no s_endpgm, a branch to a label at the very end, a
    jump to the end address) reaches the sentinel, so every pc the executor
    can hold indexes the arrays, and executing it is a fault. ``len(program)``
    counts the real instructions only; ``rows`` is the array length, what
    per-pc tables (counts, timing tables, the value slice) must be sized to.
    A kernel starts at ``entry``. ``pc_bytes`` is each instruction's byte
    offset from the start of the text section, as the real encoding lays it
    out; ``locs`` and ``text`` point back at the source for error reports, and
    ``origins`` at the program's own source line where a compiler's ``.loc``
    gave one (a HIP or Triton line; None elsewhere).
    ``static_data`` is the module's static data (gpusim.asm.static_data) when an
    instruction reaches it through a relocation, else None: a compiler's
    unreferenced .bss marker leaves the device layout as it is without one.
    """

    sem: np.ndarray  # int32[n]
    ops: np.ndarray  # int64[n, N_SLOTS, 3]
    mods: np.ndarray  # int64[n, N_MODS]
    unit: np.ndarray  # int8[n], gpusim.asm.isa.UNITS index
    pc_bytes: np.ndarray  # int64[n]
    mnemonics: list[str] = field(default_factory=list)
    locs: list[SourceLoc] = field(default_factory=list)
    defs: list = field(default_factory=list)  # gpusim.asm.isa.InstrDef of each instruction
    static_data: Optional[StaticData] = None
    origins: list = field(default_factory=list)  # each row's program source line (Instruction.origin), or None

    def __len__(self) -> int:
        return int(self.sem.shape[0]) - 1

    @property
    def rows(self) -> int:
        """rows is the number of rows of the arrays: the instructions and the end-of-text sentinel."""
        return int(self.sem.shape[0])

    def pc_text(self, i: int, entry: int) -> str:
        """pc_text is row ``i``'s pc as reports print it: its byte offset from the kernel's first instruction
        (row ``entry``) in hex, ``0x1c``; code placed before the kernel (a function the compiler emitted
        first, such as Triton's assert handler) has a negative one, ``-0xe8c``."""
        offset = int(self.pc_bytes[i] - self.pc_bytes[entry])
        return f"0x{offset:x}" if offset >= 0 else f"-0x{-offset:x}"

    def source_loc(self, i: int) -> SourceLoc:
        """source_loc is where row ``i`` came from for a report: the program's own line where a compiler's
        ``.loc`` gave one (``origins``), else the assembly's."""
        return self.origins[i] or self.locs[i]

    def describe(self, i: int) -> str:
        """describe returns the source text of instruction ``i`` for messages."""
        loc = self.locs[i]
        return " ".join(loc.text.split()) if loc.text else self.mnemonics[i]
