"""Golden tests of instruction semantics: tiny hand-written kernels compute one
value per lane and slot, and each is compared with numpy or exact Python
arithmetic written from the ISA's definition (not from gpusim's code).

The kernels live in tests/exec/data/sem_*.s; each file's header comment says
what every output slot holds.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from exec_support import fixture_path, run_kernel

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
U32 = np.uint32
F32 = np.float32


def as_f32(bits) -> np.ndarray:
    return np.asarray(bits, dtype=np.uint32).view(np.float32)


def bits_of(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def round_to_f32(x: Fraction) -> np.float32:
    """round_to_f32 rounds an exact rational to float32, nearest-even, with no double rounding."""
    f = np.float32(float(x))
    cands = [f, np.nextafter(f, F32(np.inf)), np.nextafter(f, F32(-np.inf))]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - x), int(np.array(c).view(np.uint32)) & 1))


def exact_fma_f32(a, b, c) -> np.ndarray:
    return np.array([round_to_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(a, b, c)], dtype=np.float32)


def varied_f32(rng, n, lo_exp=-20, hi_exp=20) -> np.ndarray:
    """varied_f32 returns finite non-zero float32 values of both signs over a range of binades."""
    mant = rng.uniform(1.0, 2.0, n) * rng.choice([-1.0, 1.0], n)
    return (mant * 2.0 ** rng.integers(lo_exp, hi_exp, n)).astype(np.float32)


def u32(x: int) -> int:
    return x & M32


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


# ---------------------------------------------------------------- f32
@pytest.fixture(scope="module")
def f32_run():
    rng = np.random.default_rng(100)
    a, b, c = (varied_f32(rng, 256) for _ in range(3))
    out = run_kernel(fixture_path("sem_f32.s"), {"a": a, "b": b, "c": c})["out"]
    return a, b, c, out


def test_f32_add_mul_sub_max_match_numpy(f32_run):
    a, b, c, out = f32_run
    np.testing.assert_array_equal(bits_of(out[:, 0]), bits_of(a + b))
    np.testing.assert_array_equal(bits_of(out[:, 1]), bits_of(a * b))
    np.testing.assert_array_equal(bits_of(out[:, 4]), bits_of(a - b))
    np.testing.assert_array_equal(bits_of(out[:, 5]), bits_of(np.maximum(a, b)))
    np.testing.assert_array_equal(bits_of(out[:, 7]), bits_of(np.sort(np.stack([a, b, c]), axis=0)[1]))


def test_f32_fma_is_fused_and_rounded_once(f32_run):
    a, b, c, out = f32_run
    want = exact_fma_f32(a, b, c)
    np.testing.assert_array_equal(bits_of(out[:, 2]), bits_of(want))
    np.testing.assert_array_equal(bits_of(out[:, 6]), bits_of(want), err_msg="v_fmac_f32")
    # fma(a, b, -round(a*b)) is the exact rounding error of the product: zero for an unfused multiply-add
    residual = (a.astype(np.float64) * b.astype(np.float64) - (a * b).astype(np.float64)).astype(np.float32)
    assert np.count_nonzero(residual) > 200
    np.testing.assert_array_equal(bits_of(out[:, 3]), bits_of(residual))


# ---------------------------------------------------------------- f16 conversions
def _f16_conversion_inputs() -> np.ndarray:
    rng = np.random.default_rng(101)
    n = 65536
    # random mantissas over every binade that can round into, or out of, half range
    x = (rng.uniform(1.0, 2.0, n) * 2.0 ** rng.integers(-27, 18, n) * rng.choice([-1, 1], n)).astype(np.float32)
    # exact ties halfway between two adjacent halves (normal and subnormal)
    h = rng.integers(0, 0x7BFF, 8192).astype(np.uint16)
    lo = h.view(np.float16).astype(np.float64)
    hi = (h + 1).view(np.float16).astype(np.float64)
    x[:8192] = ((lo + hi) / 2 * rng.choice([-1, 1], 8192)).astype(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 65504.0, 65519.996, 65520.0, 1e6, -1e6,
                        2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 2.0 ** -26, 2.0 ** -14, 2.0 ** -14 * 0.99,
                        6.1e-5, 1.0, -1.0, 0.1, 1 / 3], dtype=np.float32)
    x[8192:8192 + special.size] = special
    return x


@pytest.fixture(scope="module")
def cvt_f16_run():
    x = _f16_conversion_inputs()
    final = run_kernel(fixture_path("sem_cvt_f16.s"), {"x": x})
    return x, final


def test_cvt_f16_f32_rounds_like_numpy(cvt_f16_run):
    x, final = cvt_f16_run
    got = final["h"]
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    nan = np.isnan(x)
    assert np.isnan(got[nan].view(np.float16)).all()
    bad = np.flatnonzero((got != want) & ~nan)
    assert bad.size == 0, [(float(x[i]), hex(got[i]), hex(want[i])) for i in bad[:5]]


def test_cvt_f32_f16_is_exact_for_every_half(cvt_f16_run):
    _, final = cvt_f16_run
    halves = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got = final["y"]
    nan = np.isnan(halves)
    assert nan.sum() == 2 * 1023
    assert np.isnan(got[nan]).all()
    np.testing.assert_array_equal(bits_of(got[~nan]), bits_of(halves[~nan].astype(np.float32)))


def test_f16_f32_f16_round_trip_is_identity(cvt_f16_run):
    _, final = cvt_f16_run
    every = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    nan = np.isnan(every.view(np.float16))
    np.testing.assert_array_equal(final["rt"][~nan], every[~nan])
    assert np.isnan(final["rt"][nan].view(np.float16)).all()


# ---------------------------------------------------------------- bf16
def bf16_reference(x: np.ndarray) -> np.ndarray:
    """bf16_reference rounds float32 to bfloat16 by value: nearest, ties to the even significand."""
    out = np.empty(x.size, dtype=np.uint16)
    for n, v in enumerate(x):
        bits = int(np.array(v).view(np.uint32))
        if np.isnan(v):
            out[n] = (bits | 0x400000) >> 16
            continue
        lo = bits & 0xFFFF0000
        hi = lo + 0x10000

        def value(b):
            mag = b & 0x7FFFFFFF
            if mag == 0x7F800000 and (bits & 0x7FFFFFFF) != 0x7F800000:
                return Fraction(2) ** 128 * (-1 if b >> 31 else 1)  # the step past the largest finite bf16
            return Fraction(float(np.array(b, dtype=np.uint32).view(np.float32)))

        if (bits & 0x7FFFFFFF) >= 0x7F800000:
            out[n] = bits >> 16
            continue
        d_lo, d_hi = abs(value(lo) - Fraction(float(v))), abs(value(hi) - Fraction(float(v)))
        out[n] = (lo if d_lo < d_hi or (d_lo == d_hi and not (lo >> 16) & 1) else hi) >> 16
    return out


def test_bf16_round_to_nearest_even():
    rng = np.random.default_rng(102)
    n = 1024
    bits = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    # ties: exactly half a bf16 ulp above an even and an odd bf16 significand
    bits[:64] = (bits[:64] & 0xFFFE0000) | 0x8000
    bits[64:128] = (bits[64:128] & 0xFFFE0000) | 0x18000
    # just above and below the tie
    bits[128:160] = (bits[128:160] & 0xFFFF0000) | 0x8001
    bits[160:192] = (bits[160:192] & 0xFFFF0000) | 0x7FFF
    special = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFA00000,
                        0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x00008000, 0x00018000, 0x3F808000, 0x3F818000],
                       dtype=np.uint32)
    bits[192:192 + special.size] = special
    x = bits.view(np.float32)
    final = run_kernel(fixture_path("sem_bf16.s"), {"x": x})
    want = bf16_reference(x)
    bad = np.flatnonzero(final["bf"] != want)
    assert bad.size == 0, [(hex(bits[i]), hex(final["bf"][i]), hex(want[i])) for i in bad[:5]]
    np.testing.assert_array_equal(final["back"].view(np.uint32), want.astype(np.uint32) << 16)


# ---------------------------------------------------------------- f64
def test_f64_fma_and_division_sequence_are_correctly_rounded():
    rng = np.random.default_rng(103)
    n = 256
    a = rng.uniform(1, 2, n) * 2.0 ** rng.integers(-300, 300, n) * rng.choice([-1, 1], n)
    b = rng.uniform(1, 2, n) * 2.0 ** rng.integers(-300, 300, n) * rng.choice([-1, 1], n)
    c = rng.uniform(1, 2, n) * 2.0 ** rng.integers(-300, 300, n) * rng.choice([-1, 1], n)
    # make some c cancel most of a*b so an unfused multiply-add would show
    c[:64] = -(a[:64] * b[:64])
    b[200:210] = a[200:210]          # a / a == 1
    a[210:215] = 0.0                 # 0 / b
    out = run_kernel(fixture_path("sem_f64.s"), {"a": a, "b": b, "c": c})["out"]
    fma = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])
    np.testing.assert_array_equal(out[:, 0].view(np.uint64), fma.view(np.uint64))
    assert np.count_nonzero(fma[:64]) > 50
    np.testing.assert_array_equal(out[:, 1].view(np.uint64), (a / b).view(np.uint64))
    np.testing.assert_array_equal(out[:, 2].view(np.uint64), (a * b).view(np.uint64))
    np.testing.assert_array_equal(out[:, 3].view(np.uint64), (a + c).view(np.uint64))


def test_f64_division_special_operands():
    a = np.array([1.0, -1.0, 0.0, np.inf, 1.0, 0.0, np.nan, 5e-324, 1e-300, 3.0, -0.0, 7.0] * 21 + [1.0] * 4)
    b = np.array([0.0, 0.0, 0.0, np.inf, np.inf, 5.0, 2.0, 2.0, 1e10, 3.0, 4.0, -np.inf] * 21 + [7.0] * 4)
    out = run_kernel(fixture_path("sem_f64.s"), {"a": a, "b": b, "c": np.zeros(256)})["out"]
    with np.errstate(divide="ignore", invalid="ignore"):
        want = a / b
    nan = np.isnan(want)
    assert np.isnan(out[nan, 1]).all()
    np.testing.assert_array_equal(out[~nan, 1].view(np.uint64), want[~nan].view(np.uint64))


def test_f64_division_with_denormal_divisor_or_overflowing_quotient():
    a = np.array([1e-300, 1e308, 1.0, -1e300] * 64)
    b = np.array([1e-310, 1e-308, 1e-310, 1e-300] * 64)
    out = run_kernel(fixture_path("sem_f64.s"), {"a": a, "b": b, "c": np.zeros(256)})["out"]
    with np.errstate(over="ignore"):
        want = a / b          # 1e10, inf, inf, -inf
    np.testing.assert_array_equal(out[:4, 1], want[:4])


# ---------------------------------------------------------------- integers
@pytest.fixture(scope="module")
def int_run():
    rng = np.random.default_rng(104)
    a, b, c = (rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    a[:8] = [0, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 1, 0xFFFFFFFF, 0x80000000, 0x12345678]
    b[:8] = [0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0, 31, 31, 4]
    c[:8] = [0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0, 1, 4, 8]
    out = run_kernel(fixture_path("sem_int.s"), {"a": a, "b": b, "c": c})["out"]
    return [int(v) for v in a], [int(v) for v in b], [int(v) for v in c], out


def _bfe(a: int, off: int, width: int, signed: bool) -> int:
    """_bfe follows the ISA: tmp = (S0 >> offset) & mask(width), arithmetic shift for _i32, then sign-extend."""
    src = s32(a) if signed else a
    if width == 0:
        return 0
    field = (src >> off) & ((1 << width) - 1)
    if signed and field >> (width - 1) & 1:
        field -= 1 << width
    return u32(field)


def _perm(a: int, b: int, sel: int) -> int:
    src = (a << 32) | b
    out = 0
    for k in range(4):
        s = (sel >> (8 * k)) & 0xFF
        if s < 8:
            byte = (src >> (8 * s)) & 0xFF
        elif s < 12:
            byte = 0xFF if (src >> (16 * (s - 8) + 15)) & 1 else 0
        elif s == 12:
            byte = 0
        else:
            byte = 0xFF
        out |= byte << (8 * k)
    return out


def test_mul_hi_and_mad_u64_u32(int_run):
    a, b, c, out = int_run
    for n in range(256):
        assert out[n, 0] == (a[n] * b[n]) >> 32, n
        assert out[n, 1] == u32((s32(a[n]) * s32(b[n])) >> 32), n
        full = a[n] * b[n] + (c[n] | (b[n] << 32))
        assert (int(out[n, 2]), int(out[n, 3]), int(out[n, 4])) == (full & M32, (full >> 32) & M32, full >> 64), n
        assert out[n, 10] == u32(a[n] * b[n]), n


def test_bfe_with_field_inside_the_word(int_run):
    a, b, c, out = int_run
    for n in range(256):
        off = b[n] & 31
        width = min(32 - off, c[n] & 31)
        assert out[n, 5] == _bfe(a[n], off, width, False), n
        assert out[n, 6] == _bfe(a[n], off, width, True), n


def test_bfe_i32_field_past_bit_31_uses_arithmetic_shift(int_run):
    a, b, c, out = int_run
    bad = [n for n in range(256) if out[n, 9] != _bfe(a[n], b[n] & 31, c[n] & 31, True)]
    assert not bad, [(hex(a[n]), b[n] & 31, c[n] & 31, hex(int(out[n, 9]))) for n in bad[:4]]


def test_alignbit_alignbyte_perm(int_run):
    a, b, c, out = int_run
    for n in range(256):
        wide = (a[n] << 32) | b[n]
        assert out[n, 7] == (wide >> (c[n] & 31)) & M32, n
        assert out[n, 11] == (wide >> (8 * (c[n] & 3))) & M32, n
        assert out[n, 8] == _perm(a[n], b[n], c[n] & 0x0F0F0F0F), n


# ---------------------------------------------------------------- compares with NaN, cndmask
def test_f32_compares_with_nan_and_cndmask():
    rng = np.random.default_rng(105)
    a = varied_f32(rng, 256, -3, 3)
    b = varied_f32(rng, 256, -3, 3)
    b[0:32] = a[0:32]                    # equal
    a[32:64] = np.nan                    # NaN on the left
    b[64:96] = np.nan                    # NaN on the right
    a[96:112] = b[96:112] = np.nan       # both
    a[112:120], b[112:120] = np.inf, -np.inf
    a[120:128], b[120:128] = -np.inf, np.inf
    a[128:136], b[128:136] = 0.0, -0.0
    out = run_kernel(fixture_path("sem_cmp_nan.s"), {"a": a, "b": b})["out"]
    with np.errstate(invalid="ignore"):
        unordered = np.isnan(a) | np.isnan(b)
        expect = {0: unordered, 1: ~(a >= b), 2: a < b, 3: ~unordered, 4: ~(a == b), 5: a == b, 6: unordered}
        for slot, want in expect.items():
            np.testing.assert_array_equal(out[:, slot], want.astype(np.uint32), err_msg=f"slot {slot}")
        picked = np.where(a < b, b, a)
    np.testing.assert_array_equal(out[:, 7], bits_of(picked))


# ---------------------------------------------------------------- DPP
def _dpp_source(ctrl: str, lane: int):
    row, r = lane & ~15, lane & 15
    kind, _, arg = ctrl.partition(":")
    if kind == "row_shr":
        return lane - int(arg) if r >= int(arg) else None
    if kind == "row_shl":
        return lane + int(arg) if r + int(arg) < 16 else None
    if kind == "row_ror":
        return row + (r - int(arg)) % 16
    if kind == "row_mirror":
        return row + 15 - r
    if kind == "row_half_mirror":
        return (lane & ~7) + 7 - (lane & 7)
    if kind == "row_bcast":
        if int(arg) == 15:
            return row - 1 if row else None
        return 31 if lane >= 32 else None
    if kind == "quad_perm":
        sel = [int(v) for v in arg.strip("[]").split(",")]
        return (lane & ~3) + sel[lane & 3]
    raise AssertionError(ctrl)


def _dpp_expect(x, ctrl, row_mask=0xF, bank_mask=0xF, bound_ctrl=False, add_own=False):
    old = [0xDEAD0000 + l for l in range(64)]
    out = list(old)
    for l in range(64):
        if not (row_mask >> (l // 16)) & 1 or not (bank_mask >> ((l >> 2) & 3)) & 1:
            continue
        src = _dpp_source(ctrl, l)
        if src is None and not bound_ctrl:
            continue
        v = 0 if src is None else int(x[src])
        out[l] = u32(v + int(x[l])) if add_own else v
    return np.array(out, dtype=np.uint32)


@pytest.mark.parametrize("slot, ctrl, kw", [
    (0, "row_shr:1", {}),
    (1, "row_shr:3", {"bound_ctrl": True}),
    (2, "row_bcast:15", {"row_mask": 0xA}),
    (3, "row_bcast:31", {"row_mask": 0xC}),
    (4, "quad_perm:[3,2,1,0]", {}),
    (5, "quad_perm:[1,1,0,2]", {"bank_mask": 0x5}),
    (6, "row_ror:4", {}),
    (7, "row_mirror", {}),
    (8, "row_shl:2", {"bound_ctrl": True, "add_own": True}),
    (9, "row_half_mirror", {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_dpp_lane_moves(dpp_run, slot, ctrl, kw):
    x, out = dpp_run
    np.testing.assert_array_equal(out[:, slot], _dpp_expect(x, ctrl, **kw))


@pytest.fixture(scope="module")
def dpp_run():
    x = np.random.default_rng(106).permutation(np.arange(1000, 1064)).astype(np.uint32)
    return x, run_kernel(fixture_path("sem_dpp.s"), {"x": x})["out"]


# ---------------------------------------------------------------- ds_swizzle, ds_(b)permute
def test_swizzle_and_permutes():
    rng = np.random.default_rng(107)
    x = rng.permutation(np.arange(5000, 5064)).astype(np.uint32)
    idx = rng.permutation(64).astype(np.uint32)
    out = run_kernel(fixture_path("sem_crosslane.s"), {"x": x, "idx": idx})["out"]
    lanes = np.arange(64)
    sources = {
        0: lanes ^ 16,                                                      # SWAP,16
        1: lanes ^ 7,                                                       # REVERSE,8
        2: (lanes & ~3) | np.array([1, 0, 3, 2])[lanes & 3],                # QUAD_PERM,1,0,3,2
        3: (lanes & 32) | 8 | (lanes & 4) | (~lanes & 2),                   # BITMASK_PERM "01pi0"
        4: (lanes & ~7) | 3,                                                # BROADCAST,8,3
        5: idx,                                                             # ds_bpermute
    }
    for slot, src in sources.items():
        np.testing.assert_array_equal(out[:, slot], x[src], err_msg=f"slot {slot}")
    pushed = np.zeros(64, dtype=np.uint32)
    pushed[idx] = x
    np.testing.assert_array_equal(out[:, 6], pushed, err_msg="ds_permute_b32")
    partial = np.where(idx < 32, x[idx], 0).astype(np.uint32)
    partial[32:] = 0xDEAD0000 + lanes[32:]
    np.testing.assert_array_equal(out[:, 7], partial, err_msg="ds_bpermute_b32 with EXEC = lanes 0-31")


# ---------------------------------------------------------------- readlane / partial EXEC
def test_readlane_readfirstlane_writelane_with_partial_exec():
    x = np.random.default_rng(108).permutation(np.arange(7000, 7064)).astype(np.uint32)
    out = run_kernel(fixture_path("sem_readlane.s"), {"x": x})["out"]
    exec_mask = (0x0FF00000 << 32) | 0xF0F0F0F0
    active = np.array([(exec_mask >> l) & 1 for l in range(64)], dtype=bool)
    assert (out[:, 0] == x[4]).all(), "v_readfirstlane_b32 reads the first active lane"
    assert (out[:, 1] == x[2]).all(), "v_readlane_b32 reads an inactive lane too"
    assert (out[:, 2] == x[6]).all(), "v_readlane_b32 uses the lane select modulo 64"
    y = np.where(active, x + 1, 0xDEAD0000 + np.arange(64)).astype(np.uint32)
    y[9] = x[4]
    np.testing.assert_array_equal(out[:, 3], y)
    assert (out[:, 4] == 24).all(), "s_bcnt1_i32_b64 exec"
    mbcnt = np.where(active, np.cumsum(active) - 1, 0)
    np.testing.assert_array_equal(out[:, 5], mbcnt)


# ---------------------------------------------------------------- SALU 64-bit and SCC
def _salu_expect(p):
    p = [int(v) for v in p]
    A, B, sh, ctl, x, y = p[0] | p[1] << 32, p[2] | p[3] << 32, p[4], p[5], p[6], p[7]

    def signed64(v):
        return v - (1 << 64) if v >> 63 else v

    def bfe64(v, signed):
        off, width = ctl & 63, (ctl >> 16) & 127
        src = signed64(v) if signed else v
        if width == 0:
            return 0
        field = (src >> off) & ((1 << width) - 1)
        if signed and field >> (width - 1) & 1:
            field -= 1 << width
        return field & M64

    def split(v):
        return [v & M32, (v >> 32) & M32]

    s = sh & 63
    r = [0] * 32
    r[0:2] = split(A + B)
    r[2] = int(A + B > M64)
    r[3] = int(A < B)
    r[4:6] = split(A - B)
    r[6:8] = split(A << s)
    r[8] = int((A << s) & M64 != 0)
    r[9] = int(A & B != 0)
    r[10:12] = split(A >> s)
    r[12:14] = split(signed64(A) >> s)
    r[14:16] = split(bfe64(A, False))
    r[16:18] = split(A & B)
    r[18] = bin(A).count("1")
    r[19] = ((B & -B).bit_length() - 1) & M32 if B else M32
    r[20] = 64 - A.bit_length() if A else M32
    r[21] = 1
    r[22] = int(A != B)
    r[23] = 0
    r[24:26] = split(A if A == B else B)
    r[26] = (x * y) >> 32
    r[27] = u32(x * y)
    r[28:30] = split(bfe64(A, True))
    r[30] = u32(x + y)
    r[31] = int(not -(1 << 31) <= s32(x) + s32(y) < (1 << 31))
    return np.array(r, dtype=np.uint32)


@pytest.mark.parametrize("p", [
    [0xFFFFFFFF, 0x00000001, 0x00000001, 0x00000000, 0x47, (20 << 16) | 13, 0x7FFFFFFF, 0x00000001],
    [0x00000000, 0x80000000, 0x00000001, 0x80000000, 0x3F, (40 << 16) | 20, 0xFFFFFFFF, 0xFFFFFFFF],
    [0x89ABCDEF, 0x01234567, 0x89ABCDEF, 0x01234567, 0x00, (64 << 16) | 0, 0x80000000, 0x80000000],
    [0x00000000, 0x00000000, 0x00010000, 0x00000000, 0x21, (5 << 16) | 60, 0x12345678, 0x9ABCDEF0],
], ids=["carry", "borrow-sign", "equal", "zero"])
def test_salu_64bit_ops_and_scc(p):
    p = np.array(p + [0] * 8, dtype=np.uint32)
    got = run_kernel(fixture_path("sem_salu64.s"), {"p": p})["r"]
    want = _salu_expect(p)
    bad = [(k, hex(int(got[k])), hex(int(want[k]))) for k in range(32) if got[k] != want[k]]
    assert not bad, bad


# ---------------------------------------------------------------- packed f16
def test_packed_f16_op_sel_and_neg():
    rng = np.random.default_rng(109)
    halves = lambda: rng.uniform(-8, 8, 256).astype(np.float16)  # noqa: E731
    alo, ahi, blo, bhi, clo, chi = (halves() for _ in range(6))

    def pack(lo, hi):
        return lo.view(np.uint16).astype(np.uint32) | (hi.view(np.uint16).astype(np.uint32) << 16)

    a, b, c = pack(alo, ahi), pack(blo, bhi), pack(clo, chi)
    out = run_kernel(fixture_path("sem_pk_f16.s"), {"a": a, "b": b, "c": c})["out"]

    def fma16(x, y, z):
        return (x.astype(np.float64) * y.astype(np.float64) + z.astype(np.float64)).astype(np.float16)

    expect = {
        0: pack(alo + blo, ahi + bhi),
        1: pack(ahi * blo, alo * bhi),
        2: pack(fma16(-alo, blo, clo), fma16(ahi, bhi, -chi)),
        3: pack(fma16(alo, blo, clo), fma16(alo, blo, clo)),
        4: pack(alo + bhi, ahi + blo),
        5: pack(np.maximum(alo, blo), np.maximum(ahi, bhi)),
    }
    for slot, want in expect.items():
        np.testing.assert_array_equal(out[:, slot], want, err_msg=f"slot {slot}")
    ua, ub = a.astype(np.uint64), b.astype(np.uint64)
    lo16 = lambda v: v & 0xFFFF  # noqa: E731
    hi16 = lambda v: v >> 16  # noqa: E731
    np.testing.assert_array_equal(out[:, 6], lo16(lo16(ua) * lo16(ub)) | (lo16(hi16(ua) * hi16(ub)) << 16))
    np.testing.assert_array_equal(out[:, 7], lo16(lo16(ua) + lo16(ub)) | (lo16(hi16(ua) + hi16(ub)) << 16))


# ---------------------------------------------------------------- MFMA lane layouts
# Register layouts as AMD's matrix instruction calculator prints them for CDNA3
# (amd_matrix_instruction_calculator --detail-instruction):
#   v_mfma_f32_32x32x8_f16:  A[i][k] lane i+32*(k//4), item k%4;  B[k][j] lane j+32*(k//4), item k%4
#                            D[i][j] lane j+32*((i//4)%2), VGPR 4*(i//8)+i%4
#   v_mfma_f32_16x16x16_f16: A[i][k] lane i+16*(k//4), item k%4;  B[k][j] lane j+16*(k//4), item k%4
#                            D[i][j] lane j+16*(i//4), VGPR i%4
#   v_mfma_f32_32x32x2_f32:  A[i][k] lane i+32*k;  B[k][j] lane j+32*k;  D as for 32x32x8
# (f16 items pack two per VGPR, item 0 in the low half)

def _distinct_f16(rng, shape):
    """_distinct_f16 returns distinct multiples of 1/8 in [-16, 16), all exact in f16."""
    n = int(np.prod(shape))
    return (rng.permutation(np.arange(-128, 128))[:n] / 8.0).reshape(shape)


def _pack_f16_items(items: np.ndarray) -> np.ndarray:
    """_pack_f16_items turns [lanes, items] f16 values into [lanes, items/2] u32 VGPR images."""
    h = items.astype(np.float16).view(np.uint16).astype(np.uint32)
    return h[:, 0::2] | (h[:, 1::2] << 16)


def _d_32x32(i, j):
    return j + 32 * ((i // 4) % 2), 4 * (i // 8) + i % 4


def _d_16x16(i, j):
    return j + 16 * (i // 4), i % 4


@pytest.mark.parametrize("name, M, N, K, kpl, dreg, d_layout", [
    ("sem_mfma_32x32x8_f16.s", 32, 32, 8, 4, 16, _d_32x32),
    ("sem_mfma_16x16x16_f16.s", 16, 16, 16, 4, 4, _d_16x16),
])
def test_mfma_f16_lane_layout(name, M, N, K, kpl, dreg, d_layout):
    rng = np.random.default_rng(110)
    A = _distinct_f16(rng, (M, K))
    B = _distinct_f16(rng, (K, N))
    C = (rng.permutation(M * N) - M * N // 2).reshape(M, N) / 4.0
    a_items = np.zeros((64, kpl))
    b_items = np.zeros((64, kpl))
    for i in range(M):
        for k in range(K):
            a_items[i + M * (k // kpl), k % kpl] = A[i, k]
    for k in range(K):
        for j in range(N):
            b_items[j + N * (k // kpl), k % kpl] = B[k, j]
    c_img = np.zeros((64, dreg), dtype=np.float32)
    for i in range(M):
        for j in range(N):
            lane, reg = d_layout(i, j)
            c_img[lane, reg] = C[i, j]
    d_img = run_kernel(fixture_path(name), {"a": _pack_f16_items(a_items), "b": _pack_f16_items(b_items),
                                            "c": c_img})["d"]
    D = np.zeros((M, N), dtype=np.float32)
    for i in range(M):
        for j in range(N):
            lane, reg = d_layout(i, j)
            D[i, j] = d_img[lane, reg]
    want = (A @ B + C).astype(np.float32)  # exact: every partial sum is a small multiple of 1/64
    np.testing.assert_array_equal(D, want)


def test_mfma_f32_32x32x2_lane_layout():
    rng = np.random.default_rng(111)
    A = ((rng.permutation(64) - 32) / 4.0).reshape(32, 2)
    B = ((rng.permutation(64) - 32) / 8.0).reshape(2, 32)
    C = (rng.permutation(1024) - 512).reshape(32, 32) / 16.0
    a_img = np.zeros(64, dtype=np.float32)
    b_img = np.zeros(64, dtype=np.float32)
    for i in range(32):
        for k in range(2):
            a_img[i + 32 * k] = A[i, k]
    for k in range(2):
        for j in range(32):
            b_img[j + 32 * k] = B[k, j]
    c_img = np.zeros((64, 16), dtype=np.float32)
    for i in range(32):
        for j in range(32):
            lane, reg = _d_32x32(i, j)
            c_img[lane, reg] = C[i, j]
    d_img = run_kernel(fixture_path("sem_mfma_32x32x2_f32.s"), {"a": a_img, "b": b_img, "c": c_img})["d"]
    D = np.array([[d_img[_d_32x32(i, j)] for j in range(32)] for i in range(32)], dtype=np.float32)
    np.testing.assert_array_equal(D, (A @ B + C).astype(np.float32))


# ---------------------------------------------------------------- conversions, bit counts, classes
def _f32_class(v: np.float32) -> int:
    bits = int(np.array(v).view(np.uint32))
    neg = bits >> 31
    if np.isnan(v):
        return 1 if bits & 0x400000 else 0
    if np.isinf(v):
        return 2 if neg else 9
    if v == 0:
        return 5 if neg else 6
    if bits & 0x7F800000 == 0:
        return 4 if neg else 7
    return 3 if neg else 8


def _pkrtz_half(x: np.float32) -> int:
    """_pkrtz_half rounds float32 to half toward zero."""
    if np.isnan(x):
        return -1
    with np.errstate(over="ignore"):
        h = np.float16(x)
    if np.isinf(h) and np.isfinite(x):
        h = np.float16(np.copysign(65504.0, x))
    elif abs(float(h)) > abs(float(x)):
        h = np.nextafter(h, np.float16(0))
    return int(np.array(h).view(np.uint16))


@pytest.fixture(scope="module")
def misc_run():
    rng = np.random.default_rng(112)
    fa = varied_f32(rng, 256, -10, 40)
    fa[:16] = [np.nan, -np.inf, np.inf, -0.0, 0.0, 2.5, -2.5, 3.5, 0.5, 1e-40, -1e-40, 4294967296.0, -1.5,
               2147483520.0, 2147483648.0, 1.5]
    fc = varied_f32(rng, 256, -10, 40)
    fc[16:24] = np.nan
    a = bits_of(fa)
    a[24:32] = [0x7F800001, 0xFF800001, 0x7FA00000, 0xFF812345, 0x7F800001, 0x7F800002, 0x7FBFFFFF, 0xFFBFFFFF]
    c = bits_of(fc)
    c[200:256] = rng.integers(0, 1 << 32, 56, dtype=np.uint64).astype(np.uint32)  # raw shift amounts / class masks
    b = rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32)
    b[:4] = [0, 1, 0x80000000, 0xFFFFFFFF]
    out = run_kernel(fixture_path("sem_misc.s"), {"a": a, "b": b, "c": c})["out"]
    return a, b, c, out


def test_float_to_int_conversions_truncate_and_saturate(misc_run):
    a, b, c, out = misc_run
    fa = as_f32(a)
    for n in range(256):
        x = float(fa[n])
        want_i = 0 if math.isnan(x) else max(-2 ** 31, min(2 ** 31 - 1, math.trunc(x))) if math.isfinite(x) else \
            (2 ** 31 - 1 if x > 0 else -2 ** 31)
        want_u = 0 if math.isnan(x) or x <= 0 else min(M32, math.trunc(x)) if math.isfinite(x) else M32
        assert out[n, 0] == u32(want_i), (n, x)
        assert out[n, 1] == want_u, (n, x)
    np.testing.assert_array_equal(as_f32(out[:, 2]), b.astype(np.float32))
    np.testing.assert_array_equal(as_f32(out[:, 3]), b.view(np.int32).astype(np.float32))


def test_cvt_pkrtz_rounds_toward_zero(misc_run):
    a, b, c, out = misc_run
    for n in range(256):
        lo, hi = int(out[n, 4]) & 0xFFFF, int(out[n, 4]) >> 16
        for got, x in ((lo, as_f32(a)[n]), (hi, as_f32(c)[n])):
            want = _pkrtz_half(x)
            if want < 0:
                assert np.isnan(np.array(got, dtype=np.uint16).view(np.float16)), n
            else:
                assert got == want, (n, float(x), hex(got), hex(want))


def test_bit_ops_and_64_bit_shift(misc_run):
    a, b, c, out = misc_run
    for n in range(256):
        x = int(b[n])
        wide = ((int(a[n]) | (x << 32)) << (int(c[n]) & 63)) & ((1 << 64) - 1)
        assert (int(out[n, 5]), int(out[n, 6])) == (wide & M32, wide >> 32), n
        assert out[n, 7] == (32 - x.bit_length() if x else M32), n
        assert out[n, 8] == ((x & -x).bit_length() - 1 if x else M32), n
        assert out[n, 9] == int(f"{x:032b}"[::-1], 2), n
        assert out[n, 10] == bin(x).count("1"), n


def test_min_max_with_quiet_nan_return_the_number(misc_run):
    a, b, c, out = misc_run
    fa, fc = as_f32(a), as_f32(c)
    sel = np.r_[0:24, 32:200]   # c holds floats there; a holds signalling NaNs in 24..31
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(out[sel, 11], bits_of(np.fmin(fa, fc))[sel])
        np.testing.assert_array_equal(out[sel, 12], bits_of(np.fmax(fa, fc))[sel])


def test_min_max_with_a_signalling_nan_return_a_quiet_nan(misc_run):
    a, b, c, out = misc_run
    quiet = a[24:32] | 0x400000
    np.testing.assert_array_equal(out[24:32, 11], quiet)
    np.testing.assert_array_equal(out[24:32, 12], quiet)


# one representative per v_cmp_class bit: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
# 7 +denormal, 8 +normal, 9 +inf
CLASS_VALUES = [0x7F800001, 0x7FC00000, 0xFF800000, 0xC0490FDB, 0x80000123, 0x80000000, 0x00000000,
                0x00400000, 0x3F800000, 0x7F800000]


def _class_run(classes):
    """_class_run runs v_cmp_class_f32 for every (value of class i, mask 1 << k) and returns {(i, k): bit}."""
    pairs = [(i, k) for i in classes for k in range(10)]
    a = np.zeros(256, dtype=np.uint32)
    c = np.zeros(256, dtype=np.uint32)
    for n, (i, k) in enumerate(pairs):
        a[n], c[n] = CLASS_VALUES[i], 1 << k
    out = run_kernel(fixture_path("sem_misc.s"), {"a": a, "b": np.zeros(256), "c": c})["out"]
    return {pair: int(out[n, 13]) for n, pair in enumerate(pairs)}


def _assert_class_bits(got):
    wrong = [(i, k, bit) for (i, k), bit in got.items() if bit != (i == k)]
    assert not wrong, [f"value of class {i} tested with mask bit {k}: got {bit}" for i, k, bit in wrong]


def test_cmp_class_of_normals_zeros_and_infinities():
    _assert_class_bits(_class_run([2, 3, 5, 6, 8, 9]))


def test_cmp_class_tells_signalling_from_quiet_nan():
    _assert_class_bits(_class_run([0, 1]))


def test_cmp_class_recognises_denormals():
    _assert_class_bits(_class_run([4, 7]))


def test_fract_and_rndne(misc_run):
    a, b, c, out = misc_run
    fa = as_f32(a)
    finite = np.isfinite(fa) & (np.abs(fa) > 1e-30)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(as_f32(out[finite, 14]), (fa - np.floor(fa))[finite])
    with np.errstate(invalid="ignore"):
        rounded = bits_of(np.rint(fa))
    np.testing.assert_array_equal(out[:, 15][~np.isnan(fa)], rounded[~np.isnan(fa)])
