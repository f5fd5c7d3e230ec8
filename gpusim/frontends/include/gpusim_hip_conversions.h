/* gpusim_hip_conversions.h is HIP's bit reinterpretations and its conversions with a named rounding for gpusim's
   HIP header: float and double to int, unsigned, long long and unsigned long long (_rn to nearest even, _rz toward
   zero, _rd down, _ru up), those integers to float and double, and double to float. A directed conversion rounds
   to nearest, then steps one value down or up when that lands on the wrong side of the exact value, which it
   compares exactly (integers through double or through the integer type, doubles as doubles). */
#ifndef GPUSIM_HIP_CONVERSIONS_H
#define GPUSIM_HIP_CONVERSIONS_H

static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ __forceinline__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
static __device__ __forceinline__ int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static __device__ __forceinline__ int __double2loint(double x) { return (int)__double_as_longlong(x); }
static __device__ __forceinline__ double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo));
}

/* float and double to integers: rounded to an integral value (gpusim_hip_math.h's rintf, floor, ...),
   then converted (exact) */
#define __GPUSIM_TO_INTEGER(NAME, F, T, S)                                                               \
  static __device__ __forceinline__ T NAME##_rn(F x) { return (T)rint##S(x); }                          \
  static __device__ __forceinline__ T NAME##_rz(F x) { return (T)x; }                                   \
  static __device__ __forceinline__ T NAME##_rd(F x) { return (T)floor##S(x); }                         \
  static __device__ __forceinline__ T NAME##_ru(F x) { return (T)ceil##S(x); }
__GPUSIM_TO_INTEGER(__float2int, float, int, f)
__GPUSIM_TO_INTEGER(__float2uint, float, unsigned, f)
__GPUSIM_TO_INTEGER(__float2ll, float, long long, f)
__GPUSIM_TO_INTEGER(__float2ull, float, unsigned long long, f)
__GPUSIM_TO_INTEGER(__double2int, double, int, )
__GPUSIM_TO_INTEGER(__double2uint, double, unsigned, )
__GPUSIM_TO_INTEGER(__double2ll, double, long long, )
__GPUSIM_TO_INTEGER(__double2ull, double, unsigned long long, )
#undef __GPUSIM_TO_INTEGER

/* the float or double next to r, up (toward +inf) or down; r is finite or an infinity it moves away from */
static __device__ __forceinline__ float __gpusim_next(float r, bool up) {
  if (r == 0.0f) return __builtin_bit_cast(float, up ? 1u : 0x80000001u);
  unsigned bits = __builtin_bit_cast(unsigned, r);
  return __builtin_bit_cast(float, (r > 0.0f) == up ? bits + 1u : bits - 1u);
}
static __device__ __forceinline__ double __gpusim_next(double r, bool up) {
  if (r == 0.0) return __builtin_bit_cast(double, up ? 1ull : 0x8000000000000001ull);
  unsigned long long bits = __builtin_bit_cast(unsigned long long, r);
  return __builtin_bit_cast(double, (r > 0.0) == up ? bits + 1ull : bits - 1ull);
}
/* r, the value nearest an exact one, rounded down (mode 'd'), up ('u') or toward zero ('z') instead: ``order``
   is r's order against the exact value (-1 below it, 0 equal, 1 above), ``negative`` whether that is below 0 */
template <class F> static __device__ __forceinline__ F __gpusim_directed(F r, int order, bool negative, char mode) {
  bool down = mode == 'd' || (mode == 'z' && !negative);
  return (down ? order > 0 : order < 0) ? __gpusim_next(r, !down) : r;
}
/* the order of r, the floating-point value nearest integer x, against x: exactly, through double for 32-bit
   integers, through the integer type for 64-bit ones (r past its range is above x) */
template <class F, class I> static __device__ __forceinline__ int __gpusim_order(F r, I x) {
  if constexpr (sizeof(I) == 4) {
    return ((double)r > (double)x) - ((double)r < (double)x);
  } else {
    constexpr F past = (I)-1 < (I)0 ? (F)0x1p63 : (F)0x1p64;
    if (r >= past) return 1;
    I y = (I)r;
    return (y > x) - (y < x);
  }
}
template <class I> static __device__ __forceinline__ bool __gpusim_negative(I x) { return x < (I)0; }
#define __GPUSIM_TO_FLOATING(NAME, I, F)                                                                         \
  static __device__ __forceinline__ F NAME##_rn(I x) { return (F)x; }                                          \
  static __device__ __forceinline__ F NAME##_rz(I x) {                                                         \
    return __gpusim_directed((F)x, __gpusim_order((F)x, x), __gpusim_negative(x), 'z');                        \
  }                                                                                                            \
  static __device__ __forceinline__ F NAME##_rd(I x) {                                                         \
    return __gpusim_directed((F)x, __gpusim_order((F)x, x), __gpusim_negative(x), 'd');                        \
  }                                                                                                            \
  static __device__ __forceinline__ F NAME##_ru(I x) {                                                         \
    return __gpusim_directed((F)x, __gpusim_order((F)x, x), __gpusim_negative(x), 'u');                        \
  }
__GPUSIM_TO_FLOATING(__int2float, int, float)
__GPUSIM_TO_FLOATING(__uint2float, unsigned, float)
__GPUSIM_TO_FLOATING(__ll2float, long long, float)
__GPUSIM_TO_FLOATING(__ull2float, unsigned long long, float)
__GPUSIM_TO_FLOATING(__ll2double, long long, double)
__GPUSIM_TO_FLOATING(__ull2double, unsigned long long, double)
#undef __GPUSIM_TO_FLOATING
/* 32-bit integers fit a double exactly */
static __device__ __forceinline__ double __int2double_rn(int x) { return (double)x; }
static __device__ __forceinline__ double __uint2double_rn(unsigned x) { return (double)x; }

/* double to float; NaN stays NaN */
static __device__ __forceinline__ int __gpusim_order(float r, double x) {
  return ((double)r > x) - ((double)r < x);
}
static __device__ __forceinline__ float __double2float_rn(double x) { return (float)x; }
static __device__ __forceinline__ float __double2float_rz(double x) {
  return __gpusim_directed((float)x, __gpusim_order((float)x, x), x < 0.0, 'z');
}
static __device__ __forceinline__ float __double2float_rd(double x) {
  return __gpusim_directed((float)x, __gpusim_order((float)x, x), x < 0.0, 'd');
}
static __device__ __forceinline__ float __double2float_ru(double x) {
  return __gpusim_directed((float)x, __gpusim_order((float)x, x), x < 0.0, 'u');
}

#endif
