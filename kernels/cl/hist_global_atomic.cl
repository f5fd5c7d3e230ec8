// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: data buffer u32[4096] init=randint(0,64) seed=8
// gpusim-arg: hist buffer u32[64] out
// gpusim-check: hist == np.bincount(data, minlength=64).astype(u32)
//
// 64-bin histogram, every work-item does one global atomic add.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void hist_global_atomic(__global const uint *data, __global uint *hist) {
  uint bin = data[GID_X(256)];
  atomic_add_global_u32(&hist[bin], 1u);
}
