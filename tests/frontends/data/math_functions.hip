// gpusim-launch: grid=513,1,1 block=256,1,1
// gpusim-arg: x buffer f32[131328] out
// gpusim-arg: y buffer f32[1050624] out
// The float functions gpusim's HIP header builds itself, over inputs swept through every binade from
// 4.7e-10 to 2.1e9 of both signs (about a thousand a binade), then the special values; y holds the eight
// results of each input, in the order expm1f, log1pf, tanhf, sinhf, coshf, erff, log10f, exp10f.
// tests/frontends/test_hip_math.py measures them.
__global__ void math_functions(float *x, float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, k = i % 8u;
  unsigned magnitude = 0x30000000u + (i >> 1) * 0x1f00u;
  /* +-0, +-inf, NaN, -1, 1, -2 */
  unsigned special = k == 0 ? 0x00000000u : k == 1 ? 0x80000000u : k == 2 ? 0x7f800000u : k == 3 ? 0xff800000u
                   : k == 4 ? 0x7fc00000u : k == 5 ? 0xbf800000u : k == 6 ? 0x3f800000u : 0xc0000000u;
  float v = __builtin_bit_cast(float, i < 131072u ? magnitude | (i & 1u) << 31 : special);
  x[i] = v;
  float *out = y + 8 * i;
  out[0] = expm1f(v);
  out[1] = log1pf(v);
  out[2] = tanhf(v);
  out[3] = sinhf(v);
  out[4] = coshf(v);
  out[5] = erff(v);
  out[6] = log10f(v);
  out[7] = exp10f(v);
}
