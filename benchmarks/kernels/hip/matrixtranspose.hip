// matrixtranspose: out = in^T for a W x W float matrix seen as float4s. A workgroup of
// 16x16 work-items moves a 64x64 tile: each work-item loads a 4x4 block as four float4
// rows, parks it in 16 KiB of LDS (16*16 work-items x 16 floats), and after a barrier
// writes four float4 rows of the transposed block. Grid (W/64) x (W/64); the tile a
// workgroup reads is diagonally reshuffled ((x + y) mod blocks) to spread the rows over
// memory channels. Structure as the AMD APP SDK kernel MGPUSim's
// gpu_perf_scripts/matrixtranspose.cpp measures on MI300A (its LDS is dynamic; here it
// is the same 16 KiB declared statically).
//
// Launch header (copied into the .s by ../build_hip.py; benchmarks/hardware_accuracy.py
// rewrites sizes and grid per problem size):
// gpusim-launch: grid=4,4,1 block=16,16,1
// gpusim-arg: out buffer f32[4*wi_width,4*wi_height] out
// gpusim-arg: src buffer f32[4*wi_height,4*wi_width] init=uniform(-1,1) seed=1
// gpusim-arg: wi_width u32 64
// gpusim-arg: wi_height u32 64
// gpusim-arg: blocks_x u32 4
// gpusim-check: out ~= src.T rtol=0
#include "gpusim_hip.h"

extern "C" __global__ void matrixtranspose(float4_t* __restrict__ out,
                                           const float4_t* __restrict__ src,
                                           unsigned wi_width,     // W / 4 float4s per row
                                           unsigned wi_height,    // W / 4
                                           unsigned blocks_x) {   // W / 64 tiles per row
  __shared__ float4_t tile[16 * 16 * 4];
  unsigned lx = hipThreadIdx_x, ly = hipThreadIdx_y;
  unsigned n = hipBlockDim_x;
  unsigned src_tile_y = hipBlockIdx_x;
  unsigned src_tile_x = (hipBlockIdx_x + hipBlockIdx_y) % blocks_x;

  int from = (src_tile_x * n + lx) + (src_tile_y * n + ly) * wi_width * 4;
  int slot = ly * n * 4 + lx;
  for (int r = 0; r < 4; ++r)
    tile[slot + r * n] = src[from + r * wi_width];
  __syncthreads();

  int dst = (src_tile_y * n + lx) + (src_tile_x * n + ly) * wi_height * 4;
  slot = lx * n * 4 + ly;
  float4_t v0 = tile[slot], v1 = tile[slot + n], v2 = tile[slot + 2 * n], v3 = tile[slot + 3 * n];
  out[dst] = (float4_t){v0.x, v1.x, v2.x, v3.x};
  out[dst + wi_height] = (float4_t){v0.y, v1.y, v2.y, v3.y};
  out[dst + 2 * wi_height] = (float4_t){v0.z, v1.z, v2.z, v3.z};
  out[dst + 3 * wi_height] = (float4_t){v0.w, v1.w, v2.w, v3.w};
}
