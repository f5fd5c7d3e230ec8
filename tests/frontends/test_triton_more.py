"""Issue 18's remaining Triton kernels: fused attention, gfx90a (cdna2), fp8 e5m2fnuz, 32x32 MFMA with kpack=2,
gelu with tl.cumsum and torch CPU tensors, compiled by Triton's own compiler and checked against numpy."""
import inspect
import re
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("triton", reason="Triton 3.x is not installed (pip install -e '.[triton]')")
sys.path.insert(0, str(Path(__file__).parent))
import triton_kernels as tk  # noqa: E402
import triton_kernels_more as km  # noqa: E402

import gpusim.triton as gt  # noqa: E402
from gpusim.frontends.triton import bind_arguments, compile_kernel  # noqa: E402
from gpusim.errors import KernelFault  # noqa: E402

ARCHS = [pytest.param("cdna3", id="gfx942"), pytest.param("cdna2", id="gfx90a")]
GFX = {"cdna3": "gfx942", "cdna2": "gfx90a"}


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def _asm(kernel, args, constexprs, arch, types=None, options=None) -> str:
    """_asm is Triton's assembly for ``kernel``, to say which instructions a test exercised."""
    return compile_kernel(kernel, bind_arguments(kernel, args, constexprs, types), constexprs, GFX[arch], 4,
                          options).asm


