// gpusim-launch: grid=4,4,1 block=16,16,1
// gpusim-arg: a buffer f32[64,64] init=uniform(0,1) seed=12
// gpusim-arg: b buffer f32[64,64] out
// gpusim-arg: h i32 64
// gpusim-arg: w i32 64
// gpusim-check: b ~= 0.2 * (a + np.pad(a, 1, mode='edge')[:-2, 1:-1] + np.pad(a, 1, mode='edge')[2:, 1:-1] + np.pad(a, 1, mode='edge')[1:-1, :-2] + np.pad(a, 1, mode='edge')[1:-1, 2:]) rtol=1e-5 atol=1e-6
//
// One Jacobi step of a 5-point stencil; edges clamp to the border.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void stencil2d(__global const float *a, __global float *b, int h, int w) {
  int x = GID_X(16);
  int y = GID_Y(16);
  if (x >= w || y >= h)
    return;
  int xl = x > 0 ? x - 1 : 0;
  int xr = x < w - 1 ? x + 1 : w - 1;
  int yu = y > 0 ? y - 1 : 0;
  int yd = y < h - 1 ? y + 1 : h - 1;
  float s = a[y * w + x] + a[yu * w + x] + a[yd * w + x] + a[y * w + xl] +
            a[y * w + xr];
  b[y * w + x] = 0.2f * s;
}
