"""Golden tests of gfx9's 16-bit three-operand ops, 16-bit multiply-adds, the f16 frexp and normalized
conversions, the quad SADs, v_swap_b32 and v_pk_fmac_f16 (tests/exec/data/sem_gfx9_16bit.s), each against
Python arithmetic written from the instruction's definition.

The 16-bit results also show which half of the destination an instruction keeps: clang's v_mad_legacy_u16
and v_fma_legacy_f16 zero the high half, as do the VOP1 16-bit ops, while gfx9's op_sel forms keep it
(LLVM's GCNSubtarget::zeroesHigh16BitsOfDest).
"""
from __future__ import annotations

import numpy as np
import pytest

from exec_support import fixture_path, run_kernel

M16, M32 = 0xFFFF, 0xFFFFFFFF
# f16 patterns: normals of both signs, denormals, zeros, infinities and NaN
F16_POOL = np.array([0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x4248, 0xC248, 0x7BFF, 0xFBFF, 0x0001, 0x8001,
                     0x03FF, 0x7C00, 0xFC00, 0x7E00, 0x3555, 0xB555, 0x5640, 0x1400, 0x9400, 0x3BFF, 0xBBFF],
                    dtype=np.uint32)


def h2f(bits: int) -> float:
    return float(np.array([bits & M16], dtype=np.uint16).view(np.float16)[0])


def f2h(x: float) -> int:
    return int(np.array([x], dtype=np.float64).astype(np.float16).view(np.uint16)[0])


def w2f(bits: int) -> float:
    return float(np.array([bits & M32], dtype=np.uint32).view(np.float32)[0])


def s16(x: int) -> int:
    x &= M16
    return x - 65536 if x >> 15 else x


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def pick(x: float, y: float, lower: bool) -> float:
    """the VALU's minimum (``lower``) or maximum: a NaN operand gives the other one, and -0 is below +0"""
    if x != x or y != y:
        return y if x != x else x
    if x == y:
        return x if np.signbit(x) == lower else y
    return min(x, y) if lower else max(x, y)


def fmin(x: float, y: float) -> float:
    return pick(x, y, True)


def fmax(x: float, y: float) -> float:
    return pick(x, y, False)


def norm(x: float, signed: bool) -> int:
    if x != x:
        return 0
    lo = -1.0 if signed else 0.0
    return int(np.rint(min(max(x, lo), 1.0) * (32767.0 if signed else 65535.0))) & M16


def byte_sad(window: int, ref: int, masked: bool) -> int:
    total = 0
    for k in range(4):
        x, y = (window >> 8 * k) & 0xFF, (ref >> 8 * k) & 0xFF
        if not (masked and y == 0):
            total += abs(x - y)
    return total


def qsad(src0: int, ref: int, acc: int, masked: bool) -> int:
    out = 0
    for k in range(4):
        window = (src0 >> 8 * k) & M32
        out |= ((byte_sad(window, ref, masked) + ((acc >> 16 * k) & M16)) & M16) << 16 * k
    return out


def same_half(got: int, want: int) -> bool:
    """same_half: equal f16 bits, or both NaN (a NaN's payload is not checked)"""
    nan = lambda h: (h & 0x7C00) == 0x7C00 and (h & 0x3FF) != 0  # noqa: E731
    return got == want or (nan(got) and nan(want))


@pytest.fixture(scope="module")
def run():
    rng = np.random.default_rng(916)
    n = 256
    lo = rng.choice(F16_POOL, size=(3, n))
    hi = rng.choice(F16_POOL, size=(3, n))
    a, b, c = (lo[k] | (hi[k] << 16) for k in range(3))
    # lanes 128..255 hold f32 values near [-1, 1] for the f32 normalized conversions (and random integers'
    # bytes for the SADs), lane 255 a NaN
    f = rng.uniform(-1.5, 1.5, size=(2, 128)).astype(np.float32)
    a[128:], b[128:] = f[0].view(np.uint32), f[1].view(np.uint32)
    a[255] = 0x7FC00000
    c[200:] = rng.integers(0, 1 << 32, 56, dtype=np.uint64).astype(np.uint32)
    c[200:210] &= 0xFF00FF00   # references with zero bytes, which the masked SAD leaves out
    out = run_kernel(fixture_path("sem_gfx9_16bit.s"), {"a": a, "b": b, "c": c})["out"].reshape(n, 32)
    return [int(x) for x in a], [int(x) for x in b], [int(x) for x in c], out.astype(np.int64)


def check(run, slot, want_of, compare=lambda got, want: got == want):
    a, b, c, out = run
    bad = [(lane, hex(int(out[lane, slot])), hex(want_of(a[lane], b[lane], c[lane])))
           for lane in range(len(a)) if not compare(int(out[lane, slot]), want_of(a[lane], b[lane], c[lane]))]
    assert not bad, f"slot {slot}: {len(bad)} lanes differ, first (lane, got, want): {bad[:4]}"


