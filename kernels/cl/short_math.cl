// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer f16[1024] init=uniform(-4,4) seed=31
// gpusim-arg: b buffer f16[1024] init=uniform(-4,4) seed=32
// gpusim-arg: c buffer f16[1024] init=uniform(-4,4) seed=33
// gpusim-arg: p buffer i16[1024] init=randint(-30000,30000) seed=34
// gpusim-arg: q buffer i16[1024] init=randint(-30000,30000) seed=35
// gpusim-arg: r buffer i16[1024] init=randint(-30000,30000) seed=36
// gpusim-arg: hmin buffer f16[1024] out
// gpusim-arg: hmax buffer f16[1024] out
// gpusim-arg: smax buffer i16[1024] out
// gpusim-arg: umin buffer u16[1024] out
// gpusim-arg: umad buffer u16[1024] out
// gpusim-arg: imad buffer i32[1024] out
// gpusim-check: hmin == np.minimum(np.minimum(a, b), c)
// gpusim-check: hmax == np.maximum(np.maximum(a, b), c)
// gpusim-check: smax == np.maximum(np.maximum(p, q), r)
// gpusim-check: umin == np.minimum(np.minimum(p.view(u16), q.view(u16)), r.view(u16))
// gpusim-check: umad == (p.view(u16).astype(u32) * q.view(u16).astype(u32) + r.view(u16)).astype(u16)
// gpusim-check: imad == p.astype(i32) * q.astype(i32) + r.astype(i32) * 3
//
// 16-bit arithmetic as clang compiles it for gfx9: three-operand f16 and 16-bit integer minimums and
// maximums (v_min3_f16, v_max3_i16, ...), a 16-bit multiply-add (v_mad_legacy_u16, which zeroes the high
// half of its destination) and a 16-bit product widened to 32 bits.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void short_math(__global const half *a, __global const half *b, __global const half *c,
                __global const short *p, __global const short *q, __global const short *r,
                __global half *hmin, __global half *hmax, __global short *smax, __global ushort *umin,
                __global ushort *umad, __global int *imad) {
  int i = GID_X(256);
  hmin[i] = fmin(fmin(a[i], b[i]), c[i]);
  hmax[i] = fmax(fmax(a[i], b[i]), c[i]);
  short sp = p[i], sq = q[i], sr = r[i];
  short m = sp > sq ? sp : sq;
  smax[i] = m > sr ? m : sr;
  ushort up = (ushort)sp, uq = (ushort)sq, ur = (ushort)sr;
  ushort n = up < uq ? up : uq;
  umin[i] = n < ur ? n : ur;
  umad[i] = (ushort)(up * uq + ur);
  imad[i] = (int)sp * (int)sq + (int)sr * 3;
}
