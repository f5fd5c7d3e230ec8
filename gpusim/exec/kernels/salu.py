"""The scalar ALU: executes one SALU instruction (SOP1/SOP2/SOPC/SOPK) for one wave.

``exec_salu`` reads and writes only the wave's row of ``sreg`` (SGPRs, VCC,
EXEC, M0 and SCC live there in the hardware operand encoding).
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.program import (
    D0, EXEC_HI, EXEC_LO, KIND, K_NONE, K_SREG, M0, M_SIMM, M_SUB, S0, S1, SCC, SGPR_COUNT, VAL, WIDTH,
)
from gpusim.exec.kernels.bits import leading_zeros, popcount, trailing_zeros
from gpusim.exec.kernels.lanes import sget, sset

U = np.uint64
M32 = U(0xFFFFFFFF)


@njit(_nrt=False)
def _i32(x):
    v = np.int64(x & M32)
    return v - 0x100000000 if v >= 0x80000000 else v


@njit(_nrt=False)
def _scmp(a, b, cond, signed):
    if signed:
        x, y = _i32(a), _i32(b)
    else:
        x, y = np.int64(a & M32), np.int64(b & M32)
    if cond == 2:
        return x == y
    if cond == 5:
        return x != y
    if cond == 4:
        return x > y
    if cond == 6:
        return x >= y
    if cond == 1:
        return x < y
    return x <= y


@njit(_nrt=False)
def relative_sgpr(s, ops, i, sreg, w):
    """relative_sgpr is the SGPR that s_movrels (``s`` S_MOVRELS: its source) or s_movreld (its destination)
    reaches: the operand's register plus M0."""
    return np.int64(ops[i, S0, VAL] if s == S.S_MOVRELS else ops[i, D0, VAL]) + np.int64(sreg[w, M0])


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, error_model="numpy", cache=True)
def exec_salu(i, w, sem, ops, mods, sreg):
    """exec_salu runs scalar instruction ``i`` for wave slot ``w``; returns 0, -1 if unknown, or -2 for an
    s_movrels/s_movreld whose M0-relative register lies past the SGPRs."""
    s = sem[i]
    wd = ops[i, D0, WIDTH]
    a = sget(sreg, w, ops[i, S0, KIND], ops[i, S0, VAL], ops[i, S0, WIDTH]) if ops[i, S0, KIND] != K_NONE else U(0)
    b = sget(sreg, w, ops[i, S1, KIND], ops[i, S1, VAL], ops[i, S1, WIDTH]) if ops[i, S1, KIND] != K_NONE else U(0)
    scc = U(sreg[w, SCC])
    wide = wd == 2 or ops[i, S0, WIDTH] == 2
    mask = U(0xFFFFFFFFFFFFFFFF) if wide else M32
    r = U(0)
    new_scc = scc
    write = True
    if s == S.S_MOV:
        r = a
    elif s == S.S_CMOV:
        r = a
        write = scc != 0
    elif s == S.S_MOVK_I32:
        r = U(np.int64(np.int16(a & U(0xFFFF))))
    elif s == S.S_CMOVK_I32:
        r = U(np.int64(np.int16(a & U(0xFFFF))))
        write = scc != 0
    elif s == S.S_ADD_U32:
        t = (a & M32) + (b & M32)
        r, new_scc = t, U(t > M32)
    elif s == S.S_SUB_U32:
        r, new_scc = (a - b), U((b & M32) > (a & M32))
    elif s == S.S_ADDC_U32:
        t = (a & M32) + (b & M32) + scc
        r, new_scc = t, U(t > M32)
    elif s == S.S_SUBB_U32:
        r, new_scc = a - b - scc, U((b & M32) + scc > (a & M32))
    elif s == S.S_ADD_I32 or s == S.S_ADDK_I32:
        bb = _i32(b) if s == S.S_ADD_I32 else np.int64(np.int16(b & U(0xFFFF)))
        t = _i32(a) + bb
        r = U(t)
        new_scc = U(t > 0x7FFFFFFF or t < -0x80000000)
    elif s == S.S_SUB_I32:
        t = _i32(a) - _i32(b)
        r = U(t)
        new_scc = U(t > 0x7FFFFFFF or t < -0x80000000)
    elif s == S.S_MUL_I32 or s == S.S_MULK_I32:
        bb = _i32(b) if s == S.S_MUL_I32 else np.int64(np.int16(b & U(0xFFFF)))
        r = U(_i32(a) * bb)
        write = True
    elif s == S.S_MUL_HI_U32:
        r = ((a & M32) * (b & M32)) >> U(32)
    elif s == S.S_MUL_HI_I32:
        r = U((_i32(a) * _i32(b)) >> 32)
    elif s == S.S_MIN_I32:
        lt = _i32(a) < _i32(b)
        r, new_scc = (a if lt else b), U(lt)
    elif s == S.S_MAX_I32:
        gt = _i32(a) > _i32(b)
        r, new_scc = (a if gt else b), U(gt)
    elif s == S.S_MIN_U32:
        lt = (a & M32) < (b & M32)
        r, new_scc = (a if lt else b), U(lt)
    elif s == S.S_MAX_U32:
        gt = (a & M32) > (b & M32)
        r, new_scc = (a if gt else b), U(gt)
    elif s == S.S_ABSDIFF_I32:
        t = abs(_i32(a) - _i32(b))
        r = U(t)
        new_scc = U((r & M32) != 0)
    elif s == S.S_ABS_I32:
        r = U(abs(_i32(a)))
        new_scc = U((r & M32) != 0)
    elif s == S.S_CSELECT:
        r = a if scc else b
    elif s == S.S_AND:
        r = a & b
        new_scc = U((r & mask) != 0)
    elif s == S.S_OR:
        r = a | b
        new_scc = U((r & mask) != 0)
    elif s == S.S_XOR:
        r = a ^ b
        new_scc = U((r & mask) != 0)
    elif s == S.S_ANDN2:
        r = a & ~b
        new_scc = U((r & mask) != 0)
    elif s == S.S_ORN2:
        r = a | ~b
        new_scc = U((r & mask) != 0)
    elif s == S.S_NAND:
        r = ~(a & b)
        new_scc = U((r & mask) != 0)
    elif s == S.S_NOR:
        r = ~(a | b)
        new_scc = U((r & mask) != 0)
    elif s == S.S_XNOR:
        r = ~(a ^ b)
        new_scc = U((r & mask) != 0)
    elif s == S.S_NOT:
        r = ~a
        new_scc = U((r & mask) != 0)
    elif s == S.S_LSHL:
        r = (a << (b & U(63 if wide else 31))) & mask
        new_scc = U(r != 0)
    elif s == S.S_LSHR:
        r = (a & mask) >> (b & U(63 if wide else 31))
        new_scc = U(r != 0)
    elif s == S.S_ASHR:
        if wide:
            r = U(np.int64(a) >> np.int64(b & U(63)))
        else:
            r = U(_i32(a) >> np.int64(b & U(31)))
        new_scc = U((r & mask) != 0)
    elif s == S.S_LSHL1_ADD_U32 or s == S.S_LSHL2_ADD_U32 or s == S.S_LSHL3_ADD_U32 or s == S.S_LSHL4_ADD_U32:
        sh = U(1 + s - S.S_LSHL1_ADD_U32)
        t = ((a & M32) << sh) + (b & M32)
        r, new_scc = t, U(t > M32)
    elif s == S.S_BFM:
        r = (((U(1) << (a & U(63 if wide else 31))) - U(1)) << (b & U(63 if wide else 31))) & mask
    elif s == S.S_BFE_U32 or s == S.S_BFE_I32 or s == S.S_BFE_U64 or s == S.S_BFE_I64:
        off = b & U(63 if wide else 31)
        width = (b >> U(16)) & U(0x7F)
        bits = U(64 if wide else 32)
        if width == 0:
            r = U(0)
        else:
            if width > bits - off:
                width = bits - off
            r = ((a & mask) >> off) & ((U(1) << width) - U(1)) if width < U(64) else (a >> off)
            if (s == S.S_BFE_I32 or s == S.S_BFE_I64) and (r >> (width - U(1))) & U(1):
                r |= ~((U(1) << width) - U(1)) if width < U(64) else U(0)
        new_scc = U((r & mask) != 0)
    elif s == S.S_BREV:
        x = a & mask
        rr = U(0)
        for _ in range(64 if wide else 32):
            rr = (rr << U(1)) | (x & U(1))
            x >>= U(1)
        r = rr
    elif s == S.S_BCNT1:
        r = popcount(a & mask)
        new_scc = U(r != 0)
        wd = 1
    elif s == S.S_BCNT0:
        r = popcount(~a & mask)
        new_scc = U(r != 0)
        wd = 1
    elif s == S.S_FF1:
        r = trailing_zeros(a & mask)
        wd = 1
    elif s == S.S_FF0:
        r = trailing_zeros(~a & mask)
        wd = 1
    elif s == S.S_FLBIT:
        r = leading_zeros(a & mask, 64 if ops[i, S0, WIDTH] == 2 else 32)
        wd = 1
    elif s == S.S_FLBIT_I32:   # s_flbit_i32 and s_flbit_i32_i64: the first bit unlike the sign bit
        bits = 64 if ops[i, S0, WIDTH] == 2 else 32
        x = a & mask
        if (x >> U(bits - 1)) & U(1):
            x = ~x & mask
        r = leading_zeros(x, bits) if x != 0 else M32
        wd = 1
    elif s == S.S_WQM or s == S.S_QUADMASK:   # per quad of lanes: all four bits (wqm) or one bit (quadmask)
        x = a & mask
        r = U(0)
        for q in range(16 if wide else 8):
            if (x >> U(4 * q)) & U(0xF):
                r |= (U(0xF) << U(4 * q)) if s == S.S_WQM else (U(1) << U(q))
        new_scc = U(r != 0)
    elif s == S.S_BITREPLICATE_B64_B32:   # each bit of the 32-bit source twice
        r = U(0)
        for k in range(32):
            if (a >> U(k)) & U(1):
                r |= U(3) << U(2 * k)
    elif s == S.S_SET_GPR_IDX:   # VGPR index mode's index (M0[7:0]) and operand bits (M0[15:12])
        m0 = U(sreg[w, M0])
        bits = U(mods[i, M_SIMM] & 0xF) << U(12)
        sub = mods[i, M_SUB]
        if sub == 0:     # s_set_gpr_idx_on
            m0 = (m0 & ~U(0xF0FF)) | (a & U(0xFF)) | bits
        elif sub == 1:   # s_set_gpr_idx_idx
            m0 = (m0 & ~U(0xFF)) | (a & U(0xFF))
        else:            # s_set_gpr_idx_mode
            m0 = (m0 & ~U(0xF000)) | bits
        sreg[w, M0] = np.uint32(m0 & M32)
        write = False
    elif s == S.S_MOVRELS or s == S.S_MOVRELD:   # SGPR[base + M0]: the source's (movrels) or the destination's
        width = ops[i, S0, WIDTH] if s == S.S_MOVRELS else wd
        at = relative_sgpr(s, ops, i, sreg, w)
        if at + width > SGPR_COUNT:
            return -2   # past the SGPRs: the caller reports a relative-index fault
        if s == S.S_MOVRELS:
            r = sget(sreg, w, K_SREG, at, width)
        else:
            sset(sreg, w, at, wd, a)
            write = False
    elif s == S.S_SEXT_I32_I8:
        r = U(np.int64(np.int8(a & U(0xFF))))
    elif s == S.S_SEXT_I32_I16:
        r = U(np.int64(np.int16(a & U(0xFFFF))))
    elif s == S.S_BITSET0 or s == S.S_BITSET1:
        old = sget(sreg, w, ops[i, D0, KIND], ops[i, D0, VAL], wd)
        bit = U(1) << (a & U(63 if wide else 31))
        r = (old | bit) if s == S.S_BITSET1 else (old & ~bit)
    elif s == S.S_PACK_LL_B32_B16:
        r = (a & U(0xFFFF)) | ((b & U(0xFFFF)) << U(16))
    elif s == S.S_PACK_LH_B32_B16:
        r = (a & U(0xFFFF)) | (b & U(0xFFFF0000))
    elif s == S.S_PACK_HH_B32_B16:
        r = ((a >> U(16)) & U(0xFFFF)) | (b & U(0xFFFF0000))
    elif S.S_SAVEEXEC_FIRST <= s <= S.S_SAVEEXEC_LAST:
        ex = U(sreg[w, EXEC_LO]) | (U(sreg[w, EXEC_HI]) << U(32))
        if s == S.S_AND_SAVEEXEC:
            nx = a & ex
        elif s == S.S_OR_SAVEEXEC:
            nx = a | ex
        elif s == S.S_XOR_SAVEEXEC:
            nx = a ^ ex
        elif s == S.S_ANDN2_SAVEEXEC:
            nx = a & ~ex
        elif s == S.S_ORN2_SAVEEXEC:
            nx = a | ~ex
        elif s == S.S_NAND_SAVEEXEC:
            nx = ~(a & ex)
        elif s == S.S_NOR_SAVEEXEC:
            nx = ~(a | ex)
        elif s == S.S_XNOR_SAVEEXEC:
            nx = ~(a ^ ex)
        elif s == S.S_ANDN1_SAVEEXEC:
            nx = ~a & ex
        elif s == S.S_ORN1_SAVEEXEC:
            nx = ~a | ex
        elif s == S.S_ANDN1_WREXEC:
            nx = ~a & ex
        else:  # S_ANDN2_WREXEC
            nx = a & ~ex
        if s == S.S_ANDN1_WREXEC or s == S.S_ANDN2_WREXEC:
            r = nx
        else:
            r = ex
        sreg[w, EXEC_LO] = np.uint32(nx & M32)
        sreg[w, EXEC_HI] = np.uint32(nx >> U(32))
        new_scc = U(nx != 0)
    elif s == S.S_CMP_I32 or s == S.S_CMP_U32 or s == S.S_CMPK_I32 or s == S.S_CMPK_U32:
        cond = mods[i, M_SUB]
        if s == S.S_CMPK_I32:
            b = U(np.int64(np.int16(b & U(0xFFFF))))
        new_scc = U(_scmp(a, b, cond, s == S.S_CMP_I32 or s == S.S_CMPK_I32))
        write = False
    elif s == S.S_CMP_U64:
        cond = mods[i, M_SUB]
        new_scc = U(a == b) if cond == 2 else U(a != b)
        write = False
    elif s == S.S_BITCMP0 or s == S.S_BITCMP1:
        bit = (a >> (b & U(63 if ops[i, S0, WIDTH] == 2 else 31))) & U(1)
        new_scc = U(bit == (1 if s == S.S_BITCMP1 else 0))
        write = False
    elif s == S.S_GETREG_B32:
        r = U(0)
    elif s == S.S_SETREG_B32 or s == S.S_SETREG_IMM32_B32:
        write = False
    else:
        return -1
    if write and ops[i, D0, KIND] != K_NONE:
        sset(sreg, w, ops[i, D0, VAL], wd, r)
    sreg[w, SCC] = np.uint32(new_scc & U(1))
    return 0
