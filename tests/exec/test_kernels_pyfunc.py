"""The numba kernels' pure-Python bodies (``.py_func``, what NUMBA_DISABLE_JIT=1
runs) compute the same as the ISA says and as their compiled versions."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from exec_support import REPO

from gpusim.exec.kernels import atomics, bits, lanes, lds, valu_ops

U = np.uint64
M32 = 0xFFFFFFFF

INTRINSIC_BUG = ("gpusim/exec/kernels/bits.py: the bit casts (_u32_as_f32, _f32_as_u32, _u64_as_f64, _f64_as_u64) "
                 "and fma_f32/fma_f64 are numba @intrinsic objects, which raise NotImplementedError "
                 "('<intrinsic cast> is not usable in pure-python') when called from Python, so every .py_func "
                 "that reinterprets float bits, and any run with NUMBA_DISABLE_JIT=1, crashes; give each a "
                 "pure-Python twin (np.uint32(x).view(np.float32), math.fma or an exact fallback) wired with "
                 "numba.extending.overload so the jitted code keeps the intrinsic")


def _f32_samples(n: int = 4000) -> np.ndarray:
    rng = np.random.default_rng(200)
    x = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-27, 18, n) * rng.choice([-1, 1], n)).astype(np.float32)
    x[:6] = [0.0, -0.0, np.inf, -np.inf, 65520.0, 2.0 ** -25]
    return x


# ---------------------------------------------------------------- bits
def test_half_bits_py_func_rounds_like_numpy():
    x = _f32_samples()
    got = np.array([int(bits.half_bits.py_func(np.float32(v))) for v in x], dtype=np.uint16)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, x.astype(np.float16).view(np.uint16))


def test_f16_py_func_decodes_every_half():
    every = np.arange(0, 65536, 7, dtype=np.uint32)
    got = np.array([bits.f16.py_func(int(h)) for h in every], dtype=np.float32)
    want = every.astype(np.uint16).view(np.float16).astype(np.float32)
    nan = np.isnan(want)
    assert np.isnan(got[nan]).all()
    np.testing.assert_array_equal(got[~nan], want[~nan])


def test_bf16_bits_py_func_rounds_to_nearest_even():
    cases = {0x3F808000: 0x3F80, 0x3F818000: 0x3F82, 0x3F808001: 0x3F81, 0x7F7FFFFF: 0x7F80, 0x7FC00000: 0x7FC0}
    for b, want in cases.items():
        assert int(bits.bf16_bits.py_func(np.uint32(b).view(np.float32))) == want, hex(b)


def test_compiled_bit_helpers_match_numpy():
    """The compiled versions work; this pins the values the py_func tests above expect."""
    x = _f32_samples(500)
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    assert [int(bits.half_bits(np.float32(v))) for v in x] == [int(w) for w in want]
    assert int(bits.bf16_bits(np.uint32(0x3F818000).view(np.float32))) == 0x3F82


# ---------------------------------------------------------------- lanes.dpp_source_lane
def _dpp_reference(ctrl: int, lane: int) -> int:
    row, r = lane & ~15, lane & 15
    if ctrl <= 0xFF:
        return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3)
    if 0x101 <= ctrl <= 0x10F:
        return lane + (ctrl & 15) if r + (ctrl & 15) < 16 else -1
    if 0x111 <= ctrl <= 0x11F:
        return lane - (ctrl & 15) if r >= (ctrl & 15) else -1
    if 0x121 <= ctrl <= 0x12F:
        return row | ((r - (ctrl & 15)) % 16)
    return {0x130: lane + 1 if lane < 63 else -1, 0x134: (lane + 1) % 64, 0x138: lane - 1 if lane else -1,
            0x13C: (lane - 1) % 64, 0x140: row | (15 - r), 0x141: (lane & ~7) | (7 - (lane & 7)),
            0x142: row - 1 if row else -1, 0x143: 31 if lane >= 32 else -1}.get(ctrl, -1)


def test_dpp_source_lane_py_func():
    ctrls = list(range(0x100)) + list(range(0x101, 0x110)) + list(range(0x111, 0x120)) + \
        list(range(0x121, 0x130)) + [0x130, 0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143, 0x100, 0x150]
    for ctrl in ctrls:
        for lane in range(64):
            assert lanes.dpp_source_lane.py_func(ctrl, lane) == _dpp_reference(ctrl, lane), (hex(ctrl), lane)
    for c in ctrls[::7]:
        assert all(lanes.dpp_source_lane(c, lane) == lanes.dpp_source_lane.py_func(c, lane) for lane in range(64))


# ---------------------------------------------------------------- lds.swizzle_source_lane
def test_swizzle_source_lane_py_func():
    rng = np.random.default_rng(201)
    for pattern in [0x041F, 0x1C1F, 0x80B1, 0x0118] + [int(p) for p in rng.integers(0, 0x10000, 300)]:
        for lane in range(64):
            if pattern & 0x8000:
                want = (lane & ~3) | ((pattern >> (2 * (lane & 3))) & 3)
            else:
                a, o, x = pattern & 31, (pattern >> 5) & 31, (pattern >> 10) & 31
                want = (lane & 32) | ((((lane & 31) & a) | o) ^ x)
            assert lds.swizzle_source_lane.py_func(pattern, lane) == want, (hex(pattern), lane)
    assert lds.swizzle_source_lane.py_func(0x041F, 3) == 3 ^ 1  # swizzle(SWAP,1)


# ---------------------------------------------------------------- atomics.atomic_apply
def _signed(v: int, size: int) -> int:
    bits_ = 8 * size
    return v - (1 << bits_) if v >> (bits_ - 1) else v


@pytest.mark.parametrize("size", [4, 8])
def test_atomic_apply_py_func_integer_ops(size):
    rng = np.random.default_rng(202 + size)
    mask = (1 << (8 * size)) - 1
    for _ in range(200):
        old, data, cmp = (int(v) & mask for v in rng.integers(0, 1 << 64, 3, dtype=np.uint64))
        if rng.random() < 0.3:
            cmp = old
        expect = {
            atomics.A_ADD: (old + data) & mask, atomics.A_SUB: (old - data) & mask,
            atomics.A_SMIN: min(old, data, key=lambda v: _signed(v, size)),
            atomics.A_SMAX: max(old, data, key=lambda v: _signed(v, size)),
            atomics.A_UMIN: min(old, data), atomics.A_UMAX: max(old, data),
            atomics.A_AND: old & data, atomics.A_OR: old | data, atomics.A_XOR: old ^ data,
            atomics.A_INC: 0 if old >= data else old + 1,
            atomics.A_DEC: data if old == 0 or old > data else old - 1,
            atomics.A_SWAP: data, atomics.A_CMPSWAP: data if old == cmp else old,
        }
        for op, want in expect.items():
            with np.errstate(over="ignore"):  # uint64 arithmetic wraps, as on the GPU
                got = atomics.atomic_apply.py_func(op, U(old), U(data), U(cmp), size)
            assert int(got) == want, (op, hex(old), hex(data), size)
            assert int(atomics.atomic_apply(op, U(old), U(data), U(cmp), size)) == want


def test_atomic_apply_py_func_float_ops():
    rng = np.random.default_rng(204)
    a = rng.uniform(-100, 100, 50).astype(np.float32)
    b = rng.uniform(-100, 100, 50).astype(np.float32)
    for x, y in zip(a, b):
        bx, by = U(int(x.view(np.uint32))), U(int(y.view(np.uint32)))
        assert np.uint32(atomics.atomic_apply.py_func(atomics.A_ADD_F32, bx, by, U(0), 4)).view(np.float32) == x + y
        assert np.uint32(atomics.atomic_apply.py_func(atomics.A_MIN_F32, bx, by, U(0), 4)).view(np.float32) == min(x, y)
        assert np.uint32(atomics.atomic_apply.py_func(atomics.A_MAX_F32, bx, by, U(0), 4)).view(np.float32) == max(x, y)
        dx, dy = np.float64(x) * 1e10, np.float64(y) / 3
        got = atomics.atomic_apply.py_func(atomics.A_ADD_F64, U(int(dx.view(np.uint64))), U(int(dy.view(np.uint64))),
                                           U(0), 8)
        assert np.uint64(got).view(np.float64) == dx + dy


# ---------------------------------------------------------------- valu_ops
def _u32s(n, seed):
    return [int(v) for v in np.random.default_rng(seed).integers(0, 1 << 32, n, dtype=np.uint64)]


def test_valu_ops_integer_py_funcs():
    a, b, c = _u32s(300, 205), _u32s(300, 206), _u32s(300, 207)
    for x, y, z in zip(a, b, c):
        X, Y, Z = U(x), U(y), U(z)
        assert int(valu_ops.mul_hi_u32.py_func(X, Y)) == (x * y) >> 32
        assert int(valu_ops.mul_lo_u32.py_func(X, Y)) == (x * y) & M32
        assert int(valu_ops.add3_u32.py_func(X, Y, Z)) == (x + y + z) & M32
        assert int(valu_ops.alignbit_b32.py_func(X, Y, Z)) == (((x << 32) | y) >> (z & 31)) & M32
        off, width = y & 31, min(32 - (y & 31), z & 31)
        assert int(valu_ops.bfe_u32.py_func(X, U(off), U(width))) == (x >> off) & ((1 << width) - 1)
        assert int(valu_ops.lshl_or_b32.py_func(X, Y, Z)) == ((x << (y & 31)) | z) & M32
        sad = abs(x - y) + z
        assert int(valu_ops.sad_u32.py_func(X, Y, Z)) == sad & M32


def test_valu_ops_float_py_funcs_match_numpy():
    rng = np.random.default_rng(208)
    a = _f32_samples(300)[6:]
    b = (rng.uniform(1, 2, a.size) * 2.0 ** rng.integers(-10, 10, a.size)).astype(np.float32)
    for x, y in zip(a, b):
        bx, by = U(int(x.view(np.uint32))), U(int(y.view(np.uint32)))
        assert int(valu_ops.add_f32.py_func(bx, by)) == int((x + y).view(np.uint32))
        assert int(valu_ops.mul_f32.py_func(bx, by)) == int((x * y).view(np.uint32))
        assert int(valu_ops.max_f32.py_func(bx, by)) == int(np.maximum(x, y).view(np.uint32))
        with np.errstate(over="ignore"):
            assert int(valu_ops.cvt_f16_f32.py_func(bx)) == int(x.astype(np.float16).view(np.uint16))
        want_i = 0 if math.isnan(x) else max(-2 ** 31, min(2 ** 31 - 1, int(x)))
        assert int(valu_ops.cvt_i32_f32.py_func(bx)) == want_i & M32


# ---------------------------------------------------------------- a whole kernel without the JIT
_RUN_SNIPPET = """
import hashlib, json, sys
from gpusim import api
k = api.load_kernel(sys.argv[1])
r = api.simulate(k, "cdna3", check=True)
print(json.dumps({"passed": r.checks_passed, "counters": r.counters,
                  "outputs": {n: hashlib.sha256(a.tobytes()).hexdigest() for n, a in r.outputs.items()}}))
"""


def _run_python(code: str, *args: str, env=None):
    full = dict(os.environ, PYTHONPATH=str(REPO))
    full.update(env or {})
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full,
                          cwd=REPO, timeout=600)


def test_whole_kernel_with_numba_disable_jit_matches_the_jit_run():
    path = str(REPO / "tests" / "data" / "corpus" / "gfx942" / "vadd_tail.s")
    jit = _run_python(_RUN_SNIPPET, path)
    assert jit.returncode == 0, jit.stderr
    nojit = _run_python(_RUN_SNIPPET, path, env={"NUMBA_DISABLE_JIT": "1"})
    if nojit.returncode != 0 and "is not usable in pure-python" in nojit.stderr:
        raise NotImplementedError(nojit.stderr.splitlines()[-1])
    assert nojit.returncode == 0, nojit.stderr.splitlines()[-1:]
    assert json.loads(nojit.stdout) == json.loads(jit.stdout)
