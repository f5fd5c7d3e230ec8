#include <hip/hip_runtime.h>
#include <cmath>
#include <ctime>
// gpusim-launch: grid=2,1,1 block=64,1,1 lds=256
// gpusim-arg: x buffer f32[128] init=uniform(-8,8) seed=1
// gpusim-arg: y buffer f32[128] init=uniform(0.5,4) seed=2
// gpusim-arg: i buffer i32[128] init=randint(-2147483648,2147483647) seed=3
// gpusim-arg: j buffer i32[128] init=randint(-2147483648,2147483647) seed=4
// gpusim-arg: u buffer u32[128] init=randint(0,4294967295) seed=5
// gpusim-arg: w buffer u32[128] init=randint(0,4294967295) seed=6
// gpusim-arg: lib buffer f32[768] out
// gpusim-arg: mant buffer f32[128] out
// gpusim-arg: expo buffer i32[128] out
// gpusim-arg: trig buffer f32[256] out
// gpusim-arg: cls buffer i32[128] out
// gpusim-arg: rn buffer f32[640] out
// gpusim-arg: fast buffer f32[512] out
// gpusim-arg: bits buffer i32[256] out
// gpusim-arg: conv buffer i32[512] out
// gpusim-arg: perm buffer u32[768] out
// gpusim-arg: mul buffer i32[384] out
// gpusim-arg: umul buffer u32[384] out
// gpusim-arg: wide buffer i64[256] out
// gpusim-arg: counters buffer u32[2] out
// gpusim-arg: acc buffer u64[1] out
// gpusim-arg: rev buffer f32[128] out
// gpusim-arg: clk buffer i64[1] out
// gpusim-check: lib ~= np.concatenate([np.power(np.abs(x), y), np.log10(np.abs(x)), np.power(10, y.astype(f64)), np.fmod(x, y), x * 32, np.maximum(x - y, 0)])  rtol=1e-6 atol=0
// gpusim-check: expo == np.floor(np.log2(np.abs(x))) + 1
// gpusim-check: mant == x / np.power(2.0, np.floor(np.log2(np.abs(x))) + 1)
// gpusim-check: trig ~= np.concatenate([np.sin(x), np.cos(x)])  rtol=0 atol=1e-6
// gpusim-check: cls == (lambda v: np.isnan(v) * 1 + np.isinf(v) * 2 + np.isfinite(v) * 4 + np.signbit(v) * 8 + 16 * np.abs(np.fmod(i, 1000)))(np.where(np.arange(128) % 4 == 0, np.copysign(np.inf, x), np.where(np.arange(128) % 4 == 1, np.nan, np.where(np.arange(128) % 4 == 2, -0.0, x))))
// gpusim-check: rn == np.concatenate([x * y + x[::-1], np.clip(x / 4, 0, 1), x / y, 1 / y, np.sqrt(y)])
// gpusim-check: fast ~= np.concatenate([np.log(y), np.log2(y), np.sin(x), np.power(10, y.astype(f64) / 4)])  rtol=1e-5 atol=1e-6
// gpusim-check: bits == np.concatenate([x.view(i32), np.abs(i).view(f32).view(i32)])
// gpusim-check: conv == np.concatenate([np.rint(x * 1000), np.trunc(x * 1000), np.floor(x * 1000), np.ceil(x * 1000)])
// gpusim-check: perm == np.concatenate([u, w, ((u & 0xff) << 24) | ((u >> 8 & 0xff) << 16) | ((u >> 16 & 0xff) << 8) | (u >> 24), (u & 0x00ff00ff) | (w & 0xff00ff00), (lambda v: (v >> 16) | (v << 16))((lambda v: ((v >> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8))((lambda v: ((v >> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4))((lambda v: ((v >> 2) & 0x33333333) | ((v & 0x33333333) << 2))((lambda v: ((v >> 1) & 0x55555555) | ((v & 0x55555555) << 1))(u))))), (1 << (31 - np.arange(128) % 32)).astype(u32)])
// gpusim-check: mul == np.concatenate([((i.astype(i64) << 40 >> 40) * (j.astype(i64) << 40 >> 40)).astype(i32), ((i.astype(i64) * j) >> 32).astype(i32), (np.abs(i.astype(i64) - j) + 7).astype(i32)])
// gpusim-check: umul == np.concatenate([((u & 0xffffff).astype(u64) * (w & 0xffffff)).astype(u32), ((u.astype(u64) * w) >> 32).astype(u32), np.where(u > w, u - w, w - u) + 7])
// gpusim-check: wide == np.concatenate([(i.astype(i64) * j) >> 24, ((u.astype(u64) * w) >> 24).astype(i64)])
// gpusim-check: counters == np.array([128 % 10, (-128) % 10])
// gpusim-check: acc == np.array([8256 << 33])
// gpusim-check: rev == x.reshape(2, 64)[:, ::-1].reshape(128)

