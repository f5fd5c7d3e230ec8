"""Matrix fused multiply-add (v_mfma_*) with the hardware's register lane layouts.

Layouts follow AMD's matrix instruction calculator for CDNA2/CDNA3. For a
single-block M x N x K instruction with ``kpl`` K-values per lane:

* A[i][k]: lane = i + M * (k // kpl), element k % kpl of the lane's registers;
* B[k][j]: lane = j + N * (k // kpl), element k % kpl;
* C/D[i][j]: lane = j + N * g, register r where
  i = 4 * G * (r // 4) + 4 * g + r % 4 and G = 64 / N lane groups; for the
  f64 shape (16x16x4) r is a register pair and i = G * r + g.

A shape of NB > 1 blocks (M * NB = 64) holds block b's A[i][k] at lane
M * b + i and B[k][j] at lane N * b + j, element k. Its D is laid out per
block as a single block's, block b in the M * N / 64 registers after block
b - 1's; but the 16-block 4x4 shapes hold D[i][j].b in register i at lane
4b + j. The 4-block f64 one (v_mfma_f64_4x4x4_4b_f64) holds one value a lane: A[i][k].b
at lane 4b + i + 16k, B[k][j].b at lane 4b + j + 16k, D[i][j].b in the one
register pair at lane 4b + j + 16i.
Elements narrower than 32 bits are packed from the low bits up; f64 values
take register pairs; xf32 inputs are f32 registers rounded to TF32 (10
mantissa bits, nearest-even) before the product.

The modifiers (the calculator's _get_cbsz_abid_transformed_block and
_get_blgp_transformed_lane): with CBSZ c and ABID a, block b reads its A from
block (b >> c << c) + a, one block broadcast to each aligned group of 2**c;
BLGP p gives each lane of B another lane's value (1: lanes 0-31 to both
halves, 2: lanes 32-63 to both, 3: rotate down by 16, 4-7: lanes
16 (p - 4)..16 (p - 4) + 15 to every quarter). On gfx942 the f64 MFMAs read
the same three bits as neg:[A, B, C] instead, negating those operands.

A sparse (4:2) MFMA, gfx942's v_smfmac_*, accumulates into D (no C operand): its A registers hold the two
kept entries of each four consecutive K entries of a row, laid out as the dense A of half the K, and src2
holds their positions (2 bits each, a group's two in a 4-bit field); with CBSZ 0, ABID picks which set of
position bits of the register it reads (the calculator's --compression layout). The product is the dense
one of the decompressed A. Products are summed in float64 in k order, C is added
and the result rounded once, which is within the hardware's documented
accuracy; integer sums are exact this way (int8 products summed over at most
32 k, plus an int32 C, stay far below 2**53).
"""
import numpy as np
from numba import njit

from gpusim.asm.fields import MFMA_SPARSE, T_BF8, T_BF16, T_F16, T_F64, T_FP8, T_I8, T_XF32
from gpusim.asm.program import D0, M_ABID, M_BLGP, M_CBSZ, M_SUB, S0, S1, S2, VAL
from gpusim.exec.kernels.bits import bf16, bits32, bits64, f32, f64
from gpusim.exec.kernels.fp8 import fp8_value

U = np.uint64

# exec_mfma stages operands and sums as float64 in rows MFMA_STAGE.. of the
# scratch array T (viewed as one flat float64 array) so that every decode,
# product and store loop runs over contiguous memory:
#   A at _SA, lane-major: element e of lane l at _SA + 64 * e + l (64 * kpl <= 1024);
#   B at _SB, likewise;
#   D at _SD in register order: the sum for register r, lane l at _SD + 64 * r + l (<= 2048);
#   _ST, one row of 64 values, a copy of B's lanes for a BLGP swizzle.
# So A[i][k] (block b) is at _SA + 64 * (k % kpl) + M * (k // kpl + b) + i and
# B[k][j] at _SB + 64 * (k % kpl) + N * (k // kpl + b) + j, with b = 0 for a
# single-block shape and kpl = K for a 16-block one.
MFMA_STAGE = 8
_SA = MFMA_STAGE * 64
_SB = _SA + 1024
_SD = _SB + 1024
_ST = _SD + 2048
SCRATCH_ROWS_NEEDED = MFMA_STAGE + 65


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
def _half_value(h):
    """_half_value decodes IEEE half bits (low 16 bits of ``h``) to float64, exactly and without branches.

    A normal half's exponent and mantissa, moved to a float64's and rebiased
    by adding 1008 to the exponent, give its value; a subnormal's value is
    its mantissa times 2**-24 (no float64 subnormal is ever formed, so no
    slow path of the CPU is taken); infinity and NaN get an all-ones exponent.
    """
    mag = U(h) & U(0x7FFF)
    v = f64((mag << U(42)) + U(0x3F00000000000000))  # 1008 << 52
    if mag < U(0x400):
        v = np.float64(np.int64(mag)) * 5.9604644775390625e-08  # 2.0 ** -24
    elif mag >= U(0x7C00):
        v = f64((mag << U(42)) | U(0x7FF0000000000000))
    return f64(bits64(v) | ((U(h) & U(0x8000)) << U(48)))


