// Saturating integer arithmetic and the clamped dot products, as clang-19 compiles them for gfx942, against
// numpy: LLVM selects v_add_u32/v_sub_u32/v_add_i32/v_sub_i32 and v_pk_add_i16/v_pk_sub_u16/v_pk_add_u16 with clamp for
// __builtin_elementwise_add_sat and _sub_sat, and v_dot4_i32_i8 / v_dot4_u32_u8 / v_dot8_i32_i4 /
// v_dot2_f32_f16 with clamp for the dot builtins' clamp argument; a half2 clamped to [0, 1] by min and max is
// v_pk_add_f16 with clamp. The accumulators put some lanes past the 32-bit range and some not.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: a buffer u32[64] init=randint(0,4294967295) seed=1
// gpusim-arg: b buffer u32[64] init=randint(0,4294967295) seed=2
// gpusim-arg: o buffer u32[768] out
// gpusim-check: o[:64] == np.minimum(a.astype(i64) + b, 4294967295)
// gpusim-check: o[64:128] == np.maximum(a.astype(i64) - b, 0)
// gpusim-check: o[128:192].view(i32) == np.clip(a.view(i32).astype(i64) + b.view(i32), -2**31, 2**31 - 1)
// gpusim-check: o[192:256].view(i32) == np.clip(a.view(i32).astype(i64) - b.view(i32), -2**31, 2**31 - 1)
// gpusim-check: o[256:320].view(i16) == np.clip(a.view(i16).astype(i64) + b.view(i16), -32768, 32767)
// gpusim-check: o[320:384].view(u16) == np.maximum(a.view(u16).astype(i64) - b.view(u16), 0)
// gpusim-check: o[384:448].view(i32) == np.minimum((a.view(i8).reshape(64, 4).astype(i64) * b.view(i8).reshape(64, 4)).sum(axis=1) + 0x7fffff00 + np.arange(64), 2**31 - 1)
// gpusim-check: o[448:512] == np.minimum((a.view(u8).reshape(64, 4).astype(i64) * b.view(u8).reshape(64, 4)).sum(axis=1) + 0xffffff00 + np.arange(64), 2**32 - 1)
// gpusim-check: o[512:576].view(f32) ~= np.clip(((a & np.uint32(0x3fff3fff)).view(f16).reshape(64, 2).astype(f64) * (b & np.uint32(0x3fff3fff)).view(f16).reshape(64, 2)).sum(axis=1) + 0.25, 0, 1)  rtol=1e-6 atol=1e-7
// gpusim-check: o[576:640].view(f16) == np.clip((a & np.uint32(0x3fff3fff)).view(f16) + (b & np.uint32(0x3fff3fff)).view(f16), 0, 1)
// gpusim-check: o[640:704].view(u16) == np.minimum(a.view(u16).astype(i64) + b.view(u16), 65535)
// gpusim-check: o[704:768].view(i32) == np.maximum((((n := lambda v: (((v[:, None] >> np.arange(0, 32, 4)) & 15).astype(i64) ^ 8) - 8), n(a) * n(b))[-1]).sum(axis=1) - 2**31 + 16 + np.arange(64), -2**31)
typedef short short2v __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2v __attribute__((ext_vector_type(2)));
typedef _Float16 half2v __attribute__((ext_vector_type(2)));

extern "C" __global__ void saturating_math(const unsigned *a, const unsigned *b, unsigned *o) {
    int l = threadIdx.x;
    unsigned x = a[l], y = b[l];
    o[l] = __builtin_elementwise_add_sat(x, y);
    o[64 + l] = __builtin_elementwise_sub_sat(x, y);
    o[128 + l] = (unsigned)__builtin_elementwise_add_sat((int)x, (int)y);
    o[192 + l] = (unsigned)__builtin_elementwise_sub_sat((int)x, (int)y);
    short2v sx = __builtin_bit_cast(short2v, x), sy = __builtin_bit_cast(short2v, y);
    o[256 + l] = __builtin_bit_cast(unsigned, __builtin_elementwise_add_sat(sx, sy));
    ushort2v ux = __builtin_bit_cast(ushort2v, x), uy = __builtin_bit_cast(ushort2v, y);
    o[320 + l] = __builtin_bit_cast(unsigned, __builtin_elementwise_sub_sat(ux, uy));
    o[384 + l] = (unsigned)__builtin_amdgcn_sdot4((int)x, (int)y, (int)(0x7fffff00u + l), true);
    o[448 + l] = __builtin_amdgcn_udot4(x, y, 0xffffff00u + l, true);
    half2v hx = __builtin_bit_cast(half2v, x & 0x3fff3fffu), hy = __builtin_bit_cast(half2v, y & 0x3fff3fffu);
    o[512 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_fdot2(hx, hy, 0.25f, true));
    half2v one = {1.0f16, 1.0f16}, zero = {0.0f16, 0.0f16};
    o[576 + l] = __builtin_bit_cast(unsigned, __builtin_elementwise_min(__builtin_elementwise_max(hx + hy, zero), one));
    o[640 + l] = __builtin_bit_cast(unsigned, __builtin_elementwise_add_sat(ux, uy));
    o[704 + l] = (unsigned)__builtin_amdgcn_sdot8((int)x, (int)y, (int)(0x80000010u + l), true);
}
