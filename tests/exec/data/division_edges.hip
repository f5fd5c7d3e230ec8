// Float and double division where the quotient is a signed zero or subnormal: the correctly rounded IEEE
// quotient, bit for bit, as clang's division sequence (v_div_scale, v_rcp, v_fma, v_div_fmas, v_div_fixup)
// gives it on the hardware.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=16,1,1 block=256,1,1
// gpusim-arg: y buffer f32[4096] init=uniform(-300,300) seed=1
// gpusim-arg: s buffer f32[4096] init=uniform(-4,4) seed=2
// gpusim-arg: dy buffer f64[4096] init=uniform(-300,300) seed=3
// gpusim-arg: ds buffer f64[4096] init=uniform(-4,4) seed=4
// gpusim-arg: zero buffer f32[4096] out
// gpusim-arg: product buffer f32[4096] out
// gpusim-arg: tiny buffer f32[4096] out
// gpusim-arg: dzero buffer f64[4096] out
// gpusim-arg: dtiny buffer f64[4096] out
// gpusim-check: zero.view(u32) == (np.float32(-0.0) / y).view(u32)
// gpusim-check: product.view(u32) == ((y * np.float32(0)) / y).view(u32)
// gpusim-check: tiny.view(u32) == ((np.float32(1.17549435e-38) * s) / y).view(u32)
// gpusim-check: dzero.view(u64) == (-0.0 / dy).view(u64)
// gpusim-check: dtiny.view(u64) == ((2.2250738585072014e-308 * ds) / dy).view(u64)
extern "C" __global__ void division_edges(const float *y, const float *s, const double *dy, const double *ds,
                                          float *zero, float *product, float *tiny, double *dzero, double *dtiny) {
#pragma clang fp contract(off)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  zero[i] = -0.0f / y[i];                    // -0 over a negative number is +0
  product[i] = (y[i] * 0.0f) / y[i];         // always +0
  tiny[i] = (1.17549435e-38f * s[i]) / y[i];  // subnormal quotients
  dzero[i] = -0.0 / dy[i];
  dtiny[i] = (2.2250738585072014e-308 * ds[i]) / dy[i];
}
