/* gpusim_hip.h is the small HIP device header gpusim force-includes when no HIP
   headers are installed: enough for kernels written against the HIP runtime API's
   device side (built-in indices, qualifiers, barriers, atomics, wave-level
   functions, common math). */
#ifndef GPUSIM_HIP_H
#define GPUSIM_HIP_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((amdgpu_flat_work_group_size(1, 1024)))

typedef unsigned int uint;

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
static __device__ __forceinline__ int __gpusim_bpermute(int lane, int var) {
  return __builtin_amdgcn_ds_bpermute(lane << 2, var);
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
#define __GPUSIM_SHUFFLES(T)                                                                              \
  static __device__ __forceinline__ T __shfl(T var, int src_lane, int width = warpSize) {              \
    return __builtin_bit_cast(T, __gpusim_bpermute(__gpusim_shfl_lane(src_lane, width),                  \
                                                   __builtin_bit_cast(int, var)));                        \
  }                                                                                                       \
  static __device__ __forceinline__ T __shfl_up(T var, unsigned delta, int width = warpSize) {         \
    return __builtin_bit_cast(T, __gpusim_bpermute(__gpusim_shfl_up_lane(delta, width),                  \
                                                   __builtin_bit_cast(int, var)));                        \
  }                                                                                                       \
  static __device__ __forceinline__ T __shfl_down(T var, unsigned delta, int width = warpSize) {       \
    return __builtin_bit_cast(T, __gpusim_bpermute(__gpusim_shfl_down_lane(delta, width),                \
                                                   __builtin_bit_cast(int, var)));                        \
  }                                                                                                       \
  static __device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = warpSize) {         \
    return __builtin_bit_cast(T, __gpusim_bpermute(__gpusim_shfl_xor_lane(lane_mask, width),             \
                                                   __builtin_bit_cast(int, var)));                        \
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
__GPUSIM_MATH1(exp) __GPUSIM_MATH1(exp2) __GPUSIM_MATH1(log) __GPUSIM_MATH1(log2)
__GPUSIM_MATH1(sin) __GPUSIM_MATH1(cos)
__GPUSIM_MATH2(fmax) __GPUSIM_MATH2(fmin) __GPUSIM_MATH2(copysign)
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
static __device__ __forceinline__ float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
static __device__ __forceinline__ float __expf(float x) { return __builtin_amdgcn_exp2f(x * 1.4426950408889634f); }
template <class T> static __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; }
template <class T> static __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }

#endif
