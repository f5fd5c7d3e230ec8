// relu: out[i] = in[i] if it is positive, else 0, for i < count; one element per
// work-item, 256-wide workgroups (MGPUSim gpu_perf_scripts/relu.cpp on MI300A).
//
// Launch header (copied into the .s by ../build_hip.py; benchmarks/hardware_accuracy.py
// rewrites sizes and grid per problem size):
// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: count i32 1024
// gpusim-arg: src buffer f32[count] init=uniform(-1,1) seed=1
// gpusim-arg: out buffer f32[count] out
// gpusim-check: out ~= np.maximum(src, 0) rtol=0
#include "gpusim_hip.h"

extern "C" __global__ void relu(int count, float* src, float* out) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < count)
    out[i] = src[i] > 0.0f ? src[i] : 0.0f;
}
