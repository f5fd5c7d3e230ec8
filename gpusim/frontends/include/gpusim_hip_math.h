/* gpusim_hip_math.h is the math of gpusim's HIP header: the float and double functions the AMDGPU backend
   lowers itself (sqrtf, expf, powf, fmodf, ...), the ones this header builds from those (expm1f, log1pf,
   tanhf, sinhf, coshf, erff), HIP's fast and round-to-nearest intrinsics, and named errors for what neither
   can compute without ROCm's device libraries, or, when the compile links them, that from their ocml
   (gpusim_hip_ocml.h). */
#ifndef GPUSIM_HIP_MATH_H
#define GPUSIM_HIP_MATH_H

#define __GPUSIM_MATH1(NAME) \
  static __device__ __forceinline__ float NAME##f(float x) { return __builtin_##NAME##f(x); } \
  static __device__ __forceinline__ double NAME(double x) { return __builtin_##NAME(x); }
#define __GPUSIM_MATH2(NAME) \
  static __device__ __forceinline__ float NAME##f(float x, float y) { return __builtin_##NAME##f(x, y); } \
  static __device__ __forceinline__ double NAME(double x, double y) { return __builtin_##NAME(x, y); }
__GPUSIM_MATH1(sqrt) __GPUSIM_MATH1(fabs) __GPUSIM_MATH1(floor) __GPUSIM_MATH1(ceil)
__GPUSIM_MATH1(trunc) __GPUSIM_MATH1(rint) __GPUSIM_MATH1(round)
static __device__ __forceinline__ float expf(float x) { return __builtin_expf(x); }
static __device__ __forceinline__ float exp2f(float x) { return __builtin_exp2f(x); }
static __device__ __forceinline__ float logf(float x) { return __builtin_logf(x); }
static __device__ __forceinline__ float log2f(float x) { return __builtin_log2f(x); }
static __device__ __forceinline__ float sinf(float x) { return __builtin_sinf(x); }
static __device__ __forceinline__ float cosf(float x) { return __builtin_cosf(x); }
__GPUSIM_MATH2(fmax) __GPUSIM_MATH2(fmin) __GPUSIM_MATH2(copysign)
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
static __device__ __forceinline__ float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
static __device__ __forceinline__ float __expf(float x) { return __builtin_amdgcn_exp2f(x * 1.4426950408889634f); }

/* Float functions the AMDGPU backend has no instruction sequence for, built from the ones it has (expf and
   logf, v_exp_f32/v_log_f32 with their refinement). tests/frontends/test_hip_math.py measures each against
   the correctly rounded value over a dense sweep of inputs. */
static __device__ __forceinline__ float expm1f(float x) {
  float u = __builtin_expf(x);
  if (u == 1.0f) return x;                  /* |x| under half an ulp of 1 */
  float um1 = u - 1.0f;
  if (x > 1.0f || x < -1.0f) return um1;   /* e^x far from 1: u - 1 loses little (and Kahan could overflow) */
  return um1 * (x / __builtin_logf(u));     /* Kahan: the rounding of u cancels out of the quotient */
}
static __device__ __forceinline__ float log1pf(float x) {
  float u = 1.0f + x;
  if (u == 1.0f) return x;
  if (u == __builtin_inff()) return u;
  if (__builtin_fabsf(x) < 0.01f)           /* its Taylor series: the next term is 2e-11 of the sum */
    return x * (1.0f + x * (-0.5f + x * (1.0f / 3.0f + x * (-0.25f + x * (0.2f + x * (-1.0f / 6.0f))))));
  float d = u - 1.0f;
  return d == x ? __builtin_logf(u) : __builtin_logf(u) * (x / d);
}
static __device__ __forceinline__ float tanhf(float x) {
  float a = __builtin_fabsf(x);
  if (a < 0.05f) {                          /* its Taylor series: the next term is 1e-12 of the sum */
    float x2 = x * x;
    return x * (1.0f + x2 * (-1.0f / 3.0f + x2 * (2.0f / 15.0f + x2 * (-17.0f / 315.0f))));
  }
  if (a > 9.1f) return __builtin_copysignf(1.0f, x);   /* 1 - tanh(9.1) is under half an ulp of 1 */
  float e = expm1f(2.0f * a);
  return __builtin_copysignf(e / (e + 2.0f), x);
}
static __device__ __forceinline__ float sinhf(float x) {
  float a = __builtin_fabsf(x), r;
  if (a < 0.5f) {                           /* its Taylor series: the next term is 2e-14 of the sum */
    float x2 = x * x;
    return x * (1.0f + x2 * (1.0f / 6.0f + x2 * (1.0f / 120.0f + x2 * (1.0f / 5040.0f + x2 * (1.0f / 362880.0f +
                                                                                        x2 * (1.0f / 39916800.0f))))));
  } else if (a < 1.0f) {
    float e = expm1f(a);
    r = 0.5f * (e + e / (e + 1.0f));
  } else if (a < 88.0f) {
    float e = __builtin_expf(a);
    r = 0.5f * e - 0.5f / e;
  } else {                                   /* e^a overflows before the halving: (e^(a/2) / 2) e^(a/2) */
    float h = __builtin_expf(0.5f * a);
    r = (0.5f * h) * h;
  }
  return __builtin_copysignf(r, x);
}
static __device__ __forceinline__ float coshf(float x) {
  float a = __builtin_fabsf(x);
  if (a < 88.0f) {
    float e = __builtin_expf(a);
    return 0.5f * e + 0.5f / e;
  }
  float h = __builtin_expf(0.5f * a);
  return (0.5f * h) * h;
}
/* erf: its Maclaurin series in double below 3.5 (55 terms reach 1e-12 there), 1 - erfc by the asymptotic
   series' first three terms up to 4, and +-1 beyond (erfc(4) is under half an ulp of 1). */
static __device__ __forceinline__ float erff(float xf) {
  double x = xf, a = __builtin_fabs(x), x2 = x * x;
  if (a < 3.5) {
    double term = 1.0, sum = 1.0;             /* erf(x) / x, so that erf(-0) is -0 */
    for (int n = 1; n < 56; ++n) {
      term *= -x2 / n;
      sum += term / (2 * n + 1);
    }
    return (float)(x * sum * 1.1283791670955126);   /* 2 / sqrt(pi) */
  }
  if (!(a < 4.0)) return __builtin_isnan(xf) ? xf : __builtin_copysignf(1.0f, xf);
  double inv = 1.0 / (2.0 * x2);
  double erfc = (double)__builtin_expf((float)-x2) / (a * 1.7724538509055160) * (1.0 - inv + 3.0 * inv * inv);
  return (float)__builtin_copysign(1.0 - erfc, x);
}
/* More the backend lowers itself (its pow is exp2(y * log2 |x|) with the sign and special cases of pow). */
__GPUSIM_MATH1(nearbyint) __GPUSIM_MATH2(fmod)
static __device__ __forceinline__ float powf(float x, float y) { return __builtin_powf(x, y); }
static __device__ __forceinline__ float log10f(float x) { return __builtin_log10f(x); }
static __device__ __forceinline__ float exp10f(float x) { return __builtin_exp10f(x); }
static __device__ __forceinline__ float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ __forceinline__ double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
static __device__ __forceinline__ float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
static __device__ __forceinline__ double frexp(double x, int *e) { return __builtin_frexp(x, e); }
static __device__ __forceinline__ float fdimf(float x, float y) { return x > y ? x - y : (x <= y ? 0.0f : x + y); }
static __device__ __forceinline__ void sincosf(float x, float *s, float *c) {
  *s = __builtin_sinf(x);
  *c = __builtin_cosf(x);
}
static __device__ __forceinline__ bool isnan(float x) { return __builtin_isnan(x); }
static __device__ __forceinline__ bool isnan(double x) { return __builtin_isnan(x); }
static __device__ __forceinline__ bool isinf(float x) { return __builtin_isinf(x); }
static __device__ __forceinline__ bool isinf(double x) { return __builtin_isinf(x); }
static __device__ __forceinline__ bool isfinite(float x) { return __builtin_isfinite(x); }
static __device__ __forceinline__ bool isfinite(double x) { return __builtin_isfinite(x); }
static __device__ __forceinline__ bool signbit(float x) { return __builtin_signbit(x); }
static __device__ __forceinline__ bool signbit(double x) { return __builtin_signbit(x); }
static __device__ __forceinline__ int abs(int x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ long long llabs(long long x) { return x < 0 ? -x : x; }

/* HIP's intrinsics. The _rn forms round to nearest even, one rounding each: a product is never fused into a
   later sum (the contraction pragma). The fast forms (__logf, __sinf, __exp10f, ...) are the hardware's
   approximations (v_log_f32, v_exp_f32, v_sin_f32), as HIP's are; HIP's __fdividef and __powf are the full
   division and powf. */
/* a + b, a - b or a * b, rounded once: never fused into a neighbouring operation */
#define __GPUSIM_UNFUSED(T, NAME, OP)                    \
  static __device__ __forceinline__ T NAME(T a, T b) {   \
    _Pragma("clang fp contract(off)") return a OP b;     \
  }
/* the round-to-nearest forms of type T, named with prefix P (f: float, d: double) */
#define __GPUSIM_ROUNDED(T, P, SQRT)                                                                      \
  __GPUSIM_UNFUSED(T, __##P##add_rn, +) __GPUSIM_UNFUSED(T, __##P##sub_rn, -)                             \
  __GPUSIM_UNFUSED(T, __##P##mul_rn, *)                                                                   \
  static __device__ __forceinline__ T __##P##div_rn(T a, T b) { return a / b; }                         \
  static __device__ __forceinline__ T __##P##rcp_rn(T x) { return (T)1 / x; }                           \
  static __device__ __forceinline__ T __##P##sqrt_rn(T x) { return SQRT(x); }
__GPUSIM_ROUNDED(float, f, __builtin_sqrtf)
__GPUSIM_ROUNDED(double, d, __builtin_sqrt)
#undef __GPUSIM_ROUNDED
#undef __GPUSIM_UNFUSED
static __device__ __forceinline__ float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ double __fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }
static __device__ __forceinline__ float __frsqrt_rn(float x) { return 1.0f / __builtin_sqrtf(x); }
/* The directed roundings of arithmetic (__fadd_rd, __dmul_ru, __fsqrt_rz, ...) would need the MODE register's
   rounding field, which gpusim does not honour: a call is an error naming them. */
#define __GPUSIM_NOT_ROUNDED(T, NAME, ...)                                                                       \
  static __device__ T NAME##_rd(__VA_ARGS__) __attribute__((unavailable(                                      \
      "gpusim's HIP header rounds arithmetic to nearest only (the _rn forms): directed rounding is not modelled"))); \
  static __device__ T NAME##_ru(__VA_ARGS__) __attribute__((unavailable(                                      \
      "gpusim's HIP header rounds arithmetic to nearest only (the _rn forms): directed rounding is not modelled"))); \
  static __device__ T NAME##_rz(__VA_ARGS__) __attribute__((unavailable(                                      \
      "gpusim's HIP header rounds arithmetic to nearest only (the _rn forms): directed rounding is not modelled")));
