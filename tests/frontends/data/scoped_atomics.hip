// HIP's atomics beyond float_atomics.hip (gpusim_hip_atomics.h): the _system forms, which clang-19 compiles to
// system-scope instructions (sc0 sc1), the 64-bit and/or/xor/min/max, long long min/max, unsigned long sums,
// float and double compare-and-swap (a hand-written atomic sum), a float exchange, atomicAddNoRet, and the
// unsafe/safe float maximum and minimum, over 4 workgroups. The outputs start at zero.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=4,1,1 block=64,1,1
// gpusim-arg: a buffer i32[256] init=randint(-1000000,1000000) seed=1
// gpusim-arg: m buffer u64[256] init=randint(0,18446744073709551616) seed=2
// gpusim-arg: x buffer f32[256] init=uniform(-1,1) seed=3
// gpusim-arg: d buffer f64[256] init=uniform(-1,1) seed=4
// gpusim-arg: si buffer i32[4] out
// gpusim-arg: su buffer u32[4] out
// gpusim-arg: wide buffer u64[6] out
// gpusim-arg: sll buffer i64[2] out
// gpusim-arg: sf buffer f32[6] out
// gpusim-arg: sd buffer f64[5] out
// gpusim-check: si == np.array([a.sum(), -a.sum(), max(a.max(), 0), min(a.min(), 0)])
// gpusim-check: su == (bit := (a.view(np.uint32).astype(np.uint64)[:, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1), at := np.arange(32, dtype=np.uint64), np.array([0, (bit.max(axis=0) << at).sum(), ((bit.sum(axis=0) % 2) << at).sum(), 0]))[-1]
// gpusim-check: wide == (bit := (m[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1), at := np.arange(64, dtype=np.uint64), np.array([0, (bit.max(axis=0) << at).sum(dtype=np.uint64), ((bit.sum(axis=0) % 2).astype(np.uint64) << at).sum(dtype=np.uint64), m.max(), 0, m.sum(dtype=np.uint64)], dtype=np.uint64))[-1]
// gpusim-check: sll == np.array([max(m.view(np.int64).max(), 0), min(m.view(np.int64).min(), 0)])
// gpusim-check: sf[:4] ~= np.array([x.sum(), x.sum(), x.sum(), 2.5])  rtol=1e-4 atol=1e-4
// gpusim-check: sf[4:] == np.array([np.maximum(x.max(), 0), np.minimum(x.min(), 0)])
// gpusim-check: sd[:1] ~= np.array([d.sum()])  rtol=1e-12 atol=1e-12
// gpusim-check: sd[1:] == np.array([np.maximum(d.max(), 0), np.minimum(d.min(), 0), np.maximum(d.max(), 0), np.minimum(d.min(), 0)])
extern "C" __global__ void scoped_atomics(const int *a, const unsigned long long *m, const float *x, const double *d,
                                          int *si, unsigned *su, unsigned long long *wide, long long *sll, float *sf,
                                          double *sd) {
  int i = blockIdx.x * 64 + threadIdx.x;
  atomicAdd_system(&si[0], a[i]);
  atomicSub_system(&si[1], a[i]);
  atomicMax_system(&si[2], a[i]);
  atomicMin_system(&si[3], a[i]);
  atomicAnd_system(&su[0], (unsigned)a[i]);
  atomicOr_system(&su[1], (unsigned)a[i]);
  atomicXor_system(&su[2], (unsigned)a[i]);
  atomicExch_system(&su[3], 0u);
  atomicAnd(&wide[0], m[i]);
  atomicOr(&wide[1], m[i]);
  atomicXor(&wide[2], m[i]);
  atomicMax(&wide[3], m[i]);
  atomicMin(&wide[4], m[i]);
  atomicAdd((unsigned long *)&wide[5], (unsigned long)m[i]);
  atomicMax(&sll[0], (long long)m[i]);
  atomicMin_system(&sll[1], (long long)m[i]);
  atomicAdd_system(&sf[0], x[i]);
  atomicAddNoRet(&sf[1], x[i]);
  float seen = sf[2], want;   // a sum by compare-and-swap, as code written before float atomics did it
  do {
    want = seen;
    seen = atomicCAS(&sf[2], want, want + x[i]);
  } while (__float_as_uint(seen) != __float_as_uint(want));
  atomicExch(&sf[3], 2.5f);
  unsafeAtomicMax(&sf[4], x[i]);
  safeAtomicMin(&sf[5], x[i]);
  double dseen = sd[0], dwant;
  do {
    dwant = dseen;
    dseen = atomicCAS_system(&sd[0], dwant, dwant + d[i]);
  } while (__double_as_longlong(dseen) != __double_as_longlong(dwant));
  safeAtomicMax(&sd[1], d[i]);
  unsafeAtomicMin(&sd[2], d[i]);
  atomicMax_system(&sd[3], d[i]);
  atomicMin(&sd[4], d[i]);
}
