/* gpusim_hip_cooperative_groups.h gives the part of HIP's cooperative groups (what
   <hip/hip_cooperative_groups.h> declares) that works inside one workgroup: the block
   (this_thread_block: sync, thread_rank, size, group_index, thread_index, group_dim) and
   its tiles of 2 to 64 lanes (tiled_partition<N>: thread_rank, size, meta_group_rank,
   meta_group_size, sync, shfl, shfl_up, shfl_down, shfl_xor, any, all, ballot). A tile
   lies inside one wave, so its sync orders memory within the wave and waits for no other;
   its shuffles are HIP's with a width of N. Grid-wide groups (this_grid) need a
   cooperative launch, which gpusim does not model, and are not declared. */
#ifndef GPUSIM_HIP_COOPERATIVE_GROUPS_H
#define GPUSIM_HIP_COOPERATIVE_GROUPS_H

namespace cooperative_groups {

class thread_block {
 public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned num_threads() const { return size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};

static __device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }

template <unsigned N> class thread_block_tile {
  static_assert(N >= 2 && N <= 64 && (N & (N - 1)) == 0, "a tile has 2, 4, 8, 16, 32 or 64 lanes");
  /* the tile's lanes as bits of a wave's ballot, shifted to lane 0 */
  __device__ unsigned long long lanes(unsigned long long ballot) const {
    unsigned long long mask = N == 64 ? ~0ull : (1ull << N) - 1;
    return ballot >> (__lane_id() & (64 - N)) & mask;
  }

 public:
  __device__ unsigned thread_rank() const { return this_thread_block().thread_rank() % N; }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const { return this_thread_block().thread_rank() / N; }
  __device__ unsigned meta_group_size() const { return (this_thread_block().size() + N - 1) / N; }
  __device__ void sync() const {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  }
  template <class T> __device__ T shfl(T var, int src_rank) const { return __shfl(var, src_rank, N); }
  template <class T> __device__ T shfl_up(T var, unsigned delta) const { return __shfl_up(var, delta, N); }
  template <class T> __device__ T shfl_down(T var, unsigned delta) const { return __shfl_down(var, delta, N); }
  template <class T> __device__ T shfl_xor(T var, int mask) const { return __shfl_xor(var, mask, N); }
  __device__ unsigned long long ballot(int predicate) const { return lanes(__ballot(predicate)); }
  __device__ int any(int predicate) const { return ballot(predicate) != 0; }
  __device__ int all(int predicate) const { return ballot(predicate) == lanes(__activemask()); }
};

template <unsigned N> static __device__ __forceinline__ thread_block_tile<N> tiled_partition(const thread_block &) {
  return thread_block_tile<N>();
}

template <class Group> static __device__ __forceinline__ void sync(const Group &g) { g.sync(); }

}  // namespace cooperative_groups

#endif
