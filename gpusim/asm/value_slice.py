"""Which instructions' values a timing-only run needs: the address/control slice of a program.

Cycles depend on the values a kernel computes only through its control flow
(branch conditions, EXEC masks, the scalar registers that steer them) and its
memory addresses (coalescing, cache sets, channels, LDS banks, faults). A
timing run whose outputs nobody reads can skip every vector instruction whose
results feed none of those: in a GEMM, the MFMAs and the ds_read, ds_write and
global-load data that only feed them. Its cycles, counters and faults are
those of the full run; only the output buffers differ.

:func:`value_slice` marks each instruction of a :class:`Program` as needed
(``True``: compute its values) or not (``False``: a VALU or MFMA does
nothing; a memory instruction computes and checks its lane addresses but moves
no data). It is a backward liveness analysis over the control-flow graph,
restricted to the uses that matter:

* roots: every branch, message, scalar-memory and s_setreg instruction, and
  the address operands of every vector-memory and LDS access (not the data of
  a store; ds_bpermute / ds_permute / ds_swizzle touch no LDS memory and have
  no address in this sense);
* EXEC, M0 and the other special registers are live everywhere (many
  instructions read them without naming them), so an instruction that writes
  one (an EXEC mask, v_cmpx) is always needed; VCC and SCC are followed like
  any other register, with the reads and writes that do not name them added
  (s_cbranch_vccz/vccnz, v_div_fmas, a v_cndmask_b32 without a mask operand;
  s_cbranch_scc0/scc1, s_cselect, s_cmov, s_addc/s_subb read SCC, and the
  scalar ALU instructions that set it write it): a compare whose VCC only
  selects data (v_cmp, then v_cndmask) is not needed, nor are the loads that
  fed it, and neither is a scalar ALU instruction whose result only reaches
  data (a wave's minimum taken in SGPRs and stored);
* s_cmov, s_cmovk and s_bitset read the destination they write (they keep
  all of it or some of its bits), and so does a sparse MFMA (its accumulator);
* an instruction is needed when it writes a register that a needed use reads
  later on some path, and then its own sources are needed;
* a vector write ends a register's liveness only when it surely replaces the
  whole register (a plain 32-bit write: no SDWA, DPP, 16-bit destination,
  op_sel high half or d16 load) in every lane a later instruction can read:
  for every later reader while EXEC still holds the lanes it had at launch
  (tracked through the save/narrow/restore pattern of divergent branches,
  :func:`_entry_exec`); otherwise only for the readers that read their own
  lanes under the same EXEC, reached with no EXEC write in between (the
  body of an ``if``: ``s_and_saveexec``, then loads, math and a store);
  the earlier writers stay needed for every other reader (one after EXEC is
  restored, a DPP, lane-exchange, readlane or MFMA source);
* the low 32 bits of a 64-bit shift-left or multiply-add (v_lshlrev_b64,
  v_lshl_add_u64, v_mad_u64_u32, v_mad_i64_i32) depend only on the low
  halves of its 64-bit sources: where neither the high half of its
  destination nor its carry-out is live, the high halves of those sources
  are not needed (clang computes a 32-bit address as the low half of a
  v_mad_u64_u32 whose addend's high half is whatever that register holds,
  often a loaded value, which would otherwise pull every load and store of
  the kernel into the slice);
* memory carries values: once a needed instruction loads from global memory
  (a vector load or atomic whose result is needed, or a scalar load whose
  result is read by a needed instruction and whose base is not a
  launch-time pointer that nothing has overwritten: a scalar load is always
  a root, for its address, but its values may only feed data), every
  global store and atomic is needed; likewise for LDS. Flat accesses count
  for both.
"""
from __future__ import annotations

import numpy as np

from gpusim.asm import sems as S
from gpusim.asm.fields import ADDR_FLAT, ADDR_LDS, DS2_RETURNS, LD_DWORDS
from gpusim.asm.program import (
    D0, D1, DESTINATION_SLOTS, EXEC_LO, K_IMM, K_NONE, K_SREG, K_VREG, KIND, M_ADDR, M_DPP, M_OPSEL, M_SDWA,
    M_SUB, M_TARGET, NO_DPP, S0, S1, S2, S3, SCC, SGPR_COUNT, SOURCE_SLOTS, SREG_FILE, SRC_VCCZ, VAL, VCC_LO,
    WIDTH, Program, register_set,
)