def f16_result(x: float) -> int:
    return f2h(x) if x == x else 0x7E00


def test_f16_min3_max3_take_the_extremes_with_nan_and_signed_zero(run):
    check(run, 0, lambda a, b, c: f16_result(fmin(fmin(h2f(a), h2f(b)), h2f(c))), same_half)
    check(run, 1, lambda a, b, c: f16_result(fmax(fmax(h2f(a), h2f(b)), h2f(c))), same_half)


def test_f16_med3_is_the_median(run):
    a, b, c, out = run
    for lane in range(256):
        xs = [h2f(a[lane]), h2f(b[lane]), h2f(c[lane])]
        if any(x != x for x in xs):
            continue
        assert h2f(int(out[lane, 2])) == sorted(xs)[1], (lane, xs, hex(int(out[lane, 2])))


def test_i16_and_u16_min3_max3_med3(run):
    for slot, signed, pick in ((3, True, 0), (4, True, 2), (5, True, 1), (6, False, 0), (7, False, 2),
                               (8, False, 1)):
        conv = s16 if signed else (lambda x: x & M16)
        check(run, slot, lambda a, b, c, conv=conv, pick=pick: sorted((conv(a), conv(b), conv(c)))[pick] & M16)


def test_legacy_mad_zeroes_the_high_half_and_the_op_sel_form_keeps_it(run):
    check(run, 9, lambda a, b, c: (a * b + c) & M16)                        # v_mad_legacy_u16
    check(run, 10, lambda a, b, c: ((a * b + c) & M16) | (c & ~M16 & M32))  # v_mad_u16


def test_16_bit_multiply_adds_to_32_bits(run):
    check(run, 11, lambda a, b, c: (s16(a) * s16(b) + s32(c)) & M32)
    check(run, 12, lambda a, b, c: ((a >> 16) * (b >> 16) + c) & M32)    # op_sel picks the high halves


def test_f16_frexp(run):
    def mant(a, b, c):
        x = h2f(a)
        return f16_result(x if x != x or abs(x) == np.inf else float(np.frexp(x)[0]))

    def expo(a, b, c):
        x = h2f(a)
        return 0 if x != x or abs(x) == np.inf else int(np.frexp(x)[1]) & M16

    check(run, 13, mant, same_half)
    check(run, 14, expo)    # (started from c: the high half is zeroed)


def test_normalized_conversions(run):
    check(run, 15, lambda a, b, c: norm(h2f(a), True))
    check(run, 16, lambda a, b, c: norm(h2f(a), False))
    check(run, 17, lambda a, b, c: norm(w2f(a), True) | norm(w2f(b), True) << 16)
    check(run, 18, lambda a, b, c: norm(w2f(a), False) | norm(w2f(b), False) << 16)
    check(run, 19, lambda a, b, c: norm(h2f(a >> 16), True) | norm(h2f(b), True) << 16)


def test_saturating_byte_pack_and_the_4_bit_offsets(run):
    check(run, 20, lambda a, b, c: min(max(s16(a), 0), 255) | min(max(s16(a >> 16), 0), 255) << 8)
    table = [k / 16 for k in range(8)] + [k / 16 for k in range(-8, 0)]
    check(run, 21, lambda a, b, c: int(np.array([table[a & 15]], dtype=np.float32).view(np.uint32)[0]))


def test_quad_sads(run):
    a, b, c, out = run
    for slot, masked in ((22, False), (24, True)):
        got = [int(out[lane, slot]) | int(out[lane, slot + 1]) << 32 for lane in range(256)]
        want = [qsad(a[lane] | b[lane] << 32, c[lane], b[lane] | c[lane] << 32, masked) for lane in range(256)]
        assert got == want


def test_swap_exchanges_the_registers(run):
    check(run, 26, lambda a, b, c: b)
    check(run, 27, lambda a, b, c: a)


def test_packed_fmac_rounds_each_half_once(run):
    def fmac(a, b, c):
        halves = [f16_result(h2f(a >> s) * h2f(b >> s) + h2f(c >> s)) for s in (0, 16)]
        return halves[0] | halves[1] << 16

    check(run, 28, fmac, lambda got, want: same_half(got & M16, want & M16) and same_half(got >> 16, want >> 16))


def test_op_sel_writes_the_high_half_and_keeps_the_low(run):
    check(run, 29, lambda a, b, c: (c & M16) | (sorted((s16(a), s16(b >> 16), s16(c)))[1] & M16) << 16)


def test_fma_legacy_zeroes_and_min3_keeps_the_high_half(run):
    check(run, 30, lambda a, b, c: f16_result(h2f(a) * h2f(b) + h2f(c)), same_half)
    check(run, 31, lambda a, b, c: max(a & M16, b & M16, c & M16) | (c & ~M16 & M32))
