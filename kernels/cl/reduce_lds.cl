// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: x buffer f32[4096] init=uniform(-1,1) seed=3
// gpusim-arg: partial buffer f32[16] out
// gpusim-check: partial ~= x.reshape(16, 256).sum(axis=1) rtol=1e-5 atol=1e-5
//
// Classic shared-memory tree reduction: one partial sum per workgroup.
#include "gpusim_builtins.h"

#define BLOCK 256

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void reduce_lds(__global const float *x, __global float *partial) {
  __local float s[BLOCK];
  int t = LID_X();
  s[t] = x[GID_X(BLOCK)];
  lds_barrier();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    lds_barrier();
  }
  if (t == 0)
    partial[GROUP_X()] = s[0];
}
