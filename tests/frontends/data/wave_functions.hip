// gpusim-launch: grid=3,1,1 block=128,1,1
// gpusim-arg: x buffer f32[384] init=uniform(-1,1) seed=1
// gpusim-arg: k buffer i32[384] init=randint(1,100) seed=2
// gpusim-arg: wsum buffer f32[6] out
// gpusim-arg: seg_max buffer i32[384] out
// gpusim-arg: bcast buffer f32[384] out
// gpusim-arg: scan buffer u32[384] out
// gpusim-arg: count buffer i32[6] out
// gpusim-arg: first buffer i32[6] out
// gpusim-arg: any_all buffer i32[6] out
// gpusim-arg: lz buffer i32[384] out
// gpusim-arg: edges buffer i32[384] out
// gpusim-check: wsum ~= x.reshape(6, 64).sum(axis=1)  rtol=1e-5 atol=1e-6
// gpusim-check: seg_max == np.repeat(k.reshape(24, 16).max(axis=1), 16)
// gpusim-check: bcast == np.repeat(x.reshape(12, 32)[:, 5], 32)
// gpusim-check: scan == np.cumsum(k.reshape(12, 32), axis=1).reshape(384)
// gpusim-check: count == (x.reshape(6, 64) > 0).sum(axis=1)
// gpusim-check: first == np.where((x.reshape(6, 64) > 0).any(axis=1), (x.reshape(6, 64) > 0).argmax(axis=1) + 1, 0)
// gpusim-check: any_all == (k.reshape(6, 64) > 97).any(axis=1) * 2 + (k.reshape(6, 64) > 2).all(axis=1)
// gpusim-check: lz == 31 - np.floor(np.log2(k))
// gpusim-check: edges == np.where(np.arange(384) % 16 < 8, np.roll(k, -8), k) + k

// HIP's wave-level functions on full waves of 64 lanes: shuffles of each kind and width, votes, bit counts.
__global__ void wave_functions(const float *x, const int *k, float *wsum, int *seg_max, float *bcast,
                               unsigned *scan, int *count, int *first, int *any_all, int *lz, int *edges) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int wave = i / warpSize;
  float v = x[i];
  float sum = v;   // a tree sum down the whole wave
  for (int off = warpSize / 2; off > 0; off /= 2) sum += __shfl_down(sum, off);
  if (__lane_id() == 0) wsum[wave] = sum;
  int m = k[i];    // a butterfly max within 16-lane segments
  for (int mask = 8; mask > 0; mask /= 2) m = max(m, __shfl_xor(m, mask, 16));
  seg_max[i] = m;
  bcast[i] = __shfl(v, 5, 32);   // lane 5 of each 32-lane half
  unsigned s = (unsigned)k[i];   // an inclusive scan within 32-lane segments
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned up = __shfl_up(s, d, 32);
    if ((__lane_id() & 31) >= d) s += up;
  }
  scan[i] = s;
  unsigned long long positive = __ballot(v > 0.0f);
  if (__lane_id() == 0) {
    count[wave] = __popcll(positive);
    first[wave] = __ffsll(positive);
  }
  int any_high = __any(k[i] > 97), all_above = __all(k[i] > 2);
  if (__lane_id() == 0) any_all[wave] = any_high * 2 + all_above;
  lz[i] = __clz((unsigned)k[i]);
  // a source past the segment's end, or in another segment, leaves a lane its own value
  edges[i] = __shfl_down(k[i], 8, 16) + __shfl_xor(k[i], 32, 16);
}
