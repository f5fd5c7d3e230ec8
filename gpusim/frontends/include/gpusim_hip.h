/* gpusim_hip.h is the small HIP header gpusim force-includes when no HIP headers are
   installed, and what its <hip/hip_runtime.h> includes: enough for kernels written
   against the HIP runtime API's device side (built-in indices, qualifiers, barriers,
   atomics, wave-level functions, common math, vector types) and for host code that
   calls the runtime API (declared only: gpusim never runs host code). */
#ifndef GPUSIM_HIP_H
#define GPUSIM_HIP_H

/* Code that only hipcc should see (host calls these headers do not declare) can test this. */
#define __GPUSIM__ 1

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((amdgpu_flat_work_group_size(1, 1024)))

typedef unsigned int uint;

#include "gpusim_hip_vector_types.h"
#include "gpusim_hip_runtime_api.h"

/* The dispatch packet holds the workgroup size (16-bit fields at byte 4) and the
   grid size in work-items (32-bit fields at byte 12). */
static __device__ __forceinline__ unsigned __gpusim_block_size(int d) {
  const unsigned short *p = (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  return p[2 + d];
}
static __device__ __forceinline__ unsigned __gpusim_grid_items(int d) {
  const unsigned *p = (const unsigned *)__builtin_amdgcn_dispatch_ptr();
  return p[3 + d];
}

struct __gpusim_thread_idx {
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
  __declspec(property(get = get_z)) unsigned z;
  static __device__ unsigned get_x() { return __builtin_amdgcn_workitem_id_x(); }
  static __device__ unsigned get_y() { return __builtin_amdgcn_workitem_id_y(); }
  static __device__ unsigned get_z() { return __builtin_amdgcn_workitem_id_z(); }
};
struct __gpusim_block_idx {
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
  __declspec(property(get = get_z)) unsigned z;
  static __device__ unsigned get_x() { return __builtin_amdgcn_workgroup_id_x(); }
  static __device__ unsigned get_y() { return __builtin_amdgcn_workgroup_id_y(); }
  static __device__ unsigned get_z() { return __builtin_amdgcn_workgroup_id_z(); }
};
struct __gpusim_block_dim {
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
  __declspec(property(get = get_z)) unsigned z;
  static __device__ unsigned get_x() { return __gpusim_block_size(0); }
  static __device__ unsigned get_y() { return __gpusim_block_size(1); }
  static __device__ unsigned get_z() { return __gpusim_block_size(2); }
};
struct __gpusim_grid_dim {
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
  __declspec(property(get = get_z)) unsigned z;
  static __device__ unsigned get_x() { return __gpusim_grid_items(0) / __gpusim_block_size(0); }
  static __device__ unsigned get_y() { return __gpusim_grid_items(1) / __gpusim_block_size(1); }
  static __device__ unsigned get_z() { return __gpusim_grid_items(2) / __gpusim_block_size(2); }
};
extern const __device__ __attribute__((weak)) __gpusim_thread_idx threadIdx;
extern const __device__ __attribute__((weak)) __gpusim_block_idx blockIdx;
extern const __device__ __attribute__((weak)) __gpusim_block_dim blockDim;
extern const __device__ __attribute__((weak)) __gpusim_grid_dim gridDim;

static __device__ __forceinline__ void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ __forceinline__ void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
static __device__ __forceinline__ void __threadfence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }

#define __GPUSIM_ATOMIC(NAME, OP, T)                                                    \
  static __device__ __forceinline__ T NAME(T *p, T v) {                                  \
    return OP(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);                         \
  }
#define __GPUSIM_ATOMICS(T)                                 \
  __GPUSIM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, T)     \
  __GPUSIM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, T)     \
  __GPUSIM_ATOMIC(atomicMax, __hip_atomic_fetch_max, T)     \
  __GPUSIM_ATOMIC(atomicMin, __hip_atomic_fetch_min, T)     \
  __GPUSIM_ATOMIC(atomicExch, __hip_atomic_exchange, T)
__GPUSIM_ATOMICS(int)
__GPUSIM_ATOMICS(unsigned int)
__GPUSIM_ATOMICS(unsigned long long)
__GPUSIM_ATOMIC(atomicAnd, __hip_atomic_fetch_and, int)
__GPUSIM_ATOMIC(atomicAnd, __hip_atomic_fetch_and, unsigned int)
__GPUSIM_ATOMIC(atomicOr, __hip_atomic_fetch_or, int)
__GPUSIM_ATOMIC(atomicOr, __hip_atomic_fetch_or, unsigned int)
__GPUSIM_ATOMIC(atomicXor, __hip_atomic_fetch_xor, int)
__GPUSIM_ATOMIC(atomicXor, __hip_atomic_fetch_xor, unsigned int)
__GPUSIM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, float)
__GPUSIM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, double)
static __device__ __forceinline__ int atomicCAS(int *p, int expected, int desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}
static __device__ __forceinline__ unsigned atomicCAS(unsigned *p, unsigned expected, unsigned desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}

