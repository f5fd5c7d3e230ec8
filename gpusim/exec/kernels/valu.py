"""The vector ALU: executes one VALU instruction for one wave.

``exec_valu`` fetches the sources (with neg/abs, SDWA and DPP applied),
computes all 64 lanes and writes the destinations under EXEC. It mutates only
the wave's registers in ``sreg``/``vreg`` and the scratch rows of ``T``.
"""
import math

import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.program import (
    D0, D1, EXEC_HI, EXEC_LO, K_NONE, K_SREG, K_VREG, KIND, M0, M_CLAMP,
    M_DPP, M_DTYPE, M_NEG, M_NEG_HI, M_OMOD, M_OPSEL, M_OPSEL_HI, M_SDWA,
    M_SUB, NO_DPP, S0, S1, S2, VAL, VCC_LO, WIDTH,
)
from gpusim.exec.kernels import valu_ops as op
from gpusim.exec.kernels.bits import bits32, bits64, f16, f32, f64, half_bits, popcount
from gpusim.exec.kernels.lanes import (
    exec_mask, fetch, lane_on, sget, sset, write_sdwa, write_vgpr,
)
from gpusim.exec.kernels.valu_fast import SCRATCH_ROWS

U = np.uint64
M16 = U(0xFFFF)
M32 = U(0xFFFFFFFF)

# destination float kinds (M_DTYPE)
DT_NONE, DT_F32, DT_F16, DT_F64, DT_I16, DT_F32X2 = 0, 1, 2, 3, 4, 5   # DT_F32X2: two f32 in a pair


@njit(_nrt=False, error_model="numpy")
def _repack(X, k, opsel, opsel_hi, neg_lo, neg_hi, half_bits_, sign):
    """_repack applies VOP3P op_sel/op_sel_hi/neg_lo/neg_hi to packed source k."""
    sl = U(half_bits_) if (opsel >> k) & 1 else U(0)
    sh = U(half_bits_) if (opsel_hi >> k) & 1 else U(0)
    m = (U(1) << U(half_bits_)) - U(1)
    nl = ((neg_lo >> k) & 1) != 0 and sign
    nh = ((neg_hi >> k) & 1) != 0 and sign
    sb = U(1) << U(half_bits_ - 1)
    for l in range(64):
        lo = (X[l] >> sl) & m
        hi = (X[l] >> sh) & m
        if nl:
            lo ^= sb
        if nh:
            hi ^= sb
        X[l] = lo | (hi << U(half_bits_))


@njit(_nrt=False, error_model="numpy")
def _cmp_f(x, y, cond):
    unord = x != x or y != y
    if cond == 0:
        return False
    if cond == 1:
        return x < y
    if cond == 2:
        return x == y
    if cond == 3:
        return x <= y
    if cond == 4:
        return x > y
    if cond == 5:
        return x < y or x > y
    if cond == 6:
        return x >= y
    if cond == 7:
        return not unord
    if cond == 8:
        return unord
    if cond == 9:
        return not (x >= y)
    if cond == 10:
        return not (x < y or x > y)
    if cond == 11:
        return not (x > y)
    if cond == 12:
        return not (x <= y)
    if cond == 13:
        return not (x == y)
    if cond == 14:
        return not (x < y)
    return True


@njit(_nrt=False, error_model="numpy")
def _cmp_i(x, y, cond):
    if cond == 0:
        return False
    if cond == 1:
        return x < y
    if cond == 2:
        return x == y
    if cond == 3:
        return x <= y
    if cond == 4:
        return x > y
    if cond == 5:
        return x != y
    if cond == 6:
        return x >= y
    return True


@njit(_nrt=False, error_model="numpy")
def _fclass(bits, exp_bits, man_bits, mask):
    """_fclass tests v_cmp_class's ten class bits against a float given by its bits.

    Classes (mask bit): 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
    4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
    """
    man = bits & ((U(1) << U(man_bits)) - U(1))
    exp = (bits >> U(man_bits)) & ((U(1) << U(exp_bits)) - U(1))
    neg = (bits >> U(man_bits + exp_bits)) & U(1) != 0
    if exp == (U(1) << U(exp_bits)) - U(1):
        if man == 0:
            cls = 2 if neg else 9
        else:
            cls = 1 if (man >> U(man_bits - 1)) & U(1) else 0
    elif exp == 0:
        cls = (5 if neg else 6) if man == 0 else (4 if neg else 7)
    else:
        cls = 3 if neg else 8
    return (mask >> U(cls)) & U(1) != 0


@njit(_nrt=False, error_model="numpy")
def _lanes_to_mask(R, mask):
    m = U(0)
    for l in range(64):
        if R[l] != 0:
            m |= U(1) << U(l)
    return m & mask


@njit(_nrt=False, error_model="numpy")
def _compare(s, A, B, R, cond):
    if s == S.V_CMP_F32:
        for l in range(64):
            R[l] = _cmp_f(f32(A[l]), f32(B[l]), cond)
    elif s == S.V_CMP_F64:
        for l in range(64):
            R[l] = _cmp_f(f64(A[l]), f64(B[l]), cond)
    elif s == S.V_CMP_F16:
        for l in range(64):
            R[l] = _cmp_f(f16(A[l]), f16(B[l]), cond)
    elif s == S.V_CMP_I32:
        for l in range(64):
            R[l] = _cmp_i(op.i32(A[l]), op.i32(B[l]), cond)
    elif s == S.V_CMP_U32:
        for l in range(64):
            R[l] = _cmp_i(A[l] & M32, B[l] & M32, cond)
    elif s == S.V_CMP_I64:
        for l in range(64):
            R[l] = _cmp_i(np.int64(A[l]), np.int64(B[l]), cond)
    elif s == S.V_CMP_U64:
        for l in range(64):
            R[l] = _cmp_i(A[l], B[l], cond)
    elif s == S.V_CMP_I16:
        for l in range(64):
            R[l] = _cmp_i(op._i16(A[l]), op._i16(B[l]), cond)
    elif s == S.V_CMP_U16:
        for l in range(64):
            R[l] = _cmp_i(A[l] & M16, B[l] & M16, cond)
    elif s == S.V_CMP_CLASS_F32:
        for l in range(64):
            R[l] = _fclass(A[l] & M32, 8, 23, B[l])
    elif s == S.V_CMP_CLASS_F64:
        for l in range(64):
            R[l] = _fclass(A[l], 11, 52, B[l])
    elif s == S.V_CMP_CLASS_F16:
        for l in range(64):
            R[l] = _fclass(A[l] & M16, 5, 10, B[l])


@njit(_nrt=False, error_model="numpy", inline="always")
def _modified(x, scale, clamp):
    """_modified is the value ``x`` times the omod ``scale``, then clamped to [0, 1] (a NaN to 0) with ``clamp``."""
    x = x * scale
    if clamp:
        x = 0.0 if x != x else min(max(x, 0.0), 1.0)
    return x


@njit(_nrt=False, error_model="numpy")
def _finish_float(R, dtype, clamp, omod):
    """_finish_float applies output modifiers (omod, then clamp to [0, 1])."""
    if omod == 0 and clamp == 0:
        return
    scale = 2.0 if omod == 1 else 4.0 if omod == 2 else 0.5 if omod == 3 else 1.0
    for l in range(64):
        if dtype == DT_F32:
            R[l] = bits32(np.float32(_modified(np.float64(f32(R[l])), scale, clamp)))
        elif dtype == DT_F32X2:
            lo = bits32(np.float32(_modified(np.float64(f32(U(R[l]) & M32)), scale, clamp)))
            hi = bits32(np.float32(_modified(np.float64(f32(U(R[l]) >> U(32))), scale, clamp)))
            R[l] = U(lo) | (U(hi) << U(32))
        elif dtype == DT_F64:
            R[l] = bits64(_modified(f64(R[l]), scale, clamp))
        elif dtype == DT_F16:
            R[l] = half_bits(np.float32(_modified(np.float64(f16(R[l])), scale, clamp)))