_VMEM = range(S.SMEM_END, S.VMEM_END)
_LDS = range(S.VMEM_END, S.LDS_END)
_LANE_EXCHANGE = (S.DS_BPERMUTE, S.DS_PERMUTE, S.DS_SWIZZLE)
_VCC = 3 << VCC_LO
_SCC = 1 << SCC
_ALWAYS_LIVE = sum(1 << r for r in range(SGPR_COUNT, SREG_FILE)) & ~_VCC & ~_SCC  # M0, EXEC, ...: read implicitly
_CBRANCH_ON_VCC = (2, 3)  # s_cbranch_vccz, s_cbranch_vccnz (M_SUB)
_CBRANCH_ON_SCC = (0, 1)  # s_cbranch_scc0, s_cbranch_scc1
# the scalar ALU's SCC, as gpusim.exec.kernels.salu computes it: who sets it, who reads it
_SETS_SCC = frozenset((
    S.S_ADD_U32, S.S_SUB_U32, S.S_ADDC_U32, S.S_SUBB_U32, S.S_ADD_I32, S.S_ADDK_I32, S.S_SUB_I32,
    S.S_MIN_I32, S.S_MAX_I32, S.S_MIN_U32, S.S_MAX_U32, S.S_ABSDIFF_I32, S.S_ABS_I32,
    S.S_AND, S.S_OR, S.S_XOR, S.S_ANDN2, S.S_ORN2, S.S_NAND, S.S_NOR, S.S_XNOR, S.S_NOT,
    S.S_LSHL, S.S_LSHR, S.S_ASHR, S.S_LSHL1_ADD_U32, S.S_LSHL2_ADD_U32, S.S_LSHL3_ADD_U32, S.S_LSHL4_ADD_U32,
    S.S_BFE_U32, S.S_BFE_I32, S.S_BFE_U64, S.S_BFE_I64, S.S_BCNT0, S.S_BCNT1, S.S_WQM, S.S_QUADMASK,
    S.S_CMP_I32, S.S_CMP_U32, S.S_CMPK_I32, S.S_CMPK_U32, S.S_CMP_U64, S.S_BITCMP0, S.S_BITCMP1,
)) | frozenset(range(S.S_SAVEEXEC_FIRST, S.S_SAVEEXEC_LAST + 1))
_READS_SCC = frozenset((S.S_ADDC_U32, S.S_SUBB_U32, S.S_CSELECT, S.S_CMOV, S.S_CMOVK_I32))
_KEEPS_DESTINATION = frozenset((S.S_CMOV, S.S_CMOVK_I32, S.S_BITSET0, S.S_BITSET1, S.V_SMFMAC))
_SCALAR_ROOTS_IN_ALU = frozenset((S.S_SETREG_B32, S.S_SETREG_IMM32_B32))  # they write hardware state
_EXEC = 3 << EXEC_LO
_SCALAR_FILE = (1 << SREG_FILE) - 1
_READ_OTHER_LANES = (S.V_READLANE_B32, S.V_READFIRSTLANE_B32, S.V_WRITELANE_B32, S.V_MFMA,
                     S.V_SMFMAC) + _LANE_EXCHANGE
_GLOBAL, _SHARED = 1, 2  # memory spaces, as bits
_SCALAR_LOADS = frozenset((S.S_LOAD, S.S_BUFFER_LOAD))
# a program with one of these keeps every value: a computed jump may go anywhere, an M0-relative register
# access may read or write any register
_KEEP_EVERY_VALUE = frozenset((S.S_SETPC_B64, S.S_SWAPPC_B64, S.S_MOVRELS, S.S_MOVRELD, S.V_MOVREL_B32))


