"""Real Triton kernels, compiled for gfx942 by Triton's own compiler, run on gpusim and checked against numpy."""
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("triton", reason="Triton 3.x is not installed (pip install -e '.[triton]')")
sys.path.insert(0, str(Path(__file__).parent))
import triton  # noqa: E402
import triton_kernels as tk  # noqa: E402

import gpusim.triton as gt  # noqa: E402
from gpusim.errors import UsageError  # noqa: E402
from gpusim.exec.buffers import to_bf16_bits  # noqa: E402

KERNELS = Path(__file__).parent / "triton_kernels.py"
MM = dict(BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_vector_add_writes_the_sum_back_and_is_timed(rng):
    x, y = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    out = np.zeros_like(x)
    r = gt.simulate(tk.add_kernel, grid=(4,), args=(x, y, out, 1000), constexprs={"BLOCK": 256},
                    check=lambda: np.array_equal(out, x + y))
    assert r.checks_passed and r.cycles > 0
    assert r.block == (256, 1, 1) and r.grid == (4, 1, 1)


def test_a_false_check_fails_the_result(rng):
    x = rng.random(256, dtype=np.float32)
    out = np.zeros_like(x)
    r = gt.simulate(tk.add_kernel, grid=(1,), args=(x, x, out, 256), constexprs={"BLOCK": 256}, timing=False,
                    check=lambda: False)
    assert not r.checks_passed


def _matmul(a, b, c, types=None):
    m, k = a.shape
    n = b.shape[1]
    return gt.simulate(tk.matmul_kernel, grid=((m // 32) * (n // 32),), args=(a, b, c, m, n, k, k, 1, n, 1, n, 1),
                       constexprs=MM, timing=False, types=types)


def test_dot_matmul_f16(rng):
    a, b = rng.standard_normal((64, 64)).astype(np.float16), rng.standard_normal((64, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float32)
    _matmul(a, b, c)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-4)


def test_dot_matmul_bf16(rng):
    a, b = to_bf16_bits(rng.standard_normal((64, 64))), to_bf16_bits(rng.standard_normal((64, 64)))
    c = np.zeros((64, 64), np.float32)
    _matmul(a, b, c, types={"a_ptr": "*bf16", "b_ptr": "*bf16"})
    widen = lambda bits: (bits.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
    np.testing.assert_allclose(c, widen(a) @ widen(b), rtol=1e-4, atol=1e-4)


def _e4m3fnuz(codes):
    c = codes.astype(np.int64)
    exp, man = (c >> 3) & 15, c & 7
    mag = np.where(exp == 0, man / 8 * 2.0 ** -7, (1 + man / 8) * 2.0 ** (exp - 8))
    return np.where(c & 0x80, -mag, mag)


def test_dot_matmul_fp8_e4m3fnuz(rng):
    codes = np.array([c for c in range(256) if c != 0x80], np.uint8)   # 0x80 is e4m3fnuz's NaN
    a, b = rng.choice(codes, (64, 64)), rng.choice(codes, (64, 64))
    c = np.zeros((64, 64), np.float32)
    _matmul(a, b, c, types={"a_ptr": "*fp8e4b8", "b_ptr": "*fp8e4b8"})
    np.testing.assert_allclose(c, _e4m3fnuz(a) @ _e4m3fnuz(b), rtol=1e-5, atol=1e-3)


def test_softmax(rng):
    x = rng.standard_normal((8, 200)).astype(np.float32)
    y = np.zeros_like(x)
    gt.simulate(tk.softmax_kernel, grid=(8,), args=(y, x, 200, 200, 200), constexprs={"BLOCK": 256}, timing=False)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_layernorm_takes_a_float_scalar(rng):
    x = rng.standard_normal((8, 200)).astype(np.float32)
    w, b = rng.random(200, dtype=np.float32), rng.random(200, dtype=np.float32)
    y = np.zeros_like(x)
    gt.simulate(tk.layernorm_kernel, grid=(8,), args=(x, y, w, b, 200, 200, 1e-5), constexprs={"BLOCK": 256},
                timing=False)
    ref = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)


def test_atomic_add_histogram(rng):
    x = rng.integers(0, 16, 1000).astype(np.int32)
    hist = np.zeros(16, np.int32)
    gt.simulate(tk.histogram_kernel, grid=(4,), args=(x, hist, 1000), constexprs={"BLOCK": 256})
    np.testing.assert_array_equal(hist, np.bincount(x, minlength=16))


def test_mistakes_are_usage_errors(rng):
    x = rng.random(256, dtype=np.float32)
    with pytest.raises(UsageError, match="takes 4 runtime arguments"):
        gt.simulate(tk.add_kernel, grid=(1,), args=(x, x, x), constexprs={"BLOCK": 256})
    with pytest.raises(UsageError, match="needs constexprs BLOCK"):
        gt.simulate(tk.add_kernel, grid=(1,), args=(x, x, x, 256))
    with pytest.raises(UsageError, match="not a constexpr"):
        gt.simulate(tk.add_kernel, grid=(1,), args=(x, x, x, 256), constexprs={"BLOCK": 256, "BLOK": 1})
    with pytest.raises(UsageError, match="C-contiguous"):
        gt.simulate(tk.add_kernel, grid=(1,), args=(x[::2], x[::2], x[::2], 128), constexprs={"BLOCK": 128})


def test_a_compile_error_is_one_line_at_the_kernel_source(rng):
    # BLOCK=3: tl.arange needs a power of 2; Triton reports it over several lines, counted from the def
    x = rng.random(256, dtype=np.float32)
    with pytest.raises(UsageError) as info:
        gt.simulate(tk.add_kernel, grid=(1,), args=(x, x, x, 256), constexprs={"BLOCK": 3})
    message = str(info.value)
    source = Path(tk.__file__).read_text().splitlines()
    line = next(n for n, text in enumerate(source, 1) if "offs = pid * BLOCK + tl.arange(0, BLOCK)" in text)
    col = source[line - 1].index("tl.arange") + 1
    assert message.startswith(f"{tk.__file__}:{line}:{col}: error: Triton could not compile 'add_kernel' for gfx942: "
                              "arange's range must be a power of 2"), message
    assert "\n" not in message


def _untouched_matmul(tmp_path, lds: bool) -> Path:
    """_untouched_matmul writes Triton's f16 matmul assembly, unedited, under a hand-written launch header."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import triton
    sig = dict(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp32", **{n: "i32" for n in
               ("M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn")})
    sig.update({n: "constexpr" for n in MM})
    k = triton.compile(ASTSource(tk.matmul_kernel, signature=sig, constexprs=MM),
                       target=GPUTarget("hip", "gfx942", 64), options={"num_warps": 4})
    asm = k.asm["amdgcn"]
    assert '.amdgcn_target "amdgpu9.42-amd-amdhsa-unknown-gfx942"' in asm   # the spelling this test is about
    header = (f"; gpusim-launch: grid=4,1,1 block=256,1,1{f' lds={k.metadata.shared}' if lds else ''}\n"
              "; gpusim-arg: A buffer f16[64,64] init=uniform(-1,1) seed=1\n"
              "; gpusim-arg: B buffer f16[64,64] init=uniform(-1,1) seed=2\n"
              "; gpusim-arg: C buffer f32[64,64] out\n"
              + "".join(f"; gpusim-arg: {n} i32 {v}\n" for n, v in
                        (("M", 64), ("N", 64), ("K", 64), ("sam", 64), ("sak", 1), ("sbk", 64), ("sbn", 1),
                         ("scm", 64), ("scn", 1)))
              + "; gpusim-check: C ~= A.astype(f32) @ B.astype(f32) rtol=1e-3 atol=1e-3\n")
    path = tmp_path / "matmul.s"
    path.write_text(header + asm)
    return path


def test_gpusim_run_accepts_tritons_untouched_assembly(tmp_path, cli):
    r = cli("run", str(_untouched_matmul(tmp_path, lds=True)), "--arch", "cdna3", "--check")
    assert r.returncode == 0, r.stderr
    assert "check    PASS" in r.stdout


def test_dynamic_lds_missing_from_the_launch_line_is_named(tmp_path, cli):
    r = cli("run", str(_untouched_matmul(tmp_path, lds=False)), "--arch", "cdna3", "--no-timing")
    assert r.returncode == 3
    assert "lds=BYTES" in r.stderr and "metadata's 'shared'" in r.stderr


def test_gpusim_triton_runs_a_kernel_from_its_python_file(cli):
    r = cli("triton", f"{KERNELS}:add_kernel", "--grid", "16", "--constexpr", "BLOCK=256",
            "--arg", "x_ptr=f32[4096]:uniform(-1,1)", "--arg", "y_ptr=f32[4096]:uniform(-1,1):seed=2",
            "--arg", "out_ptr=f32[4096]", "--arg", "n=4096", "--check", "out_ptr ~= x_ptr + y_ptr")
    assert r.returncode == 0, r.stderr
    assert "check    PASS out_ptr ~= x_ptr + y_ptr" in r.stdout and "cycles" in r.stdout


def test_gpusim_triton_names_a_missing_argument_and_says_it_imports_the_file(cli):
    r = cli("triton", f"{KERNELS}:add_kernel", "--grid", "1", "--constexpr", "BLOCK=256", "--arg", "n=4")
    assert r.returncode == 2 and "needs --arg for x_ptr, y_ptr, out_ptr" in r.stderr
    r = cli("triton", f"{KERNELS}:add_kernl", "--grid", "1")
    assert r.returncode == 2 and "did you mean 'add_kernel'" in r.stderr
    assert "running the Python code in it" in cli("triton", "--help").stdout


def test_an_autotuners_configs_are_timed_on_an_arch_fastest_first_without_touching_the_arrays(rng):
    n = 16384
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    ranked = gt.autotune(tk.add_kernel_tuned, grid=lambda meta: (triton.cdiv(n, meta["BLOCK"]),),
                         args=(x, y, out, n))
    assert sorted(t.kwargs["BLOCK"] for t in ranked) == [64, 256, 1024]
    assert all(t.cycles > 0 and not t.error for t in ranked)
    assert [t.cycles for t in ranked] == sorted(t.cycles for t in ranked)
    # BLOCK=1024 makes 16 programs for 304 CUs: each wave streams 4 times the bytes, the slowest of the three
    assert ranked[-1].kwargs["BLOCK"] == 1024
    assert not out.any()   # each config ran on copies
    assert "BLOCK=" in str(ranked[0]) and "cycles" in str(ranked[0])
