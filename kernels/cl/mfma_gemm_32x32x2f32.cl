// gpusim-launch: grid=2,2,1 block=64,1,1
// gpusim-arg: A buffer f32[64,64] init=uniform(-1,1) seed=37
// gpusim-arg: B buffer f32[64,64] init=uniform(-1,1) seed=38
// gpusim-arg: C buffer f32[64,64] out
// gpusim-arg: N i32 64
// gpusim-arg: K i32 64
// gpusim-check: C ~= A @ B rtol=1e-5 atol=1e-5
//
// One wave per 32x32 tile of C with v_mfma_f32_32x32x2f32. Operand
// layout (lane l): A row l%32, k l/32; B column l%32, k l/32; accumulator
// register r holds C row 8*(r/4) + 4*(l/32) + r%4, column l%32.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_gemm_32x32x2f32(__global const float *A, __global const float *B,
                          __global float *C, int N, int K) {
  int lane = LID_X();
  int row0 = GROUP_Y() * 32, col0 = GROUP_X() * 32;
  int i = lane & 31;
  int kk = lane >> 5;
  float16 acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 2) {
    float a = A[(row0 + i) * K + k0 + kk];
    float b = B[(k0 + kk) * N + col0 + i];
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
  }
#pragma unroll
  for (int r = 0; r < 16; ++r)
    C[(row0 + 8 * (r / 4) + 4 * kk + r % 4) * N + col0 + i] = acc[r];
}