def _successors(program: Program, i: int) -> tuple:
    s = int(program.sem[i])
    if s == S.S_ENDPGM:
        return ()
    if s == S.S_BRANCH:
        return (int(program.mods[i, M_TARGET]),)
    if s == S.S_CBRANCH:
        return (int(program.mods[i, M_TARGET]), i + 1)
    return (i + 1,) if i + 1 < program.rows else ()


# EXEC lattice: exactly the launch lanes, some subset of them, or unknown (possibly more lanes)
ENTRY, SUBSET, UNKNOWN = 0, 1, 2
_MASK_OPS = {S.S_MOV: "mov", S.S_AND: "and", S.S_ANDN2: "andn2", S.S_OR: "or", S.S_XOR: "xor"}
_SAVEEXEC_OPS = {S.S_AND_SAVEEXEC: "and", S.S_OR_SAVEEXEC: "or", S.S_ANDN2_SAVEEXEC: "andn2",
                 S.S_XOR_SAVEEXEC: "xor"}


def _combine(op: str, a: int, b: int) -> int:
    """_combine is what a lane-mask operation makes of masks known to be ENTRY / SUBSET / UNKNOWN."""
    if op == "mov":
        return a
    if op in ("and", "andn2"):  # the result is within a
        if op == "and" and a == ENTRY and b == ENTRY:
            return ENTRY
        return SUBSET if a <= SUBSET or (op == "and" and b <= SUBSET) else UNKNOWN
    if a > SUBSET or b > SUBSET:
        return UNKNOWN
    return ENTRY if op == "or" and ENTRY in (a, b) else SUBSET


def _entry_exec(program: Program) -> np.ndarray:
    """_entry_exec returns bool[program.rows]: True where EXEC surely still holds the launch lanes exactly.

    Returns all False when EXEC may ever hold lanes outside the launch set
    (``s_mov_b64 exec, -1``, an unrecognised EXEC write), since then no
    vector write can be trusted to cover every lane read later. The program
    has no computed jump (``value_slice`` keeps everything for those).
    """
    n = program.rows
    ops, sem = program.ops, program.sem
    states: list = [None] * n   # per instruction: dict of lane-mask values known before it; key EXEC_LO = exec
    states[0] = {EXEC_LO: ENTRY} if n else None
    work = [0] if n else []

    def value(st: dict, i: int, slot: int) -> int:
        k = int(ops[i, slot, KIND])
        if k == K_IMM:
            return SUBSET if int(ops[i, slot, VAL]) == 0 else UNKNOWN
        if k == K_SREG and int(ops[i, slot, WIDTH]) == 2:
            return st.get(int(ops[i, slot, VAL]), UNKNOWN)
        return UNKNOWN

    while work:
        i = work.pop()
        st = dict(states[i])
        s = int(sem[i])
        written = register_set(ops, i, DESTINATION_SLOTS)
        dst = int(ops[i, D0, VAL]) if int(ops[i, D0, KIND]) == K_SREG and int(ops[i, D0, WIDTH]) == 2 else -1
        new = {}
        if s in _MASK_OPS and dst >= 0:
            new[dst] = _combine(_MASK_OPS[s], value(st, i, S0), value(st, i, S1) if s != S.S_MOV else ENTRY)
        elif s in _SAVEEXEC_OPS:
            if dst >= 0:   # (a destination that is not an SGPR pair saves nothing this analysis can follow)
                new[dst] = st.get(EXEC_LO, UNKNOWN)
            new[EXEC_LO] = _combine(_SAVEEXEC_OPS[s], value(st, i, S0), st.get(EXEC_LO, UNKNOWN))
        elif S.V_CMP_FIRST <= s <= S.V_CMP_LAST:  # a compare sets only lanes that are on
            inside = SUBSET if st.get(EXEC_LO, UNKNOWN) <= SUBSET else UNKNOWN
            if dst >= 0:
                new[dst] = inside
            if int(program.mods[i, M_SUB]) & 0x100:  # v_cmpx
                new[EXEC_LO] = inside
        elif _writes_exec(program, i):  # any other write of EXEC (s_nand_saveexec, s_mov_b64 exec, ...)
            new[EXEC_LO] = UNKNOWN
        for r in list(st):  # anything else written loses what was known of it
            if written >> r & 3 and r not in new:
                del st[r]
        st.update(new)
        if st.get(EXEC_LO, UNKNOWN) == UNKNOWN:
            return np.zeros(n, dtype=bool)
        for j in _successors(program, i):
            old = states[j]
            if old is None:
                merged = st
            else:  # keep what both paths know, at the weaker of the two values
                merged = {r: max(v, st[r]) for r, v in old.items() if r in st}
            if merged != old:
                states[j] = merged
                work.append(j)
    return np.array([st is not None and st.get(EXEC_LO) == ENTRY for st in states], dtype=bool)


