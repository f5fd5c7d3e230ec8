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
__GPUSIM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, float)
__GPUSIM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, double)
/* float and double maximum and minimum (clang-19 lowers them to compare-and-swap loops for gfx942) */
__GPUSIM_ATOMIC(atomicMax, __hip_atomic_fetch_max, float)
__GPUSIM_ATOMIC(atomicMax, __hip_atomic_fetch_max, double)
__GPUSIM_ATOMIC(atomicMin, __hip_atomic_fetch_min, float)
__GPUSIM_ATOMIC(atomicMin, __hip_atomic_fetch_min, double)
/* HIP's unsafeAtomicAdd and safeAtomicAdd: the same sums here (the difference is whether fine-grained memory may
   hold the target, which gpusim's coherent memory does not model) */
__GPUSIM_ATOMIC(unsafeAtomicAdd, __hip_atomic_fetch_add, float)
__GPUSIM_ATOMIC(unsafeAtomicAdd, __hip_atomic_fetch_add, double)
__GPUSIM_ATOMIC(safeAtomicAdd, __hip_atomic_fetch_add, float)
__GPUSIM_ATOMIC(safeAtomicAdd, __hip_atomic_fetch_add, double)
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
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long *p, unsigned long long expected,
                                                              unsigned long long desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}
/* atomicInc: old >= limit ? 0 : old + 1; atomicDec: old == 0 || old > limit ? limit : old - 1 (global_atomic_inc/dec) */
static __device__ __forceinline__ unsigned atomicInc(unsigned *p, unsigned limit) {
  return __builtin_amdgcn_atomic_inc32(p, limit, __ATOMIC_RELAXED, "agent");
}
static __device__ __forceinline__ unsigned atomicDec(unsigned *p, unsigned limit) {
  return __builtin_amdgcn_atomic_dec32(p, limit, __ATOMIC_RELAXED, "agent");
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
/* var as lane ``lane`` holds it, whatever T's 32 or 64 bits are (a 64-bit value in two halves) */
template <class T> static __device__ __forceinline__ T __gpusim_from_lane(T var, int lane) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits = __builtin_bit_cast(unsigned long long, var);
    unsigned lo = __builtin_amdgcn_ds_bpermute(lane << 2, (int)bits);
    unsigned hi = __builtin_amdgcn_ds_bpermute(lane << 2, (int)(bits >> 32));
    return __builtin_bit_cast(T, (unsigned long long)hi << 32 | lo);
  } else {
    return __builtin_bit_cast(T, __builtin_amdgcn_ds_bpermute(lane << 2, __builtin_bit_cast(int, var)));
  }
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
__GPUSIM_SHUFFLES(long)
__GPUSIM_SHUFFLES(unsigned long)
__GPUSIM_SHUFFLES(long long)
__GPUSIM_SHUFFLES(unsigned long long)
__GPUSIM_SHUFFLES(double)
static __device__ __forceinline__ unsigned long long __ballot(int predicate) {
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
static __device__ __forceinline__ int __any(int predicate) { return __ballot(predicate) != 0; }
static __device__ __forceinline__ int __all(int predicate) { return __ballot(predicate) == __ballot(1); }
static __device__ __forceinline__ unsigned long long __activemask() { return __ballot(1); }
/* The *_sync forms (HIP 6.2) name the lanes taking part in a 64-bit mask, as HIP requires of a wave of 64: a
   32-bit mask (CUDA's 0xffffffff) is refused where it is passed, rather than silently leaving out lanes 32-63. */
template <class M> static __device__ __forceinline__ void __gpusim_lane_mask(M) {
  static_assert(sizeof(M) == 8, "HIP's *_sync wave functions take a 64-bit lane mask (a wave has 64 lanes)");
}
#define __GPUSIM_SYNC_SHUFFLE(NAME, ARG_T, ARG)                                                          \
  template <class M, class T>                                                                               \
  static __device__ __forceinline__ T NAME##_sync(M mask, T var, ARG_T ARG, int width = warpSize) {         \
    __gpusim_lane_mask(mask);                                                                               \
    return NAME(var, ARG, width);                                                                           \
  }
__GPUSIM_SYNC_SHUFFLE(__shfl, int, src_lane)
__GPUSIM_SYNC_SHUFFLE(__shfl_up, unsigned, delta)
__GPUSIM_SYNC_SHUFFLE(__shfl_down, unsigned, delta)
__GPUSIM_SYNC_SHUFFLE(__shfl_xor, int, lane_mask)
#undef __GPUSIM_SYNC_SHUFFLE
template <class M> static __device__ __forceinline__ unsigned long long __ballot_sync(M mask, int predicate) {
  __gpusim_lane_mask(mask);
  return __ballot(predicate) & mask;
}
template <class M> static __device__ __forceinline__ int __any_sync(M mask, int predicate) {
  return __ballot_sync(mask, predicate) != 0;
}
template <class M> static __device__ __forceinline__ int __all_sync(M mask, int predicate) {
  return __ballot_sync(mask, predicate) == (__activemask() & mask);
}
/* printf in device code. HIP prints through a buffer the host runtime drains; here each call appends a record to
   __gpusim_printf_buffer, which gpusim reads after the run (gpusim.exec.device_printf, which defines the record
   format) and prints before its report: word 0 counts the words used, a record is the format string's address,
   a word of argument count (bits 56-63) and 2-bit kinds (signed, unsigned, double, pointer), then one word a
   argument; the last word counts the calls dropped because their record did not fit. */
