// gpusim-launch: grid=2048,1,1 block=256,1,1
// gpusim-arg: keys buffer u32[n] init=perm seed=1 out
// gpusim-arg: n u32 1048576
// gpusim-arg: k0 u32 2
// gpusim-arg: k1 u32 512
// gpusim-check: keys == np.where(np.arange(n // 512)[:, None] % 2 == 0, np.sort(keys.reshape(-1, 512), axis=1), np.sort(keys.reshape(-1, 512), axis=1)[:, ::-1]).reshape(-1)
//
// The stages of a bitonic sort whose pairs lie inside one 512-key block (j <= 256), in LDS: each
// workgroup of 256 work-items loads its 512 keys, runs, for k = k0, 2*k0, ..., k1, the stages
// j = min(k/2, 256), ..., 1 of bitonic_step (same pairs, same directions from the global index),
// and stores the block back. k0 = 2, k1 = 512 sorts every block (ascending and descending in turn)
// and replaces the first 45 launches of a sort; k0 = k1 = k > 512 finishes stage k after the global
// launches j = k/2, ..., 512: a sort of 2^20 keys is 1 + 11 launches of this kernel and 66 of
// bitonic_step instead of 210. grid = n/512 workgroups of 256.
#include "../cl/gpusim_builtins.h"

#define BLOCK 256
#define KEYS (2 * BLOCK)

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void bitonic_local(__global uint *keys, uint n, uint k0, uint k1) {
  __local uint s[KEYS];
  uint t = (uint)LID_X();
  uint base = (uint)GROUP_X() * KEYS;
  if (base >= n)
    return;
  s[t] = keys[base + t];
  s[t + BLOCK] = keys[base + t + BLOCK];
  lds_barrier();
  for (uint k = k0; k <= k1; k <<= 1) {
    for (uint j = (k / 2 < BLOCK ? k / 2 : BLOCK); j > 0; j >>= 1) {
      uint lo = ((t & ~(j - 1)) << 1) | (t & (j - 1));
      uint hi = lo | j;
      uint a = s[lo], b = s[hi];
      bool ascending = ((base + lo) & k) == 0;
      if ((a > b) == ascending) {
        s[lo] = b;
        s[hi] = a;
      }
      lds_barrier();
    }
  }
  keys[base + t] = s[t];
  keys[base + t + BLOCK] = s[t + BLOCK];
}