def _writes_exec(program: Program, i: int) -> bool:
    """_writes_exec: instruction i writes EXEC, naming it (``s_mov_b64 exec, ...``) or not (the s_*_saveexec and
    s_*_wrexec family, v_cmpx)."""
    s = int(program.sem[i])
    return (bool(register_set(program.ops, i, DESTINATION_SLOTS) & _EXEC) or S.S_SAVEEXEC_FIRST <= s <= S.S_SAVEEXEC_LAST
            or (S.V_CMP_FIRST <= s <= S.V_CMP_LAST and bool(int(program.mods[i, M_SUB]) & 0x100)))


def _implicit_vcc_read(program: Program, i: int) -> bool:
    """_implicit_vcc_read: instruction i reads VCC without naming it in an operand slot (the executor's
    s_cbranch_vccz/vccnz, v_div_fmas, a v_cndmask_b32 whose mask operand is absent, a src_vccz operand)."""
    s = int(program.sem[i])
    if s == S.S_CBRANCH:
        return int(program.mods[i, M_SUB]) in _CBRANCH_ON_VCC
    if s in (S.V_DIV_FMAS_F32, S.V_DIV_FMAS_F64):
        return True
    if s == S.V_CNDMASK_B32 and int(program.ops[i, S2, KIND]) == K_NONE:
        return True
    return bool(register_set(program.ops, i, SOURCE_SLOTS) >> SRC_VCCZ & 1)


def _reads_own_lanes(program: Program, i: int) -> bool:
    """_reads_own_lanes: vector instruction i reads its vector sources only in the lanes EXEC has on (no DPP,
    lane exchange, readlane or MFMA, which ignores EXEC)."""
    s = int(program.sem[i])
    return S.is_vector(s) and s not in _READ_OTHER_LANES and program.mods[i, M_DPP] == NO_DPP


def _implicit_scc_read(program: Program, i: int) -> bool:
    """_implicit_scc_read: instruction i reads SCC without naming it (s_cbranch_scc0/scc1, s_cselect, s_cmov,
    s_cmovk, s_addc, s_subb)."""
    s = int(program.sem[i])
    if s == S.S_CBRANCH:
        return int(program.mods[i, M_SUB]) in _CBRANCH_ON_SCC
    return s in _READS_SCC


def _replaces_whole_registers(program: Program, i: int) -> bool:
    """_replaces_whole_registers: instruction i writes every bit of its vector destinations in every active lane."""
    s = int(program.sem[i])
    mods = program.mods
    if S.FLOW_END <= s < S.VALU_END:
        d = program.defs[i]
        return (mods[i, M_SDWA] == 0 and mods[i, M_DPP] == NO_DPP and not (mods[i, M_OPSEL] >> 3) & 1
                and d.dst not in ("f16", "i16", "u16", "b16") and s not in (S.V_WRITELANE_B32,
                                                                            S.V_FMA_MIXLO_F16, S.V_FMA_MIXHI_F16))
    if s == S.V_MFMA or s == S.DS_READ2:
        return True
    if s in (S.MEM_LOAD, S.DS_READ):
        return (int(mods[i, M_SUB]) & 0xFF) == LD_DWORDS
    return False