__GPUSIM_NOT_ROUNDED(float, __fadd, float, float) __GPUSIM_NOT_ROUNDED(float, __fsub, float, float)
__GPUSIM_NOT_ROUNDED(float, __fmul, float, float) __GPUSIM_NOT_ROUNDED(float, __fdiv, float, float)
__GPUSIM_NOT_ROUNDED(float, __fmaf, float, float, float) __GPUSIM_NOT_ROUNDED(float, __frcp, float)
__GPUSIM_NOT_ROUNDED(float, __fsqrt, float) __GPUSIM_NOT_ROUNDED(double, __dadd, double, double)
__GPUSIM_NOT_ROUNDED(double, __dsub, double, double) __GPUSIM_NOT_ROUNDED(double, __dmul, double, double)
__GPUSIM_NOT_ROUNDED(double, __ddiv, double, double) __GPUSIM_NOT_ROUNDED(double, __fma, double, double, double)
__GPUSIM_NOT_ROUNDED(double, __drcp, double) __GPUSIM_NOT_ROUNDED(double, __dsqrt, double)
#undef __GPUSIM_NOT_ROUNDED
static __device__ __forceinline__ float __fdividef(float a, float b) { return a / b; }   /* as HIP's: a division */
static __device__ __forceinline__ float fdividef(float a, float b) { return a / b; }
static __device__ __forceinline__ float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
static __device__ __forceinline__ float __log2f(float x) { return __builtin_amdgcn_logf(x); }
static __device__ __forceinline__ float __logf(float x) { return __builtin_amdgcn_logf(x) * 0.69314718055994531f; }
static __device__ __forceinline__ float __log10f(float x) { return __builtin_amdgcn_logf(x) * 0.30102999566398120f; }
static __device__ __forceinline__ float __exp10f(float x) { return __builtin_amdgcn_exp2f(x * 3.3219280948873623f); }
static __device__ __forceinline__ float __powf(float x, float y) { return __builtin_powf(x, y); }   /* as HIP's: powf */
/* v_sin_f32 and v_cos_f32 take the angle in turns */
static __device__ __forceinline__ float __sinf(float x) { return __builtin_amdgcn_sinf(x * 0.15915494309189535f); }
static __device__ __forceinline__ float __cosf(float x) { return __builtin_amdgcn_cosf(x * 0.15915494309189535f); }
static __device__ __forceinline__ void __sincosf(float x, float *s, float *c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
static __device__ __forceinline__ float __tanf(float x) { return __sinf(x) / __cosf(x); }

#include "gpusim_hip_conversions.h"

#include "gpusim_hip_ocml.h"   /* ROCm's ocml when the compile links it (--device-libs DIR), else named errors */
template <class T> static __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; }
template <class T> static __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }

#endif
