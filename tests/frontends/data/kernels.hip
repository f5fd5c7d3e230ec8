// gpusim-launch: grid=2,1,1 block=64,1,1
// gpusim-arg: x buffer f32[128] init=uniform(-2,2) seed=1
// gpusim-arg: sums buffer f32[2] out
// gpusim-arg: hist buffer u32[8] out
// gpusim-arg: y buffer f32[128] out
// gpusim-arg: n i32 120
// gpusim-check: sums ~= x.reshape(2, 64).sum(axis=1)  rtol=1e-4 atol=1e-5
// gpusim-check: hist == np.bincount(np.floor(x[:n] + 2).astype(i32) * 2, minlength=8).astype(u32)
// gpusim-check: y[:n] ~= np.exp(x[:n]) * 2  rtol=1e-5
extern "C" __global__ void reduce(const float *x, float *sums, unsigned *hist, float *y, int n) {
  __shared__ float part[64];
  unsigned t = threadIdx.x;
  part[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = 32; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = part[0];
}

extern "C" __global__ void histogram(const float *x, float *sums, unsigned *hist, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[(int)floorf(x[i] + 2.0f) * 2], 1u);
}

__global__ void scaled_exp(const float *x, float *sums, unsigned *hist, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = expf(x[i]) * gridDim.x;
}