#define __GPUSIM_PRINTF_WORDS 65536
static __device__ unsigned long long __gpusim_printf_buffer[__GPUSIM_PRINTF_WORDS];
template <class T> static __device__ __forceinline__ unsigned long long __gpusim_printf_word(T v) {
  if constexpr (__is_pointer(T)) return (unsigned long long)v;
  else if constexpr (__is_floating_point(T)) return __builtin_bit_cast(unsigned long long, (double)v);
  else return (unsigned long long)(long long)v;
}
template <class T> static __device__ __forceinline__ unsigned long long __gpusim_printf_kind() {
  return __is_pointer(T) ? 3 : __is_floating_point(T) ? 2 : __is_signed(T) ? 0 : 1;
}
template <class... A> static __device__ int printf(const char *format, A... args) {
  static_assert(sizeof...(A) <= 28, "gpusim's device printf takes at most 28 arguments");
  constexpr unsigned long long words = 2 + sizeof...(A);
  unsigned long long at = __hip_atomic_fetch_add(&__gpusim_printf_buffer[0], words, __ATOMIC_RELAXED,
                                                 __HIP_MEMORY_SCOPE_AGENT) + 1;
  if (at + words > __GPUSIM_PRINTF_WORDS - 1) {
    __hip_atomic_fetch_add(&__gpusim_printf_buffer[__GPUSIM_PRINTF_WORDS - 1], 1ull, __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_AGENT);
    return -1;
  }
  unsigned long long kinds = 0;
  unsigned k = 0;
  ((kinds |= __gpusim_printf_kind<A>() << (2 * k++)), ...);
  __gpusim_printf_buffer[at] = (unsigned long long)format;
  __gpusim_printf_buffer[at + 1] = (unsigned long long)sizeof...(A) << 56 | kinds;
  unsigned long long j = at + 2;
  ((__gpusim_printf_buffer[j++] = __gpusim_printf_word(args)), ...);
  return 0;
}

/* assert and abort, as HIP's: a failed assertion prints where it failed, through the printf above, and traps
   (s_trap 2, which ends the dispatch as a GPU fault; gpusim shows what the kernel printed before the fault
   line), as abort does. The macro is <assert.h>'s, or this header's where the system has none; NDEBUG
   compiles it out. */
extern "C" __device__ __attribute__((weak, always_inline)) void __assert_fail(const char *assertion, const char *file,
                                                                           unsigned int line, const char *function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}
extern "C" __device__ __attribute__((weak, always_inline)) void abort() { __builtin_trap(); }
#if __has_include(<assert.h>)
#include <assert.h>
#endif
#ifndef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
#endif
/* a read through the read-only path, in HIP an ordinary load */
template <class T> static __device__ __forceinline__ T __ldg(const T *p) { return *p; }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static __device__ __forceinline__ int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
static __device__ __forceinline__ int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static __device__ __forceinline__ int __clzll(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
/* byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x */
static __device__ __forceinline__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = (unsigned long long)y << 32 | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= (unsigned)(v >> ((s >> 4 * i & 7u) * 8) & 0xffu) << 8 * i;
  return r;
}
/* the low 32 bits of the product of the low 24 bits of each, sign-extended (__mul24) or not (__umul24) */
static __device__ __forceinline__ int __mul24(int x, int y) { return (x << 8 >> 8) * (y << 8 >> 8); }
static __device__ __forceinline__ unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static __device__ __forceinline__ int __mulhi(int x, int y) { return (int)((long long)x * y >> 32); }
static __device__ __forceinline__ unsigned __umulhi(unsigned x, unsigned y) {
  return (unsigned)((unsigned long long)x * y >> 32);
}
static __device__ __forceinline__ long long __mul64hi(long long x, long long y) { return (long long)((__int128)x * y >> 64); }
static __device__ __forceinline__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)((unsigned __int128)x * y >> 64);
}
static __device__ __forceinline__ unsigned __sad(int x, int y, unsigned z) { return (x > y ? (unsigned)x - y : (unsigned)y - x) + z; }
static __device__ __forceinline__ unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }

/* The shader clock (s_memtime) and the constant-rate real-time counter (s_memrealtime). */
static __device__ __forceinline__ long long clock64() { return (long long)__builtin_amdgcn_s_memtime(); }
static __device__ __forceinline__ long long wall_clock64() { return (long long)__builtin_amdgcn_s_memrealtime(); }
static __device__ __forceinline__ long long clock() { return clock64(); }

/* HIP's older spellings of the built-in indices, and its macro for dynamic shared memory (sized by the
   launch header's lds=). */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];

#include "gpusim_hip_math.h"


#endif
