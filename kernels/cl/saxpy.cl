// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: n i32 4000
// gpusim-arg: a f32 2.5
// gpusim-arg: x buffer f32[n] init=uniform(-1,1) seed=1
// gpusim-arg: y buffer f32[n] init=uniform(-1,1) seed=2 out
// gpusim-check: y ~= a * x + y rtol=1e-6 atol=1e-6
//
// BLAS saxpy, y updated in place.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void saxpy(int n, float a, __global const float *x, __global float *y) {
  int i = GID_X(256);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
