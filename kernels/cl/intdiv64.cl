// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer i64[1024] init=randint(-1000000000000,1000000000000) seed=20
// gpusim-arg: q buffer i64[1024] out
// gpusim-arg: r buffer i64[1024] out
// gpusim-arg: d i64 1000003
// gpusim-check: q == (a - np.fmod(a, d)) // d
// gpusim-check: r == np.fmod(a, d)
//
// 64-bit signed division by a runtime divisor (no hardware divide: the
// compiler expands it into a reciprocal plus correction steps).
#include "gpusim_builtins.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void intdiv64(__global const long *a, __global long *q, __global long *r,
              long d) {
  int i = GID_X(256);
  long x = a[i];
  q[i] = x / d;
  r[i] = x % d;
}
