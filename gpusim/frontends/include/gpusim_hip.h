/* gpusim_hip.h is the small HIP header gpusim force-includes when no HIP headers are
   installed, and what its <hip/hip_runtime.h> includes: enough for kernels written
   against the HIP runtime API's device side and for host code that calls the runtime
   API (declared only: gpusim never runs host code). This file holds the built-in
   indices, qualifiers, barriers and fences, printf, assert and the clocks; its parts
   hold the rest: gpusim_hip_atomics.h, gpusim_hip_wave.h (lane functions),
   gpusim_hip_integer.h, gpusim_hip_math.h (with gpusim_hip_conversions.h and
   gpusim_hip_ocml.h), gpusim_hip_vector_types.h and gpusim_hip_runtime_api.h. */
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
static __device__ __forceinline__ void __threadfence_system() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }

#include "gpusim_hip_atomics.h"
#include "gpusim_hip_wave.h"

/* __syncthreads_count, _and and _or: a barrier that also counts the workgroup's lanes whose predicate holds. Each
   wave adds its ballot's count to a shared word with one LDS atomic between barriers; a third barrier keeps the
   next call from clearing the word before every wave has read it. */
static __device__ __forceinline__ int __gpusim_block_count(int predicate) {
  __shared__ int count;
  if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
      __builtin_amdgcn_workitem_id_z() == 0)
    count = 0;
  __syncthreads();
  unsigned long long votes = __ballot(predicate);
  if (__lane_id() == (unsigned)__builtin_ctzll(__activemask()))
    __hip_atomic_fetch_add(&count, __builtin_popcountll(votes), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  int n = count;
  __syncthreads();
  return n;
}
static __device__ __forceinline__ int __syncthreads_count(int predicate) { return __gpusim_block_count(predicate); }
static __device__ __forceinline__ int __syncthreads_and(int predicate) { return __gpusim_block_count(!predicate) == 0; }
static __device__ __forceinline__ int __syncthreads_or(int predicate) { return __gpusim_block_count(predicate) != 0; }

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
#include "gpusim_hip_integer.h"

/* The shader clock (s_memtime) and the constant-rate real-time counter (s_memrealtime). */
static __device__ __forceinline__ long long clock64() { return (long long)__builtin_amdgcn_s_memtime(); }
static __device__ __forceinline__ long long wall_clock64() { return (long long)__builtin_amdgcn_s_memrealtime(); }
static __device__ __forceinline__ long long clock() { return clock64(); }
static __device__ __forceinline__ long long __clock64() { return clock64(); }
static __device__ __forceinline__ long long __clock() { return clock64(); }
/* __smid: the shader engine and compute unit running the wave, from the HW_ID register (s_getreg_b32; on gfx942
   HIP also puts the XCC_ID register's die above them). gpusim reads hardware registers as 0, so every wave reports
   0, and the report says the kernel read one. */
static __device__ __forceinline__ unsigned __smid() {
  unsigned hw_id = __builtin_amdgcn_s_getreg(4 | 8 << 6 | 7 << 11);   /* HW_ID bits 8-15 */
  return (hw_id >> 5 & 3u) << 4 | (hw_id & 15u);                       /* SE_ID 13-14, CU_ID 8-11 */
}

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
