#include <hip/hip_runtime.h>
#include <cstdio>
// gpusim-launch: grid=2,1,1 block=128,1,1
// gpusim-arg: x buffer f32[256] init=uniform(-1,1) seed=1
// gpusim-arg: y buffer f32[256] out
// gpusim-check: y ~= 2 * x
// printf in device code: the first lane of each wave prints its place, a float, a string from the
// file's static data, a character, a 64-bit value in hex and a pointer's low bits; gpusim prints the
// lines after the run, in the order the calls were made.
__constant__ char unit[] = "ms";
__global__ void device_printf(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = 2 * x[i];
  if (threadIdx.x % 64 == 0) {
    printf("block %u wave %u: x[%3d] = %+.3f %s %c 0x%llx %5.1f%%\n", blockIdx.x, threadIdx.x / 64, i, x[i], unit,
           'a' + i / 64, 1ull << (40 + i / 64), 12.5);
  }
}
int main() {
  std::printf("host printf compiles and never runs\n");
  return 0;
}
