// HIP's float and double atomics beyond atomicAdd: atomicMax/atomicMin (compare-and-swap loops, as clang-19
// lowers them for gfx942), atomicSub, and unsafeAtomicAdd/safeAtomicAdd, over 4 workgroups.
// The outputs start at zero, which the maximum and minimum take part in.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=4,1,1 block=64,1,1
// gpusim-arg: a buffer f32[256] init=uniform(-1,1) seed=1
// gpusim-arg: d buffer f64[256] init=uniform(-1,1) seed=2
// gpusim-arg: o buffer f32[5] out
// gpusim-arg: od buffer f64[5] out
// gpusim-check: o[:2] == np.array([np.maximum(a.max(), 0), np.minimum(a.min(), 0)])
// gpusim-check: od[:2] == np.array([np.maximum(d.max(), 0), np.minimum(d.min(), 0)])
// gpusim-check: o[2:] ~= np.array([-a.sum(), a.sum(), a.sum()])  rtol=1e-4 atol=1e-4
// gpusim-check: od[2:] ~= np.array([-d.sum(), d.sum(), d.sum()])  rtol=1e-12 atol=1e-12
extern "C" __global__ void float_atomics(const float *a, const double *d, float *o, double *od) {
    int i = blockIdx.x * 64 + threadIdx.x;
    atomicMax(&o[0], a[i]);
    atomicMin(&o[1], a[i]);
    atomicMax(&od[0], d[i]);
    atomicMin(&od[1], d[i]);
    atomicSub(&o[2], a[i]);
    unsafeAtomicAdd(&o[3], a[i]);
    safeAtomicAdd(&o[4], a[i]);
    atomicSub(&od[2], d[i]);
    unsafeAtomicAdd(&od[3], d[i]);
    safeAtomicAdd(&od[4], d[i]);
}
