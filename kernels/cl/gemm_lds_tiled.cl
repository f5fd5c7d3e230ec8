// gpusim-launch: grid=4,4,1 block=16,16,1
// gpusim-arg: A buffer f32[64,64] init=uniform(-1,1) seed=30
// gpusim-arg: B buffer f32[64,64] init=uniform(-1,1) seed=31
// gpusim-arg: C buffer f32[64,64] out
// gpusim-arg: N i32 64
// gpusim-arg: K i32 64
// gpusim-check: C ~= A @ B rtol=1e-5 atol=1e-5
//
// Shared-memory tiled GEMM: 16x16 tiles of A and B staged in LDS,
// M, N and K multiples of the tile.
#include "gpusim_builtins.h"

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_lds_tiled(__global const float *A, __global const float *B,
                    __global float *C, int N, int K) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = LID_X(), ty = LID_Y();
  int col = GROUP_X() * TILE + tx;
  int row = GROUP_Y() * TILE + ty;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    lds_barrier();
    for (int k = 0; k < TILE; ++k)
      acc = __builtin_fmaf(As[ty][k], Bs[k][tx], acc);
    lds_barrier();
  }
  C[row * N + col] = acc;
}