@njit(_nrt=False)
def _tf32_value(x):
    """_tf32_value rounds f32 bits to TF32 (xf32: 8 exponent, 10 mantissa bits), nearest-even, as float64.

    The xf32 MFMAs read each f32 input at this precision: the 13 low
    mantissa bits round to nearest, ties to even (a carry may raise the
    exponent, and the largest finite values round to infinity). Infinities
    and NaNs pass unchanged.
    """
    x = U(x) & U(0xFFFFFFFF)
    if x & U(0x7F800000) != U(0x7F800000):
        x = (x + U(0xFFF) + ((x >> U(13)) & U(1))) & U(0xFFFFE000)
    return np.float64(f32(x))


@njit(_nrt=False)
def _stage(vreg, w, base, t, kpl, S, off):
    """_stage decodes the ``kpl`` packed elements of every lane of the operand at VGPR ``base``.

    Element e of lane l goes to ``S[off + 64 * e + l]`` as float64; each lane loop is contiguous.
    """
    if t == T_F64:
        for e in range(kpl):
            for l in range(64):
                S[off + 64 * e + l] = f64(U(vreg[w, base + 2 * e, l]) | (U(vreg[w, base + 2 * e + 1, l]) << U(32)))
        return
    bits = _bits_per_elem(t)
    per = 32 // bits
    for e in range(kpl):
        r = base + e // per
        sh = U(bits * (e % per))
        o = off + 64 * e
        if t == T_F16:
            for l in range(64):
                S[o + l] = _half_value(U(vreg[w, r, l]) >> sh)
        elif t == T_BF16:
            for l in range(64):
                S[o + l] = np.float64(bf16(U(vreg[w, r, l]) >> sh))
        elif t == T_I8:
            for l in range(64):
                x = np.int64((U(vreg[w, r, l]) >> sh) & U(0xFF))
                S[o + l] = np.float64(x - ((x & 0x80) << 1))
        elif t == T_FP8:
            for l in range(64):
                S[o + l] = fp8_value(U(vreg[w, r, l]) >> sh, False)
        elif t == T_BF8:
            for l in range(64):
                S[o + l] = fp8_value(U(vreg[w, r, l]) >> sh, True)
        elif t == T_XF32:
            for l in range(64):
                S[o + l] = _tf32_value(vreg[w, r, l])
        else:
            for l in range(64):
                S[o + l] = np.float64(f32(vreg[w, r, l]))


