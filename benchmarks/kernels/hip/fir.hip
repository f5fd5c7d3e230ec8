// fir: output[t] = sum over taps k < num_tap of coeff[k] * x, where x is input[t - k]
// when t >= k and history[num_tap - (k - t)] otherwise (the samples before the block);
// one output per work-item, 256-wide workgroups, grid length/256 (MGPUSim
// gpu_perf_scripts/fir.cpp on MI300A). coeff[k] is loaded in every iteration, as in
// the hardware kernel (clang makes it a scalar load: its address is uniform).
//
// Launch header (copied into the .s by ../build_hip.py; benchmarks/hardware_accuracy.py
// rewrites sizes and grid per problem size):
// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: output buffer f32[1024] out
// gpusim-arg: coeff buffer f32[num_tap] init=uniform(-1,1) seed=1
// gpusim-arg: input buffer f32[1024] init=uniform(-1,1) seed=2
// gpusim-arg: history buffer f32[num_tap] init=uniform(-1,1) seed=3
// gpusim-arg: num_tap u32 8
// gpusim-check: output ~= (np.concatenate((history, input))[num_tap + np.arange(output.size)[:, None] - np.arange(num_tap)[None, :]] * coeff).sum(1) rtol=1e-5 atol=1e-5
#include "gpusim_hip.h"

extern "C" __global__ void fir(float* output, float* coeff, float* input, float* history,
                               unsigned num_tap) {
  unsigned t = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  float acc = 0.0f;
  for (unsigned k = 0; k < num_tap; ++k) {
    float x = t >= k ? input[t - k] : history[num_tap - (k - t)];
    acc = acc + coeff[k] * x;
  }
  output[t] = acc;
}
