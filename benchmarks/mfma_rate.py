"""Cost of one functional v_mfma wave-instruction, in nanoseconds.

Calls the numba executor ``gpusim.exec.kernels.mfma.exec_mfma`` directly from
a compiled loop (so no Python dispatch is timed) on random register images,
after a warm-up, on one core; prints the best of several repeats per shape,
in thread CPU time so that other load on the machine matters less.
A 4096x4096x4096 f16 GEMM is 8.4 million v_mfma_f32_32x32x8_f16, so each one
should cost about a microsecond or less. Usage:

    python benchmarks/mfma_rate.py            # the common shapes
    python benchmarks/mfma_rate.py --all      # also i8, f64, fp8, xf32 and the 4x4 16-block shapes
    python benchmarks/mfma_rate.py --inplace  # D on C, as compiled GEMM loops accumulate
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from gpusim.asm import fields
from gpusim.asm.program import D0, K_VREG, KIND, M_SUB, N_MODS, N_SLOTS, S0, S1, S2, VAL
from gpusim.exec.kernels.mfma import SCRATCH_ROWS_NEEDED, exec_mfma

# name, M, N, K, blocks, input type
COMMON = [
    ("v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, fields.T_F16),
    ("v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, fields.T_F16),
    ("v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, fields.T_BF16),
    ("v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, fields.T_BF16),
    ("v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, fields.T_F32),
    ("v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, fields.T_F32),
]
OTHER = [
    ("v_mfma_i32_32x32x8i8", 32, 32, 8, 1, fields.T_I8),
    ("v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, fields.T_I8),
    ("v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, fields.T_F64),
    ("v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 1, fields.T_FP8),
    ("v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, fields.T_XF32),
    ("v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, fields.T_F16),
    ("v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, fields.T_F32),
]
INPLACE = False
BITS = {fields.T_F16: 16, fields.T_BF16: 16, fields.T_I8: 8, fields.T_FP8: 8, fields.T_F64: 64}


@njit(_nrt=False)
def _repeat(n, ops, mods, vreg, T):
    for _ in range(n):
        exec_mfma(0, 0, ops, mods, vreg, T)


def _setup(M, N, K, NB, t, rng):
    """_setup returns (ops, mods, vreg, T) for one MFMA on random finite operands."""
    bits = BITS.get(t, 32)
    kpl = K if NB > 1 else K * M // 64
    in_regs = max(1, kpl * bits // 32)
    out_regs = M * N * NB // 64 * (2 if t == fields.T_F64 else 1)
    ra, rb, rc = 0, in_regs, 2 * in_regs
    rd = rc + (0 if INPLACE else out_regs)
    vreg = np.zeros((1, rc + 2 * out_regs, 64), np.uint32)
    vals = rng.uniform(-1, 1, (2 * in_regs * 32 // bits, 64))
    if bits == 16:
        dt = np.float16 if t == fields.T_F16 else np.float32
        h = vals.astype(dt).view(np.uint16 if dt == np.float16 else np.uint32)
        h = h.astype(np.uint32) if dt == np.float16 else h >> 16
        words = h[0::2] | (h[1::2] << 16)
    elif bits == 8:
        b = rng.integers(0, 256, vals.shape).astype(np.uint32)
        b[b == 0x80] = 0
        words = b[0::4] | (b[1::4] << 8) | (b[2::4] << 16) | (b[3::4] << 24)
    elif bits == 64:
        u = vals.astype(np.float64).view(np.uint64)
        words = np.empty((2 * u.shape[0], 64), np.uint32)
        words[0::2] = u & 0xFFFFFFFF
        words[1::2] = u >> 32
    else:
        words = vals.astype(np.float32).view(np.uint32)
    vreg[0, : 2 * in_regs] = words[: 2 * in_regs]
    c = rng.uniform(-1, 1, (out_regs, 64))
    vreg[0, rc: rc + out_regs] = (c.astype(np.float32).view(np.uint32) if bits != 64 else
                                  np.zeros((out_regs, 64), np.uint32))
    ops = np.zeros((1, N_SLOTS, 3), np.int64)
    for slot, reg in ((D0, rd), (S0, ra), (S1, rb), (S2, rc)):
        ops[0, slot, KIND] = K_VREG
        ops[0, slot, VAL] = reg
    mods = np.zeros((1, N_MODS), np.int64)
    mods[0, M_SUB] = fields.pack_shape(M, N, K, NB, t, t)
    T = np.zeros((SCRATCH_ROWS_NEEDED, 64), np.uint64)
    return ops, mods, vreg, T


def rate(M, N, K, NB, t, seconds: float = 0.5) -> float:
    """rate returns the best observed nanoseconds per MFMA wave-instruction."""
    ops, mods, vreg, T = _setup(M, N, K, NB, t, np.random.default_rng(1))
    _repeat(10, ops, mods, vreg, T)
    n = 100
    while True:
        t0 = time.thread_time()
        _repeat(n, ops, mods, vreg, T)
        dt = time.thread_time() - t0
        if dt > seconds / 10:
            break
        n *= 4
    best = dt
    for _ in range(9):
        t0 = time.thread_time()
        _repeat(n, ops, mods, vreg, T)
        best = min(best, time.thread_time() - t0)
    return best / n * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="also the less common shapes")
    ap.add_argument("--inplace", action="store_true", help="accumulate in place (D and C the same registers)")
    args = ap.parse_args()
    global INPLACE
    INPLACE = args.inplace
    t0 = time.thread_time()
    ops, mods, vreg, T = _setup(32, 32, 8, 1, fields.T_F16, np.random.default_rng(0))
    _repeat(1, ops, mods, vreg, T)
    print(f"compile: {time.thread_time() - t0:.1f} s")
    for name, M, N, K, NB, t in COMMON + (OTHER if args.all else []):
        ns = rate(M, N, K, NB, t)
        macs = M * N * K * NB
        print(f"{name:30s} {ns:9.0f} ns/instr  {macs / ns:6.2f} MAC/ns")


if __name__ == "__main__":
    main()