@njit(_nrt=False)
def _d_slot(i, b, M, N, NB, pairs):
    """_d_slot is where row i of D's block b starts in the staged D (register order).

    A single-block shape holds D[i][j] in register 4 * (i // (4 * G)) + i % 4 at
    lane N * ((i // 4) % G) + j (G = 64 / N lane groups); one whose D takes
    register ``pairs`` (f64) holds it in pair i // G at lane N * (i % G) + j;
    a 16-block one holds D[i][j].b in register i at lane N * b + j, and the
    2- and 4-block ones hold block b as one block, after b * M * N / 64
    registers (AMD's matrix instruction calculator, --D-matrix --register-layout).
    """
    G = 64 // N
    if N == 4 and NB > 1:
        return _SD + 64 * i + N * b
    if pairs:
        return _SD + 64 * (i // G) + N * (i % G)
    return _SD + M * N * b + 64 * (4 * (i // (4 * G)) + i % 4) + N * ((i // 4) % G)


def _make_dot(M, N, K, NB):
    """_make_dot compiles the float64 product of an M x N x K MFMA with NB blocks, the shape as constants.

    D[i][j] = sum over k (in k order, from 0.0) of A[i][k] * B[k][j] for the
    staged operands, written in D's register order (_SD + 64 * register + lane).
    With the shape known, each chunk of up to 8 k values unrolls, the running
    sum of an output stays in a register through a chunk and the j loop
    vectorises. Multiply and add contract to one fused multiply-add, which is
    exact for every operand type but f64 (whose products float64 rounds):
    f16, bf16, f32, int8 and fp8 products fit a float64 mantissa, so rounding
    ``acc + a * b`` once or twice gives the same bits. f64 MFMAs use ``_dot_any``.
    """
    KPL = K if NB > 1 else K * M // 64
    KC = min(K, 8)  # KPL divides KC

    def dot(S):
        for k0 in range(0, K, KC):
            for b in range(NB):
                a = _SA + M * (k0 // KPL + b)
                bo = _SB + N * (k0 // KPL + b)
                for i in range(M):
                    d = _d_slot(i, b, M, N, NB, False)
                    for j in range(N):
                        acc = 0.0 if k0 == 0 else S[d + j]
                        for k in range(KC):  # element k % KPL of lane block k // KPL
                            e, q = k % KPL, k // KPL
                            acc += S[a + 64 * e + M * q + i] * S[bo + 64 * e + N * q + j]
                        S[d + j] = acc

    # Each product gets a name of its own. numba names compiled code after the function's qualified name and a
    # counter of the process that compiled it; ten closures all named '_make_dot.<locals>.dot' could so meet, in a
    # process that compiled one of them itself and loaded exec_mfma's cached code with another under the same
    # symbol, and the loaded code would call the wrong product (35 MFMA tests failed so, in a warm test run).
    dot.__name__ = dot.__qualname__ = f"dot_{M}x{N}x{K}x{NB}"
    return njit(_nrt=False, fastmath={"contract"})(dot)


_dot_32x32x2 = _make_dot(32, 32, 2, 1)
_dot_32x32x4 = _make_dot(32, 32, 4, 1)
_dot_32x32x8 = _make_dot(32, 32, 8, 1)
_dot_32x32x16 = _make_dot(32, 32, 16, 1)
_dot_16x16x4 = _make_dot(16, 16, 4, 1)
_dot_16x16x8 = _make_dot(16, 16, 8, 1)
_dot_16x16x16 = _make_dot(16, 16, 16, 1)
_dot_16x16x32 = _make_dot(16, 16, 32, 1)
_dot_4x4x1_16b = _make_dot(4, 4, 1, 16)
_dot_4x4x4_16b = _make_dot(4, 4, 4, 16)


@njit(_nrt=False)
def _dot_any(S, M, N, K, NB, pairs):
    """_dot_any is _make_dot's product with the shape at run time, for f64 and shapes without their own
    (``pairs``: D is f64, in register pairs laid out as _d_slot says).

    It never fuses a multiply and an add, so f64 products round as the hardware's do before the sum.
    """
    kpl = K if NB > 1 else (K * M) // 64
    for b in range(NB):
        for i in range(M):
            d = _d_slot(i, b, M, N, NB, pairs)
            for j in range(N):
                S[d + j] = 0.0
            for k in range(K):
                x = S[_SA + 64 * (k % kpl) + M * (k // kpl + b) + i]
                src = _SB + 64 * (k % kpl) + N * (k // kpl + b)
                for j in range(N):
                    S[d + j] += x * S[src + j]


@njit(_nrt=False)
def _dot_f64_4x4x4_4b(S):
    """_dot_f64_4x4x4_4b is the product of v_mfma_f64_4x4x4_4b_f64 (the layout in the module docstring) on the
    staged operands, one value a lane, multiplied then added as _dot_any does."""
    for b in range(4):
        for i in range(4):
            for j in range(4):
                acc = 0.0
                for k in range(4):
                    acc += S[_SA + 4 * b + i + 16 * k] * S[_SB + 4 * b + j + 16 * k]
                S[_SD + 16 * i + 4 * b + j] = acc


@njit(_nrt=False)
def _broadcast_a(S, M, kpl, cbsz, abid):
    """_broadcast_a applies CBSZ and ABID to the staged A of a multi-block shape (block b at lanes M * b..,
    M * NB = 64): every block takes the A of block (b >> cbsz << cbsz) + abid. The block each group reads from
    keeps its own values, so the copy may run in place."""
    for e in range(kpl):
        o = _SA + 64 * e
        for l in range(64):
            b = l // M
            S[o + l] = S[o + M * (((b >> cbsz) << cbsz) + abid) + l % M]


@njit(_nrt=False)
def _blgp_lane(l, blgp):
    """_blgp_lane is the lane of B whose value lane ``l`` reads under BLGP ``blgp`` (0: its own)."""
    if blgp == 1:
        return l % 32
    if blgp == 2:
        return 32 + l % 32
    if blgp == 3:
        return (l + 16) % 64
    if blgp >= 4:
        return 16 * (blgp - 4) + l % 16
    return l


@njit(_nrt=False)
def _swizzle_b(S, kpl, blgp):
    """_swizzle_b applies BLGP to the staged B: lane l of each element takes lane _blgp_lane(l) (through _ST)."""
    for e in range(kpl):
        o = _SB + 64 * e
        for l in range(64):
            S[_ST + l] = S[o + l]
        for l in range(64):
            S[o + l] = S[_ST + _blgp_lane(l, blgp)]


@njit(_nrt=False)
def _negate(S, off, n):
    for x in range(n):
        S[off + x] = -S[off + x]


@njit(_nrt=False)
def _write_d(vreg, w, rc, rd, t, c_is_imm, c_imm, S, nregs, neg_c):
    """_write_d adds C to the staged sums, rounds once to the destination type and stores D.

    The staged D is in register order, so each lane loop is contiguous. Every
    C value is read before its D is written, so D may be C; the common
    in-place case gets its own loops, as the vectoriser cannot prove the two
    registers equal. Integer sums take C exactly: sums of at most 32 int8
    products and an int32 are integers far below 2**53. ``neg_c`` (f64 only:
    gfx942's neg:[_, _, 1]) subtracts C instead.
    """
    if t == T_F64:
        sign = -1.0 if neg_c else 1.0
        if c_is_imm:
            cv = sign * f64(U(c_imm))
            for x in range(64 * nregs):
                S[_SD + x] += cv
        else:
            for r in range(nregs):
                for l in range(64):
                    S[_SD + 64 * r + l] += sign * f64(U(vreg[w, rc + 2 * r, l]) | (U(vreg[w, rc + 2 * r + 1, l]) << U(32)))
        for r in range(nregs):
            for l in range(64):
                x = bits64(S[_SD + 64 * r + l])
                vreg[w, rd + 2 * r, l] = np.uint32(x & U(0xFFFFFFFF))
                vreg[w, rd + 2 * r + 1, l] = np.uint32(x >> U(32))
    elif t == T_I8:
        if c_is_imm:
            ci = np.int64(U(c_imm) & U(0xFFFFFFFF))
            cv = np.float64(ci - ((ci & 0x80000000) << 1))
            for x in range(64 * nregs):
                S[_SD + x] += cv
        else:
            for r in range(nregs):
                for l in range(64):
                    ci = np.int64(vreg[w, rc + r, l])
                    S[_SD + 64 * r + l] += np.float64(ci - ((ci & 0x80000000) << 1))
        for r in range(nregs):
            for l in range(64):
                vreg[w, rd + r, l] = np.uint32(U(np.int64(S[_SD + 64 * r + l])) & U(0xFFFFFFFF))
    elif c_is_imm:
        cf = np.float64(f32(U(c_imm)))
        for r in range(nregs):
            for l in range(64):
                vreg[w, rd + r, l] = np.uint32(bits32(np.float32(S[_SD + 64 * r + l] + cf)))
    elif rc == rd:
        for r in range(nregs):
            for l in range(64):
                cv = np.float64(f32(vreg[w, rd + r, l]))
                vreg[w, rd + r, l] = np.uint32(bits32(np.float32(S[_SD + 64 * r + l] + cv)))
    else:
        for r in range(nregs):
            for l in range(64):
                cv = np.float64(f32(vreg[w, rc + r, l]))
                vreg[w, rd + r, l] = np.uint32(bits32(np.float32(S[_SD + 64 * r + l] + cv)))


@njit(_nrt=False)
def _decompress_a(vreg, w, ra, rk, t, kpl, S, index_set):
    """_decompress_a stages a sparse MFMA's A as the dense A of its shape (``kpl`` elements a lane, zeros where
    the 4:2 compression dropped an entry). Its registers at ``ra`` hold, for each group of four consecutive K
    entries of a row, the two kept ones in order (kpl / 2 elements a lane, laid out as a dense A of half the
    K); lane l of VGPR ``rk`` holds each group's two 2-bit positions in a 4-bit field, the first kept entry's
    in the low bits, in field ``index_set`` of kpl bits (AMD's matrix instruction calculator, --compression).
    Two equal positions add up."""
    kept = kpl // 2
    _stage(vreg, w, ra, t, kept, S, _SD)   # (D's area is free until the product)
    for x in range(64 * kpl):
        S[_SA + x] = 0.0
    for l in range(64):
        bits = U(vreg[w, rk, l]) >> U(index_set * kpl)
        for e in range(kept):
            pos = np.int64((bits >> U(2 * e)) & U(3))   # group e // 2's field holds bits 4 (e // 2) + 2 (e % 2)
            S[_SA + 64 * (4 * (e // 2) + pos) + l] += S[_SD + 64 * e + l]


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, cache=True)
def exec_mfma(i, w, ops, mods, vreg, T):
    """exec_mfma runs v_mfma instruction ``i`` for wave ``w`` (all lanes; EXEC is ignored by MFMA), with its
    CBSZ, ABID and BLGP (for f64, neg) modifiers as the module docstring says; the encoder refuses the values
    whose effect is not documented.

    Uses rows MFMA_STAGE.. of the scratch ``T`` to stage A, B and the float64 sums.
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
    kpl = (K * M * NB) // 64 if atype == T_F64 else K if NB > 1 else (K * M) // 64
    if kpl > 16 or M * N * NB > 2048:
        return -1  # more than the staging area holds: no such instruction in the table
    S = T.reshape(T.size).view(np.float64)
    cbsz = mods[i, M_CBSZ]
    abid = mods[i, M_ABID]
    blgp = mods[i, M_BLGP]
    sparse = (sub & MFMA_SPARSE) != 0
    if sparse:   # src2 holds the positions of A's kept entries, and D is also C
        _decompress_a(vreg, w, ra, rc, atype, kpl, S, abid if cbsz == 0 else 0)
        rc = rd
    else:
        _stage(vreg, w, ra, atype, kpl, S, _SA)
    _stage(vreg, w, rb, btype, kpl, S, _SB)
    neg_c = False
    if atype == T_F64:
        if blgp & 1:
            _negate(S, _SA, 64 * kpl)
        if blgp & 2:
            _negate(S, _SB, 64 * kpl)
        neg_c = (blgp & 4) != 0
    elif not sparse:   # (a sparse MFMA's CBSZ and ABID pick its position bits)
        if cbsz != 0 or abid != 0:
            _broadcast_a(S, M, kpl, cbsz, abid)
        if blgp != 0:
            _swizzle_b(S, kpl, blgp)
    shape = (M << 24) | (N << 16) | (K << 8) | NB  # 0xMMNNKKBB
    if atype == T_F64 and NB > 1:
        _dot_f64_4x4x4_4b(S)
    elif atype == T_F64:
        _dot_any(S, M, N, K, NB, True)
    elif shape == 0x20200801:
        _dot_32x32x8(S)
    elif shape == 0x10101001:
        _dot_16x16x16(S)
    elif shape == 0x20200201:
        _dot_32x32x2(S)
    elif shape == 0x10100401:
        _dot_16x16x4(S)
    elif shape == 0x20200401:
        _dot_32x32x4(S)
    elif shape == 0x10100801:
        _dot_16x16x8(S)
    elif shape == 0x20201001:
        _dot_32x32x16(S)
    elif shape == 0x10102001:
        _dot_16x16x32(S)
    elif shape == 0x04040110:
        _dot_4x4x1_16b(S)
    elif shape == 0x04040410:
        _dot_4x4x4_16b(S)
    else:
        _dot_any(S, M, N, K, NB, False)
    _write_d(vreg, w, rc, rd, atype, c_is_imm, c_imm, S, (M * N * NB) // 64, neg_c)
    return 0
