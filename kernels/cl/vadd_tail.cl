// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer f32[1000] init=uniform(-1,1) seed=1
// gpusim-arg: b buffer f32[1000] init=uniform(-1,1) seed=2
// gpusim-arg: c buffer f32[1000] out
// gpusim-arg: n i32 1000
// gpusim-check: c == a + b
//
// Elementwise add; n is not a multiple of the block, so the last block
// masks off its tail lanes.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void vadd_tail(__global const float *a, __global const float *b,
               __global float *c, int n) {
  int i = GID_X(256);
  if (i < n)
    c[i] = a[i] + b[i];
}
