"""More Triton kernels in the shape of the Triton tutorials: a fused-attention forward and a gelu with cumsum."""
import triton
import triton.language as tl


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, sm_scale, stride_s,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr):
    """attn_fwd_kernel is one head's softmax(Q K^T * sm_scale) V, online over BLOCK_N-row blocks of K and V."""
    start_m = tl.program_id(0) * BLOCK_M
    rm = start_m + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rd = tl.arange(0, HEAD_D)
    q = tl.load(q_ptr + rm[:, None] * stride_s + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_D), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504   # exp(x) = exp2(x * log2(e))
    for start_n in range(0, seq, BLOCK_N):
        cols = start_n + rn
        kt = tl.load(k_ptr + cols[None, :] * stride_s + rd[:, None], mask=cols[None, :] < seq, other=0.0)
        qk = tl.dot(q, kt) * qk_scale
        qk = tl.where(cols[None, :] < seq, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + cols[:, None] * stride_s + rd[None, :], mask=cols[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * stride_s + rd[None, :], acc.to(tl.float16), mask=rm[:, None] < seq)


@triton.jit
def gelu_cumsum_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """gelu_cumsum_kernel writes, per row of BLOCK, the running sum of gelu(x) (tanh approximation)."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0.0)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2 * tl.sigmoid(2 * inner) - 1     # tanh
    g = 0.5 * x * (1 + t)
    tl.store(y_ptr + row * n + offs, tl.cumsum(g, axis=0), mask=mask)


@triton.jit
def matmul_in_output_type_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                 BLOCK_K: tl.constexpr):
    """matmul_in_output_type_kernel is C = A @ B for row-major M x K and K x N, accumulated in C's element type
    (f64 inputs and output: Triton's dot runs on v_mfma_f64_16x16x4_f64)."""
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_N)
    rm = (pid // grid_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = (pid % grid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=c_ptr.dtype.element_ty)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def column_sums_kernel(x_ptr, out_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr):
    """column_sums_kernel adds each program's BR rows of the R x C matrix x into out[C] with a masked atomic add
    (BC > C: the masked-off columns are buffer atomics past their resource's range on gfx942)."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :], mask=(r[:, None] < R) & (c[None, :] < C), other=0.0)
    tl.atomic_add(out_ptr + c, tl.sum(x, axis=0), mask=c < C)


@triton.jit
def to_fp8_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """to_fp8_kernel casts f32 to e4m3fnuz (fp8e4b8), as a quantising epilogue does (v_cvt_pk_fp8_f32 on gfx942)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.float8e4b8), mask=mask)


@triton.jit
def small_dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, INT: tl.constexpr):
    """One M x N tile of A (M x K) @ B (K x N), all row-major; an M of 4 is a decode step's few rows."""
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if INT:
        c = tl.dot(a, b, out_dtype=tl.int32)
    else:
        c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def trig_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, COS: tl.constexpr):
    """y = sin(x) or cos(x) (Triton's libdevice, ocml: f64 arguments from 2**30 up use v_trig_preop_f64)."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n)
    y = tl.cos(x) if COS else tl.sin(x)
    tl.store(y_ptr + i, y, mask=i < n)


@triton.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    """print_kernel prints its block with tl.device_print: printf of the ROCm device libraries, a host call."""
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x=", x)


@triton.jit
def assert_kernel(x_ptr, BLOCK: tl.constexpr):
    """assert_kernel asserts every element is under 100 (a check only Triton's debug mode compiles)."""
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x < 100, "under 100")
