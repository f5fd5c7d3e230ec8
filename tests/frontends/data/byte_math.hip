// The byte and halfword SAD builtins, lerp and the saturating i16 pack, as clang-19 compiles them for gfx942
// (v_sad_u8, v_sad_hi_u8, v_sad_u16, v_msad_u8, v_lerp_u8, v_cvt_pk_i16_i32), against numpy. v_msad_u8 leaves
// out the bytes where its second operand (the reference) is zero: here (b >> 2) & 0x03030303, zero one byte in four.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: a buffer u32[64] init=randint(0,4294967295) seed=1
// gpusim-arg: b buffer u32[64] init=randint(0,4294967295) seed=2
// gpusim-arg: c buffer u32[64] init=randint(0,4294967295) seed=3
// gpusim-arg: o buffer u32[384] out
// gpusim-check: o[:64] == (np.abs(a.view(u8).reshape(64, 4).astype(i64) - b.view(u8).reshape(64, 4)).sum(axis=1) + c) % 2**32
// gpusim-check: o[64:128] == (np.abs(a.view(u8).reshape(64, 4).astype(i64) - b.view(u8).reshape(64, 4)).sum(axis=1) * 65536 + c) % 2**32
// gpusim-check: o[128:192] == (np.abs(a.view(u16).reshape(64, 2).astype(i64) - b.view(u16).reshape(64, 2)).sum(axis=1) + c) % 2**32
// gpusim-check: o[192:256] == (np.where((bm := ((b >> 2) & np.uint32(0x03030303)).view(u8).reshape(64, 4)) == 0, 0, np.abs(a.view(u8).reshape(64, 4).astype(i64) - bm)).sum(axis=1) + c) % 2**32
// gpusim-check: o[256:320].view(u8) == (a.view(u8).astype(i64) + b.view(u8) + (c.view(u8) & 1)) // 2
// gpusim-check: o[320:384].view(i16) == np.clip(np.stack([a.view(i32), b.view(i32)], axis=1).ravel(), -32768, 32767)
extern "C" __global__ void byte_math(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *o) {
    int l = threadIdx.x;
    unsigned x = a[l], y = b[l], z = c[l];
    o[l] = __builtin_amdgcn_sad_u8(x, y, z);
    o[64 + l] = __builtin_amdgcn_sad_hi_u8(x, y, z);
    o[128 + l] = __builtin_amdgcn_sad_u16(x, y, z);
    o[192 + l] = __builtin_amdgcn_msad_u8(x, (y >> 2) & 0x03030303u, z);
    o[256 + l] = __builtin_amdgcn_lerp(x, y, z);
    o[320 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_cvt_pk_i16((int)x, (int)y));
}
