// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: cnt buffer i32[2048] init=randint(0,48) seed=15
// gpusim-arg: wt buffer i32[64] init=randint(-50,50) seed=16
// gpusim-arg: out buffer i32[2048] out
// gpusim-check: out == np.concatenate([np.zeros(1, i32), np.cumsum(wt)]).astype(i32)[cnt]
//
// Each lane loops cnt[i] times, so the wave keeps iterating with a
// shrinking exec mask until its longest lane is done.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void divergent_loop(__global const int *cnt, __global const int *wt,
                    __global int *out) {
  int i = GID_X(256);
  int c = cnt[i];
  int acc = 0;
  for (int k = 0; k < c; ++k)
    acc += wt[k];
  out[i] = acc;
}