@njit(_nrt=False, error_model="numpy")
def _clamp_packed(R, s, wide):
    """_clamp_packed clamps a packed float result to [0, 1] (clamp on a VOP3P instruction): each f16 half, each f32
    of a pair, or the one f32 of v_dot2_f32_f16/bf16."""
    if s == S.V_DOT2_F32_F16 or s == S.V_DOT2_F32_BF16:
        _finish_float(R, DT_F32, 1, 0)
    elif wide:
        _finish_float(R, DT_F32X2, 1, 0)
    else:
        for l in range(64):
            lo = half_bits(np.float32(_modified(np.float64(f16(U(R[l]) & M16)), 1.0, 1)))
            hi = half_bits(np.float32(_modified(np.float64(f16(U(R[l]) >> U(16))), 1.0, 1)))
            R[l] = (U(lo) & M16) | ((U(hi) & M16) << U(16))


@njit(_nrt=False, error_model="numpy")
def _saturating(s):
    """_saturating tells whether ``s`` is an integer add or subtract whose clamp saturates (as LLVM's uaddsat,
    saddsat, usubsat and ssubsat select them)."""
    return (s == S.V_ADD_U32 or s == S.V_SUB_U32 or s == S.V_SUBREV_U32 or s == S.V_ADD_I32 or s == S.V_SUB_I32
            or s == S.V_ADD_U16 or s == S.V_SUB_U16 or s == S.V_SUBREV_U16 or s == S.V_ADD_I16 or s == S.V_SUB_I16)


@njit(_nrt=False, error_model="numpy")
def _add_saturated(s, A, B, R):
    """_add_saturated computes the _saturating operation ``s`` with clamp: the exact sum or difference, clamped
    to the destination's range (u32, i32, u16 or i16)."""
    bits = 16 if s == S.V_ADD_U16 or s == S.V_SUB_U16 or s == S.V_SUBREV_U16 or s == S.V_ADD_I16 or s == S.V_SUB_I16 else 32
    signed = s == S.V_ADD_I32 or s == S.V_SUB_I32 or s == S.V_ADD_I16 or s == S.V_SUB_I16
    reverse = s == S.V_SUBREV_U32 or s == S.V_SUBREV_U16
    sign = 1 if s == S.V_ADD_U32 or s == S.V_ADD_I32 or s == S.V_ADD_U16 or s == S.V_ADD_I16 else -1
    for l in range(64):
        R[l] = op.add_sat(B[l], A[l], sign, bits, signed) if reverse else op.add_sat(A[l], B[l], sign, bits, signed)


@njit(_nrt=False, error_model="numpy")
def _preserves_high_half(s):
    # gfx9 keeps the high half for the 16-bit ops it added with op_sel (v_fma_f16, v_mad_u16, v_mad_i16,
    # v_div_fixup_f16; the 16-bit min3/max3/med3 assumed alike); their legacy forms (v_mad_legacy_*,
    # v_fma_legacy_f16, v_div_fixup_legacy_f16, which clang selects) and the older 16-bit ops zero it
    # (LLVM's GCNSubtarget::zeroesHigh16BitsOfDest). The fp8 packs write one word of a register whose other
    # word holds the pair before (op_sel[3] picks the word)
    return (s == S.V_FMA_F16 or s == S.V_MAD_U16 or s == S.V_DIV_FIXUP_F16 or s == S.V_CVT_PK_FP8_F32
            or s == S.V_MAD_I16 or S.V_MIN3_F16 <= s <= S.V_MED3_U16
            or s == S.V_CVT_PK_BF8_F32)