/* Wave-level functions, as HIP defines them for a wave of 64 lanes: a shuffle reads
   ``var`` from another lane of the same ``width``-lane segment (width a power of two
   up to 64) and a lane whose source falls outside its segment keeps its own value.
   They go through ds_bpermute_b32, which reads the source lane's value whether or
   not that lane is active (an inactive lane's register holds what it last held). */
static constexpr int warpSize = 64;
static __device__ __forceinline__ unsigned __lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
static __device__ __forceinline__ int __gpusim_shfl_lane(int src_lane, int width) {
  int self = (int)__lane_id();
  return (self & ~(width - 1)) + (src_lane & (width - 1));
}
static __device__ __forceinline__ int __gpusim_shfl_up_lane(unsigned delta, int width) {
  int self = (int)__lane_id();
  return (self & (width - 1)) < (int)delta ? self : self - (int)delta;
}
static __device__ __forceinline__ int __gpusim_shfl_down_lane(unsigned delta, int width) {
  int self = (int)__lane_id();
  return (self & (width - 1)) + (int)delta >= width ? self : self + (int)delta;
}
static __device__ __forceinline__ int __gpusim_shfl_xor_lane(int mask, int width) {
  int self = (int)__lane_id();
  int other = self ^ mask;
  return (other & ~(width - 1)) == (self & ~(width - 1)) ? other : self;
}
/* var as lane ``lane`` holds it, whatever T's 32 bits are */
template <class T> static __device__ __forceinline__ T __gpusim_from_lane(T var, int lane) {
  return __builtin_bit_cast(T, __builtin_amdgcn_ds_bpermute(lane << 2, __builtin_bit_cast(int, var)));
}
#define __GPUSIM_SHUFFLES(T)                                                                                   \
  static __device__ __forceinline__ T __shfl(T var, int src_lane, int width = warpSize) {                   \
    return __gpusim_from_lane(var, __gpusim_shfl_lane(src_lane, width));                                    \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_up(T var, unsigned delta, int width = warpSize) {              \
    return __gpusim_from_lane(var, __gpusim_shfl_up_lane(delta, width));                                    \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_down(T var, unsigned delta, int width = warpSize) {            \
    return __gpusim_from_lane(var, __gpusim_shfl_down_lane(delta, width));                                  \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = warpSize) {              \
    return __gpusim_from_lane(var, __gpusim_shfl_xor_lane(lane_mask, width));                               \
  }
__GPUSIM_SHUFFLES(int)
__GPUSIM_SHUFFLES(unsigned int)
__GPUSIM_SHUFFLES(float)
static __device__ __forceinline__ unsigned long long __ballot(int predicate) {
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
static __device__ __forceinline__ int __any(int predicate) { return __ballot(predicate) != 0; }
static __device__ __forceinline__ int __all(int predicate) { return __ballot(predicate) == __ballot(1); }
static __device__ __forceinline__ unsigned long long __activemask() { return __ballot(1); }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static __device__ __forceinline__ int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
static __device__ __forceinline__ int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static __device__ __forceinline__ int __clzll(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }

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
/* What neither the backend nor this header computes: a call names the function where it is made. */
#define __GPUSIM_MISSING(T, NAME, ...) \
  static __device__ T NAME(__VA_ARGS__) __attribute__((unavailable( \
      "not in gpusim's HIP header (without ROCm's device libraries the backend cannot lower it)")));
__GPUSIM_MISSING(float, tanf, float) __GPUSIM_MISSING(float, asinf, float) __GPUSIM_MISSING(float, acosf, float)
__GPUSIM_MISSING(float, atanf, float) __GPUSIM_MISSING(float, atan2f, float, float)
__GPUSIM_MISSING(float, asinhf, float) __GPUSIM_MISSING(float, acoshf, float) __GPUSIM_MISSING(float, atanhf, float)
__GPUSIM_MISSING(float, erfcf, float) __GPUSIM_MISSING(float, lgammaf, float) __GPUSIM_MISSING(float, tgammaf, float)
__GPUSIM_MISSING(double, exp, double) __GPUSIM_MISSING(double, exp2, double) __GPUSIM_MISSING(double, log, double)
__GPUSIM_MISSING(double, log2, double) __GPUSIM_MISSING(double, sin, double) __GPUSIM_MISSING(double, cos, double)
__GPUSIM_MISSING(double, tanh, double) __GPUSIM_MISSING(double, erf, double) __GPUSIM_MISSING(double, pow, double,
                                                                                             double)
template <class T> static __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; }
template <class T> static __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }

#endif