def _matmul(a, b, c, arch, block=32, types=None, options=None):
    m, k = a.shape
    n = b.shape[1]
    args = (a, b, c, m, n, k, k, 1, n, 1, n, 1)
    cx = dict(BLOCK_M=block, BLOCK_N=block, BLOCK_K=block)
    gt.simulate(tk.matmul_kernel, grid=((m // block) * (n // block),), args=args, constexprs=cx, timing=False,
                arch=arch, types=types, options=options)
    return _asm(tk.matmul_kernel, args, cx, arch, types, options)


def _attention_ref(q, k, v, scale):
    s = q.astype(np.float32) @ k.astype(np.float32).T * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float32)


@pytest.mark.parametrize("arch", ARCHS)
def test_fused_attention_forward(rng, arch):
    seq, d = 128, 64
    q, k, v = (rng.standard_normal((seq, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((seq, d), np.float16)
    gt.simulate(km.attn_fwd_kernel, grid=(seq // 32,), args=(q, k, v, o, seq, 1 / 8, d),
                constexprs=dict(BLOCK_M=32, BLOCK_N=32, HEAD_D=d), timing=False, arch=arch)
    np.testing.assert_allclose(o.astype(np.float32), _attention_ref(q, k, v, 1 / 8), rtol=2e-3, atol=2e-3)


def test_fused_attention_masks_a_ragged_last_block(rng):
    seq, d = 100, 64   # the last K/V block is 4 rows long: masked loads and -inf scores
    q, k, v = (rng.standard_normal((seq, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((seq, d), np.float16)
    gt.simulate(km.attn_fwd_kernel, grid=(4,), args=(q, k, v, o, seq, 0.125, d),
                constexprs=dict(BLOCK_M=32, BLOCK_N=32, HEAD_D=d), timing=False)
    np.testing.assert_allclose(o.astype(np.float32), _attention_ref(q, k, v, 0.125), rtol=2e-3, atol=2e-3)


def test_vector_add_on_gfx90a_is_timed(rng):
    x, y = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    out = np.zeros_like(x)
    r = gt.simulate(tk.add_kernel, grid=(4,), args=(x, y, out, 1000), constexprs={"BLOCK": 256}, arch="cdna2",
                    check=lambda: np.array_equal(out, x + y))
    assert r.checks_passed and r.cycles > 0


def test_dot_matmul_f16_on_gfx90a(rng):
    a, b = rng.standard_normal((64, 64)).astype(np.float16), rng.standard_normal((64, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float32)
    asm = _matmul(a, b, c, "cdna2")
    assert '"amdgpu9.0a-amd-amdhsa-unknown-gfx90a"' in asm and "v_mfma_f32_32x32x8f16" in asm
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-4)


def test_softmax_and_layernorm_and_atomic_add_on_gfx90a(rng):
    x = rng.standard_normal((8, 200)).astype(np.float32)
    y = np.zeros_like(x)
    gt.simulate(tk.softmax_kernel, grid=(8,), args=(y, x, 200, 200, 200), constexprs={"BLOCK": 256},
                timing=False, arch="cdna2")
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
    w, b = rng.random(200, dtype=np.float32), rng.random(200, dtype=np.float32)
    gt.simulate(tk.layernorm_kernel, grid=(8,), args=(x, y, w, b, 200, 200, 1e-5), constexprs={"BLOCK": 256},
                timing=False, arch="cdna2")
    ref = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)
    bins = rng.integers(0, 16, 1000).astype(np.int32)
    hist = np.zeros(16, np.int32)
    gt.simulate(tk.histogram_kernel, grid=(4,), args=(bins, hist, 1000), constexprs={"BLOCK": 256},
                timing=False, arch="cdna2")
    np.testing.assert_array_equal(hist, np.bincount(bins, minlength=16))


def _e5m2fnuz(codes):
    c = codes.astype(np.int64)
    exp, man = (c >> 2) & 31, c & 3
    mag = np.where(exp == 0, man / 4 * 2.0 ** -15, (1 + man / 4) * 2.0 ** (exp - 16))
    return np.where(c & 0x80, -mag, mag)


@pytest.mark.parametrize("arch", ARCHS)
def test_dot_matmul_fp8_e5m2fnuz(rng, arch):
    codes = np.array([c for c in range(256) if c != 0x80], np.uint8)   # 0x80 is e5m2fnuz's NaN
    a, b = rng.choice(codes, (64, 64)), rng.choice(codes, (64, 64))
    c = np.zeros((64, 64), np.float32)
    asm = _matmul(a, b, c, arch, types={"a_ptr": "*fp8e5b16", "b_ptr": "*fp8e5b16"})
    if arch == "cdna3":   # gfx90a has no fp8 MFMA: Triton converts to f16 and does an FMA dot there
        assert "v_mfma_f32_32x32x16_bf8_bf8" in asm
    ref = _e5m2fnuz(a) @ _e5m2fnuz(b)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-6 * np.abs(ref).max())


@pytest.mark.parametrize("arch", ARCHS)
def test_dot_matmul_32x32_mfma_with_kpack_2(rng, arch):
    a, b = rng.standard_normal((64, 64)).astype(np.float16), rng.standard_normal((64, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float32)
    asm = _matmul(a, b, c, arch, block=64, options={"matrix_instr_nonkdim": 32, "kpack": 2})
    assert re.search(r"v_mfma_f32_32x32x8_?f16", asm) and "ds_read_b128" in asm   # kpack=2: 128-bit LDS reads
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_gelu_with_cumsum(rng, arch):
    x = rng.standard_normal((4, 200)).astype(np.float32)
    y = np.zeros_like(x)
    gt.simulate(km.gelu_cumsum_kernel, grid=(4,), args=(x, y, 200), constexprs={"BLOCK": 256}, timing=False,
                arch=arch)
    g = 0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(y, np.cumsum(g, axis=1), rtol=1e-5, atol=1e-4)


def test_torch_cpu_tensors_are_accepted_and_written_back():
    torch = pytest.importorskip("torch", reason="torch is not installed (pip install torch --index-url "
                                                 "https://download.pytorch.org/whl/cpu)")
    torch.manual_seed(0)
    x, y, out = torch.rand(1000), torch.rand(1000), torch.zeros(1000)
    gt.simulate(tk.add_kernel, grid=(4,), args=(x, y, out, 1000), constexprs={"BLOCK": 256}, timing=False)
    assert torch.equal(out, x + y)
    a, b = torch.randn(64, 64, dtype=torch.bfloat16), torch.randn(64, 64, dtype=torch.bfloat16)
    c = torch.zeros(64, 64)
    gt.simulate(tk.matmul_kernel, grid=(4,), args=(a, b, c, 64, 64, 64, 64, 1, 64, 1, 64, 1),
                constexprs=dict(BLOCK_M=32, BLOCK_N=32, BLOCK_K=32), timing=False)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-4, atol=1e-4)
    q = torch.randn(64, 64, dtype=torch.float16)
    o = torch.zeros(64, 64, dtype=torch.float16)
    gt.simulate(km.attn_fwd_kernel, grid=(2,), args=(q, q, q, o, 64, 0.125, 64),
                constexprs=dict(BLOCK_M=32, BLOCK_N=32, HEAD_D=64), timing=False)
    ref = _attention_ref(q.numpy(), q.numpy(), q.numpy(), 0.125)
    np.testing.assert_allclose(o.numpy().astype(np.float32), ref, rtol=2e-3, atol=2e-3)


def test_async_copies_into_the_lds_give_the_synchronous_result(rng, monkeypatch):
    # TRITON_HIP_USE_ASYNC_COPY=1 (the default on gfx950) makes gfx942's pipelined loads global_load_lds_dword:
    # the tiles go from memory straight into the LDS at M0, waited for with vmcnt. The MFMAs and their order
    # are the same as the synchronous copy's, so the products must be bit for bit the same.
    a, b = rng.standard_normal((64, 64)).astype(np.float32), rng.standard_normal((64, 64)).astype(np.float32)
    results = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("TRITON_HIP_USE_ASYNC_COPY", flag)
        c = np.zeros((64, 64), np.float32)
        results[flag] = (c, _matmul(a, b, c, "cdna3", options={"num_stages": 2}))
    (sync, sync_asm), (dma, dma_asm) = results["0"], results["1"]
    assert "global_load_lds_dword" in dma_asm and "global_load_lds_dword" not in sync_asm
    np.testing.assert_array_equal(dma, sync)
    np.testing.assert_allclose(dma, a @ b, rtol=1e-2, atol=2e-2)   # the f32 dot runs on xf32 MFMAs


@pytest.mark.parametrize("block", [32, 64])
def test_f64_dot_on_the_f64_mfma(rng, block):
    # v_mfma_f64_16x16x4_f64 keeps D's rows in register pairs i // 4, lane groups i % 4 (AMD's matrix
    # instruction calculator), unlike the f32 shapes: a product laid out as those would be wrong here
    a, b = rng.standard_normal((128, 128)), rng.standard_normal((128, 128))
    c = np.zeros((128, 128))
    cx = dict(BLOCK_M=block, BLOCK_N=block, BLOCK_K=32)
    gt.simulate(km.matmul_in_output_type_kernel, grid=((128 // block) ** 2,), args=(a, b, c, 128, 128, 128),
                constexprs=cx, timing=False, options={"num_stages": 2})
    assert "v_mfma_f64_16x16x4" in _asm(km.matmul_in_output_type_kernel, (a, b, c, 128, 128, 128), cx, "cdna3")
    np.testing.assert_allclose(c, a @ b, rtol=0, atol=1e-12)


def test_a_masked_atomic_add_drops_its_masked_lanes(rng):
    # Triton turns the mask into an offset past the buffer resource's range: those lanes must be no-ops, not
    # faults, nor writes past the 48 columns
    x = rng.standard_normal((100, 48)).astype(np.float32)
    out = np.zeros(64, np.float32)
    args = (x, out, 100, 48)
    cx = dict(BR=32, BC=64)
    gt.simulate(km.column_sums_kernel, grid=(4,), args=args, constexprs=cx, timing=False)
    assert "buffer_atomic_add_f32" in _asm(km.column_sums_kernel, args, cx, "cdna3")
    np.testing.assert_allclose(out[:48], x.sum(axis=0), rtol=1e-5, atol=1e-5)
    assert not out[48:].any()


def test_a_cast_to_fp8_packs_each_value_into_its_code(rng):
    # every finite e4m3fnuz value, and each negated, is exact in f32: the cast must give back its own code
    codes = np.array([c for c in range(256) if c not in (0x00, 0x80)], np.uint8)
    e, m = (codes >> 3) & 15, (codes & 7) / 8
    values = np.where(e == 0, m * 2.0 ** -7, (1 + m) * 2.0 ** (e.astype(np.int64) - 8))
    values = np.where(codes & 0x80, -values, values).astype(np.float32)
    y = np.zeros(len(codes), np.uint8)
    args = (values, y, len(codes))
    gt.simulate(km.to_fp8_kernel, grid=(1,), args=args, constexprs={"BLOCK": 256}, timing=False,
                types={"y_ptr": "*fp8e4b8"})
    assert "v_cvt_pk_fp8_f32" in _asm(km.to_fp8_kernel, args, {"BLOCK": 256}, "cdna3", types={"y_ptr": "*fp8e4b8"})
    np.testing.assert_array_equal(y, codes)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", ["f16", "bf16", "i8"])
@pytest.mark.parametrize("m, n", [(4, 64), (64, 4)])
def test_a_dot_of_four_rows_or_columns_broadcasts_over_the_4x4_blocks(rng, arch, dtype, m, n):
    # Triton computes a 4-row (or 4-column) dot on the 16-block 4x4x4 MFMAs, each broadcasting one of 16 A
    # blocks to all of them (cbsz:4 abid:0..15)
    k = 64
    if dtype == "i8":
        a, b = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
        c, want, types = np.zeros((m, n), np.int32), a.astype(np.int64) @ b, None
    else:
        a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
        if dtype == "f16":
            a, b, types = a.astype(np.float16), b.astype(np.float16), None
            want = a.astype(np.float64) @ b
        else:   # bf16 as its bits: the top half of each f32
            a, b = ((x.view(np.uint32) >> 16).astype(np.uint16) for x in (a, b))
            types = {"a_ptr": "*bf16", "b_ptr": "*bf16"}
            want = ((a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
                    @ (b.astype(np.uint32) << 16).view(np.float32))
        c = np.zeros((m, n), np.float32)
    args, cx = (a, b, c), dict(M=m, N=n, K=k, INT=dtype == "i8")
    gt.simulate(km.small_dot_kernel, grid=(1,), args=args, constexprs=cx, timing=False, arch=arch, types=types)
    asm = _asm(km.small_dot_kernel, args, cx, arch, types)
    assert re.search(r"v_mfma_\w+4x4x4\w* .* cbsz:4 abid:15", asm), asm
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5 if dtype != "i8" else 0)


@pytest.mark.parametrize("fn", ["sin", "cos"])
def test_f32_sin_and_cos_match_numpy_in_every_quadrant(rng, fn):
    # ocml's f32 cos picks the sine polynomial, negated, in odd quadrants with v_cndmask_b32_e64 v3, -v3, v4:
    # the -x there is the f32 sign (gpusim once dropped it, flipping half the results)
    x = rng.uniform(-100, 100, 256).astype(np.float32)
    y = np.zeros_like(x)
    gt.simulate(km.trig_kernel, grid=(1,), args=(x, y, 256), constexprs={"BLOCK": 256, "COS": fn == "cos"},
                timing=False)
    np.testing.assert_allclose(y, getattr(np, fn)(x.astype(np.float64)), rtol=0, atol=3e-7)


@pytest.mark.parametrize("timing", [False, True])
def test_device_print_prints_through_the_hostcall_buffer(timing):
    # Triton's device_print is the device libraries' printf: hostcalls gpusim answers (gpusim.exec.hostcall).
    # With 4 waves for 8 elements every element is held, and printed, by 32 lanes, as on the hardware.
    x = np.arange(8, dtype=np.int32) * 7 - 20
    r = gt.simulate(km.print_kernel, grid=(1,), args=(x,), constexprs={"BLOCK": 8}, timing=timing)
    assert len(r.printed.lines) == 256 and r.printed.dropped == 0
    assert sorted(set(r.printed.lines)) == sorted(f"pid (0, 0, 0) idx ({i}) x=: {v}\n" for i, v in enumerate(x))


def test_a_failed_device_assert_prints_its_message_then_traps():
    x = np.arange(64, dtype=np.int32) * 3   # lanes 34..63 hold 102 and up
    with pytest.raises(KernelFault, match=r"s_trap 2, llvm.trap") as info:
        gt.simulate(km.assert_kernel, grid=(1,), args=(x,), constexprs={"BLOCK": 64}, timing=False,
                    options={"debug": True})
    lines = info.value.printed.lines
    assert lines and all(line.startswith("device assertion failed: 'under 100'") for line in lines)
    # the fault names the kernel's own Python line, from the .loc directives Triton's assembly carries
    source, first = inspect.getsourcelines(km.assert_kernel.fn)
    want = first + next(k for k, text in enumerate(source) if "tl.device_assert" in text)
    assert info.value.loc.file.endswith("triton_kernels_more.py") and info.value.loc.line == want


def test_gpusim_triton_debug_checks_device_asserts_and_prints_what_failed(capsys):
    from gpusim.cli import main
    kernels = str(Path(__file__).with_name("triton_kernels_more.py"))
    args = ["triton", f"{kernels}:assert_kernel", "--grid", "1", "--constexpr", "BLOCK=64", "--num-warps", "1",
            "--arg", "x_ptr=i32[64]:randint(90,110)", "--no-timing"]
    assert main(args) == 0   # without --debug Triton compiles the assert out
    capsys.readouterr()
    assert main(args + ["--debug"]) == 3
    out, err = capsys.readouterr()
    assert out and all(line.startswith("device assertion failed: 'under 100'") for line in out.splitlines())
    assert "s_trap 2, llvm.trap" in err and len(err.splitlines()) == 1
