// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: a buffer i32[2048] init=randint(-100000,100000) seed=18
// gpusim-arg: d buffer i32[2048] init=randint(1,1000) seed=19
// gpusim-arg: q buffer i32[2048] out
// gpusim-arg: r buffer i32[2048] out
// gpusim-arg: qs buffer i32[2048] out
// gpusim-arg: uq buffer u32[2048] out
// gpusim-arg: ur buffer u32[2048] out
// gpusim-arg: s i32 -7
// gpusim-arg: us u32 13
// gpusim-check: q == (a - np.fmod(a, d)) // d
// gpusim-check: r == np.fmod(a, d)
// gpusim-check: qs == (a - np.fmod(a, s)) // s
// gpusim-check: uq == a.view(u32) // us
// gpusim-check: ur == a.view(u32) % us
//
// 32-bit division and remainder by runtime divisors: signed per lane,
// signed by a (negative) kernel argument, unsigned by a kernel argument.
// C semantics: the quotient truncates toward zero.
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void intdiv(__global const int *a, __global const int *d, __global int *q,
            __global int *r, __global int *qs, __global uint *uq,
            __global uint *ur, int s, uint us) {
  int i = GID_X(256);
  int x = a[i], y = d[i];
  q[i] = x / y;
  r[i] = x % y;
  qs[i] = x / s;
  uq[i] = (uint)x / us;
  ur[i] = (uint)x % us;
}
