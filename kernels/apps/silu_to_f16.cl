// gpusim-launch: grid=3584,1,1 block=256,1,1
// gpusim-arg: n i32 917504
// gpusim-arg: x buffer f32[n] init=uniform(-4,4) seed=1
// gpusim-arg: y buffer f16[n] out
// gpusim-check: y ~= (x / (1 + np.exp(-x))).astype(f16) rtol=2e-3 atol=2e-3
//
// SiLU activation with a cast to half, between the two GEMMs of an MLP: the gemm template writes its
// C in f32 and reads A in f16. Default size: the 512 x 1792 hidden activations of one GPU's slice of
// a tensor-parallel MLP (ffn 14336 over 8 GPUs, 512 tokens).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "../cl/gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void silu_to_f16(int n, __global const float *x, __global half *y) {
  int i = GID_X(256);
  if (i >= n)
    return;
  float v = x[i];
  y[i] = (half)(v / (1.0f + __builtin_expf(-v)));
}
