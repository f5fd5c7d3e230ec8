// vectoradd: a[i] = b[i] + c[i] over a width x height grid of floats, one element per
// work-item, written as a 2-D kernel (the benchmark launches it with height 1) with a
// bounds check on the flattened index, as MGPUSim's gpu_perf_scripts/vectoradd.cpp
// measures it on MI300A. Launch: block 256x1, grid ceil(width/256) x height.
//
// Launch header (copied into the .s by ../build_hip.py; benchmarks/hardware_accuracy.py
// rewrites sizes and grid per problem size):
// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer f32[width*height] out
// gpusim-arg: b buffer f32[width*height] init=uniform(-1,1) seed=1
// gpusim-arg: c buffer f32[width*height] init=uniform(-1,1) seed=2
// gpusim-arg: width i32 1024
// gpusim-arg: height i32 1
// gpusim-check: a ~= b + c rtol=1e-6
#include "gpusim_hip.h"

extern "C" __global__ void vectoradd(float* __restrict__ a, const float* __restrict__ b,
                                     const float* __restrict__ c, int width, int height) {
  int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  int y = hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y;
  int i = y * width + x;
  if (i < width * height)
    a[i] = b[i] + c[i];
}
