// gpusim-launch: grid=2048,1,1 block=256,1,1
// gpusim-arg: keys buffer u32[n] init=perm seed=1 out
// gpusim-arg: n u32 1048576
// gpusim-arg: j u32 1
// gpusim-arg: k u32 2
// gpusim-check: keys == np.where(((np.arange(n) & j) == 0) == ((np.arange(n) & k) == 0), np.minimum(keys, keys[np.arange(n) ^ j]), np.maximum(keys, keys[np.arange(n) ^ j]))
//
// One compare-exchange stage (k, j) of a bitonic sort of n u32 keys, in place: the classic GPU form,
// one launch per stage. Work-item t (n/2 of them) owns the pair lo = t with a 0 inserted at bit log2(j),
// hi = lo + j; the pair is sorted ascending where lo & k is 0, descending elsewhere. A sort of n = 2^m
// keys launches k = 2, 4, ..., n and, for each k, j = k/2, k/4, ..., 1: m(m+1)/2 stages (210 for 2^20).
// n and j are powers of two, 1 <= j < k <= n; grid = n/2/256 workgroups of 256.
#include "../cl/gpusim_builtins.h"

#define BLOCK 256

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void bitonic_step(__global uint *keys, uint n, uint j, uint k) {
  uint t = (uint)GID_X(BLOCK);
  if (t >= n / 2)
    return;
  uint lo = ((t & ~(j - 1)) << 1) | (t & (j - 1));
  uint hi = lo | j;
  uint a = keys[lo], b = keys[hi];
  bool ascending = (lo & k) == 0;
  if ((a > b) == ascending) {
    keys[lo] = b;
    keys[hi] = a;
  }
}
