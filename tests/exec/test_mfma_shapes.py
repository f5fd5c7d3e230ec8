"""Every v_mfma of the ISA table against a numpy reference built from the lane
layouts AMD's matrix instruction calculator gives (data/mfma_layouts: where each
entry of A, B and D lives): products summed in float64 in k order, C added,
rounded once; bit-exact, with D apart from C, D on C (in place) and C an inline
constant."""
from __future__ import annotations

import re
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from gpusim.asm import fields, isa
from gpusim.asm.program import (D0, K_IMM, K_VREG, KIND, M_ABID, M_BLGP, M_CBSZ, M_SUB, N_MODS, N_SLOTS, S0,
                                S1, S2, VAL)

TYPES = {"f32": fields.T_F32, "xf32": fields.T_XF32, "f16": fields.T_F16, "bf16": fields.T_BF16,
         "i8": fields.T_I8, "fp8": fields.T_FP8, "bf8": fields.T_BF8, "f64": fields.T_F64}
BITS = {"f16": 16, "bf16": 16, "i8": 8, "fp8": 8, "bf8": 8, "f64": 64}
MFMAS = sorted(name for name, d in isa.table().items() if d.fmt == "MFMA" and not d.sparse)   # (test_sparse_mfma.py)


def _fp8(code: int, bf8: bool) -> float:
    """_fp8 decodes an e4m3fnuz / e5m2fnuz byte (0x80 is NaN, no infinities)."""
    if code == 0x80:
        return float("nan")
    sign = -1.0 if code & 0x80 else 1.0
    ebits, bias = (5, 16) if bf8 else (4, 8)
    mbits = 7 - ebits
    e, m = (code >> mbits) & ((1 << ebits) - 1), code & ((1 << mbits) - 1)
    if e == 0:
        return sign * m / (1 << mbits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


def _operand(rng, t: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """_operand returns n random finite values of type t as (float64 values, raw element bits)."""
    if t == "f16":
        raw = rng.uniform(-4, 4, n).astype(np.float16).view(np.uint16).astype(np.uint64)
        raw[:4] = [0x0001, 0x83FF, 0x8000, 0x7BFF]  # subnormals, -0, the largest half
        return raw.astype(np.uint16).view(np.float16).astype(np.float64), raw
    if t == "bf16":
        raw = (rng.uniform(-4, 4, n).astype(np.float32).view(np.uint32) >> 16).astype(np.uint64)
        return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64), raw
    if t in ("fp8", "bf8"):
        raw = rng.integers(0, 256, n).astype(np.uint64)
        raw[raw == 0x80] = 0
        return np.array([_fp8(int(c), t == "bf8") for c in raw]), raw
    if t == "i8":
        v = rng.integers(-128, 128, n)
        return v.astype(np.float64), (v & 0xFF).astype(np.uint64)
    if t == "f64":
        v = rng.uniform(-4, 4, n)
        return v, v.view(np.uint64)
    v = rng.uniform(-4, 4, n).astype(np.float32)
    if t == "xf32":  # the MFMA reads f32 registers at TF32 precision: 11 significant bits, nearest-even
        mant, exp = np.frexp(v.astype(np.float64))
        return np.ldexp(np.rint(np.ldexp(mant, 11)), exp - 11), v.view(np.uint32).astype(np.uint64)
    return v.astype(np.float64), v.view(np.uint32).astype(np.uint64)


def _pack(raw: np.ndarray, bits: int) -> np.ndarray:
    """_pack turns [lanes, items] element bits into [registers, lanes] u32 VGPR images, low bits first."""
    lanes, items = raw.shape
    if bits == 64:
        out = np.empty((2 * items, lanes), np.uint32)
        out[0::2] = (raw & 0xFFFFFFFF).T
        out[1::2] = (raw >> 32).T
        return out
    per = 32 // bits
    words = np.zeros((lanes, max(1, items // per)), np.uint64)
    for e in range(items):
        words[:, e // per] |= raw[:, e] << np.uint64(bits * (e % per))
    return words.T.astype(np.uint32)


LAYOUTS = Path(__file__).parent / "data" / "mfma_layouts" / "layouts.npz"


@lru_cache(maxsize=None)
def _calculator_layouts() -> dict:
    with np.load(LAYOUTS) as z:
        return {key: z[key] for key in z.files}


def _place(name: str, matrix: str, bits: int) -> dict:
    """_place maps each (block, row, column) of matrix A, B or D of ``name`` to (element of its lane, lane), as
    the calculator lays it out (tests/exec/data/mfma_layouts/regenerate.py); for D, an element is a register
    (a register pair for f64). ``matrix`` may name a modified layout, as "A:cbsz2abid1" or "B:blgp3"."""
    out = {}
    for block, row, col, reg, lane, low in _calculator_layouts()[f"{name}:{matrix}"].tolist():
        out[block, row, col] = ((32 * reg + low) // bits, lane)
    return out


def test_the_layouts_cover_every_mfma_of_the_table():
    everyone = sorted(name for name, d in isa.table().items() if d.fmt == "MFMA")
    assert sorted({key.split(":")[0] for key in _calculator_layouts()}) == everyone


@pytest.mark.parametrize("name", MFMAS)
def test_the_modifiers_each_mfma_takes_are_the_calculators(name):
    """The largest CBSZ and whether BLGP swizzles B, as the encoder allows them, are the calculator's flags."""
    assert isa.table()[name].mfma_modifiers == tuple(_calculator_layouts()[f"{name}:flags"].tolist())


@pytest.mark.parametrize("c_mode", ["apart", "in_place", "inline"])
@pytest.mark.parametrize("name", MFMAS)
def test_mfma_matches_layout_reference(name, c_mode):
    _check_against_layouts(name, c_mode)


MODIFIED = sorted({tuple(key.split(":")[::2]) for key in _calculator_layouts() if key.count(":") == 2
                   and key.split(":")[0] in MFMAS})


@pytest.mark.parametrize("name, modifier", MODIFIED, ids=[f"{n}:{m}" for n, m in MODIFIED])
def test_cbsz_abid_and_blgp_read_the_entries_the_calculator_names(name, modifier):
    """Under CBSZ/ABID each block reads the A of the block the calculator names, and under BLGP each lane of B
    the lane it names."""
    matrix = "A" if modifier.startswith("cbsz") else "B"
    values = {k: int(v) for k, v in re.findall(r"([a-z]+?)(\d+)", modifier)}
    _check_against_layouts(name, "apart", {matrix: f"{matrix}:{modifier}"}, values)


@pytest.mark.parametrize("name", ["v_mfma_f64_16x16x4_f64", "v_mfma_f64_4x4x4_4b_f64"])
@pytest.mark.parametrize("neg", range(1, 8))
def test_gfx942_f64_neg_negates_a_b_and_c(name, neg):
    """gfx942's f64 MFMAs read BLGP's three bits as neg:[A, B, C] (llvm-mc encodes them there)."""
    _check_against_layouts(name, "apart", {}, {"blgp": neg}, negate=neg)


def _check_against_layouts(name, c_mode, layouts=None, modifiers=None, negate=0):
    """_check_against_layouts runs ``name`` through exec_mfma on random operands, C apart from D, on D (in place)
    or an inline constant, with the modifiers ``modifiers`` (cbsz, abid, blgp) set, and holds D bit for bit
    to the numpy reference built from the calculator's layouts (``layouts`` names modified ones for A or B);
    ``negate`` negates A, B and C (bits 0-2) in the reference."""
    from gpusim.exec.kernels.mfma import SCRATCH_ROWS_NEEDED, exec_mfma

    layouts = layouts or {}
    d = isa.table()[name]
    M, N, K, NB = d.shape
    rng = np.random.default_rng(zlib.crc32(f"{name} {c_mode} {layouts} {modifiers} {negate}".encode()))
    kpl = K * M * NB // 64 if d.atype == "f64" else K if NB > 1 else K * M // 64   # values a lane holds
    av, araw = _operand(rng, d.atype, 64 * kpl)
    bv, braw = _operand(rng, d.btype, 64 * kpl)
    av, araw, bv, braw = (x.reshape(64, kpl) for x in (av, araw, bv, braw))
    A = np.zeros((NB, M, K))
    B = np.zeros((NB, K, N))
    for (b, i, k), (e, lane) in _place(name, layouts.get("A", "A"), BITS.get(d.atype, 32)).items():
        A[b, i, k] = av[lane, e]
    for (b, k, j), (e, lane) in _place(name, layouts.get("B", "B"), BITS.get(d.btype, 32)).items():
        B[b, k, j] = bv[lane, e]
    A, B = (-A if negate & 1 else A), (-B if negate & 2 else B)
    acc = np.zeros((NB, M, N))
    for k in range(K):
        acc = acc + A[:, :, k, None] * B[:, None, k, :]

    is_int, is_f64 = d.atype == "i8", d.atype == "f64"
    nregs = M * N * NB // 64
    creg_n = 2 * nregs if is_f64 else nregs
    ra = 2
    rb = ra + _pack(araw, BITS.get(d.atype, 32)).shape[0]
    rc = rb + _pack(braw, BITS.get(d.btype, 32)).shape[0]
    rd = rc if c_mode == "in_place" else rc + creg_n
    vreg = np.zeros((2, rd + creg_n + 2, 64), np.uint32)
    w = 1
    vreg[w, ra:rb] = _pack(araw, BITS.get(d.atype, 32))
    vreg[w, rb:rc] = _pack(braw, BITS.get(d.btype, 32))
    place = _place(name, "D", 64 if is_f64 else 32)
    if c_mode == "inline":
        c_bits = {"f64": 0x3FF0000000000000, "i8": 0xFFFFFFF9}.get(d.atype, 0xBF800000)  # 1.0, -7, -1.0
        C = np.full((NB, M, N), 1.0 if is_f64 else (-7 if is_int else -1.0))
    else:
        C = rng.integers(-2**31, 2**31, (NB, M, N)) if is_int else rng.uniform(-8, 8, (NB, M, N))
        if not is_int and not is_f64:
            C = C.astype(np.float32).astype(np.float64)
        for (b, i, j), (r, lane) in place.items():
            if is_f64:
                bits = int(np.float64(C[b, i, j]).view(np.uint64))
                vreg[w, rc + 2 * r, lane] = bits & 0xFFFFFFFF
                vreg[w, rc + 2 * r + 1, lane] = bits >> 32
            elif is_int:
                vreg[w, rc + r, lane] = int(C[b, i, j]) & 0xFFFFFFFF
            else:
                vreg[w, rc + r, lane] = np.float32(C[b, i, j]).view(np.uint32)

    ops = np.zeros((1, N_SLOTS, 3), np.int64)
    for slot, reg in ((D0, rd), (S0, ra), (S1, rb), (S2, rc)):
        ops[0, slot, KIND] = K_VREG
        ops[0, slot, VAL] = reg
    if c_mode == "inline":
        ops[0, S2, KIND] = K_IMM
        ops[0, S2, VAL] = c_bits
    if negate & 4:
        C = -C
    mods = np.zeros((1, N_MODS), np.int64)
    mods[0, M_SUB] = fields.pack_shape(M, N, K, NB, TYPES[d.atype], TYPES[d.btype])
    for key, col in (("cbsz", M_CBSZ), ("abid", M_ABID), ("blgp", M_BLGP)):
        mods[0, col] = (modifiers or {}).get(key, 0)
    before = vreg.copy()
    T = np.zeros((SCRATCH_ROWS_NEEDED, 64), np.uint64)
    assert exec_mfma(0, w, ops, mods, vreg, T) == 0

    want = before
    for (b, i, j), (r, lane) in place.items():
        if is_f64:
            bits = int(np.float64(acc[b, i, j] + C[b, i, j]).view(np.uint64))
            want[w, rd + 2 * r, lane] = bits & 0xFFFFFFFF
            want[w, rd + 2 * r + 1, lane] = bits >> 32
        elif is_int:
            want[w, rd + r, lane] = (int(acc[b, i, j]) + int(C[b, i, j])) & 0xFFFFFFFF
        else:
            want[w, rd + r, lane] = np.float32(acc[b, i, j] + C[b, i, j]).view(np.uint32)
    np.testing.assert_array_equal(vreg, want)


def test_run_time_shape_product_matches_the_compiled_shapes():
    """_dot_any, the product for shapes without a compiled-in one (the 2- and 4-block ones among them), sums
    exactly as each of those.

    The staged operands are f32 values, as every non-f64 MFMA stages them: their float64 products are
    exact, so the compiled shapes' fused multiply-adds round exactly as _dot_any's multiply-then-add.
    """
    from gpusim.exec.kernels import mfma

    rng = np.random.default_rng(7)
    compiled = {}
    for name in MFMAS:
        M, N, K, NB = shape = isa.table()[name].shape
        dot = getattr(mfma, f"_dot_{M}x{N}x{K}" + ("_16b" if NB > 1 else ""), None)
        if isa.table()[name].atype != "f64" and dot is not None and NB in (1, 16):
            compiled[shape] = dot
    assert len(compiled) == 10
    for (M, N, K, NB), dot in sorted(compiled.items()):
        S = rng.standard_normal(mfma.SCRATCH_ROWS_NEEDED * 64).astype(np.float32).astype(np.float64)
        want = S.copy()
        dot(want)
        mfma._dot_any(S, M, N, K, NB, False)
        np.testing.assert_array_equal(S.view(np.uint64), want.view(np.uint64), err_msg=str((M, N, K, NB)))


def test_each_compiled_product_has_a_name_of_its_own():
    """numba names a compiled function after its qualified name and the compiling process's counter, so products
    sharing one name could meet in a process that compiled one itself and loaded exec_mfma's cached code with
    another under the same symbol: the loaded code then called the wrong product (a warm test run failed 35
    MFMA tests so). Every product must carry its own name."""
    from gpusim.exec.kernels import mfma

    products = [f for name, f in vars(mfma).items()
                if name.startswith("_dot_") and name not in ("_dot_any", "_dot_f64_4x4x4_4b")]
    assert len(products) == 10
    names = [f.py_func.__qualname__ for f in products]
    assert len(set(names)) == len(names), names


@pytest.mark.parametrize("timing", [False, True])
def test_an_f64_mfmas_inline_constant_c_is_the_f64_value(timing):
    """Through the assembler: 0.5 and 1.0 as an f64 MFMA's C are f64 constants (they were read as f32 bits, a
    denormal near 0), and neg:[1,0,1] negates A and C (tests/exec/data/mfma_f64_inline_c.s)."""
    from exec_support import assert_checks_pass

    assert_checks_pass("mfma_f64_inline_c.s", 2, timing)
