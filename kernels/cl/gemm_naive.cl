// gpusim-launch: grid=4,4,1 block=16,16,1
// gpusim-arg: A buffer f32[64,64] init=uniform(-1,1) seed=28
// gpusim-arg: B buffer f32[64,64] init=uniform(-1,1) seed=29
// gpusim-arg: C buffer f32[64,64] out
// gpusim-arg: M i32 64
// gpusim-arg: N i32 64
// gpusim-arg: K i32 64
// gpusim-check: C ~= A @ B rtol=1e-5 atol=1e-5
//
// One output element per work-item, operands straight from global memory.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void gemm_naive(__global const float *A, __global const float *B,
                __global float *C, int M, int N, int K) {
  int col = GID_X(16);
  int row = GID_Y(16);
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc = __builtin_fmaf(A[row * K + k], B[k * N + col], acc);
  C[row * N + col] = acc;
}
