// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer f16[1000] init=uniform(-2,2) seed=21
// gpusim-arg: b buffer f16[1000] init=uniform(-2,2) seed=22
// gpusim-arg: c buffer f16[1000] out
// gpusim-arg: f buffer f32[1000] out
// gpusim-arg: n i32 1000
// gpusim-check: c ~= np.maximum(a.astype(f32) * b.astype(f32) + 0.25, a.astype(f32)).astype(f16) rtol=2e-3 atol=2e-3
// gpusim-check: f ~= a.astype(f32) - 0.5 * b.astype(f32) rtol=1e-6 atol=1e-7
//
// Scalar half arithmetic and half <-> float conversions.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void f16_math(__global const half *a, __global const half *b, __global half *c,
              __global float *f, int n) {
  int i = GID_X(256);
  if (i >= n)
    return;
  half x = a[i], y = b[i];
  half p = x * y + (half)0.25f;
  c[i] = p > x ? p : x;
  f[i] = (float)x - 0.5f * (float)y;
}
