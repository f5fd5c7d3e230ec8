// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: x buffer f32[2048] init=uniform(-4,4) seed=25
// gpusim-arg: b buffer bf16[2048] init=uniform(-4,4) seed=26
// gpusim-arg: xb buffer bf16[2048] out
// gpusim-arg: bf buffer f32[2048] out
// gpusim-check: xb.view(u16) == ((x.view(u32) + 0x7fff + ((x.view(u32) >> 16) & 1)) >> 16).astype(u16)
// gpusim-check: bf ~= (b.view(u16).astype(u32) << 16).view(f32) * 2 + x rtol=1e-6 atol=1e-6
//
// bf16 <-> f32 conversions. Neither target has a bf16 convert
// instruction, so f32 -> bf16 (round to nearest even, NaN kept quiet)
// is integer code and bf16 -> f32 is a 16-bit shift.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void bf16_convert(__global const float *x, __global const __bf16 *b,
                  __global __bf16 *xb, __global float *bf) {
  int i = GID_X(256);
  float v = x[i];
  xb[i] = (__bf16)v;
  bf[i] = (float)b[i] * 2.0f + v;
}
