// gpusim-launch: grid=2,1,1 block=64,1,1
// gpusim-arg: x buffer f32[128] init=uniform(-1,1) seed=1
// gpusim-arg: y buffer f32[128] out
// gpusim-check: y ~= (2 * x + 1) * (2 * (x * x) + 1)
// A device function kept out of line (noinline): the kernel calls it twice through s_getpc_b64,
// s_add_u32/s_addc_u32 of its @rel32 address and s_swappc_b64, and it returns with s_setpc_b64.
__device__ __attribute__((noinline)) float twice_plus_one(float v) { return 2 * v + 1; }
__global__ void device_calls(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = twice_plus_one(v) * twice_plus_one(v * v);
}
