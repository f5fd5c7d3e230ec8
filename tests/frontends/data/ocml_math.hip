// gpusim-launch: grid=2,1,1 block=256,1,1
// gpusim-arg: x buffer f64[512] init=uniform(-20,20) seed=1
// gpusim-arg: p buffer f64[512] init=uniform(0.01,30) seed=2
// gpusim-arg: f buffer f32[512] init=uniform(0.05,0.95) seed=3
// gpusim-arg: d buffer f64[4608] out
// gpusim-arg: s buffer f32[2560] out
// gpusim-check: d[0:512] ~= np.exp(x) rtol=5e-16 atol=0
// gpusim-check: d[512:1024] ~= np.log(p) rtol=5e-16 atol=0
// gpusim-check: d[1024:1536] ~= np.sin(x) rtol=5e-16 atol=1e-300
// gpusim-check: d[1536:2048] ~= np.cos(x) rtol=5e-16 atol=1e-300
// gpusim-check: d[2048:2560] ~= np.power(p, x) rtol=5e-16 atol=0
// gpusim-check: d[2560:3072] ~= np.tanh(x / 8) rtol=5e-16 atol=0
// gpusim-check: d[3072:3584] ~= np.arctan2(x, p) rtol=5e-16 atol=0
// gpusim-check: d[3584:4096] ~= np.cbrt(x) rtol=5e-16 atol=0
// gpusim-check: s[0:512] ~= np.tan(f.astype(np.float64)) rtol=3e-7 atol=0
// gpusim-check: s[512:1024] ~= np.arctan(f.astype(np.float64) * 10) rtol=3e-7 atol=0
// gpusim-check: s[1024:1536] ~= np.hypot(f.astype(np.float64), 1 - f.astype(np.float64)) rtol=3e-7 atol=0
// gpusim-check: s[1536:2048] ~= np.arcsin(f.astype(np.float64)) rtol=3e-7 atol=0
// gpusim-check: s[2048:2560] ~= np.sqrt(6 * f.astype(np.float64) ** 2 - 2 * f + 1) rtol=3e-7 atol=0
// gpusim-check: d[4096:4608] ~= 1 / np.sqrt(x * x + p * p + 5) rtol=5e-16 atol=0

// Functions gpusim's HIP header takes from ROCm's ocml when linked (--device-libs): checked in ulps against numpy.
#include <hip/hip_runtime.h>
__global__ void ocml_math(const double *x, const double *p, const float *f, double *d, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = x[i], w = p[i];
  d[i] = exp(v);
  d[512 + i] = log(w);
  double sn, cs;
  sincos(v, &sn, &cs);
  d[1024 + i] = sn;
  d[1536 + i] = cos(v);
  d[2048 + i] = pow(w, v);
  d[2560 + i] = tanh(v / 8);
  d[3072 + i] = atan2(v, w);
  d[3584 + i] = cbrt(v);
  float u = f[i];
  s[i] = tanf(u);
  s[512 + i] = atanf(u * 10);
  s[1024 + i] = hypotf(u, 1 - u);
  s[1536 + i] = asinf(u);
  s[2048 + i] = norm3df(u, 1 - u, 2 * u);   // three and four arguments
  d[4096 + i] = rnorm4d(v, w, 1.0, 2.0);
}
