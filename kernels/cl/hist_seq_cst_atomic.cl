// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: data buffer u32[4096] init=randint(0,64) seed=9
// gpusim-arg: hist buffer u32[64] out
// gpusim-check: hist == np.bincount(data, minlength=64).astype(u32)
//
// 64-bin histogram with sequentially consistent device-scope atomic adds:
// LLVM brackets each one with a release (buffer_wbl2 on gfx942) and an
// acquire (buffer_inv on gfx942, buffer_wbinvl1_vol on gfx90a).
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void hist_seq_cst_atomic(__global const uint *data, __global uint *hist) {
  uint bin = data[GID_X(256)];
  __opencl_atomic_fetch_add((volatile __global atomic_uint *)&hist[bin], 1u,
                            __ATOMIC_SEQ_CST, __OPENCL_MEMORY_SCOPE_DEVICE);
}
