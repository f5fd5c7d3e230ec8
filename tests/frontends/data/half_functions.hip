#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
// gpusim-launch: grid=2,1,1 block=64,1,1
// gpusim-arg: a buffer f16[128] init=uniform(-2,2) seed=1
// gpusim-arg: b buffer f16[128] init=uniform(0.25,4) seed=2
// gpusim-arg: c buffer f16[128] init=uniform(-2,2) seed=3
// gpusim-arg: x buffer f32[128] init=uniform(-100,100) seed=4
// gpusim-arg: arith buffer f16[512] out
// gpusim-arg: fused buffer f16[256] out
// gpusim-arg: packed buffer f16[384] out
// gpusim-arg: pick buffer f16[512] out
// gpusim-arg: conv buffer f16[128] out
// gpusim-arg: back buffer f32[128] out
// gpusim-arg: root buffer f16[128] out
// gpusim-arg: expo buffer f16[128] out
// gpusim-arg: cmp buffer i32[128] out
// gpusim-arg: bf buffer bf16[128] out
// gpusim-arg: bfop buffer f32[256] out
// gpusim-check: arith == np.concatenate([a + b, a - b, a * b, a / b])
// gpusim-check: fused == np.concatenate([(a.astype(f64) * b + c).astype(f16)] * 2)
// gpusim-check: packed == np.concatenate([a + c, a * c, a / b])
// gpusim-check: pick == np.concatenate([np.maximum(a, c), np.minimum(a, c), -a, np.abs(a)])
// gpusim-check: conv == x.astype(f16)
// gpusim-check: back == a.astype(f32) + 2 * b.astype(f32)
// gpusim-check: root == np.sqrt(b)
// gpusim-check: expo ~= np.exp(a.astype(f64)).astype(f16)  rtol=1e-3 atol=0
// gpusim-check: cmp == (a < c) * 1 + (a <= c) * 2 + (a > c) * 4 + (a >= c) * 8 + (a == a) * 16 + (a != c) * 32
// gpusim-check: bf == ((x.view(u32) + 0x7fff + ((x.view(u32) >> 16) & 1)) >> 16).astype(u16)
// gpusim-check: bfop == (lambda v: ((v.view(u32) + 0x7fff + ((v.view(u32) >> 16) & 1)) & 0xffff0000).view(f32))(np.concatenate([(g := (lambda v: ((v.view(u32) + 0x7fff + ((v.view(u32) >> 16) & 1)) & 0xffff0000).view(f32))(x)) + g[::-1], g * g[::-1]]))

// HIP's half and bfloat16 types and functions, each result checked against numpy: scalar and packed
// (__half2) arithmetic, fused multiply-add, selections, conversions both ways, comparisons, and
// bfloat16 rounding. A file as its author writes it: the #include lines gpusim's headers answer.
__global__ void half_functions(const __half *a, const __half *b, const __half *c, const float *x, __half *arith,
                               __half *fused, __half *packed, __half *pick, __half *conv, float *back,
                               __half *root, __half *expo, int *cmp, __hip_bfloat16 *bf, float *bfop) {
  const int n = 128;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half ai = a[i], bi = b[i], ci = c[i];
  arith[i] = __hadd(ai, bi);
  arith[n + i] = __hsub(ai, bi);
  arith[2 * n + i] = __hmul(ai, bi);
  arith[3 * n + i] = __hdiv(ai, bi);
  fused[i] = __hfma(ai, bi, ci);
  pick[i] = __hmax(ai, ci);
  pick[n + i] = __hmin(ai, ci);
  pick[2 * n + i] = __hneg(ai);
  pick[3 * n + i] = __habs(ai);
  conv[i] = __float2half(x[i]);
  back[i] = __half2float(ai) + 2.0f * __high2float(__halves2half2(ci, bi));
  root[i] = hsqrt(bi);
  expo[i] = hexp(ai);
  cmp[i] = __hlt(ai, ci) * 1 + __hle(ai, ci) * 2 + __hgt(ai, ci) * 4 + __hge(ai, ci) * 8 + __heq(ai, ai) * 16 +
           __hne(ai, ci) * 32 + __hisnan(ai) * 64;
  if (i < n / 2) {   // the packed forms, a pair of elements a lane
    __half2 a2 = __halves2half2(a[2 * i], a[2 * i + 1]), b2 = make_half2(b[2 * i], b[2 * i + 1]);
    __half2 c2 = __halves2half2(c[2 * i], c[2 * i + 1]);
    __half2 f2 = __hfma2(a2, b2, c2), s2 = __hadd2(a2, c2), p2 = __hmul2(a2, c2), q2 = __h2div(a2, b2);
    fused[n + 2 * i] = __low2half(f2);
    fused[n + 2 * i + 1] = __high2half(f2);
    packed[2 * i] = s2.x;
    packed[2 * i + 1] = s2.y;
    packed[n + 2 * i] = p2.x;
    packed[n + 2 * i + 1] = p2.y;
    packed[2 * n + 2 * i] = q2.x;
    packed[2 * n + 2 * i + 1] = q2.y;
  }
  __hip_bfloat16 bx = __float2bfloat16(x[i]), by = __float2bfloat16(x[n - 1 - i]);
  bf[i] = bx;
  bfop[i] = __bfloat162float(__hadd(bx, by));
  bfop[n + i] = __bfloat162float(__hmul(bx, by));
}
