// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: x buffer f32[16,256] init=normal(0,2) seed=32
// gpusim-arg: y buffer f32[16,256] out
// gpusim-check: y ~= np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True) rtol=1e-5 atol=1e-7
//
// Row softmax, one workgroup per 256-wide row: LDS max reduction, exp,
// LDS sum reduction, normalise.
#include "gpusim_builtins.h"

#define BLOCK 256

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void softmax_rows(__global const float *x, __global float *y) {
  __local float s[BLOCK];
  int t = LID_X();
  int i = GROUP_X() * BLOCK + t;
  float v = x[i];
  s[t] = v;
  lds_barrier();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] = __builtin_fmaxf(s[t], s[t + stride]);
    lds_barrier();
  }
  float m = s[0];
  lds_barrier();
  float e = __builtin_expf(v - m);
  s[t] = e;
  lds_barrier();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    lds_barrier();
  }
  y[i] = e / s[0];
}
