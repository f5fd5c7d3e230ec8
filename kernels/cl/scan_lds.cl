// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: x buffer i32[4096] init=randint(-100,100) seed=11
// gpusim-arg: y buffer i32[4096] out
// gpusim-check: y == np.cumsum(x.reshape(-1, 256), axis=1).reshape(-1).astype(i32)
//
// Workgroup inclusive prefix sum (Hillis-Steele) in LDS.
#include "gpusim_builtins.h"

#define BLOCK 256

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void scan_lds(__global const int *x, __global int *y) {
  __local int s[BLOCK];
  int t = LID_X();
  int i = GID_X(BLOCK);
  s[t] = x[i];
  lds_barrier();
  for (int off = 1; off < BLOCK; off <<= 1) {
    int v = t >= off ? s[t - off] : 0;
    lds_barrier();
    s[t] += v;
    lds_barrier();
  }
  y[i] = s[t];
}
