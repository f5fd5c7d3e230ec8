/* gpusim_hip_vector_types.h gives HIP's short vector types (float2, float4, int4, uchar4,
   double2, ...) and their make_* functions. Each is a struct of its elements (.x .y .z .w)
   with element-wise + - * / (between two vectors, or a vector and a scalar, and their
   compound forms) and unary minus, so it is built with braces where a function takes it
   (f({w, h})), as HIP's are. The 2- and 4-element types are aligned to their size, as HIP's
   (a float4 is 16 bytes, 16-aligned: copying one is one global_load_dwordx4); a float3 is
   12 bytes. */
#ifndef GPUSIM_HIP_VECTOR_TYPES_H
#define GPUSIM_HIP_VECTOR_TYPES_H

#define __GPUSIM_VECTOR_FN static __host__ __device__ inline
#define __GPUSIM_VECTOR_OPS(V, T, OP, EACH_VV, EACH_VS, EACH_SV)                    \
  __GPUSIM_VECTOR_FN V operator OP(V a, V b) { return V{EACH_VV}; }                 \
  __GPUSIM_VECTOR_FN V operator OP(V a, T s) { return V{EACH_VS}; }                 \
  __GPUSIM_VECTOR_FN V operator OP(T s, V a) { return V{EACH_SV}; }                 \
  __GPUSIM_VECTOR_FN V &operator OP##=(V &a, V b) { return a = a OP b; }            \
  __GPUSIM_VECTOR_FN V &operator OP##=(V &a, T s) { return a = a OP s; }
#define __GPUSIM_E(T, X) static_cast<T>(X)

#define __GPUSIM_VECTOR2_OPS(V, T, OP)                                                              \
  __GPUSIM_VECTOR_OPS(V, T, OP, __GPUSIM_E(T, a.x OP b.x) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP b.y),    \
                      __GPUSIM_E(T, a.x OP s) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP s),                   \
                      __GPUSIM_E(T, s OP a.x) __GPUSIM_COMMA __GPUSIM_E(T, s OP a.y))
#define __GPUSIM_VECTOR3_OPS(V, T, OP)                                                                  \
  __GPUSIM_VECTOR_OPS(V, T, OP,                                                                         \
                      __GPUSIM_E(T, a.x OP b.x) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP b.y) __GPUSIM_COMMA     \
                      __GPUSIM_E(T, a.z OP b.z),                                                        \
                      __GPUSIM_E(T, a.x OP s) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP s) __GPUSIM_COMMA         \
                      __GPUSIM_E(T, a.z OP s),                                                          \
                      __GPUSIM_E(T, s OP a.x) __GPUSIM_COMMA __GPUSIM_E(T, s OP a.y) __GPUSIM_COMMA         \
                      __GPUSIM_E(T, s OP a.z))
#define __GPUSIM_VECTOR4_OPS(V, T, OP)                                                                  \
  __GPUSIM_VECTOR_OPS(V, T, OP,                                                                         \
                      __GPUSIM_E(T, a.x OP b.x) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP b.y) __GPUSIM_COMMA     \
                      __GPUSIM_E(T, a.z OP b.z) __GPUSIM_COMMA __GPUSIM_E(T, a.w OP b.w),                  \
                      __GPUSIM_E(T, a.x OP s) __GPUSIM_COMMA __GPUSIM_E(T, a.y OP s) __GPUSIM_COMMA         \
                      __GPUSIM_E(T, a.z OP s) __GPUSIM_COMMA __GPUSIM_E(T, a.w OP s),                      \
                      __GPUSIM_E(T, s OP a.x) __GPUSIM_COMMA __GPUSIM_E(T, s OP a.y) __GPUSIM_COMMA         \
                      __GPUSIM_E(T, s OP a.z) __GPUSIM_COMMA __GPUSIM_E(T, s OP a.w))
#define __GPUSIM_COMMA ,

#define __GPUSIM_VECTOR_TYPES(T, NAME)                                                                    \
  struct alignas(2 * sizeof(T)) NAME##2 { T x, y; };                                                     \
  struct NAME##3 { T x, y, z; };                                                                         \
  struct alignas(4 * sizeof(T)) NAME##4 { T x, y, z, w; };                                               \
  __GPUSIM_VECTOR2_OPS(NAME##2, T, +) __GPUSIM_VECTOR2_OPS(NAME##2, T, -)                                 \
  __GPUSIM_VECTOR2_OPS(NAME##2, T, *) __GPUSIM_VECTOR2_OPS(NAME##2, T, /)                                 \
  __GPUSIM_VECTOR3_OPS(NAME##3, T, +) __GPUSIM_VECTOR3_OPS(NAME##3, T, -)                                 \
  __GPUSIM_VECTOR3_OPS(NAME##3, T, *) __GPUSIM_VECTOR3_OPS(NAME##3, T, /)                                 \
  __GPUSIM_VECTOR4_OPS(NAME##4, T, +) __GPUSIM_VECTOR4_OPS(NAME##4, T, -)                                 \
  __GPUSIM_VECTOR4_OPS(NAME##4, T, *) __GPUSIM_VECTOR4_OPS(NAME##4, T, /)                                 \
  __GPUSIM_VECTOR_FN NAME##2 operator-(NAME##2 a) { return NAME##2{__GPUSIM_E(T, -a.x), __GPUSIM_E(T, -a.y)}; } \
  __GPUSIM_VECTOR_FN NAME##3 operator-(NAME##3 a) {                                                       \
    return NAME##3{__GPUSIM_E(T, -a.x), __GPUSIM_E(T, -a.y), __GPUSIM_E(T, -a.z)};                         \
  }                                                                                                       \
  __GPUSIM_VECTOR_FN NAME##4 operator-(NAME##4 a) {                                                       \
    return NAME##4{__GPUSIM_E(T, -a.x), __GPUSIM_E(T, -a.y), __GPUSIM_E(T, -a.z), __GPUSIM_E(T, -a.w)};     \
  }                                                                                                       \
  __GPUSIM_VECTOR_FN NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }                           \
  __GPUSIM_VECTOR_FN NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }                   \
  __GPUSIM_VECTOR_FN NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }
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
#undef __GPUSIM_VECTOR2_OPS
#undef __GPUSIM_VECTOR3_OPS
#undef __GPUSIM_VECTOR4_OPS
#undef __GPUSIM_VECTOR_OPS
#undef __GPUSIM_VECTOR_FN
#undef __GPUSIM_E
#undef __GPUSIM_COMMA

#endif