def _memory(s: int, flags: int, sub: int) -> tuple[int, int]:
    """_memory returns (spaces loaded, spaces stored) of a vector memory or LDS instruction (``flags`` its
    M_ADDR, ``sub`` its M_SUB), as bits."""
    spaces = _GLOBAL | _SHARED if flags & ADDR_FLAT else _GLOBAL
    if s == S.MEM_LOAD:  # an LDS DMA load (global_load_lds_dword, buffer_load_dword ... lds) stores to the LDS
        return spaces, _SHARED if flags & ADDR_LDS else 0
    if s == S.MEM_STORE:
        return 0, spaces
    if s == S.MEM_ATOMIC:
        return spaces, spaces
    if s == S.DS_WRITE2 and sub & DS2_RETURNS:   # ds_wrxchg2_rtn_*: an exchange
        return _SHARED, _SHARED
    return {S.DS_READ: (_SHARED, 0), S.DS_READ2: (_SHARED, 0), S.DS_WRITE: (0, _SHARED),
            S.DS_WRITE2: (0, _SHARED), S.DS_ATOMIC: (_SHARED, _SHARED)}.get(s, (0, 0))


def _address_slots(s: int) -> tuple:
    """_address_slots names the operand slots that hold a memory instruction's address (none for the rest)."""
    if s in _VMEM:
        return (S0, S1, S2)   # vaddr, saddr or buffer resource, soffset; a store's data is S3
    if s in _LDS and s not in _LANE_EXCHANGE:
        return (S0,)          # the LDS address; data are S1, S2
    return ()


# 64-bit integer ops whose low 32 result bits depend only on the low halves of their 64-bit sources, and
# which of their source slots are 64-bit (a left shift moves bits up, a product's and a sum's low bits come
# from the operands' low bits)
_LOW_HALF_SOURCES = {S.V_LSHLREV_B64: (S1,), S.V_LSHL_ADD_U64: (S0, S2), S.V_MAD_U64_U32: (S2,),
                     S.V_MAD_I64_I32: (S2,)}


def _high_halves(program: Program, i: int) -> tuple[int, int]:
    """_high_halves returns (the high half of instruction ``i``'s 64-bit vector destination with its carry-out,
    the high halves of its 64-bit sources) as register bits, for the ops of _LOW_HALF_SOURCES; (0, 0) for
    every other instruction. When the first is dead after ``i``, the second is not read for anything live."""
    slots = _LOW_HALF_SOURCES.get(int(program.sem[i]))
    ops = program.ops
    if slots is None or int(ops[i, D0, KIND]) != K_VREG or int(ops[i, D0, WIDTH]) != 2:
        return 0, 0
    out = 1 << (SREG_FILE + int(ops[i, D0, VAL]) + 1) | register_set(ops, i, (D1,))
    high = low = 0   # the 64-bit sources' high halves; every other register the sources name
    for slot in SOURCE_SLOTS:
        named = register_set(ops, i, (slot,))
        k = int(ops[i, slot, KIND])
        if slot in slots and (k == K_VREG or k == K_SREG) and int(ops[i, slot, WIDTH]) == 2:
            top = 1 << (int(ops[i, slot, VAL]) + (SREG_FILE if k == K_VREG else 0) + 1)
            high |= top
            named &= ~top
        low |= named
    return out, high & ~low   # (a register also read as a low half or a 32-bit source stays read)


def _launch_pointer_loads(program: Program) -> set:
    """_launch_pointer_loads are the scalar loads whose base still holds its launch-time value.

    Those read the kernarg segment or another runtime structure that the
    kernel does not write: no instruction before them in program order writes
    the base, and no backward branch jumps over them.
    """
    ops, sem, mods = program.ops, program.sem, program.mods
    n = program.rows
    in_loop = [False] * n
    for j in range(n):
        if sem[j] in (S.S_BRANCH, S.S_CBRANCH) and int(mods[j, M_TARGET]) <= j:
            for i in range(int(mods[j, M_TARGET]), j + 1):
                in_loop[i] = True
    written = 0
    out = set()
    for i in range(n):
        if sem[i] in _SCALAR_LOADS and not in_loop[i] and not (register_set(ops, i, (S0,)) & written):
            out.add(i)
        written |= register_set(ops, i, DESTINATION_SLOTS)
    return out


