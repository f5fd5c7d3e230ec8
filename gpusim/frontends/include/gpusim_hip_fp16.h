/* gpusim_hip_fp16.h gives HIP's half precision (what <hip/hip_fp16.h> declares): __half
   (also half), __half2 (also half2) and their conversion, arithmetic, comparison and
   math functions. __half is clang's _Float16 and __half2 a clang vector of two, so
   half arithmetic compiles to the f16 instructions (v_add_f16, v_fma_f16) and __half2
   arithmetic to the packed ones (v_pk_add_f16, v_pk_fma_f16), as HIP's do; every
   operation rounds to nearest even. The math functions (hexp, hlog, ...) compute in
   float and round once to half. */
#ifndef GPUSIM_HIP_FP16_H
#define GPUSIM_HIP_FP16_H

typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
typedef __half half;
typedef __half2 half2;

#define __GPUSIM_HALF static __host__ __device__ inline

/* conversions and reinterpretation */
__GPUSIM_HALF __half __float2half(float x) { return (__half)x; }
__GPUSIM_HALF __half __float2half_rn(float x) { return (__half)x; }
__GPUSIM_HALF float __half2float(__half x) { return (float)x; }
__GPUSIM_HALF __half __int2half_rn(int x) { return (__half)x; }
__GPUSIM_HALF __half __uint2half_rn(unsigned x) { return (__half)x; }
__GPUSIM_HALF int __half2int_rz(__half x) { return (int)x; }
__GPUSIM_HALF int __half2int_rn(__half x) { return (int)__builtin_rintf((float)x); }
__GPUSIM_HALF short __half_as_short(__half x) { return __builtin_bit_cast(short, x); }
__GPUSIM_HALF unsigned short __half_as_ushort(__half x) { return __builtin_bit_cast(unsigned short, x); }
__GPUSIM_HALF __half __short_as_half(short x) { return __builtin_bit_cast(__half, x); }
__GPUSIM_HALF __half __ushort_as_half(unsigned short x) { return __builtin_bit_cast(__half, x); }
__GPUSIM_HALF __half2 __halves2half2(__half lo, __half hi) { return __half2{lo, hi}; }
__GPUSIM_HALF __half2 make_half2(__half x, __half y) { return __half2{x, y}; }
__GPUSIM_HALF __half2 __half2half2(__half x) { return __half2{x, x}; }
__GPUSIM_HALF __half2 __float2half2_rn(float x) { return __half2{(__half)x, (__half)x}; }
__GPUSIM_HALF __half2 __floats2half2_rn(float lo, float hi) { return __half2{(__half)lo, (__half)hi}; }
__GPUSIM_HALF __half __low2half(__half2 x) { return x.x; }
__GPUSIM_HALF __half __high2half(__half2 x) { return x.y; }
__GPUSIM_HALF float __low2float(__half2 x) { return (float)x.x; }
__GPUSIM_HALF float __high2float(__half2 x) { return (float)x.y; }
__GPUSIM_HALF __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
__GPUSIM_HALF __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
__GPUSIM_HALF __half2 __lowhigh2highlow(__half2 x) { return __half2{x.y, x.x}; }

/* arithmetic, one rounding each (__hfma: one rounding of a * b + c) */
__GPUSIM_HALF __half __hadd(__half a, __half b) { return a + b; }
__GPUSIM_HALF __half __hsub(__half a, __half b) { return a - b; }
__GPUSIM_HALF __half __hmul(__half a, __half b) { return a * b; }
__GPUSIM_HALF __half __hdiv(__half a, __half b) { return a / b; }
__GPUSIM_HALF __half __hfma(__half a, __half b, __half c) { return __builtin_fmaf16(a, b, c); }
__GPUSIM_HALF __half __hneg(__half a) { return -a; }
__GPUSIM_HALF __half __habs(__half a) { return __builtin_fabsf16(a); }
__GPUSIM_HALF __half __hmax(__half a, __half b) { return __builtin_fmaxf16(a, b); }
__GPUSIM_HALF __half __hmin(__half a, __half b) { return __builtin_fminf16(a, b); }
__GPUSIM_HALF __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
__GPUSIM_HALF __half2 __hsub2(__half2 a, __half2 b) { return a - b; }
__GPUSIM_HALF __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
__GPUSIM_HALF __half2 __h2div(__half2 a, __half2 b) { return a / b; }
__GPUSIM_HALF __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __builtin_elementwise_fma(a, b, c); }
__GPUSIM_HALF __half2 __hneg2(__half2 a) { return -a; }
__GPUSIM_HALF __half2 __habs2(__half2 a) { return __builtin_elementwise_abs(a); }
__GPUSIM_HALF __half2 __hmax2(__half2 a, __half2 b) { return __builtin_elementwise_max(a, b); }
__GPUSIM_HALF __half2 __hmin2(__half2 a, __half2 b) { return __builtin_elementwise_min(a, b); }

/* comparisons, ordered: each is false when either operand is NaN */
__GPUSIM_HALF bool __heq(__half a, __half b) { return a == b; }
__GPUSIM_HALF bool __hne(__half a, __half b) { return a < b || a > b; }
__GPUSIM_HALF bool __hlt(__half a, __half b) { return a < b; }
__GPUSIM_HALF bool __hle(__half a, __half b) { return a <= b; }
__GPUSIM_HALF bool __hgt(__half a, __half b) { return a > b; }
__GPUSIM_HALF bool __hge(__half a, __half b) { return a >= b; }
__GPUSIM_HALF bool __hisnan(__half a) { return a != a; }
__GPUSIM_HALF int __hisinf(__half a) { return __builtin_isinf(a) ? (a > (__half)0 ? 1 : -1) : 0; }

/* math: the f16 instruction where there is one, else computed in float and rounded once */
__GPUSIM_HALF __half hsqrt(__half x) { return __builtin_sqrtf16(x); }
__GPUSIM_HALF __half hrsqrt(__half x) { return (__half)(1.0f / __builtin_sqrtf((float)x)); }
__GPUSIM_HALF __half hrcp(__half x) { return (__half)(1.0f / (float)x); }
__GPUSIM_HALF __half hexp(__half x) { return (__half)__builtin_expf((float)x); }
__GPUSIM_HALF __half hexp2(__half x) { return (__half)__builtin_exp2f((float)x); }
__GPUSIM_HALF __half hlog(__half x) { return (__half)__builtin_logf((float)x); }
__GPUSIM_HALF __half hlog2(__half x) { return (__half)__builtin_log2f((float)x); }
__GPUSIM_HALF __half hfloor(__half x) { return __builtin_floorf16(x); }
__GPUSIM_HALF __half hceil(__half x) { return __builtin_ceilf16(x); }
__GPUSIM_HALF __half htrunc(__half x) { return __builtin_truncf16(x); }
__GPUSIM_HALF __half hrint(__half x) { return __builtin_rintf16(x); }

#undef __GPUSIM_HALF
#endif
