// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: src buffer f32[16384] init=uniform(-10,10) seed=21
// gpusim-arg: sel buffer i32[1024] init=randint(0,16) seed=22
// gpusim-arg: out buffer f32[1024] out
// gpusim-arg: mixed buffer f32[1024] out
// gpusim-arg: total buffer f32[1024] out
// gpusim-arg: j i32 11
// gpusim-check: out == src.reshape(-1, 16)[:, 11] * 2
// gpusim-check: mixed == src.reshape(-1, 16)[np.arange(sel.size), sel] * 2
// gpusim-check: total ~= (src.reshape(-1, 16) * 2 * np.arange(16)).sum(axis=1) - 2 * 11 * src.reshape(-1, 16)[:, 11] - 11 rtol=1e-5 atol=1e-4
//
// A private array indexed at run time. With an index the same in every lane clang keeps the array in VGPRs
// and reads and writes it in VGPR index mode (s_set_gpr_idx_on, v_mov_b32, s_set_gpr_idx_off); with an
// index per lane, by a chain of compares and selects.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void dynamic_index(__global const float *src, __global const int *sel, __global float *out,
                   __global float *mixed, __global float *total, int j) {
  int i = GID_X(256);
  float r[16];
  for (int k = 0; k < 16; k++)
    r[k] = src[i * 16 + k] * 2.0f;
  out[i] = r[j & 15];
  mixed[i] = r[sel[i] & 15];
  r[j & 15] = -1.0f;
  float s = 0.0f;
  for (int k = 0; k < 16; k++)
    s += r[k] * (float)k;
  total[i] = s;
}