def _spaces(program: Program, i: int, pointer_loads: set) -> tuple[int, int]:
    """_spaces returns (spaces loaded, spaces stored) of instruction ``i`` as bits; a scalar load counts as a
    global load unless it is a launch-pointer load (it reads the kernarg segment then)."""
    s = int(program.sem[i])
    if s in _VMEM or s in _LDS:
        return _memory(s, int(program.mods[i, M_ADDR]), int(program.mods[i, M_SUB]))
    if s in _SCALAR_LOADS and i not in pointer_loads:
        return _GLOBAL, 0
    return 0, 0


def _needed_spaces(program: Program, needed: np.ndarray) -> tuple[int, int]:
    """_needed_spaces returns (spaces loaded, spaces stored) by the needed instructions, as bits (_spaces)."""
    pointer_loads = _launch_pointer_loads(program)
    loaded = stored = 0
    for i in np.flatnonzero(needed):
        load, store = _spaces(program, int(i), pointer_loads)
        loaded, stored = loaded | load, stored | store
    return loaded, stored


def reads_buffers(program: Program, needed: np.ndarray) -> bool:
    """reads_buffers tells whether a needed instruction (``needed`` from value_slice) loads global memory.

    When it does not, a timing-only run needs no buffer contents at all: every address, branch and EXEC
    mask comes from the launch state and the kernarg segment.
    """
    return bool(_needed_spaces(program, needed)[0] & _GLOBAL)


def writes_memory(program: Program, needed: np.ndarray) -> bool:
    """writes_memory tells whether a needed instruction (``needed`` from value_slice) stores to memory outside the
    LDS: a global, flat or scratch store or atomic, or a scalar store (scalar memory instructions are roots).

    When none does, the workgroups of a sliced run read memory that none of them writes: each runs the same
    whatever ran before it or beside it, and the run leaves memory as it found it.
    """
    return bool(np.any(program.sem == S.S_STORE)) or bool(_needed_spaces(program, needed)[1] & _GLOBAL)


