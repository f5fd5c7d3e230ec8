"""The VALU fast path: plain 32-bit vector ops computed straight on the register file.

Most instructions a compiler emits are 32-bit ops with VGPR, SGPR or
constant sources and no source or output modifiers. For those this kernel
makes one vectorised pass over the 64 lanes (gfx942's 64-bit address
arithmetic, v_lshl_add_u64 and v_lshlrev_b64, takes a pass per source
through the executor's 64-bit scratch rows instead): VGPR sources are read in
place, scalar sources are broadcast into scratch rows past the kernel's
registers, and the result is written in place when EXEC is full. (numba
vectorises index arithmetic on one array; array views chosen at run time
would defeat it.) The encoder marks eligible instructions (``M_FAST``) from
:data:`gpusim.asm.sems.FAST_SEMS`; everything else goes through
:func:`gpusim.exec.kernels.valu.exec_valu`. Mutates only ``vreg``.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.program import D0, D1, K_NONE, K_SREG, K_VREG, KIND, S0, S1, S2, VAL, VCC_LO, WIDTH
from gpusim.exec.kernels import valu_ops as op
from gpusim.exec.kernels.lanes import ALL_LANES, exec_mask, fetch_raw, lane_on, sget, sset, write_vgpr

U = np.uint64



# The last SCRATCH_ROWS rows of every wave's VGPR array are the fast path's:
# rows 0-2 hold broadcast scalar sources, row 3 a result under partial EXEC.
SCRATCH_ROWS = 4


@njit(_nrt=False)
def _source_row(sreg, vreg, w, ops, i, k, base):
    """_source_row returns the VGPR row holding source k, broadcasting a scalar source into scratch row k."""
    kind = ops[i, S0 + k, KIND]
    if kind == K_VREG:
        return ops[i, S0 + k, VAL]
    row = base + k
    if kind != K_NONE:
        x = np.uint32(sget(sreg, w, kind, ops[i, S0 + k, VAL], 1) & U(0xFFFFFFFF))
        for l in range(64):
            vreg[w, row, l] = x
    return row


@njit(_nrt=False)
def _carry_op(s, i, w, ops, sreg, vreg, a, b, d, mask):
    """_carry_op computes v_add/sub(rev)_co_u32 and v_addc/subb(rev)_co_u32: result row ``d``,
    carry/borrow lane mask to the SGPR pair in D1 (carry-in from the pair in S2)."""
    cin = sget(sreg, w, K_SREG, ops[i, S2, VAL], 2) if ops[i, S2, KIND] == K_SREG else U(0)
    use_cin = s == S.V_ADDC_CO_U32 or s == S.V_SUBB_CO_U32 or s == S.V_SUBBREV_CO_U32
    carry = U(0)
    for l in range(64):
        x = U(vreg[w, a, l])
        y = U(vreg[w, b, l])
        c = (cin >> U(l)) & U(1) if use_cin else U(0)
        if s == S.V_ADD_CO_U32 or s == S.V_ADDC_CO_U32:
            t = x + y + c
            out = t > U(0xFFFFFFFF)
        elif s == S.V_SUB_CO_U32 or s == S.V_SUBB_CO_U32:
            t = x - y - c
            out = y + c > x
        else:
            t = y - x - c
            out = x + c > y
        vreg[w, d, l] = np.uint32(t & U(0xFFFFFFFF))
        if out:
            carry |= U(1) << U(l)
    if ops[i, D1, KIND] == K_SREG:
        sset(sreg, w, ops[i, D1, VAL], 2, carry & mask)


@njit(_nrt=False, error_model="numpy")
def _shift_add_u64(s, i, w, ops, sreg, vreg, T, mask):
    """_shift_add_u64 computes v_lshl_add_u64 (S0 << S1) + S2 or v_lshlrev_b64 S1 << S0 into a VGPR pair.

    Sources go through the executor's scratch rows ``T`` (64-bit lanes): a pass per source, a pass to compute.
    """
    A, B, R = T[0], T[1], T[4]
    fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], ops[i, S0, WIDTH], A)
    fetch_raw(sreg, vreg, w, ops[i, S1, KIND], ops[i, S1, VAL], ops[i, S1, WIDTH], B)
    if s == S.V_LSHL_ADD_U64:
        C = T[2]
        fetch_raw(sreg, vreg, w, ops[i, S2, KIND], ops[i, S2, VAL], ops[i, S2, WIDTH], C)
        for l in range(64):
            R[l] = op.lshl_add_u64(A[l], B[l], C[l])
    else:
        for l in range(64):
            R[l] = op.lshlrev_b64(A[l], B[l])
    write_vgpr(vreg, w, ops[i, D0, VAL], 2, R, mask)
    return 0


@njit(_nrt=False, error_model="numpy", inline="always")
def exec_valu_fast(i, w, sem, ops, mods, sreg, vreg, T):
    """exec_valu_fast runs a plain VALU instruction (M_FAST) for wave ``w``; returns 0, or -1 if not handled.

    ``T`` is the executor's scratch (gpusim.exec.kernels.mfma.SCRATCH_ROWS_NEEDED rows of 64 uint64 lanes).
    """
    s = sem[i]
    if s == S.V_LSHL_ADD_U64 or s == S.V_LSHLREV_B64:
        return _shift_add_u64(s, i, w, ops, sreg, vreg, T, exec_mask(sreg, w))
    base = vreg.shape[1] - SCRATCH_ROWS
    a = _source_row(sreg, vreg, w, ops, i, 0, base)
    b = _source_row(sreg, vreg, w, ops, i, 1, base)
    mask = exec_mask(sreg, w)
    reg = ops[i, D0, VAL]
    d = reg if mask == ALL_LANES else base + 3
    if S.V_CARRY_FIRST <= s <= S.V_CARRY_LAST:
        _carry_op(s, i, w, ops, sreg, vreg, a, b, d, mask)
    elif s == S.V_CNDMASK_B32:
        sel = sget(sreg, w, K_SREG, ops[i, S2, VAL] if ops[i, S2, KIND] != K_NONE else VCC_LO, 2)
        for l in range(64):
            vreg[w, d, l] = vreg[w, b, l] if lane_on(sel, l) else vreg[w, a, l]
    else:
        c = _source_row(sreg, vreg, w, ops, i, 2, base)
        if s == S.V_MOV_B32 or s == S.V_ACCVGPR_WRITE_B32 or s == S.V_ACCVGPR_READ_B32 or s == S.V_ACCVGPR_MOV_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l]
        elif s == S.V_ADD_F32:
            for l in range(64):
                vreg[w, d, l] = op.add_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_SUB_F32:
            for l in range(64):
                vreg[w, d, l] = op.sub_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_SUBREV_F32:
            for l in range(64):
                vreg[w, d, l] = op.subrev_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MUL_F32:
            for l in range(64):
                vreg[w, d, l] = op.mul_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_FMA_F32:
            for l in range(64):
                vreg[w, d, l] = op.fma_f32_op(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_MAD_F32:
            for l in range(64):
                vreg[w, d, l] = op.mad_f32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_MIN_F32:
            for l in range(64):
                vreg[w, d, l] = op.min_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MAX_F32:
            for l in range(64):
                vreg[w, d, l] = op.max_f32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MIN3_F32:
            for l in range(64):
                vreg[w, d, l] = op.min3_f32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_MAX3_F32:
            for l in range(64):
                vreg[w, d, l] = op.max3_f32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_MED3_F32:
            for l in range(64):
                vreg[w, d, l] = op.med3_f32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_EXP_F32:
            for l in range(64):
                vreg[w, d, l] = op.exp_f32(vreg[w, a, l])
        elif s == S.V_LOG_F32:
            for l in range(64):
                vreg[w, d, l] = op.log_f32(vreg[w, a, l])
        elif s == S.V_RCP_F32 or s == S.V_RCP_IFLAG_F32:
            for l in range(64):
                vreg[w, d, l] = op.rcp_f32(vreg[w, a, l])
        elif s == S.V_SQRT_F32:
            for l in range(64):
                vreg[w, d, l] = op.sqrt_f32(vreg[w, a, l])
        elif s == S.V_RSQ_F32:
            for l in range(64):
                vreg[w, d, l] = op.rsq_f32(vreg[w, a, l])
        elif s == S.V_CVT_F32_I32:
            for l in range(64):
                vreg[w, d, l] = op.cvt_f32_i32(vreg[w, a, l])
        elif s == S.V_CVT_F32_U32:
            for l in range(64):
                vreg[w, d, l] = op.cvt_f32_u32(vreg[w, a, l])
        elif s == S.V_CVT_I32_F32:
            for l in range(64):
                vreg[w, d, l] = op.cvt_i32_f32(vreg[w, a, l])
        elif s == S.V_CVT_U32_F32:
            for l in range(64):
                vreg[w, d, l] = op.cvt_u32_f32(vreg[w, a, l])
        elif s == S.V_ADD_U32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] + vreg[w, b, l]
        elif s == S.V_SUB_U32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] - vreg[w, b, l]
        elif s == S.V_SUBREV_U32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, b, l] - vreg[w, a, l]
        elif s == S.V_MUL_LO_U32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] * vreg[w, b, l]
        elif s == S.V_MUL_HI_U32:
            for l in range(64):
                vreg[w, d, l] = op.mul_hi_u32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MUL_U32_U24:
            for l in range(64):
                vreg[w, d, l] = op.mul_u32_u24(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MAD_U32_U24:
            for l in range(64):
                vreg[w, d, l] = op.mad_u32_u24(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_LSHLREV_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, b, l] << (vreg[w, a, l] & np.uint32(31))
        elif s == S.V_LSHRREV_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, b, l] >> (vreg[w, a, l] & np.uint32(31))
        elif s == S.V_ASHRREV_I32:
            for l in range(64):
                vreg[w, d, l] = op.ashrrev_i32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_AND_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] & vreg[w, b, l]
        elif s == S.V_OR_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] | vreg[w, b, l]
        elif s == S.V_XOR_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] ^ vreg[w, b, l]
        elif s == S.V_NOT_B32:
            for l in range(64):
                vreg[w, d, l] = ~vreg[w, a, l]
        elif s == S.V_LSHL_ADD_U32:
            for l in range(64):
                vreg[w, d, l] = (vreg[w, a, l] << (vreg[w, b, l] & np.uint32(31))) + vreg[w, c, l]
        elif s == S.V_ADD_LSHL_U32:
            for l in range(64):
                vreg[w, d, l] = (vreg[w, a, l] + vreg[w, b, l]) << (vreg[w, c, l] & np.uint32(31))
        elif s == S.V_ADD3_U32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] + vreg[w, b, l] + vreg[w, c, l]
        elif s == S.V_LSHL_OR_B32:
            for l in range(64):
                vreg[w, d, l] = (vreg[w, a, l] << (vreg[w, b, l] & np.uint32(31))) | vreg[w, c, l]
        elif s == S.V_AND_OR_B32:
            for l in range(64):
                vreg[w, d, l] = (vreg[w, a, l] & vreg[w, b, l]) | vreg[w, c, l]
        elif s == S.V_OR3_B32:
            for l in range(64):
                vreg[w, d, l] = vreg[w, a, l] | vreg[w, b, l] | vreg[w, c, l]
        elif s == S.V_BFE_U32:
            for l in range(64):
                vreg[w, d, l] = op.bfe_u32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_BFE_I32:
            for l in range(64):
                vreg[w, d, l] = op.bfe_i32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_BFI_B32:
            for l in range(64):
                vreg[w, d, l] = (vreg[w, a, l] & vreg[w, b, l]) | (~vreg[w, a, l] & vreg[w, c, l])
        elif s == S.V_MIN_I32:
            for l in range(64):
                vreg[w, d, l] = op.min_i32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MAX_I32:
            for l in range(64):
                vreg[w, d, l] = op.max_i32(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MIN_U32:
            for l in range(64):
                vreg[w, d, l] = min(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_MAX_U32:
            for l in range(64):
                vreg[w, d, l] = max(vreg[w, a, l], vreg[w, b, l])
        elif s == S.V_PERM_B32:
            for l in range(64):
                vreg[w, d, l] = op.perm_b32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        elif s == S.V_ALIGNBIT_B32:
            for l in range(64):
                vreg[w, d, l] = op.alignbit_b32(vreg[w, a, l], vreg[w, b, l], vreg[w, c, l])
        else:
            return -1
    if d != reg:
        for l in range(64):
            if lane_on(mask, l):
                vreg[w, reg, l] = vreg[w, d, l]
    return 0
