// HIP's lane functions beyond the shuffles (gpusim_hip_wave.h) and the counting barriers: __match_any and
// __match_all (and their *_sync forms) with some lanes inactive, the lane masks, HIP's wrappers of
// ds_bpermute/ds_permute/ds_swizzle and DPP moves, and __syncthreads_count/_and/_or over workgroups of two waves.
#include <hip/hip_runtime.h>
// gpusim-launch: grid=2,1,1 block=128,1,1
// gpusim-arg: k buffer i32[256] init=randint(0,4) seed=1
// gpusim-arg: any buffer u64[256] out
// gpusim-arg: anysync buffer u64[256] out
// gpusim-arg: all buffer u64[256] out
// gpusim-arg: pred buffer i32[256] out
// gpusim-arg: lt buffer u64[256] out
// gpusim-arg: gt buffer u64[256] out
// gpusim-arg: eq buffer u64[256] out
// gpusim-arg: swapped buffer i32[1024] out
// gpusim-arg: shifted buffer i32[256] out
// gpusim-arg: votes buffer i32[768] out
// gpusim-check: any == (K := k.reshape(4, 64), on := (np.arange(256) % 128 % 5 != 0).reshape(4, 64), bits := np.uint64(1) << np.arange(64, dtype=np.uint64), ((K[:, :, None] == K[:, None, :]) & on[:, None, :] & on[:, :, None]).astype(np.uint64) @ bits)[-1].ravel()
// gpusim-check: anysync == (K := k.reshape(4, 64), bits := np.uint64(1) << np.arange(64, dtype=np.uint64), (K[:, :, None] == K[:, None, :]).astype(np.uint64) @ bits)[-1].ravel()
// gpusim-check: all == np.concatenate([np.full(128, 0xffffffffffffffff, dtype=np.uint64), np.repeat([np.uint64(0) if (w != w[0]).any() else np.uint64(0xffffffffffffffff) for w in k.reshape(4, 64)[2:]], 64)])
// gpusim-check: pred == np.concatenate([np.ones(128), np.repeat([0 if (w != w[0]).any() else 1 for w in k.reshape(4, 64)[2:]], 64)])
// gpusim-check: lt == (on := (np.arange(256) % 128 % 5 != 0).reshape(4, 64), bits := np.uint64(1) << np.arange(64, dtype=np.uint64), np.where(on, (on[:, None, :] & (np.arange(64)[None, :, None] > np.arange(64)[None, None, :])).astype(np.uint64) @ bits, 0))[-1].ravel()
// gpusim-check: gt == (on := (np.arange(256) % 128 % 5 != 0).reshape(4, 64), bits := np.uint64(1) << np.arange(64, dtype=np.uint64), np.where(on, (on[:, None, :] & (np.arange(64)[None, :, None] < np.arange(64)[None, None, :])).astype(np.uint64) @ bits, 0))[-1].ravel()
// gpusim-check: eq == np.where(np.arange(256) % 128 % 5 != 0, np.uint64(1) << (np.arange(256) % 64).astype(np.uint64), 0)
// gpusim-check: swapped == np.repeat(k[np.arange(256) ^ 1], 4)
// gpusim-check: shifted == np.where(np.arange(256) % 16 == 0, 0, np.roll(k, 1))
// gpusim-check: votes == np.repeat(np.stack([((K := k.reshape(2, 128)) > 1).sum(axis=1), (K > 0).all(axis=1), (K == 3).any(axis=1)], axis=1), 128, axis=0).ravel()
extern "C" __global__ void lane_functions(const int *k, unsigned long long *any, unsigned long long *anysync,
                                          unsigned long long *all, int *pred, unsigned long long *lt,
                                          unsigned long long *gt, unsigned long long *eq, int *swapped, int *shifted,
                                          int *votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = __lane_id();
  int v = k[i];
  any[i] = lt[i] = gt[i] = eq[i] = 0;
  if (threadIdx.x % 5 != 0) {   // every fifth lane sits these out
    any[i] = __match_any(v);
    lt[i] = __lanemask_lt();
    gt[i] = __lanemask_gt();
    eq[i] = __lanemask_eq();
  }
  anysync[i] = __match_any_sync(~0ull, (float)v);
  int p;
  all[i] = blockIdx.x == 0 ? __match_all(7ll, &p) : __match_all_sync(~0ull, v, &p);
  pred[i] = p;
  // each lane's partner, lane ^ 1, four ways
  swapped[4 * i] = (int)__hip_ds_bpermute((lane ^ 1) * 4, (unsigned)v);
  swapped[4 * i + 1] = (int)__hip_ds_permutef((lane ^ 1) * 4, (float)v);
  swapped[4 * i + 2] = (int)__hip_ds_swizzle(v, 0x041F);   // bit-mask mode: and 0x1f, or 0, xor 1
  swapped[4 * i + 3] = __hip_move_dpp(v, 0xB1, 0xF, 0xF, true);   // quad_perm [1,0,3,2]
  shifted[i] = __hip_move_dpp(v, 0x111, 0xF, 0xF, true);   // row_shr:1, lane 0 of a row reads 0
  votes[3 * i] = __syncthreads_count(v > 1);
  votes[3 * i + 1] = __syncthreads_and(v > 0);
  votes[3 * i + 2] = __syncthreads_or(v == 3);
}
