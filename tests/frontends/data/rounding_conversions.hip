// HIP's conversions with a named rounding (gpusim_hip_conversions.h): 32- and 64-bit integers to float and double,
// double to float (values past float's range and in its subnormals too), float and double to the four integer
// types; each in its _rn, _rz, _rd and _ru forms. The first lanes convert chosen values (ties, the types' ends),
// which the kernel writes back over its inputs; tests/frontends/test_hip_conversions.py checks every result
// against exact rounding in Python.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=256,1,1
// gpusim-arg: i buffer i32[256] init=randint(-2147483648,2147483648) seed=1 out
// gpusim-arg: u buffer u32[256] init=randint(0,4294967296) seed=2 out
// gpusim-arg: l buffer i64[256] init=randint(-9223372036854775808,9223372036854775808) seed=3 out
// gpusim-arg: ul buffer u64[256] init=randint(0,18446744073709551616) seed=4 out
// gpusim-arg: d buffer f64[768] init=uniform(-1,1) seed=5 out
// gpusim-arg: f buffer f32[256] init=uniform(-2e9,2e9) seed=6 out
// gpusim-arg: fu buffer f32[256] init=uniform(0,4e9) seed=7 out
// gpusim-arg: g buffer f64[256] init=uniform(-2e9,2e9) seed=8 out
// gpusim-arg: gu buffer f64[256] init=uniform(0,4e9) seed=9 out
// gpusim-arg: wf buffer f32[256] init=uniform(-9e18,9e18) seed=10 out
// gpusim-arg: wfu buffer f32[256] init=uniform(0,1.8e19) seed=11 out
// gpusim-arg: wg buffer f64[256] init=uniform(-9e18,9e18) seed=12 out
// gpusim-arg: wgu buffer f64[256] init=uniform(0,1.8e19) seed=13 out
// gpusim-arg: tof buffer f32[4096] out
// gpusim-arg: tod buffer f64[2560] out
// gpusim-arg: narrow buffer f32[3072] out
// gpusim-arg: toi buffer i32[2048] out
// gpusim-arg: tou buffer u32[2048] out
// gpusim-arg: toll buffer i64[2048] out
// gpusim-arg: toull buffer u64[2048] out
#define ROUNDINGS(OUT, AT, NAME, X) \
  OUT[(AT) * 256 + t] = NAME##_rn(X); \
  OUT[(AT + 1) * 256 + t] = NAME##_rz(X); \
  OUT[(AT + 2) * 256 + t] = NAME##_rd(X); \
  OUT[(AT + 3) * 256 + t] = NAME##_ru(X);
extern "C" __global__ void rounding_conversions(int *i, unsigned *u, long long *l, unsigned long long *ul, double *d,
                                                float *f, float *fu, double *g, double *gu, float *wf, float *wfu,
                                                double *wg, double *wgu, float *tof, double *tod, float *narrow,
                                                int *toi, unsigned *tou, long long *toll, unsigned long long *toull) {
  int t = threadIdx.x;
  // ties to even and the ends of each type
  if (t == 0) { i[t] = 16777217; u[t] = 16777219u; l[t] = (1ll << 53) + 1; ul[t] = (1ull << 53) + 3; }
  if (t == 1) { i[t] = 2147483647; u[t] = 4294967295u; l[t] = 9223372036854775807ll; ul[t] = ~0ull; }
  if (t == 2) { i[t] = -2147483647 - 1; u[t] = 0u; l[t] = -9223372036854775807ll - 1; ul[t] = 0ull; }
  if (t == 3) { i[t] = -16777219; l[t] = -((1ll << 53) + 1); }
  // doubles around float's largest value (3.4e38) and through its subnormals (1.4e-45 to 1.2e-38)
  d[256 + t] *= 4e38;
  d[512 + t] *= 1e-40;
  if (t == 0) { d[256] = 3.4028235677973366e38; d[512] = 7.006492321624085e-46; }   // FLT_MAX+half ulp, half the least
  ROUNDINGS(tof, 0, __int2float, i[t])
  ROUNDINGS(tof, 4, __uint2float, u[t])
  ROUNDINGS(tof, 8, __ll2float, l[t])
  ROUNDINGS(tof, 12, __ull2float, ul[t])
  ROUNDINGS(tod, 0, __ll2double, l[t])
  ROUNDINGS(tod, 4, __ull2double, ul[t])
  tod[8 * 256 + t] = __int2double_rn(i[t]);
  tod[9 * 256 + t] = __uint2double_rn(u[t]);
  for (int r = 0; r < 3; ++r) { ROUNDINGS(narrow, 4 * r, __double2float, d[r * 256 + t]) }
  ROUNDINGS(toi, 0, __float2int, f[t])
  ROUNDINGS(toi, 4, __double2int, g[t])
  ROUNDINGS(tou, 0, __float2uint, fu[t])
  ROUNDINGS(tou, 4, __double2uint, gu[t])
  ROUNDINGS(toll, 0, __float2ll, wf[t])
  ROUNDINGS(toll, 4, __double2ll, wg[t])
  ROUNDINGS(toull, 0, __float2ull, wfu[t])
  ROUNDINGS(toull, 4, __double2ull, wgu[t])
}
