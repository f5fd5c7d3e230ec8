"""Matrix fused multiply-add (v_mfma_*) with the hardware's register lane layouts.

Layouts follow AMD's matrix instruction calculator for CDNA2/CDNA3. For a
single-block M x N x K instruction with ``kpl`` K-values per lane:

* A[i][k]: lane = i + M * (k // kpl), element k % kpl of the lane's registers;
* B[k][j]: lane = j + N * (k // kpl), element k % kpl;
* C/D[i][j]: lane = j + N * g, register r where
  i = 4 * G * (r // 4) + 4 * g + r % 4 and G = 64 / N lane groups.

The 16-block 4x4 shapes hold block b in lanes 4b..4b+3:
A[i][k].b at lane 4b + i, D[i][j].b in register i at lane 4b + j.
Elements narrower than 32 bits are packed from the low bits up; f64 values
take register pairs. Accumulation is done in float64 (int64 for integers)
and rounded once, which is within the hardware's documented accuracy.
"""
import numpy as np
from numba import njit

from gpusim.asm.fields import T_BF16, T_BF8, T_F16, T_F64, T_FP8, T_I8
from gpusim.asm.program import D0, M_SUB, S0, S1, S2, VAL
from gpusim.exec.kernels.bits import bf16, bits32, bits64, f16, f32, f64

U = np.uint64

# first row of the scratch array T that stages MFMA operands (16 rows: 1024 values)
MFMA_STAGE = 8
SCRATCH_ROWS_NEEDED = MFMA_STAGE + 16


@njit(_nrt=False)
def _bits_per_elem(t):
    if t == T_F16 or t == T_BF16:
        return 16
    if t == T_I8 or t == T_FP8 or t == T_BF8:
        return 8
    if t == T_F64:
        return 64
    return 32


@njit(_nrt=False)
def _fp8_value(x, bf8):
    """_fp8_value decodes an 8-bit FNUZ float (e4m3fnuz or e5m2fnuz, gfx942)."""
    x = x & U(0xFF)
    if x == U(0x80):
        return np.nan
    sign = -1.0 if x & U(0x80) else 1.0
    if bf8:
        e = np.int64((x >> U(2)) & U(0x1F))
        m = np.float64(x & U(3))
        bias, mbits = 16, 4.0
    else:
        e = np.int64((x >> U(3)) & U(0xF))
        m = np.float64(x & U(7))
        bias, mbits = 8, 8.0
    if e == 0:
        return sign * (m / mbits) * 2.0 ** (1 - bias)
    return sign * (1.0 + m / mbits) * 2.0 ** (e - bias)


@njit(_nrt=False)
def _elem(vreg, w, base, lane, idx, t):
    """_elem reads element ``idx`` of a lane's packed operand as float64."""
    bits = _bits_per_elem(t)
    if bits == 64:
        v = U(vreg[w, base + 2 * idx, lane]) | (U(vreg[w, base + 2 * idx + 1, lane]) << U(32))
        return f64(v)
    per = 32 // bits
    word = U(vreg[w, base + idx // per, lane])
    x = (word >> U(bits * (idx % per))) & ((U(1) << U(bits)) - U(1))
    if t == T_F16:
        return np.float64(f16(x))
    if t == T_BF16:
        return np.float64(bf16(x))
    if t == T_I8:
        v = np.int64(x)
        return np.float64(v - 256 if v >= 128 else v)
    if t == T_FP8:
        return _fp8_value(x, False)
    if t == T_BF8:
        return _fp8_value(x, True)
    return np.float64(f32(x))


@njit(_nrt=False)
def exec_mfma(i, w, ops, mods, vreg, T):
    """exec_mfma runs v_mfma instruction ``i`` for wave ``w`` (all lanes; EXEC is ignored by MFMA).

    Uses rows MFMA_STAGE.. of the scratch ``T`` to stage A and B.
    """
    sub = mods[i, M_SUB]
    atype = sub & 0xF
    btype = (sub >> 4) & 0xF
    M = (sub >> 8) & 0xFF
    N = (sub >> 16) & 0xFF
    K = (sub >> 24) & 0xFF
    NB = (sub >> 32) & 0xFF
    ra = ops[i, S0, VAL]
    rb = ops[i, S1, VAL]
    rc = ops[i, S2, VAL]
    rd = ops[i, D0, VAL]
    c_is_imm = ops[i, S2, 0] == 3  # K_IMM: an inline constant accumulator
    c_imm = ops[i, S2, VAL]
    is_f64 = atype == T_F64
    is_int = atype == T_I8
    # A and B are staged as float64 bit patterns in rows MFMA_STAGE.. of T
    a_base = MFMA_STAGE * 64
    b_base = a_base + NB * M * K
    flat = T.reshape(T.size)
    kpl = K if NB > 1 else (K * M) // 64
    for lane in range(64):
        for e in range(kpl):
            if NB > 1:
                b, row, k = lane // M, lane % M, e
                bb, col = lane // N, lane % N
            else:
                b, row, k = 0, lane % M, kpl * (lane // M) + e
                bb, col = 0, lane % N
            flat[a_base + (b * M + row) * K + k] = bits64(_elem(vreg, w, ra, lane, e, atype))
            kb = e if NB > 1 else kpl * (lane // N) + e
            flat[b_base + (bb * K + kb) * N + col] = bits64(_elem(vreg, w, rb, lane, e, btype))
    G = 64 // N
    per_lane = (M * N * NB) // 64
    for lane in range(64):
        for r in range(per_lane):
            if NB > 1:
                b, row, col = lane // N, r, lane % N
            else:
                b = 0
                col = lane % N
                row = 4 * G * (r // 4) + 4 * (lane // N) + r % 4
            acc = 0.0
            iacc = np.int64(0)
            for k in range(K):
                x = f64(flat[a_base + (b * M + row) * K + k])
                y = f64(flat[b_base + (b * K + k) * N + col])
                if is_int:
                    iacc += np.int64(x) * np.int64(y)
                else:
                    acc += x * y
            if is_f64:
                cv = f64(U(c_imm)) if c_is_imm else f64(U(vreg[w, rc + 2 * r, lane]) | (U(vreg[w, rc + 2 * r + 1, lane]) << U(32)))
                out = bits64(acc + cv)
                vreg[w, rd + 2 * r, lane] = np.uint32(out & U(0xFFFFFFFF))
                vreg[w, rd + 2 * r + 1, lane] = np.uint32(out >> U(32))
            elif is_int:
                cw = U(c_imm) if c_is_imm else U(vreg[w, rc + r, lane])
                cv = np.int64(cw & U(0xFFFFFFFF))
                if cv >= 0x80000000:
                    cv -= 0x100000000
                vreg[w, rd + r, lane] = np.uint32(U(iacc + cv) & U(0xFFFFFFFF))
            else:
                cw = U(c_imm) if c_is_imm else U(vreg[w, rc + r, lane])
                vreg[w, rd + r, lane] = np.uint32(bits32(np.float32(acc + np.float64(f32(cw)))))
    return 0
