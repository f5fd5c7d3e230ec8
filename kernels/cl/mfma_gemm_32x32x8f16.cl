// gpusim-launch: grid=2,2,1 block=64,1,1
// gpusim-arg: A buffer f16[64,64] init=uniform(-1,1) seed=33
// gpusim-arg: B buffer f16[64,64] init=uniform(-1,1) seed=34
// gpusim-arg: C buffer f32[64,64] out
// gpusim-arg: N i32 64
// gpusim-arg: K i32 64
// gpusim-check: C ~= A.astype(f32) @ B.astype(f32) rtol=1e-3 atol=1e-3
//
// One wave per 32x32 tile of C with v_mfma_f32_32x32x8f16. Operand
// layout (lane l): A row l%32, k 4*(l/32)..+3; B column l%32, same k;
// accumulator register r holds C row 8*(r/4) + 4*(l/32) + r%4, column l%32.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_gemm_32x32x8f16(__global const half *A, __global const half *B,
                          __global float *C, int N, int K) {
  int lane = LID_X();
  int row0 = GROUP_Y() * 32, col0 = GROUP_X() * 32;
  int i = lane & 31;
  int kq = (lane >> 5) * 4;
  float16 acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 8) {
    half4 a = *(__global const half4 *)(A + (row0 + i) * K + k0 + kq);
    __global const half *bp = B + (k0 + kq) * N + col0 + i;
    half4 b = (half4)(bp[0], bp[N], bp[2 * N], bp[3 * N]);
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
#pragma unroll
  for (int r = 0; r < 16; ++r)
    C[(row0 + 8 * (r / 4) + kq + r % 4) * N + col0 + i] = acc[r];
}
