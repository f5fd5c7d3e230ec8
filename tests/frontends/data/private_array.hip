#include <hip/hip_runtime.h>
// A private array indexed by data lives in scratch memory, every lane's its own: reached through
// scratch_store/scratch_load on gfx942, and on gfx90a through buffer instructions and the private
// segment buffer, with the wave's offset added by the kernel's prologue.
// gpusim-launch: grid=2,1,1 block=128,1,1
// gpusim-arg: x buffer f32[256, 32] init=uniform(-1,1) seed=1
// gpusim-arg: pick buffer i32[256] init=randint(0,32) seed=2
// gpusim-arg: y buffer f32[256] out
// gpusim-check: y ~= x[np.arange(256), pick] * (pick + 1)  rtol=1e-6 atol=0
__global__ void pick_private(const float* x, const int* pick, float* y) {
  float a[32];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 32; ++i) a[i] = x[t * 32 + i] * (float)(i + 1);
  y[t] = a[pick[t]];
}
