/* gpusim_hip_atomics.h is HIP's atomic functions for gpusim's HIP header: atomicAdd, Sub, Exch, Min, Max, And, Or,
   Xor and CAS over the types HIP gives them (int, unsigned, unsigned long, unsigned long long, float, double;
   Min and Max also long long), each with its _system form, and atomicInc, atomicDec, atomicAddNoRet and the
   unsafe/safe float forms. All are relaxed, as HIP's are: the plain forms at device (agent) scope, the _system
   forms at system scope, which clang-19 compiles for gfx942 with the sc0 sc1 bits. gpusim's memory is coherent
   at every scope, so the two differ in their instructions, not their values. */
#ifndef GPUSIM_HIP_ATOMICS_H
#define GPUSIM_HIP_ATOMICS_H

#define __GPUSIM_ATOMIC_AT(NAME, OP, T, SCOPE)                                            \
  static __device__ __forceinline__ T NAME(T *p, T v) { return OP(p, v, __ATOMIC_RELAXED, SCOPE); }
#define __GPUSIM_ATOMIC(NAME, OP, T)                                                      \
  __GPUSIM_ATOMIC_AT(NAME, OP, T, __HIP_MEMORY_SCOPE_AGENT)                               \
  __GPUSIM_ATOMIC_AT(NAME##_system, OP, T, __HIP_MEMORY_SCOPE_SYSTEM)
#define __GPUSIM_CAS_AT(NAME, T, SCOPE)                                                   \
  static __device__ __forceinline__ T NAME(T *p, T expected, T desired) {                 \
    __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED, SCOPE); \
    return expected;                                                                      \
  }
/* every type: add, sub, exchange, minimum, maximum, compare-and-swap */
#define __GPUSIM_ARITHMETIC_ATOMICS(T)                      \
  __GPUSIM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, T)     \
  __GPUSIM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, T)     \
  __GPUSIM_ATOMIC(atomicExch, __hip_atomic_exchange, T)     \
  __GPUSIM_ATOMIC(atomicMin, __hip_atomic_fetch_min, T)     \
  __GPUSIM_ATOMIC(atomicMax, __hip_atomic_fetch_max, T)     \
  __GPUSIM_CAS_AT(atomicCAS, T, __HIP_MEMORY_SCOPE_AGENT)   \
  __GPUSIM_CAS_AT(atomicCAS_system, T, __HIP_MEMORY_SCOPE_SYSTEM)
/* the integer types: and, or, xor too */
#define __GPUSIM_INTEGER_ATOMICS(T)                         \
  __GPUSIM_ARITHMETIC_ATOMICS(T)                            \
  __GPUSIM_ATOMIC(atomicAnd, __hip_atomic_fetch_and, T)     \
  __GPUSIM_ATOMIC(atomicOr, __hip_atomic_fetch_or, T)       \
  __GPUSIM_ATOMIC(atomicXor, __hip_atomic_fetch_xor, T)
__GPUSIM_INTEGER_ATOMICS(int)
__GPUSIM_INTEGER_ATOMICS(unsigned int)
__GPUSIM_INTEGER_ATOMICS(unsigned long)
__GPUSIM_INTEGER_ATOMICS(unsigned long long)
/* float and double: the sums are global_atomic_add_f32/f64 on gfx942; clang-19 lowers the rest, minimum and
   maximum included, to compare-and-swap loops (a float compare-and-swap compares the values' bits) */
__GPUSIM_ARITHMETIC_ATOMICS(float)
__GPUSIM_ARITHMETIC_ATOMICS(double)
__GPUSIM_ATOMIC(atomicMin, __hip_atomic_fetch_min, long long)
__GPUSIM_ATOMIC(atomicMax, __hip_atomic_fetch_max, long long)

/* HIP's unsafe and safe float atomics: the same values here (they differ in whether fine-grained memory may hold
   the target, which gpusim's coherent memory does not model) */
#define __GPUSIM_FLOAT_ATOMIC(NAME, OP)                                                  \
  __GPUSIM_ATOMIC_AT(NAME, OP, float, __HIP_MEMORY_SCOPE_AGENT)                          \
  __GPUSIM_ATOMIC_AT(NAME, OP, double, __HIP_MEMORY_SCOPE_AGENT)
__GPUSIM_FLOAT_ATOMIC(unsafeAtomicAdd, __hip_atomic_fetch_add)
__GPUSIM_FLOAT_ATOMIC(safeAtomicAdd, __hip_atomic_fetch_add)
__GPUSIM_FLOAT_ATOMIC(unsafeAtomicMax, __hip_atomic_fetch_max)
__GPUSIM_FLOAT_ATOMIC(safeAtomicMax, __hip_atomic_fetch_max)
__GPUSIM_FLOAT_ATOMIC(unsafeAtomicMin, __hip_atomic_fetch_min)
__GPUSIM_FLOAT_ATOMIC(safeAtomicMin, __hip_atomic_fetch_min)
/* a float sum whose old value is not wanted (clang then drops the atomic's return) */
static __device__ __forceinline__ void atomicAddNoRet(float *p, float v) {
  (void)__hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

/* atomicInc: old >= limit ? 0 : old + 1; atomicDec: old == 0 || old > limit ? limit : old - 1 (global_atomic_inc/dec) */
static __device__ __forceinline__ unsigned atomicInc(unsigned *p, unsigned limit) {
  return __builtin_amdgcn_atomic_inc32(p, limit, __ATOMIC_RELAXED, "agent");
}
static __device__ __forceinline__ unsigned atomicDec(unsigned *p, unsigned limit) {
  return __builtin_amdgcn_atomic_dec32(p, limit, __ATOMIC_RELAXED, "agent");
}

#undef __GPUSIM_FLOAT_ATOMIC
#undef __GPUSIM_INTEGER_ATOMICS
#undef __GPUSIM_ARITHMETIC_ATOMICS
#undef __GPUSIM_CAS_AT
#undef __GPUSIM_ATOMIC
#undef __GPUSIM_ATOMIC_AT
#endif
