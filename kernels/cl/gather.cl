// gpusim-launch: grid=12,1,1 block=256,1,1
// gpusim-arg: src buffer f32[4096] init=uniform(-10,10) seed=13
// gpusim-arg: idx buffer i32[3000] init=randint(0,4096) seed=14
// gpusim-arg: out buffer f32[3000] out
// gpusim-arg: n i32 3000
// gpusim-check: out == src[idx]
//
// Indexed gather: random addresses, one load per lane.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void gather(__global const float *src, __global const int *idx,
            __global float *out, int n) {
  int i = GID_X(256);
  if (i < n)
    out[i] = src[idx[i]];
}
