#include <hip/hip_runtime.h>
// Static data that holds addresses: a table of pointers to two __device__ tables and a table of device
// functions. clang writes them as `.quad table_a` and `.quad _Z4twicef`, which gpusim fills in as a loader
// applies their R_AMDGPU_ABS64 relocations; the kernel loads a pointer and calls through one (s_swappc_b64).
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: which buffer i32[64] init=randint(0,4) seed=1
// gpusim-arg: x buffer f32[64] init=uniform(-1,1) seed=2
// gpusim-arg: y buffer f32[64] out
// gpusim-check: y ~= np.where(which & 1, 10, 1) * (np.arange(64) % 4 + 1) + np.where(which & 2, 3 * x, 2 * x)  rtol=1e-6 atol=1e-6
__device__ float table_a[4] = {1, 2, 3, 4};
__device__ float table_b[4] = {10, 20, 30, 40};
__device__ float* tables[2] = {table_a, table_b};
__device__ __attribute__((noinline)) float twice(float v) { return 2 * v; }
__device__ __attribute__((noinline)) float thrice(float v) { return 3 * v; }
__device__ float (*scalings[2])(float) = {twice, thrice};
__global__ void pointer_tables(const int* which, const float* x, float* y) {
  int i = threadIdx.x;
  int w = which[i];
  y[i] = tables[w & 1][i & 3] + scalings[(w >> 1) & 1](x[i]);
}
