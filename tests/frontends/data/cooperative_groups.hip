#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
// gpusim-launch: grid=2,1,1 block=128,1,1
// gpusim-arg: x buffer f32[256] init=uniform(-1,1) seed=1
// gpusim-arg: k buffer i32[256] init=randint(0,100) seed=2
// gpusim-arg: block_sum buffer f32[2] out
// gpusim-arg: tile_sum buffer f32[32] out
// gpusim-arg: tile_info buffer i32[256] out
// gpusim-arg: votes buffer i32[32] out
// gpusim-arg: sync_sum buffer f32[4] out
// gpusim-arg: sync_votes buffer i64[4] out
// gpusim-arg: wide_sum buffer f64[4] out
// gpusim-arg: wide_max buffer i64[4] out
// gpusim-check: block_sum ~= x.reshape(2, 128).sum(axis=1)  rtol=1e-5 atol=1e-6
// gpusim-check: tile_sum ~= x.reshape(32, 8).sum(axis=1)  rtol=1e-5 atol=1e-6
// gpusim-check: tile_info == np.arange(256) % 128 % 8 + 10 * (np.arange(256) % 128 // 8) + 1000 * 8 + 100000 * 16
// gpusim-check: votes == (k.reshape(32, 8) > 90).any(axis=1) * 1 + (k.reshape(32, 8) > 5).all(axis=1) * 2 + 4 * (k.reshape(32, 8) > 50).sum(axis=1)
// gpusim-check: sync_sum ~= x.reshape(4, 64).sum(axis=1)  rtol=1e-5 atol=1e-6
// gpusim-check: sync_votes == (k.reshape(4, 64) > 50).sum(axis=1) + 1000 * (k.reshape(4, 64) > 98).any(axis=1) + 10000 * (k.reshape(4, 64) >= 0).all(axis=1)
// gpusim-check: wide_sum ~= x.reshape(4, 64).astype(f64).sum(axis=1)  rtol=1e-12 atol=1e-12
// gpusim-check: wide_max == (k.reshape(4, 64).astype(i64) << 33).max(axis=1)

// Cooperative groups inside a workgroup: the block (sync, thread_rank, size) and tiles of 8 lanes
// (shuffles, votes, ranks), the *_sync wave functions with their 64-bit lane masks, and shuffles of
// 64-bit values (double, long long).
namespace cg = cooperative_groups;
__global__ void groups(const float *x, const int *k, float *block_sum, float *tile_sum, int *tile_info, int *votes,
                       float *sync_sum, long long *sync_votes, double *wide_sum, long long *wide_max) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[128];
  unsigned i = block.group_index().x * block.size() + block.thread_rank();
  float v = x[i];
  partial[block.thread_rank()] = v;
  block.sync();
  for (unsigned s = block.size() / 2; s > 0; s /= 2) {
    if (block.thread_rank() < s) partial[block.thread_rank()] += partial[block.thread_rank() + s];
    cg::sync(block);
  }
  if (block.thread_rank() == 0) block_sum[blockIdx.x] = partial[0];

  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  float t = v;
  for (int d = 4; d > 0; d /= 2) t += tile.shfl_down(t, d);
  unsigned tile_id = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (tile.thread_rank() == 0) tile_sum[tile_id] = t;
  tile_info[i] = tile.thread_rank() + 10 * tile.meta_group_rank() + 1000 * tile.size() + 100000 * tile.meta_group_size();
  int any_high = tile.any(k[i] > 90), all_low = tile.all(k[i] > 5);
  int count = __popcll(tile.ballot(k[i] > 50));
  tile.sync();
  if (tile.thread_rank() == 0) votes[tile_id] = any_high + 2 * all_low + 4 * count;

  const unsigned long long all_lanes = ~0ull;
  float s = v;
  for (int d = 32; d > 0; d /= 2) s += __shfl_xor_sync(all_lanes, s, d);
  unsigned wave = i / 64;
  if (__lane_id() == 0) {
    sync_sum[wave] = s;
  }
  long long above = __popcll(__ballot_sync(all_lanes, k[i] > 50));
  long long any_top = __any_sync(all_lanes, k[i] > 98), all_nonneg = __all_sync(all_lanes, k[i] >= 0);
  if (__lane_id() == 0) sync_votes[wave] = above + 1000 * any_top + 10000 * all_nonneg;

  double d = v;
  for (int off = 32; off > 0; off /= 2) d += __shfl_down(d, off);
  long long m = (long long)k[i] << 33;
  for (int mask = 32; mask > 0; mask /= 2) m = max(m, __shfl_xor(m, mask));
  if (__lane_id() == 0) {
    wide_sum[wave] = d;
    wide_max[wave] = m;
  }
}
