// gpusim-launch: grid=2,2,1 block=256,1,1
// gpusim-arg: A buffer f16[64,64] init=uniform(-1,1) seed=35
// gpusim-arg: B buffer f16[64,64] init=uniform(-1,1) seed=36
// gpusim-arg: C buffer f32[64,64] out
// gpusim-arg: N i32 64
// gpusim-arg: K i32 64
// gpusim-check: C ~= A.astype(f32) @ B.astype(f32) rtol=1e-3 atol=1e-3
//
// A workgroup of 2x2 waves computes a 32x32 tile of C; each K step of 16
// stages a 32x16 slice of A and a 16x32 slice of B in LDS, then every wave
// issues one v_mfma_f32_16x16x16f16. Operand layout (lane l): A row l%16,
// k 4*(l/16)..+3; B column l%16, same k; accumulator register r holds
// C row 4*(l/16) + r, column l%16.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mfma_gemm_16x16x16f16(__global const half *A, __global const half *B,
                           __global float *C, int N, int K) {
  __local half As[32][16];
  __local half Bs[16][32];
  int t = LID_X();
  int wave = t >> 6, lane = t & 63;
  int wr = wave >> 1, wc = wave & 1;
  int row0 = GROUP_Y() * 32, col0 = GROUP_X() * 32;
  int i = lane & 15;
  int kq = (lane >> 4) * 4;
  float4 acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    int ar = t >> 3, ac = (t & 7) * 2;
    *(__local half2 *)&As[ar][ac] =
        *(__global const half2 *)(A + (row0 + ar) * K + k0 + ac);
    int br = t >> 4, bc = (t & 15) * 2;
    *(__local half2 *)&Bs[br][bc] =
        *(__global const half2 *)(B + (k0 + br) * N + col0 + bc);
    lds_barrier();
    half4 a = *(__local half4 *)&As[wr * 16 + i][kq];
    int bcol = wc * 16 + i;
    half4 b = (half4)(Bs[kq][bcol], Bs[kq + 1][bcol], Bs[kq + 2][bcol],
                      Bs[kq + 3][bcol]);
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
    lds_barrier();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(row0 + wr * 16 + kq + r) * N + col0 + wc * 16 + i] = acc[r];
}
