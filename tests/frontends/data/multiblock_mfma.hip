// The multi-block MFMAs with their broadcast (CBSZ, ABID) and lane-swizzle (BLGP) arguments, against numpy.
// v_mfma_f32_32x32x1_2b_f32 holds block b's A[i][0] in lane 32b + i and B[0][j] in lane 32b + j; D[i][j] of
// block b is in register 16b + 4 (i / 8) + i % 4 of lane 32 ((i / 4) % 2) + j. CBSZ 1, ABID 1 gives both
// blocks block 1's A. v_mfma_f32_16x16x1_4b_f32's block b is in lanes 16b.., D[i][j] in register 4b + i % 4
// of lane 16 (i / 4) + j; BLGP 3 rotates B's lanes down by 16, so block b reads block b + 1's B (mod 4).
// v_mfma_f32_32x32x4_2b_f16 holds four halves a lane: A[i][k] of block b as element k of lane 32b + i.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: a buffer f32[64] init=uniform(-1,1) seed=1
// gpusim-arg: b buffer f32[64] init=uniform(-1,1) seed=2
// gpusim-arg: ha buffer f16[256] init=uniform(-1,1) seed=3
// gpusim-arg: hb buffer f16[256] init=uniform(-1,1) seed=4
// gpusim-arg: d1 buffer f32[2048] out
// gpusim-arg: d2 buffer f32[1024] out
// gpusim-arg: d3 buffer f32[2048] out
// gpusim-check: d1.reshape(2, 32, 32) ~= a.reshape(2, 32)[1][None, :, None] * b.reshape(2, 1, 32)  rtol=1e-6 atol=1e-6
// gpusim-check: d2.reshape(4, 16, 16) ~= a.reshape(4, 16, 1) * np.roll(b.reshape(4, 1, 16), -1, axis=0)  rtol=1e-6 atol=1e-6
// gpusim-check: d3.reshape(2, 32, 32) ~= np.matmul(ha.reshape(2, 32, 4).astype(np.float32), hb.reshape(2, 32, 4).transpose(0, 2, 1).astype(np.float32))  rtol=1e-5 atol=1e-5
typedef float float32v __attribute__((ext_vector_type(32)));
typedef float float16v __attribute__((ext_vector_type(16)));
typedef _Float16 half4v __attribute__((ext_vector_type(4)));

extern "C" __global__ void multiblock_mfma(const float *a, const float *b, const _Float16 *ha, const _Float16 *hb,
                                           float *d1, float *d2, float *d3) {
    int l = threadIdx.x;
    float32v zero32 = {};
    float16v zero16 = {};
    float32v r1 = __builtin_amdgcn_mfma_f32_32x32x1f32(a[l], b[l], zero32, 1, 1, 0);
    float16v r2 = __builtin_amdgcn_mfma_f32_16x16x1f32(a[l], b[l], zero16, 0, 0, 3);
    half4v x = {ha[4 * l], ha[4 * l + 1], ha[4 * l + 2], ha[4 * l + 3]};
    half4v y = {hb[4 * l], hb[4 * l + 1], hb[4 * l + 2], hb[4 * l + 3]};
    float32v r3 = __builtin_amdgcn_mfma_f32_32x32x4f16(x, y, zero32, 0, 0, 0);
    for (int r = 0; r < 32; ++r) {
        int blk = r / 16, rr = r % 16;
        int i = 8 * (rr / 4) + 4 * (l / 32) + rr % 4;
        d1[blk * 1024 + i * 32 + l % 32] = r1[r];
        d3[blk * 1024 + i * 32 + l % 32] = r3[r];
    }
    for (int r = 0; r < 16; ++r) {
        int i = 4 * (l / 16) + r % 4;
        d2[(r / 4) * 256 + i * 16 + l % 16] = r2[r];
    }
}
