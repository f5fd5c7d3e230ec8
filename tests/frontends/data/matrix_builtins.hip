// gfx942's f64 MFMA, f64 atomic add and fp8 conversion builtins, against numpy.
// v_mfma_f64_16x16x4_f64: A[i][k] in lane i + 16k, B[k][j] in lane j + 16k, D[i][j] in register pair i / 4 of
// lane j + 16 (i % 4) (AMD's matrix instruction calculator); v_mfma_f64_4x4x4_4b_f64's block b has A[i][k] in
// lane 4b + i + 16k, B[k][j] in lane 4b + j + 16k, D[i][j] in lane 4b + j + 16i (its last argument 5, BLGP's
// bits, is neg:[1,0,1] on gfx942: A and C negated); the fp8 round trip is within half a step.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: a buffer f64[64] init=uniform(-1,1) seed=1
// gpusim-arg: b buffer f64[64] init=uniform(-1,1) seed=2
// gpusim-arg: d buffer f64[256] out
// gpusim-arg: s buffer f64[1] out
// gpusim-arg: back buffer f32[128] out
// gpusim-arg: e buffer f64[64] out
// gpusim-arg: en buffer f64[64] out
// gpusim-check: d.reshape(16, 16) ~= a.reshape(4, 16).T @ b.reshape(4, 16)  rtol=1e-13 atol=1e-13
// gpusim-check: s[0] ~= a.sum()  rtol=1e-12 atol=1e-12
// gpusim-check: e.reshape(4, 4, 4).transpose(1, 0, 2) ~= np.matmul(a.reshape(4, 4, 4).transpose(1, 2, 0), b.reshape(4, 4, 4).transpose(1, 0, 2))  rtol=1e-13 atol=1e-13
// gpusim-check: en.reshape(4, 4, 4).transpose(1, 0, 2) ~= -np.matmul(a.reshape(4, 4, 4).transpose(1, 2, 0), b.reshape(4, 4, 4).transpose(1, 0, 2)) - 1  rtol=1e-13 atol=1e-13
// gpusim-check: (np.abs(back - np.concatenate([a, b])) <= np.abs(np.concatenate([a, b])) / 16 + 2.0 ** -11) == True
typedef double double4v __attribute__((ext_vector_type(4)));

extern "C" __global__ void matrix_builtins(const double *a, const double *b, double *d, double *s, float *back,
                                           double *e, double *en) {
    int l = threadIdx.x;
    double4v acc = {0, 0, 0, 0};
    acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a[l], b[l], acc, 0, 0, 0);
    for (int r = 0; r < 4; ++r)
        d[r * 64 + l] = acc[r];
    e[l] = __builtin_amdgcn_mfma_f64_4x4x4f64(a[l], b[l], 0.0, 0, 0, 0);
    en[l] = __builtin_amdgcn_mfma_f64_4x4x4f64(a[l], b[l], 1.0, 0, 0, 5);
    atomicAdd(s, a[l]);
    int packed = __builtin_amdgcn_cvt_pk_fp8_f32((float)a[l], (float)b[l], 0, false);
    back[l] = __builtin_amdgcn_cvt_f32_fp8(packed, 0);
    back[64 + l] = __builtin_amdgcn_cvt_f32_fp8(packed, 1);
}
