// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: data buffer u32[8192] init=randint(0,100000) seed=9
// gpusim-arg: hist buffer u32[64] init=randint(0,100) seed=10 out
// gpusim-arg: n i32 8192
// gpusim-check: hist == (hist + np.bincount(data % 64, minlength=64)).astype(u32)
//
// Privatised histogram: each workgroup counts into LDS with LDS atomics
// over a grid-stride loop, then merges into the global histogram (which
// already holds counts) with one global atomic per bin.
#include "gpusim_builtins.h"

#define BLOCK 256
#define GRID 8
#define BINS 64

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void hist_lds_atomic(__global const uint *data, __global uint *hist, int n) {
  __local uint lh[BINS];
  int t = LID_X();
  if (t < BINS)
    lh[t] = 0;
  lds_barrier();
  for (int i = GID_X(BLOCK); i < n; i += BLOCK * GRID)
    atomic_add_local_u32(&lh[data[i] % BINS], 1u);
  lds_barrier();
  if (t < BINS && lh[t] != 0)
    atomic_add_global_u32(&hist[t], lh[t]);
}
