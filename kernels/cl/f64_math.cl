// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: x buffer f64[1024] init=uniform(0,4) seed=27
// gpusim-arg: y buffer f64[1024] out
// gpusim-arg: z buffer f32[1024] out
// gpusim-check: y ~= np.sqrt(x) / (1 + x * x) + np.arange(1024) * 1e-3 rtol=1e-12 atol=1e-15
// gpusim-check: z ~= (x * 3).astype(f32) rtol=1e-7
//
// Double precision: correctly rounded sqrt and divide, int -> f64 and
// f64 -> f32 conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void f64_math(__global const double *x, __global double *y, __global float *z) {
  int i = GID_X(256);
  double v = x[i];
  y[i] = __builtin_sqrt(v) / (1.0 + v * v) + (double)i * 1e-3;
  z[i] = (float)(v * 3.0);
}
