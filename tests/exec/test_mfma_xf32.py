"""v_mfma_*_xf32 reads its f32 inputs at TF32 precision (8 exponent, 10 mantissa bits).

The reference rounds every A and B value to TF32 with numpy (nearest, ties
to even, written from the format's definition: keep 11 significant bits),
multiplies exactly in float64 and rounds the sum plus C once to f32, the
accuracy gpusim's MFMA model documents. The same product of the unrounded
f32 inputs differs visibly, so a model that skipped the rounding fails.
"""
from __future__ import annotations

import numpy as np

from exec_support import fixture_path, run_kernel


def tf32(x: np.ndarray) -> np.ndarray:
    """tf32 rounds float32 values to 11 significant bits, nearest-even (normal, finite inputs)."""
    mant, exp = np.frexp(np.asarray(x, np.float64))  # x = mant * 2**exp, 0.5 <= |mant| < 1
    return np.ldexp(np.rint(np.ldexp(mant, 11)), exp - 11)


def _layout_16x16x8(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_layout_16x16x8 turns per-lane images a[64, 2], b[64, 2] into A[16, 8] and B[8, 16].

    CDNA3 layout (AMD's matrix instruction calculator): A[i][k] is lane
    i + 16 * (k // 2), item k % 2; B[k][j] is lane j + 16 * (k // 2), item k % 2.
    """
    A = np.empty((16, 8))
    B = np.empty((8, 16))
    for k in range(8):
        for i in range(16):
            A[i, k] = a[i + 16 * (k // 2), k % 2]
            B[k, i] = b[i + 16 * (k // 2), k % 2]
    return A, B


def _d_image(D: np.ndarray) -> np.ndarray:
    """_d_image places D[16, 16] in per-lane registers: D[i][j] at lane j + 16 * (i // 4), register i % 4."""
    out = np.empty((64, 4))
    for i in range(16):
        for j in range(16):
            out[j + 16 * (i // 4), i % 4] = D[i, j]
    return out


def test_xf32_mfma_rounds_inputs_to_tf32():
    rng = np.random.default_rng(1515)
    a = rng.uniform(-4, 4, (64, 2)).astype(np.float32)
    b = rng.uniform(-4, 4, (64, 2)).astype(np.float32)
    # ties: 1 + 2**-11 rounds down to 1.0 (even), 1 + 3 * 2**-11 up to 1 + 2**-9
    a[0, 0], a[1, 0], b[0, 0] = 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1.0
    c = rng.uniform(-1, 1, (64, 4)).astype(np.float32)
    d = run_kernel(fixture_path("sem_mfma_16x16x8_xf32.s"), {"a": a, "b": b, "c": c})["d"]

    A, B = _layout_16x16x8(a, b)
    C = c.astype(np.float64)
    want = (_d_image(tf32(A) @ tf32(B)) + C).astype(np.float32)  # products exact, one rounding
    fp32 = (_d_image(A @ B) + C).astype(np.float32)

    np.testing.assert_array_equal(d, want)
    assert np.abs(d - fp32).max() > 1e-3, "the xf32 MFMA computed at full fp32 precision"
    assert (d != fp32).mean() > 0.9


def test_tf32_rounding_kernel_and_its_py_func():
    """_tf32_value (compiled and .py_func) rounds nearest-even, carries into the exponent and keeps inf/NaN."""
    from gpusim.exec.kernels.mfma import _tf32_value

    cases = {
        0x3F801000: 1.0,                       # 1 + 2**-11: a tie, rounds to even (down)
        0x3F803000: 1 + 2.0 ** -9,             # 1 + 3 * 2**-11: a tie, rounds to even (up)
        0x3F801001: 1 + 2.0 ** -10,            # just above the tie: up
        0x3FFFF000: 2.0,                       # carries into the exponent
        0xBF800FFF: -1.0,                      # below the tie: down, sign kept
        0x7F7FFFFF: np.inf,                    # the largest f32 rounds past TF32's largest
        0x7F800000: np.inf,
        0x00000001: 0.0,                       # the smallest subnormal rounds to 0
    }
    for bits, want in cases.items():
        for fn in (_tf32_value, _tf32_value.py_func):
            assert fn(np.uint32(bits)) == want, (hex(bits), fn)
    assert np.isnan(_tf32_value(np.uint32(0x7FC00001)))
    x = np.random.default_rng(3).uniform(-100, 100, 500).astype(np.float32)
    got = np.array([_tf32_value(v) for v in x.view(np.uint32)])
    np.testing.assert_array_equal(got, tf32(x))