def value_slice(program: Program) -> np.ndarray:
    """value_slice returns bool[program.rows]: True where instruction i's values are needed for control and addresses.

    Row ``len(program)``, the end-of-text sentinel, is a root like every branch.

    False marks a vector or scalar ALU instruction whose results feed no
    address, branch or EXEC mask (through registers or memory, on any path):
    a timing-only run may skip its arithmetic and data movement; memory
    instructions still compute and check their addresses.
    """
    n = program.rows
    ops, sem = program.ops, program.sem
    if any(int(x) in _KEEP_EVERY_VALUE for x in sem):
        return np.ones(n, dtype=bool)
    reads = [register_set(ops, i, SOURCE_SLOTS) | (_VCC if _implicit_vcc_read(program, i) else 0)
             | (_SCC if _implicit_scc_read(program, i) else 0) for i in range(n)]
    named_writes = [register_set(ops, i, DESTINATION_SLOTS) for i in range(n)]
    writes = [w | (_SCC if int(sem[i]) in _SETS_SCC else 0) for i, w in enumerate(named_writes)]
    entry = _entry_exec(program)
    kills = [0] * n       # registers whose liveness for every later reader the instruction ends
    kills_same = [0] * n  # ... for the readers under the same EXEC that read their own lanes
    own_lanes = [0] * n   # registers read lane by lane under the instruction's EXEC
    exec_writes = [_writes_exec(program, i) for i in range(n)]
    high_out = [0] * n    # the high destination half and carry-out of a 64-bit op of _LOW_HALF_SOURCES
    high_in = [0] * n     # ... and the high source halves it reads only for them
    address = [0] * n
    loads = [0] * n
    stores = [0] * n
    root = [False] * n
    pointer_loads = _launch_pointer_loads(program)
    for i in range(n):
        s = int(sem[i])
        vector = S.is_vector(s)
        root[i] = (not vector and s >= S.SALU_END) or s in _SCALAR_ROOTS_IN_ALU or exec_writes[i]  # SALU: by liveness
        whole = vector and _replaces_whole_registers(program, i)
        if s in _KEEPS_DESTINATION:
            reads[i] |= named_writes[i]
            kills[i] = writes[i] & ~named_writes[i]
        elif not vector or (entry[i] and whole):
            kills[i] = writes[i]
        else:
            kills[i] = writes[i] & _SCALAR_FILE  # scalar results are whole 32/64-bit values
        kills_same[i] = writes[i] if whole else kills[i]
        if _reads_own_lanes(program, i):
            own_lanes[i] = reads[i] & ~_SCALAR_FILE
        high_out[i], high_in[i] = _high_halves(program, i)
        address[i] = register_set(ops, i, _address_slots(s))
        loads[i], stores[i] = _spaces(program, i, pointer_loads)
    preds: list = [[] for _ in range(n)]
    for i in range(n):
        for j in _successors(program, i):
            preds[j].append(i)

    # liveness in two parts: live_same[i], read lane by lane under the EXEC instruction i starts with (no EXEC
    # write on the way); live_any[i], read by some other reader
    needed = np.array(root, dtype=bool)
    live_same = [0] * n
    live_any = [0] * n
    live_out = [0] * n   # what some needed instruction may read after instruction i
    memory = 0  # spaces that some needed instruction loads from
    while True:
        work = list(range(n))
        queued = [True] * n
        while work:
            i = work.pop()
            queued[i] = False
            same, other = 0, _ALWAYS_LIVE
            for j in _successors(program, i):
                same |= live_same[j]
                other |= live_any[j]
            live_out[i] = same | other
            if exec_writes[i]:  # the readers after i run under another EXEC than the writers before it
                same, other = 0, other | same
            if not needed[i] and (writes[i] & (same | other) or stores[i] & memory):
                needed[i] = True
            if needed[i]:
                unread = high_in[i] if high_out[i] and not high_out[i] & live_out[i] else 0
                own, read = own_lanes[i] & ~unread, reads[i] & ~unread
                new_same = (same & ~kills_same[i]) | own | (address[i] & ~_SCALAR_FILE)
                new_any = (other & ~kills[i]) | (read & ~own) | (address[i] & _SCALAR_FILE)
            else:
                new_same = same | (address[i] & ~_SCALAR_FILE)
                new_any = other | (address[i] & _SCALAR_FILE)
            if new_same != live_same[i] or new_any != live_any[i]:
                live_same[i], live_any[i] = new_same, new_any
                for p in preds[i]:
                    if not queued[p]:
                        queued[p] = True
                        work.append(p)
        wanted = 0
        for i in range(n):   # a scalar load is a root for its address; its values count only where they are read
            if needed[i] and (int(sem[i]) not in _SCALAR_LOADS or writes[i] & live_out[i]):
                wanted |= loads[i]
        if wanted == memory:
            return needed
        memory = wanted


def compact_vgprs(program: Program, needed: np.ndarray) -> tuple[np.ndarray, int]:
    """compact_vgprs renumbers the vector registers a sliced run touches into a dense file.

    A run that skips the instructions ``needed`` marks False (``value_slice``) reads and writes only the
    operands of needed instructions and the address operands of skipped memory instructions; v0 (the
    work-item ids the launch writes) stays v0. Returns (a copy of ``program.ops`` whose vector operands
    are renumbered into that file, the file's size): a GEMM's accumulators and staging registers take no
    host memory then. Operands that are never touched keep their number, which the run never uses.
    """
    ops = program.ops
    used = {0}
    for i in range(program.rows):
        slots = (S0, S1, S2, S3, D0, D1) if needed[i] else _address_slots(int(program.sem[i]))
        for slot in slots:
            if int(ops[i, slot, KIND]) == K_VREG:
                first = int(ops[i, slot, VAL])
                used.update(range(first, first + max(int(ops[i, slot, WIDTH]), 1)))
    index = {r: k for k, r in enumerate(sorted(used))}
    renumbered = ops.copy()
    for i in range(program.rows):
        slots = (S0, S1, S2, S3, D0, D1) if needed[i] else _address_slots(int(program.sem[i]))
        for slot in slots:
            if int(ops[i, slot, KIND]) == K_VREG:
                renumbered[i, slot, VAL] = index[int(ops[i, slot, VAL])]
    return renumbered, len(index)
