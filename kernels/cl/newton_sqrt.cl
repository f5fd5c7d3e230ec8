// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: x buffer f32[1024] init=uniform(0.01,1000) seed=17
// gpusim-arg: y buffer f32[1024] out
// gpusim-check: y ~= np.sqrt(x) rtol=1e-5
//
// Newton iteration for sqrt, stopped when it stops improving: the trip
// count depends on each lane's value.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void newton_sqrt(__global const float *x, __global float *y) {
  int i = GID_X(256);
  float a = x[i];
  float r = a > 1.0f ? a : 1.0f;
  for (int it = 0; it < 64; ++it) {
    float nr = 0.5f * (r + a / r);
    if (nr >= r)
      break;
    r = nr;
  }
  y[i] = r;
}
