// v_fma_mix_f32 and v_fma_mixlo_f16 as clang-19 prints them: op_sel_hi left out when it is [0,0,0], every
// source f32 (gpusim read them as f16 before), and with op_sel_hi:[1,0,0], source 0 the low f16 half. The f16
// division clang-19 emits for gfx942 multiplies by an f32 reciprocal in a v_fma_mixlo_f16 with f32 sources.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=4,1,1 block=256,1,1
// gpusim-arg: a buffer f32[1024] init=uniform(-100,100) seed=1
// gpusim-arg: b buffer f32[1024] init=uniform(-2,2) seed=2
// gpusim-arg: h buffer f16[1024] init=uniform(-8,8) seed=3
// gpusim-arg: mix buffer f32[1024] out
// gpusim-arg: mixlo buffer f16[1024] out
// gpusim-arg: mixlo_f16_a buffer f16[1024] out
// gpusim-arg: quotient buffer f16[1024] out
// gpusim-check: mix ~= a * b + 0.5  rtol=1e-6 atol=1e-6
// gpusim-check: mixlo ~= (a * b).astype(f16)  rtol=1e-3 atol=1e-7
// gpusim-check: mixlo_f16_a ~= (h.astype(f32) * b).astype(f16)  rtol=1e-3 atol=1e-7
// gpusim-check: quotient ~= (np.float32(1.5) / h.astype(f32)).astype(f16)  rtol=1e-3 atol=1e-7
extern "C" __global__ void fma_mix_sources(const float *a, const float *b, const _Float16 *h, float *mix,
                                           _Float16 *mixlo, _Float16 *mixlo_f16_a, _Float16 *quotient) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r;
  unsigned lo = 0, lo_a = 0;
  unsigned short hb = __builtin_bit_cast(unsigned short, h[i]);
  asm volatile("v_fma_mix_f32 %0, %1, %2, 0.5" : "=v"(r) : "v"(a[i]), "v"(b[i]));
  asm volatile("v_fma_mixlo_f16 %0, %1, %2, 0" : "+v"(lo) : "v"(a[i]), "v"(b[i]));
  asm volatile("v_fma_mixlo_f16 %0, %1, %2, 0 op_sel_hi:[1,0,0]" : "+v"(lo_a) : "v"((unsigned)hb), "v"(b[i]));
  mix[i] = r;
  mixlo[i] = __builtin_bit_cast(_Float16, (unsigned short)lo);
  mixlo_f16_a[i] = __builtin_bit_cast(_Float16, (unsigned short)lo_a);
  quotient[i] = (_Float16)1.5f / h[i];
}
