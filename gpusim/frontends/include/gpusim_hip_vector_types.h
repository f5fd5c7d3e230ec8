/* gpusim_hip_vector_types.h gives HIP's short vector types (float2, float4, int4, uchar4,
   double2, ...) and their make_* functions. The 2- and 4-element types are clang vectors:
   .x .y .z .w, element-wise arithmetic and comparison, the size and alignment of HIP's
   (a float4 is 16 bytes, 16-aligned, so a float4 load is one global_load_dwordx4).
   The 3-element types are plain structs of three elements, 12 bytes for a float3 as in
   HIP (a clang vector of 3 would take 16). */
#ifndef GPUSIM_HIP_VECTOR_TYPES_H
#define GPUSIM_HIP_VECTOR_TYPES_H

#define __GPUSIM_VECTOR_TYPES(T, NAME)                                                                      \
  typedef T NAME##2 __attribute__((ext_vector_type(2)));                                                   \
  typedef T NAME##4 __attribute__((ext_vector_type(4)));                                                   \
  struct NAME##3 {                                                                                          \
    T x, y, z;                                                                                              \
  };                                                                                                        \
  static __host__ __device__ inline NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }              \
  static __host__ __device__ inline NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }      \
  static __host__ __device__ inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }
__GPUSIM_VECTOR_TYPES(signed char, char)
__GPUSIM_VECTOR_TYPES(unsigned char, uchar)
__GPUSIM_VECTOR_TYPES(short, short)
__GPUSIM_VECTOR_TYPES(unsigned short, ushort)
__GPUSIM_VECTOR_TYPES(int, int)
__GPUSIM_VECTOR_TYPES(unsigned int, uint)
__GPUSIM_VECTOR_TYPES(long, long)
__GPUSIM_VECTOR_TYPES(unsigned long, ulong)
__GPUSIM_VECTOR_TYPES(long long, longlong)
__GPUSIM_VECTOR_TYPES(unsigned long long, ulonglong)
__GPUSIM_VECTOR_TYPES(float, float)
__GPUSIM_VECTOR_TYPES(double, double)
#undef __GPUSIM_VECTOR_TYPES

#endif
