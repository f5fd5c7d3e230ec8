// gpusim-launch: grid=4,1,1 block=64,1,1
// gpusim-arg: x buffer f32[256] init=uniform(-1,1) seed=1
// gpusim-arg: y buffer f32[256] out
// gpusim-arg: tickets buffer i32[4] out
// gpusim-check: y ~= x * np.tile(np.array([1, 2, 3, 4], f32), 64) + np.array([0.5, 0.25, 0.125], f32)[np.arange(256) % 3]
// gpusim-check: np.sort(tickets) == np.arange(4)
// A constant table (.data), a static one (.rodata) and a device global (.bss), reached through the program
// counter as clang emits it (s_getpc_b64 and @rel32 literals).
__constant__ float coeff[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int counter;
static __device__ float table[3] = {0.5f, 0.25f, 0.125f};
__global__ void g(const float *x, float *y, int *tickets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * coeff[i & 3] + table[i % 3];
  if (threadIdx.x == 0) tickets[blockIdx.x] = atomicAdd(&counter, 1);
}