// HIP's math functions, intrinsics, integer and bit functions, atomicInc/Dec and 64-bit atomicCAS, the
// older index spellings and dynamic shared memory, each checked against numpy; the clocks compile.
__global__ void intrinsics(const float *x, const float *y, const int *i, const int *j, const unsigned *u,
                           const unsigned *w, float *lib, float *mant, int *expo, float *trig, int *cls, float *rn,
                           float *fast, int *bits, int *conv, unsigned *perm, int *mul, unsigned *umul,
                           long long *wide, unsigned *counters, unsigned long long *acc, float *rev, long long *clk) {
  const int n = 128;
  long long t0 = clock64();
  int k = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  float xk = x[k], yk = y[k];
  lib[k] = powf(fabsf(xk), yk);
  lib[n + k] = log10f(fabsf(xk));
  lib[2 * n + k] = exp10f(yk);
  lib[3 * n + k] = fmodf(xk, yk);
  lib[4 * n + k] = ldexpf(xk, 5);
  lib[5 * n + k] = fdimf(xk, yk);
  mant[k] = frexpf(xk, &expo[k]);
  sincosf(xk, &trig[k], &trig[n + k]);
  float v = k % 4 == 0 ? copysignf(__int_as_float(0x7f800000), xk) : k % 4 == 1 ? __int_as_float(0x7fc00000)
          : k % 4 == 2 ? -0.0f : xk;
  cls[k] = isnan(v) * 1 + isinf(v) * 2 + isfinite(v) * 4 + signbit(v) * 8 + 16 * abs(i[k] % 1000);
  rn[k] = __fadd_rn(__fmul_rn(xk, yk), x[n - 1 - k]);
  rn[n + k] = __saturatef(xk / 4);
  rn[2 * n + k] = __fdividef(xk, yk);
  rn[3 * n + k] = __frcp_rn(yk);
  rn[4 * n + k] = __fsqrt_rn(yk);
  fast[k] = __logf(yk);
  fast[n + k] = __log2f(yk);
  fast[2 * n + k] = __sinf(xk);
  fast[3 * n + k] = __exp10f(yk / 4);
  bits[k] = __float_as_int(xk);
  bits[n + k] = __float_as_int(__int_as_float(abs(i[k])));
  conv[k] = __float2int_rn(xk * 1000);
  conv[n + k] = __float2int_rz(xk * 1000);
  conv[2 * n + k] = __float2int_rd(xk * 1000);
  conv[3 * n + k] = __float2int_ru(xk * 1000);
  unsigned uk = u[k], wk = w[k];
  perm[k] = __byte_perm(uk, wk, 0x3210);
  perm[n + k] = __byte_perm(uk, wk, 0x7654);
  perm[2 * n + k] = __byte_perm(uk, wk, 0x0123);
  perm[3 * n + k] = __byte_perm(uk, wk, 0x7250);
  perm[4 * n + k] = __brev(uk);
  perm[5 * n + k] = __brev(1u << (k % 32));
  mul[k] = __mul24(i[k], j[k]);
  mul[n + k] = __mulhi(i[k], j[k]);
  mul[2 * n + k] = (int)__sad(i[k], j[k], 7);
  umul[k] = __umul24(uk, wk);
  umul[n + k] = __umulhi(uk, wk);
  umul[2 * n + k] = __usad(uk, wk, 7);
  wide[k] = __mul64hi((long long)i[k] << 20, (long long)j[k] << 20);
  wide[n + k] = (long long)__umul64hi((unsigned long long)uk << 20, (unsigned long long)wk << 20);
  atomicInc(&counters[0], 9);
  atomicDec(&counters[1], 9);
  unsigned long long old = *acc, seen;
  do {
    seen = old;
    old = atomicCAS(acc, seen, seen + ((unsigned long long)(k + 1) << 33));
  } while (old != seen);
  HIP_DYNAMIC_SHARED(float, tile)
  tile[hipThreadIdx_x] = xk;
  __syncthreads();
  rev[k] = tile[63 - hipThreadIdx_x];
  if (k == 0) *clk = clock64() - t0 + wall_clock64();   // s_memtime, s_memrealtime: read 0 in gpusim
}
