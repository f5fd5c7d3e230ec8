"""gfx942's sparse (4:2) MFMAs, v_smfmac_*, against a numpy reference built from AMD's matrix instruction
calculator's layouts (data/mfma_layouts): A keeps two entries of each four consecutive K entries of a row,
src2 their positions (the calculator's --compression layout, under each ABID and a CBSZ that ignores ABID),
D is also the accumulator. D = D + A @ B, products summed in float64 in k order and rounded once, bit-exact."""
from __future__ import annotations

import zlib

import numpy as np
import pytest
from test_mfma_shapes import BITS, TYPES, _calculator_layouts, _operand, _pack, _place

from gpusim.asm import fields, isa
from gpusim.asm.program import D0, K_VREG, KIND, M_ABID, M_CBSZ, M_SUB, N_MODS, N_SLOTS, S0, S1, S2, VAL

SMFMACS = sorted(name for name, d in isa.table().items() if d.sparse)
CASES = [(name, key.split(":", 2)[2] if key.count(":") == 2 else "")
         for name in SMFMACS for key in _calculator_layouts() if key.startswith(f"{name}:K")]


def test_every_sparse_mfma_of_gfx942_is_in_the_table():
    assert len(SMFMACS) == 14 and all(isa.table()[n].targets == ("gfx942",) for n in SMFMACS)


@pytest.mark.parametrize("name, modifier", CASES, ids=[f"{n}:{m or 'abid0'}" for n, m in CASES])
def test_sparse_mfma_matches_the_layout_reference(name, modifier):
    from gpusim.exec.kernels.mfma import SCRATCH_ROWS_NEEDED, exec_mfma

    d = isa.table()[name]
    M, N, K, _ = d.shape
    abits, bbits = BITS.get(d.atype, 32), BITS.get(d.btype, 32)
    rng = np.random.default_rng(zlib.crc32(f"{name} {modifier}".encode()))
    kpl = K * M // 64
    av, araw = _operand(rng, d.atype, 64 * kpl // 2)
    bv, braw = _operand(rng, d.btype, 64 * kpl)
    bv, braw = bv.reshape(64, kpl), braw.reshape(64, kpl)

    # the dense A: two kept entries in each group of four, at random distinct positions
    A = np.zeros((M, K))
    a_regs = np.zeros((kpl * abits // 64, 64), np.uint64)    # the kept entries' registers
    k_reg = np.zeros(64, np.uint64)                          # their positions
    a_place = {(i, k): (reg, lane, low) for _, i, k, reg, lane, low in _calculator_layouts()[f"{name}:A"].tolist()}
    k_place = {(i, k): (lane, low) for _, i, k, _, lane, low in
               _calculator_layouts()[f"{name}:K" + (f":{modifier}" if modifier else "")].tolist()}
    n = 0
    for i in range(M):
        for g in range(K // 4):
            first, second = sorted(rng.choice(4, 2, replace=False))
            reg, lane, low = a_place[i, 4 * g]
            for h, pos in enumerate((first, second)):
                A[i, 4 * g + pos] = av[n]
                a_regs[reg, lane] |= np.uint64(int(araw[n]) << (low + h * abits))
                n += 1
            lane_k, low_k = k_place[i, 4 * g]
            k_reg[lane_k] |= np.uint64((int(first) | int(second) << 2) << low_k)
    B = np.zeros((K, N))
    for (_, k, j), (e, lane) in _place(name, "B", bbits).items():
        B[k, j] = bv[lane, e]
    acc = np.zeros((M, N))
    for k in range(K):
        acc = acc + A[:, k, None] * B[None, k, :]

    is_int = d.atype == "i8"
    nregs = M * N // 64
    ra, rb = 2, 2 + a_regs.shape[0]
    rk = rb + kpl * bbits // 32
    rd = rk + 1
    vreg = np.zeros((2, rd + nregs + 2, 64), np.uint32)
    w = 1
    vreg[w, ra:rb] = a_regs.astype(np.uint32)
    vreg[w, rb:rk] = _pack(braw, bbits)
    vreg[w, rk] = k_reg.astype(np.uint32)
    C = rng.integers(-2**31, 2**31, (M, N)) if is_int else rng.uniform(-8, 8, (M, N)).astype(np.float32)
    place = _place(name, "D", 32)
    for (_, i, j), (r, lane) in place.items():
        vreg[w, rd + r, lane] = int(C[i, j]) & 0xFFFFFFFF if is_int else np.float32(C[i, j]).view(np.uint32)

    ops = np.zeros((1, N_SLOTS, 3), np.int64)
    for slot, reg in ((D0, rd), (S0, ra), (S1, rb), (S2, rk)):
        ops[0, slot, KIND] = K_VREG
        ops[0, slot, VAL] = reg
    mods = np.zeros((1, N_MODS), np.int64)
    mods[0, M_SUB] = fields.pack_shape(M, N, K, 1, TYPES[d.atype], TYPES[d.btype], sparse=True)
    cbsz, abid = (1, 1) if modifier == "cbsz1abid1" else (0, int(modifier[4:] or 0))
    mods[0, M_CBSZ], mods[0, M_ABID] = cbsz, abid
    want = vreg.copy()
    T = np.zeros((SCRATCH_ROWS_NEEDED, 64), np.uint64)
    assert exec_mfma(0, w, ops, mods, vreg, T) == 0
    for (_, i, j), (r, lane) in place.items():
        if is_int:
            want[w, rd + r, lane] = (int(acc[i, j]) + int(C[i, j])) & 0xFFFFFFFF
        else:
            want[w, rd + r, lane] = np.float32(acc[i, j] + np.float64(C[i, j])).view(np.uint32)
    np.testing.assert_array_equal(vreg, want)


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timed"])
def test_a_kernel_with_a_sparse_mfma_passes_its_check(timing):
    from exec_support import assert_checks_pass

    r = assert_checks_pass("smfmac_ones.s", 1, timing)
    if timing:   # the MFMA's 4 passes (16 cycles) and the two s_nop 7 after it, at least
        assert r.counters["SQ_INSTS_MFMA"] == 2 * 1 and r.cycles > 32
