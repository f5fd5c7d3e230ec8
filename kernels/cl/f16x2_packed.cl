// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: x buffer f16[2048] init=uniform(-1,1) seed=23
// gpusim-arg: y buffer f16[2048] init=uniform(-1,1) seed=24 out
// gpusim-arg: alpha f32 0.75
// gpusim-check: y ~= (alpha * x.astype(f32) + y.astype(f32) * x.astype(f32)).astype(f16) rtol=5e-3 atol=2e-3
//
// Packed half2 arithmetic: two f16 lanes per register.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void f16x2_packed(__global const half2 *x, __global half2 *y, float alpha) {
  int i = GID_X(256);
  half2 h = (half2)((half)alpha, (half)alpha);
  half2 v = x[i];
  y[i] = h * v + y[i] * v;
}
