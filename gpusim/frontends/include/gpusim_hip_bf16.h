/* gpusim_hip_bf16.h gives HIP's bfloat16 (what <hip/hip_bf16.h> declares): __hip_bfloat16,
   __hip_bfloat162 and their conversion and arithmetic functions. __hip_bfloat16 is clang's
   __bf16: CDNA has no bfloat16 ALU, so each operation computes in float and rounds once
   to nearest even, as HIP's do; a conversion from float is one such rounding (NaN stays
   NaN). __hip_bfloat162 is a clang vector of two. */
#ifndef GPUSIM_HIP_BF16_H
#define GPUSIM_HIP_BF16_H

typedef __bf16 __hip_bfloat16;
typedef __bf16 __hip_bfloat162 __attribute__((ext_vector_type(2)));

#define __GPUSIM_BF16 static __host__ __device__ inline

__GPUSIM_BF16 __hip_bfloat16 __float2bfloat16(float x) { return (__hip_bfloat16)x; }
__GPUSIM_BF16 float __bfloat162float(__hip_bfloat16 x) { return (float)x; }
__GPUSIM_BF16 unsigned short __bfloat16_as_ushort(__hip_bfloat16 x) { return __builtin_bit_cast(unsigned short, x); }
__GPUSIM_BF16 short __bfloat16_as_short(__hip_bfloat16 x) { return __builtin_bit_cast(short, x); }
__GPUSIM_BF16 __hip_bfloat16 __ushort_as_bfloat16(unsigned short x) { return __builtin_bit_cast(__hip_bfloat16, x); }
__GPUSIM_BF16 __hip_bfloat16 __short_as_bfloat16(short x) { return __builtin_bit_cast(__hip_bfloat16, x); }
__GPUSIM_BF16 __hip_bfloat162 __float2bfloat162_rn(float x) { return __hip_bfloat162{(__bf16)x, (__bf16)x}; }
__GPUSIM_BF16 __hip_bfloat162 __floats2bfloat162_rn(float lo, float hi) { return __hip_bfloat162{(__bf16)lo, (__bf16)hi}; }
__GPUSIM_BF16 __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 lo, __hip_bfloat16 hi) { return __hip_bfloat162{lo, hi}; }
__GPUSIM_BF16 __hip_bfloat16 __low2bfloat16(__hip_bfloat162 x) { return x.x; }
__GPUSIM_BF16 __hip_bfloat16 __high2bfloat16(__hip_bfloat162 x) { return x.y; }
__GPUSIM_BF16 float __low2float(__hip_bfloat162 x) { return (float)x.x; }
__GPUSIM_BF16 float __high2float(__hip_bfloat162 x) { return (float)x.y; }

__GPUSIM_BF16 __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)((float)a + (float)b); }
__GPUSIM_BF16 __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)((float)a - (float)b); }
__GPUSIM_BF16 __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)((float)a * (float)b); }
__GPUSIM_BF16 __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)((float)a / (float)b); }
__GPUSIM_BF16 __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return (__bf16)__builtin_fmaf((float)a, (float)b, (float)c);
}
__GPUSIM_BF16 __hip_bfloat16 __hneg(__hip_bfloat16 a) { return -a; }
__GPUSIM_BF16 __hip_bfloat16 __habs(__hip_bfloat16 a) { return __ushort_as_bfloat16(__bfloat16_as_ushort(a) & 0x7fff); }
__GPUSIM_BF16 __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)__builtin_fmaxf((float)a, (float)b); }
__GPUSIM_BF16 __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) { return (__bf16)__builtin_fminf((float)a, (float)b); }

#undef __GPUSIM_BF16
#endif
