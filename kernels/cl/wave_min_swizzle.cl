// gpusim-launch: grid=4,1,1 block=128,1,1
// gpusim-arg: x buffer u32[512] init=randint(0,1000000) seed=6
// gpusim-arg: wmin buffer u32[8] out
// gpusim-check: wmin == x.reshape(-1, 64).min(axis=1)
//
// Min over each 32-lane half with ds_swizzle xor patterns, then the two
// halves combined through readlane.
#include "gpusim_builtins.h"

/* ds_swizzle bit mode: and_mask 0x1f, or_mask 0, xor_mask in bits 14:10. */
#define SWZ_XOR(m) (((m) << 10) | 0x1f)

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void wave_min_swizzle(__global const uint *x, __global uint *wmin) {
  int i = GID_X(128);
  uint v = x[i];
  uint o;
  o = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(16)); v = o < v ? o : v;
  o = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(8));  v = o < v ? o : v;
  o = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(4));  v = o < v ? o : v;
  o = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(2));  v = o < v ? o : v;
  o = __builtin_amdgcn_ds_swizzle(v, SWZ_XOR(1));  v = o < v ? o : v;
  uint lo = __builtin_amdgcn_readlane(v, 0);
  uint hi = __builtin_amdgcn_readlane(v, 32);
  if ((LID_X() & 63) == 0)
    wmin[i >> 6] = lo < hi ? lo : hi;
}