@njit(_nrt=False, error_model="numpy")
def index_mode_registers(ops, i, sreg, w):
    """index_mode_registers returns (source, destination) VGPR of a v_mov_b32 in VGPR index mode: each
    operand's register plus M0[7:0] where its bit of M0[15:12] is set (SRC0 1, DST 8); -1 for a source that
    is no VGPR (an SGPR or a constant, which the mode leaves alone)."""
    m0 = U(sreg[w, M0])
    index = np.int64(m0 & U(0xFF))
    bits = (m0 >> U(12)) & U(0xF)
    src = ops[i, S0, VAL] + (index if bits & U(1) else 0) if ops[i, S0, KIND] == K_VREG else -1
    dst = ops[i, D0, VAL] + (index if bits & U(8) else 0)
    return src, dst


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, error_model="numpy", cache=True)
def exec_valu(i, w, sem, ops, mods, sreg, vreg, T, valid):
    """exec_valu runs VALU instruction ``i`` for wave slot ``w``; returns 0, -1 for an operation it does not
    know, or -3 for a v_mov_b32 in VGPR index mode whose register lies past the wave's VGPRs."""
    s = sem[i]
    mask = exec_mask(sreg, w)
    A = T[0]
    B = T[1]
    C = T[2]
    R = T[4]
    R2 = T[5]
    for k in range(3):
        if ops[i, S0 + k, KIND] != K_NONE:
            fetch(sreg, vreg, w, ops, mods, i, S0 + k, k, T[k], valid)
    if mods[i, M_DPP] != NO_DPP:
        for l in range(64):
            if valid[l] == 0:
                mask &= ~(U(1) << U(l))
    opsel = mods[i, M_OPSEL]
    dtype = mods[i, M_DTYPE]

    # ---- packed math (VOP3P): op_sel picks the halves of each source
    if S.V_PK_FIRST <= s <= S.V_PK_LAST:
        wide = s == S.V_PK_FMA_F32 or s == S.V_PK_MUL_F32 or s == S.V_PK_ADD_F32 or s == S.V_PK_MOV_B32
        is_f = s <= S.V_PK_MAX_F16 or wide and s != S.V_PK_MOV_B32 or s == S.V_DOT2_F32_F16 or s == S.V_DOT2_F32_BF16
        if s != S.V_PK_MOV_B32:
            for k in range(3):
                if ops[i, S0 + k, KIND] != K_NONE and not (k == 2 and s >= S.V_DOT2_F32_F16):
                    _repack(T[k], k, opsel, mods[i, M_OPSEL_HI], mods[i, M_NEG], mods[i, M_NEG_HI],
                            32 if wide else 16, is_f)
        if s == S.V_PK_ADD_F16:
            for l in range(64):
                R[l] = (op.add_f16(A[l] & M16, B[l] & M16) & M16) | ((op.add_f16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MUL_F16:
            for l in range(64):
                R[l] = (op.mul_f16(A[l] & M16, B[l] & M16) & M16) | ((op.mul_f16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_FMA_F16:
            for l in range(64):
                R[l] = (op.fma_f16(A[l] & M16, B[l] & M16, C[l] & M16) & M16) | ((op.fma_f16(A[l] >> U(16), B[l] >> U(16), C[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MIN_F16:
            for l in range(64):
                R[l] = (op.min_f16(A[l] & M16, B[l] & M16) & M16) | ((op.min_f16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MAX_F16:
            for l in range(64):
                R[l] = (op.max_f16(A[l] & M16, B[l] & M16) & M16) | ((op.max_f16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_ADD_U16 or s == S.V_PK_ADD_I16 or s == S.V_PK_SUB_U16 or s == S.V_PK_SUB_I16:
            sign = -1 if s == S.V_PK_SUB_U16 or s == S.V_PK_SUB_I16 else 1
            signed = s == S.V_PK_ADD_I16 or s == S.V_PK_SUB_I16
            if mods[i, M_CLAMP] != 0:
                for l in range(64):
                    R[l] = (op.add_sat(A[l], B[l], sign, 16, signed)
                            | (op.add_sat(A[l] >> U(16), B[l] >> U(16), sign, 16, signed) << U(16)))
            elif sign > 0:
                for l in range(64):
                    R[l] = (op.add_u16(A[l] & M16, B[l] & M16) & M16) | ((op.add_u16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
            else:
                for l in range(64):
                    R[l] = (op.sub_u16(A[l] & M16, B[l] & M16) & M16) | ((op.sub_u16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MUL_LO_U16:
            for l in range(64):
                R[l] = (op.mul_lo_u16(A[l] & M16, B[l] & M16) & M16) | ((op.mul_lo_u16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MAD_U16:
            for l in range(64):
                R[l] = (op.mad_u16(A[l] & M16, B[l] & M16, C[l] & M16) & M16) | ((op.mad_u16(A[l] >> U(16), B[l] >> U(16), C[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_LSHLREV_B16:
            for l in range(64):
                R[l] = (op.lshlrev_b16(A[l] & M16, B[l] & M16) & M16) | ((op.lshlrev_b16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_LSHRREV_B16:
            for l in range(64):
                R[l] = (op.lshrrev_b16(A[l] & M16, B[l] & M16) & M16) | ((op.lshrrev_b16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_ASHRREV_I16:
            for l in range(64):
                R[l] = (op.ashrrev_i16(A[l] & M16, B[l] & M16) & M16) | ((op.ashrrev_i16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MAX_I16:
            for l in range(64):
                R[l] = (op.max_i16(A[l] & M16, B[l] & M16) & M16) | ((op.max_i16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MIN_I16:
            for l in range(64):
                R[l] = (op.min_i16(A[l] & M16, B[l] & M16) & M16) | ((op.min_i16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MAX_U16:
            for l in range(64):
                R[l] = (op.max_u16(A[l] & M16, B[l] & M16) & M16) | ((op.max_u16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_MIN_U16:
            for l in range(64):
                R[l] = (op.min_u16(A[l] & M16, B[l] & M16) & M16) | ((op.min_u16(A[l] >> U(16), B[l] >> U(16)) & M16) << U(16))
        elif s == S.V_PK_FMA_F32:
            for l in range(64):
                R[l] = ((op.fma_f32_op(A[l] & M32, B[l] & M32, C[l] & M32)) & M32) | (((op.fma_f32_op(A[l] >> U(32), B[l] >> U(32), C[l] >> U(32))) & M32) << U(32))
        elif s == S.V_PK_MUL_F32:
            for l in range(64):
                R[l] = ((op.mul_f32(A[l] & M32, B[l] & M32)) & M32) | (((op.mul_f32(A[l] >> U(32), B[l] >> U(32))) & M32) << U(32))
        elif s == S.V_PK_ADD_F32:
            for l in range(64):
                R[l] = ((op.add_f32(A[l] & M32, B[l] & M32)) & M32) | (((op.add_f32(A[l] >> U(32), B[l] >> U(32))) & M32) << U(32))
        elif s == S.V_PK_MOV_B32:
            sel0 = U(32) if opsel & 1 else U(0)
            sel1 = U(32) if opsel & 2 else U(0)
            for l in range(64):
                R[l] = ((A[l] >> sel0) & M32) | (((B[l] >> sel1) & M32) << U(32))
        elif s == S.V_DOT2_F32_F16:
            for l in range(64):
                R[l] = op.dot2_f32_f16(A[l], B[l], C[l])
        elif s == S.V_DOT2_F32_BF16:
            for l in range(64):
                R[l] = op.dot2_f32_bf16(A[l], B[l], C[l])
        elif s >= S.V_DOT2_I32_I16:   # the integer dot products, v_dot2_i32_i16 .. v_dot8_u32_u4
            n = 2 if s == S.V_DOT2_I32_I16 or s == S.V_DOT2_U32_U16 else 4 if s == S.V_DOT4_I32_I8 or s == S.V_DOT4_U32_U8 else 8
            signed = s == S.V_DOT2_I32_I16 or s == S.V_DOT4_I32_I8 or s == S.V_DOT8_I32_I4
            for l in range(64):
                R[l] = op.dot_int(A[l], B[l], C[l], n, 32 // n, signed, mods[i, M_CLAMP])
        if mods[i, M_CLAMP] != 0 and is_f:   # clamp each float result to [0, 1]
            _clamp_packed(R, s, wide)
        write_vgpr(vreg, w, ops[i, D0, VAL], ops[i, D0, WIDTH], R, mask)
        return 0

    # ---- VOP3 op_sel on 16-bit operands: bit k reads the high half of source k
    # (a v_fma_mix source is 16-bit only where its op_sel_hi bit is set; an
    # f32 source ignores op_sel)
    mix = s == S.V_FMA_MIX_F32 or s == S.V_FMA_MIXLO_F16 or s == S.V_FMA_MIXHI_F16
    if opsel != 0:
        for k in range(3):
            if (opsel >> k) & 1 and not (mix and ((mods[i, M_OPSEL_HI] >> k) & 1) == 0) and not (
                    k == 2 and (s == S.V_MAD_U32_U16 or s == S.V_MAD_I32_I16)):   # their 32-bit addend
                X = T[k]
                for l in range(64):
                    X[l] = X[l] >> U(16)

    # ---- mixed-precision FMA (v_fma_mix*): op_sel_hi marks f16 sources
    if mix:
        ohi = mods[i, M_OPSEL_HI]
        for k in range(3):
            X = T[k]
            if (ohi >> k) & 1:
                for l in range(64):
                    X[l] = bits32(f16(X[l]))
            if (mods[i, M_NEG_HI] >> k) & 1:
                for l in range(64):
                    X[l] &= ~U(0x80000000)
            if (mods[i, M_NEG] >> k) & 1:
                for l in range(64):
                    X[l] ^= U(0x80000000)
        for l in range(64):
            R[l] = op.fma_f32_op(A[l], B[l], C[l])
        if s == S.V_FMA_MIX_F32:
            _finish_float(R, DT_F32, mods[i, M_CLAMP], 0)
            write_vgpr(vreg, w, ops[i, D0, VAL], 1, R, mask)
        else:
            reg = ops[i, D0, VAL]
            hi = s == S.V_FMA_MIXHI_F16
            for l in range(64):
                if lane_on(mask, l):
                    h = half_bits(f32(R[l]))
                    old = U(vreg[w, reg, l])
                    vreg[w, reg, l] = np.uint32(((old & M16) | (h << U(16))) if hi else ((old & ~M16) | h))
        return 0

    # ---- compares write a lane mask to an SGPR pair (and EXEC for v_cmpx)
    if S.V_CMP_FIRST <= s <= S.V_CMP_LAST:
        sub = mods[i, M_SUB]
        _compare(s, A, B, R, sub & 0xFF)
        m = _lanes_to_mask(R, mask)
        if ops[i, D0, KIND] != K_NONE:
            sset(sreg, w, ops[i, D0, VAL], 2, m)
        if sub & 0x100:
            sreg[w, EXEC_LO] = np.uint32(m & M32)
            sreg[w, EXEC_HI] = np.uint32(m >> U(32))
        return 0

    # ---- lane-crossing and scalar-result ops
    if s == S.V_READLANE_B32:
        lane = sget(sreg, w, ops[i, S1, KIND], ops[i, S1, VAL], 1) & U(63)
        sset(sreg, w, ops[i, D0, VAL], 1, A[lane])
        return 0
    if s == S.V_MOVREL_B32:   # v_mov_b32 in VGPR index mode (gpusim.asm.index_mode)
        src, dst = index_mode_registers(ops, i, sreg, w)
        if max(src, dst) >= vreg.shape[1] - SCRATCH_ROWS:
            return -3   # past the wave's VGPRs: the caller reports the fault
        if src >= 0 and src != ops[i, S0, VAL]:
            for l in range(64):
                A[l] = U(vreg[w, src, l])
        write_vgpr(vreg, w, dst, 1, A, mask)
        return 0
    if s == S.V_SWAP_B32:   # both sources were read above, so the two writes may name one register
        write_vgpr(vreg, w, ops[i, D0, VAL], 1, A, mask)
        write_vgpr(vreg, w, ops[i, D1, VAL], 1, B, mask)
        return 0
    if s == S.V_READFIRSTLANE_B32:
        lane = 0
        for l in range(64):
            if lane_on(mask, l):
                lane = l
                break
        sset(sreg, w, ops[i, D0, VAL], 1, A[lane])
        return 0
    if s == S.V_WRITELANE_B32:
        lane = B[0] & U(63)
        vreg[w, ops[i, D0, VAL], lane] = np.uint32(A[0] & M32)
        return 0
    if s == S.V_MBCNT_LO_U32_B32 or s == S.V_MBCNT_HI_U32_B32:
        for l in range(64):
            if s == S.V_MBCNT_LO_U32_B32:
                bits = (A[l] & M32) & ((U(1) << U(min(l, 32))) - U(1)) if l < 32 else A[l] & M32
            else:
                bits = (A[l] & M32) & ((U(1) << U(l - 32)) - U(1)) if l >= 32 else U(0)
            R[l] = (popcount(bits) + B[l]) & M32
        write_vgpr(vreg, w, ops[i, D0, VAL], 1, R, mask)
        return 0
    if s == S.V_CNDMASK_B32:
        sel = C[0] if ops[i, S2, KIND] != K_NONE else sget(sreg, w, K_SREG, VCC_LO, 2)
        for l in range(64):
            R[l] = B[l] if lane_on(sel, l) else A[l]
        if mods[i, M_SDWA]:
            write_sdwa(vreg, w, ops[i, D0, VAL], R, mask, mods, i)
        else:
            write_vgpr(vreg, w, ops[i, D0, VAL], 1, R, mask)
        return 0

    # ---- ops with a carry / condition output in an SGPR pair
    if S.V_CARRY_FIRST <= s <= S.V_CARRY_LAST:
        for l in range(64):
            a = A[l] & M32
            b = B[l] & M32
            if s == S.V_ADD_CO_U32:
                t = a + b
            elif s == S.V_SUB_CO_U32:
                t = a - b
            elif s == S.V_SUBREV_CO_U32:
                t = b - a
            else:
                cin = U(1) if lane_on(C[0], l) else U(0)
                if s == S.V_ADDC_CO_U32:
                    t = a + b + cin
                elif s == S.V_SUBB_CO_U32:
                    t = a - b - cin
                else:
                    t = b - a - cin
            R[l] = t & M32
            R2[l] = U(1) if t > M32 else U(0)
        write_vgpr(vreg, w, ops[i, D0, VAL], 1, R, mask)
        if ops[i, D1, KIND] != K_NONE:
            sset(sreg, w, ops[i, D1, VAL], 2, _lanes_to_mask(R2, mask))
        return 0
    if s == S.V_MAD_U64_U32 or s == S.V_MAD_I64_I32:
        for l in range(64):
            if s == S.V_MAD_U64_U32:
                p = (A[l] & M32) * (B[l] & M32)
                t = p + C[l]
                R2[l] = U(1) if t < p else U(0)
            else:
                p = np.int64(op.i32(A[l])) * np.int64(op.i32(B[l]))
                c = np.int64(C[l])
                t2 = p + c
                R2[l] = U(1) if (p >= 0) == (c >= 0) and (t2 >= 0) != (p >= 0) else U(0)
                t = U(t2)
            R[l] = t
        write_vgpr(vreg, w, ops[i, D0, VAL], 2, R, mask)
        if ops[i, D1, KIND] != K_NONE:
            sset(sreg, w, ops[i, D1, VAL], 2, _lanes_to_mask(R2, mask))
        return 0
    if s == S.V_DIV_SCALE_F32 or s == S.V_DIV_SCALE_F64:
        is64 = s == S.V_DIV_SCALE_F64
        for l in range(64):
            R[l], R2[l] = _div_scale(A[l], B[l], C[l], is64)
        write_vgpr(vreg, w, ops[i, D0, VAL], ops[i, D0, WIDTH], R, mask)
        if ops[i, D1, KIND] != K_NONE:
            sset(sreg, w, ops[i, D1, VAL], 2, _lanes_to_mask(R2, mask))
        return 0
    if s == S.V_DIV_FMAS_F32 or s == S.V_DIV_FMAS_F64:
        vcc = sget(sreg, w, K_SREG, VCC_LO, 2)
        for l in range(64):
            if s == S.V_DIV_FMAS_F64:
                r = op.fma_f64_op(A[l], B[l], C[l])
                R[l] = bits64(f64(r) * DIV_SCALE_F64) if lane_on(vcc, l) else r
            else:
                r = op.fma_f32_op(A[l], B[l], C[l])
                R[l] = bits32(np.float32(np.float64(f32(r)) * DIV_SCALE_F32)) if lane_on(vcc, l) else r
        write_vgpr(vreg, w, ops[i, D0, VAL], ops[i, D0, WIDTH], R, mask)
        return 0

    # ---- plain lane maps
    if s == S.V_MOV_B32 or s == S.V_ACCVGPR_MOV_B32 or s == S.V_ACCVGPR_READ_B32 or s == S.V_ACCVGPR_WRITE_B32:
        for l in range(64):
            R[l] = op.mov_b32(A[l])
    elif s == S.V_MOV_B64:
        for l in range(64):
            R[l] = op.mov_b64(A[l])
    elif s == S.V_ADD_F32:
        for l in range(64):
            R[l] = op.add_f32(A[l], B[l])
    elif s == S.V_SUB_F32:
        for l in range(64):
            R[l] = op.sub_f32(A[l], B[l])
    elif s == S.V_SUBREV_F32:
        for l in range(64):
            R[l] = op.subrev_f32(A[l], B[l])
    elif s == S.V_MUL_F32:
        for l in range(64):
            R[l] = op.mul_f32(A[l], B[l])
    elif s == S.V_MUL_LEGACY_F32:
        for l in range(64):
            R[l] = op.mul_legacy_f32(A[l], B[l])
    elif s == S.V_MIN_F32:
        for l in range(64):
            R[l] = op.min_f32(A[l], B[l])
    elif s == S.V_MAX_F32:
        for l in range(64):
            R[l] = op.max_f32(A[l], B[l])
    elif s == S.V_LDEXP_F32:
        for l in range(64):
            R[l] = op.ldexp_f32(A[l], B[l])
    elif s == S.V_FMA_F32:
        for l in range(64):
            R[l] = op.fma_f32_op(A[l], B[l], C[l])
    elif s == S.V_MAD_F32:
        for l in range(64):
            R[l] = op.mad_f32(A[l], B[l], C[l])
    elif s == S.V_MAD_LEGACY_F32:
        for l in range(64):
            R[l] = op.mad_legacy_f32(A[l], B[l], C[l])
    elif s == S.V_MIN3_F32:
        for l in range(64):
            R[l] = op.min3_f32(A[l], B[l], C[l])
    elif s == S.V_MAX3_F32:
        for l in range(64):
            R[l] = op.max3_f32(A[l], B[l], C[l])
    elif s == S.V_MED3_F32:
        for l in range(64):
            R[l] = op.med3_f32(A[l], B[l], C[l])
    elif s == S.V_DIV_FIXUP_F32:
        for l in range(64):
            q, d, n = f32(A[l]), f32(B[l]), f32(C[l])
            R[l] = _div_fixup(np.float64(q), np.float64(d), np.float64(n), False)
    elif s == S.V_DIV_FIXUP_F64:
        for l in range(64):
            R[l] = _div_fixup(f64(A[l]), f64(B[l]), f64(C[l]), True)
    elif s == S.V_DIV_FIXUP_F16 or s == S.V_DIV_FIXUP_LEGACY_F16:
        for l in range(64):
            q = _div_fixup(np.float64(f16(A[l])), np.float64(f16(B[l])), np.float64(f16(C[l])), False)
            R[l] = half_bits(f32(q))
    elif s == S.V_EXP_F32:
        for l in range(64):
            R[l] = op.exp_f32(A[l])
    elif s == S.V_LOG_F32:
        for l in range(64):
            R[l] = op.log_f32(A[l])
    elif s == S.V_RCP_F32 or s == S.V_RCP_IFLAG_F32:
        for l in range(64):
            R[l] = op.rcp_f32(A[l])
    elif s == S.V_RSQ_F32:
        for l in range(64):
            R[l] = op.rsq_f32(A[l])
    elif s == S.V_SQRT_F32:
        for l in range(64):
            R[l] = op.sqrt_f32(A[l])
    elif s == S.V_SIN_F32:
        for l in range(64):
            R[l] = op.sin_f32(A[l])
    elif s == S.V_COS_F32:
        for l in range(64):
            R[l] = op.cos_f32(A[l])
    elif s == S.V_FLOOR_F32:
        for l in range(64):
            R[l] = op.floor_f32(A[l])
    elif s == S.V_CEIL_F32:
        for l in range(64):
            R[l] = op.ceil_f32(A[l])
    elif s == S.V_TRUNC_F32:
        for l in range(64):
            R[l] = op.trunc_f32(A[l])
    elif s == S.V_RNDNE_F32:
        for l in range(64):
            R[l] = op.rndne_f32(A[l])
    elif s == S.V_FRACT_F32:
        for l in range(64):
            R[l] = op.fract_f32(A[l])
    elif s == S.V_FREXP_MANT_F32:
        for l in range(64):
            R[l] = op.frexp_mant_f32(A[l])
    elif s == S.V_FREXP_EXP_I32_F32:
        for l in range(64):
            R[l] = op.frexp_exp_f32(A[l])
    elif s == S.V_CVT_I32_F32:
        for l in range(64):
            R[l] = op.cvt_i32_f32(A[l])
    elif s == S.V_CVT_U32_F32:
        for l in range(64):
            R[l] = op.cvt_u32_f32(A[l])
    elif s == S.V_CVT_RPI_I32_F32:
        for l in range(64):
            R[l] = op.cvt_rpi_i32_f32(A[l])
    elif s == S.V_CVT_FLR_I32_F32:
        for l in range(64):
            R[l] = op.cvt_flr_i32_f32(A[l])
    elif s == S.V_CVT_F32_I32:
        for l in range(64):
            R[l] = op.cvt_f32_i32(A[l])
    elif s == S.V_CVT_F32_U32:
        for l in range(64):
            R[l] = op.cvt_f32_u32(A[l])
    elif s == S.V_CVT_F32_UBYTE0:
        for l in range(64):
            R[l] = op.cvt_f32_ubyte0(A[l])
    elif s == S.V_CVT_F32_UBYTE1:
        for l in range(64):
            R[l] = op.cvt_f32_ubyte1(A[l])
    elif s == S.V_CVT_F32_UBYTE2:
        for l in range(64):
            R[l] = op.cvt_f32_ubyte2(A[l])
    elif s == S.V_CVT_F32_UBYTE3:
        for l in range(64):
            R[l] = op.cvt_f32_ubyte3(A[l])
    elif s == S.V_CVT_F16_F32:
        for l in range(64):
            R[l] = op.cvt_f16_f32(A[l])
    elif s == S.V_CVT_F32_F16:
        for l in range(64):
            R[l] = op.cvt_f32_f16(A[l])
    elif s == S.V_CVT_F32_BF16:
        for l in range(64):
            R[l] = op.cvt_f32_bf16(A[l])
    elif s == S.V_CVT_F64_F32:
        for l in range(64):
            R[l] = op.cvt_f64_f32(A[l])
    elif s == S.V_CVT_F32_F64:
        for l in range(64):
            R[l] = op.cvt_f32_f64(A[l])
    elif s == S.V_CVT_I32_F64:
        for l in range(64):
            R[l] = op.cvt_i32_f64(A[l])
    elif s == S.V_CVT_U32_F64:
        for l in range(64):
            R[l] = op.cvt_u32_f64(A[l])
    elif s == S.V_CVT_F64_I32:
        for l in range(64):
            R[l] = op.cvt_f64_i32(A[l])
    elif s == S.V_CVT_F64_U32:
        for l in range(64):
            R[l] = op.cvt_f64_u32(A[l])
    elif s == S.V_CVT_PKRTZ_F16_F32:
        for l in range(64):
            R[l] = op.cvt_pkrtz_f16_f32(A[l], B[l])
    elif s == S.V_CVT_F16_U16:
        for l in range(64):
            R[l] = op.cvt_f16_u16(A[l])
    elif s == S.V_CVT_F16_I16:
        for l in range(64):
            R[l] = op.cvt_f16_i16(A[l])
    elif s == S.V_CVT_U16_F16:
        for l in range(64):
            R[l] = op.cvt_u16_f16(A[l])
    elif s == S.V_CVT_I16_F16:
        for l in range(64):
            R[l] = op.cvt_i16_f16(A[l])
    elif s == S.V_CVT_F32_FP8 or s == S.V_CVT_F32_BF8:
        bf8 = s == S.V_CVT_F32_BF8
        for l in range(64):
            R[l] = op.cvt_f32_fp8(A[l], bf8)
    elif s == S.V_CVT_PK_F32_FP8 or s == S.V_CVT_PK_F32_BF8:
        bf8 = s == S.V_CVT_PK_F32_BF8
        for l in range(64):
            R[l] = op.cvt_pk_f32_fp8(A[l], bf8)
    elif s == S.V_CVT_PK_FP8_F32 or s == S.V_CVT_PK_BF8_F32:
        bf8 = s == S.V_CVT_PK_BF8_F32
        for l in range(64):
            R[l] = op.cvt_pk_fp8_f32(A[l], B[l], bf8)
    elif s == S.V_CVT_PK_U16_U32:
        for l in range(64):
            R[l] = op.cvt_pk_u16_u32(A[l], B[l])
    elif s == S.V_ADD_F16:
        for l in range(64):
            R[l] = op.add_f16(A[l], B[l])
    elif s == S.V_SUB_F16:
        for l in range(64):
            R[l] = op.sub_f16(A[l], B[l])
    elif s == S.V_SUBREV_F16:
        for l in range(64):
            R[l] = op.subrev_f16(A[l], B[l])
    elif s == S.V_MUL_F16:
        for l in range(64):
            R[l] = op.mul_f16(A[l], B[l])
    elif s == S.V_FMA_F16 or s == S.V_FMA_LEGACY_F16:
        for l in range(64):
            R[l] = op.fma_f16(A[l], B[l], C[l])
    elif s == S.V_MIN_F16:
        for l in range(64):
            R[l] = op.min_f16(A[l], B[l])
    elif s == S.V_MAX_F16:
        for l in range(64):
            R[l] = op.max_f16(A[l], B[l])
    elif s == S.V_LDEXP_F16:
        for l in range(64):
            R[l] = op.ldexp_f16(A[l], B[l])
    elif s == S.V_RCP_F16:
        for l in range(64):
            R[l] = op.rcp_f16(A[l])
    elif s == S.V_SQRT_F16:
        for l in range(64):
            R[l] = op.sqrt_f16(A[l])
    elif s == S.V_RSQ_F16:
        for l in range(64):
            R[l] = op.rsq_f16(A[l])
    elif s == S.V_EXP_F16:
        for l in range(64):
            R[l] = op.exp_f16(A[l])
    elif s == S.V_LOG_F16:
        for l in range(64):
            R[l] = op.log_f16(A[l])
    elif s == S.V_SIN_F16:
        for l in range(64):
            R[l] = op.sin_f16(A[l])
    elif s == S.V_COS_F16:
        for l in range(64):
            R[l] = op.cos_f16(A[l])
    elif s == S.V_FLOOR_F16:
        for l in range(64):
            R[l] = op.floor_f16(A[l])
    elif s == S.V_CEIL_F16:
        for l in range(64):
            R[l] = op.ceil_f16(A[l])
    elif s == S.V_TRUNC_F16:
        for l in range(64):
            R[l] = op.trunc_f16(A[l])
    elif s == S.V_RNDNE_F16:
        for l in range(64):
            R[l] = op.rndne_f16(A[l])
    elif s == S.V_FRACT_F16:
        for l in range(64):
            R[l] = op.fract_f16(A[l])
    elif s == S.V_ADD_F64:
        for l in range(64):
            R[l] = op.add_f64(A[l], B[l])
    elif s == S.V_MUL_F64:
        for l in range(64):
            R[l] = op.mul_f64(A[l], B[l])
    elif s == S.V_MIN_F64:
        for l in range(64):
            R[l] = op.min_f64(A[l], B[l])
    elif s == S.V_MAX_F64:
        for l in range(64):
            R[l] = op.max_f64(A[l], B[l])
    elif s == S.V_FMA_F64:
        for l in range(64):
            R[l] = op.fma_f64_op(A[l], B[l], C[l])
    elif s == S.V_LDEXP_F64:
        for l in range(64):
            R[l] = op.ldexp_f64(A[l], B[l])
    elif s == S.V_TRIG_PREOP_F64:
        for l in range(64):
            R[l] = op.trig_preop_f64(A[l], B[l])
    elif s == S.V_RCP_F64:
        for l in range(64):
            R[l] = op.rcp_f64(A[l])
    elif s == S.V_RSQ_F64:
        for l in range(64):
            R[l] = op.rsq_f64(A[l])
    elif s == S.V_SQRT_F64:
        for l in range(64):
            R[l] = op.sqrt_f64(A[l])
    elif s == S.V_FLOOR_F64:
        for l in range(64):
            R[l] = op.floor_f64(A[l])
    elif s == S.V_CEIL_F64:
        for l in range(64):
            R[l] = op.ceil_f64(A[l])
    elif s == S.V_TRUNC_F64:
        for l in range(64):
            R[l] = op.trunc_f64(A[l])
    elif s == S.V_RNDNE_F64:
        for l in range(64):
            R[l] = op.rndne_f64(A[l])
    elif s == S.V_FRACT_F64:
        for l in range(64):
            R[l] = op.fract_f64(A[l])
    elif s == S.V_FREXP_MANT_F64:
        for l in range(64):
            R[l] = op.frexp_mant_f64(A[l])
    elif s == S.V_FREXP_EXP_I32_F64:
        for l in range(64):
            R[l] = op.frexp_exp_f64(A[l])
    elif _saturating(s) and mods[i, M_CLAMP] != 0:
        _add_saturated(s, A, B, R)
    elif s == S.V_ADD_U32 or s == S.V_ADD_I32:
        for l in range(64):
            R[l] = op.add_u32(A[l], B[l])
    elif s == S.V_SUB_U32 or s == S.V_SUB_I32:
        for l in range(64):
            R[l] = op.sub_u32(A[l], B[l])
    elif s == S.V_SUBREV_U32:
        for l in range(64):
            R[l] = op.subrev_u32(A[l], B[l])
    elif s == S.V_MUL_LO_U32:
        for l in range(64):
            R[l] = op.mul_lo_u32(A[l], B[l])
    elif s == S.V_MUL_HI_U32:
        for l in range(64):
            R[l] = op.mul_hi_u32(A[l], B[l])
    elif s == S.V_MUL_HI_I32:
        for l in range(64):
            R[l] = op.mul_hi_i32(A[l], B[l])
    elif s == S.V_MUL_U32_U24:
        for l in range(64):
            R[l] = op.mul_u32_u24(A[l], B[l])
    elif s == S.V_MUL_HI_U32_U24:
        for l in range(64):
            R[l] = op.mul_hi_u32_u24(A[l], B[l])
    elif s == S.V_MUL_I32_I24:
        for l in range(64):
            R[l] = op.mul_i32_i24(A[l], B[l])
    elif s == S.V_MUL_HI_I32_I24:
        for l in range(64):
            R[l] = op.mul_hi_i32_i24(A[l], B[l])
    elif s == S.V_MAD_U32_U24:
        for l in range(64):
            R[l] = op.mad_u32_u24(A[l], B[l], C[l])
    elif s == S.V_MAD_I32_I24:
        for l in range(64):
            R[l] = op.mad_i32_i24(A[l], B[l], C[l])
    elif s == S.V_MIN_I32:
        for l in range(64):
            R[l] = op.min_i32(A[l], B[l])
    elif s == S.V_MAX_I32:
        for l in range(64):
            R[l] = op.max_i32(A[l], B[l])
    elif s == S.V_MIN_U32:
        for l in range(64):
            R[l] = op.min_u32(A[l], B[l])
    elif s == S.V_MAX_U32:
        for l in range(64):
            R[l] = op.max_u32(A[l], B[l])
    elif s == S.V_MIN3_I32:
        for l in range(64):
            R[l] = op.min3_i32(A[l], B[l], C[l])
    elif s == S.V_MAX3_I32:
        for l in range(64):
            R[l] = op.max3_i32(A[l], B[l], C[l])
    elif s == S.V_MED3_I32:
        for l in range(64):
            R[l] = op.med3_i32(A[l], B[l], C[l])
    elif s == S.V_MIN3_U32:
        for l in range(64):
            R[l] = op.min3_u32(A[l], B[l], C[l])
    elif s == S.V_MAX3_U32:
        for l in range(64):
            R[l] = op.max3_u32(A[l], B[l], C[l])
    elif s == S.V_MED3_U32:
        for l in range(64):
            R[l] = op.med3_u32(A[l], B[l], C[l])
    elif s == S.V_LSHLREV_B32:
        for l in range(64):
            R[l] = op.lshlrev_b32(A[l], B[l])
    elif s == S.V_LSHRREV_B32:
        for l in range(64):
            R[l] = op.lshrrev_b32(A[l], B[l])
    elif s == S.V_ASHRREV_I32:
        for l in range(64):
            R[l] = op.ashrrev_i32(A[l], B[l])
    elif s == S.V_LSHLREV_B64:
        for l in range(64):
            R[l] = op.lshlrev_b64(A[l], B[l])
    elif s == S.V_LSHRREV_B64:
        for l in range(64):
            R[l] = op.lshrrev_b64(A[l], B[l])
    elif s == S.V_ASHRREV_I64:
        for l in range(64):
            R[l] = op.ashrrev_i64(A[l], B[l])
    elif s == S.V_AND_B32:
        for l in range(64):
            R[l] = op.and_b32(A[l], B[l])
    elif s == S.V_OR_B32:
        for l in range(64):
            R[l] = op.or_b32(A[l], B[l])
    elif s == S.V_XOR_B32:
        for l in range(64):
            R[l] = op.xor_b32(A[l], B[l])
    elif s == S.V_XNOR_B32:
        for l in range(64):
            R[l] = op.xnor_b32(A[l], B[l])
    elif s == S.V_NOT_B32:
        for l in range(64):
            R[l] = op.not_b32(A[l])
    elif s == S.V_BFREV_B32:
        for l in range(64):
            R[l] = op.bfrev_b32(A[l])
    elif s == S.V_FFBH_U32:
        for l in range(64):
            R[l] = op.ffbh_u32(A[l])
    elif s == S.V_FFBL_B32:
        for l in range(64):
            R[l] = op.ffbl_b32(A[l])
    elif s == S.V_FFBH_I32:
        for l in range(64):
            R[l] = op.ffbh_i32(A[l])
    elif s == S.V_BCNT_U32_B32:
        for l in range(64):
            R[l] = op.bcnt_u32_b32(A[l], B[l])
    elif s == S.V_BFE_U32:
        for l in range(64):
            R[l] = op.bfe_u32(A[l], B[l], C[l])
    elif s == S.V_BFE_I32:
        for l in range(64):
            R[l] = op.bfe_i32(A[l], B[l], C[l])
    elif s == S.V_BFI_B32:
        for l in range(64):
            R[l] = op.bfi_b32(A[l], B[l], C[l])
    elif s == S.V_BFM_B32:
        for l in range(64):
            R[l] = op.bfm_b32(A[l], B[l])
    elif s == S.V_ALIGNBIT_B32:
        for l in range(64):
            R[l] = op.alignbit_b32(A[l], B[l], C[l])
    elif s == S.V_ALIGNBYTE_B32:
        for l in range(64):
            R[l] = op.alignbyte_b32(A[l], B[l], C[l])
    elif s == S.V_LSHL_ADD_U32:
        for l in range(64):
            R[l] = op.lshl_add_u32(A[l], B[l], C[l])
    elif s == S.V_ADD_LSHL_U32:
        for l in range(64):
            R[l] = op.add_lshl_u32(A[l], B[l], C[l])
    elif s == S.V_ADD3_U32:
        for l in range(64):
            R[l] = op.add3_u32(A[l], B[l], C[l])
    elif s == S.V_LSHL_OR_B32:
        for l in range(64):
            R[l] = op.lshl_or_b32(A[l], B[l], C[l])
    elif s == S.V_AND_OR_B32:
        for l in range(64):
            R[l] = op.and_or_b32(A[l], B[l], C[l])
    elif s == S.V_OR3_B32:
        for l in range(64):
            R[l] = op.or3_b32(A[l], B[l], C[l])
    elif s == S.V_XAD_U32:
        for l in range(64):
            R[l] = op.xad_u32(A[l], B[l], C[l])
    elif s == S.V_LSHL_ADD_U64:
        for l in range(64):
            R[l] = op.lshl_add_u64(A[l], B[l], C[l])
    elif s == S.V_PERM_B32:
        for l in range(64):
            R[l] = op.perm_b32(A[l], B[l], C[l])
    elif s == S.V_PACK_B32_F16:
        for l in range(64):
            R[l] = op.pack_b32_f16(A[l], B[l])
    elif s == S.V_SAD_U32:
        for l in range(64):
            R[l] = op.sad_u32(A[l], B[l], C[l])
    elif s == S.V_SAD_U8:
        for l in range(64):
            R[l] = op.sad_u8(A[l], B[l], C[l])
    elif s == S.V_SAD_HI_U8:
        for l in range(64):
            R[l] = op.sad_hi_u8(A[l], B[l], C[l])
    elif s == S.V_SAD_U16:
        for l in range(64):
            R[l] = op.sad_u16(A[l], B[l], C[l])
    elif s == S.V_MSAD_U8:
        for l in range(64):
            R[l] = op.msad_u8(A[l], B[l], C[l])
    elif s == S.V_LERP_U8:
        for l in range(64):
            R[l] = op.lerp_u8(A[l], B[l], C[l])
    elif s == S.V_CVT_PK_I16_I32:
        for l in range(64):
            R[l] = op.cvt_pk_i16_i32(A[l], B[l])
    elif s == S.V_ADD_U16 or s == S.V_ADD_I16:
        for l in range(64):
            R[l] = op.add_u16(A[l], B[l])
    elif s == S.V_SUB_U16 or s == S.V_SUB_I16:
        for l in range(64):
            R[l] = op.sub_u16(A[l], B[l])
    elif s == S.V_SUBREV_U16:
        for l in range(64):
            R[l] = op.subrev_u16(A[l], B[l])
    elif s == S.V_MUL_LO_U16:
        for l in range(64):
            R[l] = op.mul_lo_u16(A[l], B[l])
    elif s == S.V_MAD_U16 or s == S.V_MAD_I16 or s == S.V_MAD_LEGACY_U16 or s == S.V_MAD_LEGACY_I16:
        for l in range(64):   # (the low 16 bits of a product and sum do not depend on the sign)
            R[l] = op.mad_u16(A[l], B[l], C[l])
    elif s == S.V_MAD_U32_U16:
        for l in range(64):
            R[l] = op.mad_u32_u16(A[l], B[l], C[l])
    elif s == S.V_MAD_I32_I16:
        for l in range(64):
            R[l] = op.mad_i32_i16(A[l], B[l], C[l])
    elif S.V_MIN3_F16 <= s <= S.V_MED3_F16:
        which = s - S.V_MIN3_F16   # (min3, max3, med3, in that order)
        for l in range(64):
            R[l] = op.three_f16(A[l], B[l], C[l], which)
    elif S.V_MIN3_I16 <= s <= S.V_MED3_U16:
        which = (s - S.V_MIN3_I16) % 3
        signed = s <= S.V_MED3_I16
        for l in range(64):
            R[l] = op.three_i16(A[l], B[l], C[l], which, signed)
    elif s == S.V_FREXP_MANT_F16:
        for l in range(64):
            R[l] = op.frexp_mant_f16(A[l])
    elif s == S.V_FREXP_EXP_I16_F16:
        for l in range(64):
            R[l] = op.frexp_exp_i16_f16(A[l])
    elif s == S.V_CVT_NORM_I16_F16 or s == S.V_CVT_NORM_U16_F16:
        for l in range(64):
            R[l] = op.norm16(f16(A[l]), s == S.V_CVT_NORM_I16_F16)
    elif s == S.V_CVT_PKNORM_I16_F32 or s == S.V_CVT_PKNORM_U16_F32:
        for l in range(64):
            R[l] = (op.norm16(f32(A[l]), s == S.V_CVT_PKNORM_I16_F32)
                    | (op.norm16(f32(B[l]), s == S.V_CVT_PKNORM_I16_F32) << U(16)))
    elif s == S.V_CVT_PKNORM_I16_F16 or s == S.V_CVT_PKNORM_U16_F16:
        for l in range(64):
            R[l] = (op.norm16(f16(A[l]), s == S.V_CVT_PKNORM_I16_F16)
                    | (op.norm16(f16(B[l]), s == S.V_CVT_PKNORM_I16_F16) << U(16)))
    elif s == S.V_SAT_PK_U8_I16:
        for l in range(64):
            R[l] = op.sat_pk_u8_i16(A[l])
    elif s == S.V_CVT_OFF_F32_I4:
        for l in range(64):
            R[l] = op.cvt_off_f32_i4(A[l])
    elif s == S.V_QSAD_PK_U16_U8 or s == S.V_MQSAD_PK_U16_U8:
        for l in range(64):
            R[l] = op.qsad_pk_u16_u8(A[l], B[l], C[l], s == S.V_MQSAD_PK_U16_U8)
    elif s == S.V_PK_FMAC_F16:
        for l in range(64):
            R[l] = ((op.fma_f16(A[l] & M16, B[l] & M16, C[l] & M16) & M16)
                    | ((op.fma_f16(A[l] >> U(16), B[l] >> U(16), C[l] >> U(16)) & M16) << U(16)))
    elif s == S.V_LSHLREV_B16:
        for l in range(64):
            R[l] = op.lshlrev_b16(A[l], B[l])
    elif s == S.V_LSHRREV_B16:
        for l in range(64):
            R[l] = op.lshrrev_b16(A[l], B[l])
    elif s == S.V_ASHRREV_I16:
        for l in range(64):
            R[l] = op.ashrrev_i16(A[l], B[l])
    elif s == S.V_MAX_U16:
        for l in range(64):
            R[l] = op.max_u16(A[l], B[l])
    elif s == S.V_MIN_U16:
        for l in range(64):
            R[l] = op.min_u16(A[l], B[l])
    elif s == S.V_MAX_I16:
        for l in range(64):
            R[l] = op.max_i16(A[l], B[l])
    elif s == S.V_MIN_I16:
        for l in range(64):
            R[l] = op.min_i16(A[l], B[l])
    elif s == S.V_DOT2C_F32_F16:
        for l in range(64):
            R[l] = op.dot2_f32_f16(A[l], B[l], C[l])
    elif s == S.V_DOT4C_I32_I8 or s == S.V_DOT2C_I32_I16 or s == S.V_DOT8C_I32_I4:
        n = 4 if s == S.V_DOT4C_I32_I8 else 2 if s == S.V_DOT2C_I32_I16 else 8
        for l in range(64):
            R[l] = op.dot_int(A[l], B[l], C[l], n, 32 // n, True, mods[i, M_CLAMP])
    elif s == S.V_NOP:
        return 0
    else:
        return -1

    _finish_float(R, dtype, mods[i, M_CLAMP], mods[i, M_OMOD])
    reg = ops[i, D0, VAL]
    if mods[i, M_SDWA] and ops[i, D0, WIDTH] == 1:   # (the one 64-bit SDWA result, v_cvt_pk_f32_fp8's, is a DWORD)
        write_sdwa(vreg, w, reg, R, mask, mods, i)
    elif dtype == DT_F16 or dtype == DT_I16:
        to_hi = (opsel >> 3) & 1
        keep = to_hi or _preserves_high_half(s)
        for l in range(64):
            if lane_on(mask, l):
                h = R[l] & M16
                old = U(vreg[w, reg, l])
                if to_hi:
                    v = (old & M16) | (h << U(16))
                elif keep:
                    v = (old & ~M16 & M32) | h
                else:
                    v = h
                vreg[w, reg, l] = np.uint32(v)
    else:
        write_vgpr(vreg, w, reg, ops[i, D0, WIDTH], R, mask)
    return 0


# v_div_scale / v_div_fmas exponent scaling (a model; see _div_scale)
DIV_SCALE_F64 = 2.0 ** 128
DIV_SCALE_F32 = 2.0 ** 64


@njit(_nrt=False, error_model="numpy")
def _div_scale(x_bits, den_bits, num_bits, is64):
    """_div_scale pre-scales one operand of a division num / den; returns (bits, vcc bit).

    ``x`` is den or num. Both are scaled by the same power of two when den is
    so small (or large) that its reciprocal would overflow (or be denormal);
    num alone is scaled down by the v_div_fmas factor when the quotient would
    overflow, and the lane's VCC bit tells v_div_fmas to scale the result back.
    This keeps clang's division sequence exact where it matters; the
    hardware's own choice of scale factors is not published in detail.
    """
    if is64:
        x, den, num = f64(x_bits), f64(den_bits), f64(num_bits)
        emin, emax, k = -1021, 1024, 128
    else:
        x, den, num = np.float64(f32(x_bits)), np.float64(f32(den_bits)), np.float64(f32(num_bits))
        emin, emax, k = -125, 128, 64
    if den == 0 or num == 0 or not np.isfinite(den) or not np.isfinite(num):
        return x_bits, U(0)
    ed = math.frexp(den)[1]
    en = math.frexp(num)[1]
    sa = 0
    if ed <= emin + 2:
        sa = k
    elif ed >= emax - 2:
        sa = -k
    sb = sa
    if en + sb >= emax - 1 or (en + sb) - (ed + sa) >= emax - 2:
        sb = sa - k
    shift = sa if x_bits == den_bits else sb
    y = math.ldexp(x, shift)
    out = bits64(y) if is64 else bits32(np.float32(y))
    return out, U(1) if sb != sa else U(0)


@njit(_nrt=False, error_model="numpy")
def _div_fixup(q, d, n, is64):
    """_div_fixup resolves the special cases of a quotient n / d, else gives q with the quotient's sign.

    The sign is the ISA's, sign(n) xor sign(d), signed zeros included (-0 / -3 is +0). Besides NaN/inf/zero
    operands it catches quotients that overflow and quotients or numerators so small that the division
    sequence's intermediates are subnormal (below 2**(p+2) times the smallest normal, p the precision): the
    hardware's v_div_scale and v_div_fmas carry those through the normal range and back with one rounding,
    which _div_scale's model does not, so the correctly rounded quotient, which the sequence gives there on
    the hardware, stands for the model's.
    """
    neg = np.signbit(n) != np.signbit(d)
    if n != n or d != d:
        r = np.nan
    elif d == 0 and n == 0:
        r = np.nan
    elif np.isinf(d) and np.isinf(n):
        r = np.nan
    elif n == 0 or np.isinf(d):
        r = -0.0 if neg else 0.0
    elif d == 0 or np.isinf(n):
        r = -np.inf if neg else np.inf
    else:
        exact = n / d if is64 else np.float64(np.float32(n / d))
        small = 2.0 ** (-1022 + 55) if is64 else 2.0 ** (-126 + 26)
        if np.isinf(exact) or abs(exact) < small or abs(n) < small or q != q or np.isinf(q):
            r = exact
        else:
            r = -abs(q) if neg else abs(q)
    return bits64(r) if is64 else bits32(np.float32(r))
