// Bit-field, lane and float-decomposition builtins as clang-19 compiles them for gfx942, against numpy:
// v_bfe_u32/i32, v_alignbyte_b32, v_med3_f32, v_frexp_mant/exp, v_fract_f32, v_ldexp_f32, v_mbcnt_lo/hi,
// v_readlane_b32, the ballot's compare mask, v_rcp_f32 (within its 1 ulp), v_cmp_class_f32, v_bcnt_u32_b32,
// v_ffbh_u32 and fminf/fmaxf.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: a buffer u32[64] init=randint(0,4294967295) seed=1
// gpusim-arg: b buffer u32[64] init=randint(0,4294967295) seed=2
// gpusim-arg: f buffer f32[64] init=uniform(-8,8) seed=3
// gpusim-arg: o buffer u32[1024] out
// gpusim-check: o[:64] == (a >> 3) & 127
// gpusim-check: o[64:128].view(i32) == ((a.view(i32) << 22) >> 25)
// gpusim-check: o[128:192] == (((b.astype(u64) << np.uint64(32)) | a) >> (np.arange(64) % 4 * 8).astype(u64)) & np.uint64(0xffffffff)
// gpusim-check: o[192:256].view(f32) == np.clip(f, 0.5, 1.5)
// gpusim-check: o[256:320].view(f32) == f / 2.0 ** (np.floor(np.log2(np.abs(f))) + 1)
// gpusim-check: o[320:384].view(i32) == np.floor(np.log2(np.abs(f))) + 1
// gpusim-check: o[384:448].view(f32) == f - np.floor(f)
// gpusim-check: o[448:512].view(f32) == f * 8
// gpusim-check: o[512:576] == np.arange(64)
// gpusim-check: o[576:640] == np.full(64, a[5])
// gpusim-check: o[640:704] == np.full(64, np.sum((f[:32] > 0) * (np.uint64(1) << np.arange(32, dtype=np.uint64))))
// gpusim-check: o[704:768].view(f32) ~= 1 / f  rtol=3e-7
// gpusim-check: o[768:832] == (f < 0).astype(u32)
// gpusim-check: o[832:896] == sum((a >> k) & 1 for k in range(32))
// gpusim-check: o[896:960] == 31 - np.floor(np.log2(a.astype(f64)))
// gpusim-check: o[960:1024].view(f32) == np.maximum(np.minimum(f, 2.0), -3.0)
extern "C" __global__ void bit_builtins(const unsigned *a, const unsigned *b, const float *f, unsigned *o) {
    int l = threadIdx.x; unsigned x = a[l], y = b[l]; float z = f[l];
    o[l] = __builtin_amdgcn_ubfe(x, 3, 7);
    o[64 + l] = (unsigned)__builtin_amdgcn_sbfe((int)x, 3, 7);
    o[128 + l] = __builtin_amdgcn_alignbyte(y, x, l % 4);
    o[192 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_fmed3f(z, 0.5f, 1.5f));
    o[256 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_frexp_mantf(z));
    o[320 + l] = (unsigned)__builtin_amdgcn_frexp_expf(z);
    o[384 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_fractf(z));
    o[448 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_ldexpf(z, 3));
    o[512 + l] = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
    o[576 + l] = (unsigned)__builtin_amdgcn_readlane((int)x, 5);
    o[640 + l] = (unsigned)__builtin_amdgcn_ballot_w64(z > 0);
    o[704 + l] = __builtin_bit_cast(unsigned, __builtin_amdgcn_rcpf(z));
    o[768 + l] = __builtin_amdgcn_classf(z, 0x3c) ? 1u : 0u;   // negative: -inf, -normal, -denormal, -0
    o[832 + l] = __builtin_popcount(x);
    o[896 + l] = __builtin_clz(x);
    o[960 + l] = __builtin_bit_cast(unsigned, fmaxf(fminf(z, 2.0f), -3.0f));
}
