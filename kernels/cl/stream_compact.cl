// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: x buffer f32[2048] init=normal(0,1) seed=39
// gpusim-arg: out buffer f32[2048] out
// gpusim-arg: count buffer u32[1] out
// gpusim-check: count == np.array([np.count_nonzero(x > 0.5)], u32)
// gpusim-check: np.sort(out[:count[0]]) == np.sort(x[x > 0.5])
//
// Stream compaction: lanes whose value passes the predicate claim an
// output slot with a returning atomic on one global counter, so the
// output order depends on timing but the set of values does not.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void stream_compact(__global const float *x, __global float *out,
                    __global uint *count) {
  float v = x[GID_X(256)];
  if (v > 0.5f) {
    uint slot = atomic_add_global_u32(count, 1u);
    out[slot] = v;
  }
}
