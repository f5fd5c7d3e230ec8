// gpusim-launch: grid=4,1,1 block=64,1,1
// gpusim-arg: a buffer f32[n] init=uniform(-1,1) seed=1
// gpusim-arg: b buffer f32[n] init=uniform(-1,1) seed=2
// gpusim-arg: c buffer f32[n] out
// gpusim-arg: n i32 256
// gpusim-check: c ~= a + b
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
