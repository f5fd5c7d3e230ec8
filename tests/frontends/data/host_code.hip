// A .hip file as its author writes it for hipcc: the HIP includes, standard headers, an error-check
// macro and a host main() that allocates, copies and launches, both by <<<...>>> and hipLaunchKernelGGL.
// gpusim compiles the device code and never runs the host code: the launch is the gpusim-* lines.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

// gpusim-launch: grid=8,1,1 block=64,1,1
// gpusim-arg: x buffer f32[2048] init=uniform(-1,1) seed=1
// gpusim-arg: y buffer f32[2048] init=uniform(-1,1) seed=2
// gpusim-arg: out buffer f32[2048] out
// gpusim-arg: norms buffer f32[512] out
// gpusim-arg: alpha f32 0.5
// gpusim-arg: n4 i32 512
// gpusim-check: out ~= 0.5 * x + y
// gpusim-check: norms ~= np.sqrt((x.reshape(512, 4) ** 2).sum(axis=1))  rtol=1e-6 atol=1e-7

#define HIP_CHECK(call)                                                                             \
  do {                                                                                              \
    hipError_t err_ = (call);                                                                       \
    if (err_ != hipSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(err_));            \
      std::exit(EXIT_FAILURE);                                                                      \
    }                                                                                               \
  } while (0)

// y = alpha * x + y four elements a lane (float4: one 16-byte load of each input, one store), and the
// length of each four-element group
__global__ void __launch_bounds__(256) axpy4(const float4 *x, const float4 *y, float4 *out, float *norms,
                                             float alpha, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 a = x[i], b = y[i];
  out[i] = alpha * a + b;
  float4 sq = a * a;
  norms[i] = sqrtf(sq.x + sq.y + sq.z + sq.w);
}

int main() {
  const int n = 2048, n4 = n / 4;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f), hout(n);
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  std::printf("%s: %d CUs\n", prop.name, prop.multiProcessorCount);
  float4 *dx, *dy, *dout;
  float *dnorms;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dnorms, n4 * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, hy.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipEvent_t start, stop;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipEventRecord(start));
  axpy4<<<dim3(n4 / 64), dim3(64), 0, 0>>>(dx, dy, dout, dnorms, 0.5f, n4);
  hipLaunchKernelGGL(axpy4, dim3(n4 / 64), dim3(64), 0, 0, dx, dy, dout, dnorms, 0.5f, n4);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventRecord(stop));
  HIP_CHECK(hipEventSynchronize(stop));
  float ms = 0.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  HIP_CHECK(hipMemcpy(hout.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  std::printf("out[0] = %f in %.3f ms\n", hout[0], ms);
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dnorms));
  return 0;
}
