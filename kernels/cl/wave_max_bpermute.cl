// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: x buffer f32[2048] init=normal(0,1) seed=5
// gpusim-arg: wmax buffer f32[32] out
// gpusim-check: wmax == x.reshape(-1, 64).max(axis=1)
//
// Butterfly max across a wave64 with ds_bpermute (lane ^ offset).
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void wave_max_bpermute(__global const float *x, __global float *wmax) {
  int i = GID_X(256);
  int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  float v = x[i];
  for (int off = 32; off > 0; off >>= 1) {
    int other = __builtin_amdgcn_ds_bpermute((lane ^ off) << 2, __builtin_astype(v, int));
    v = __builtin_fmaxf(v, __builtin_astype(other, float));
  }
  if (lane == 0)
    wmax[i >> 6] = v;
}
