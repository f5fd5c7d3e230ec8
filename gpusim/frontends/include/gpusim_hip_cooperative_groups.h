/* gpusim_hip_cooperative_groups.h gives the part of HIP's cooperative groups (what
   <hip/hip_cooperative_groups.h> declares) that works inside one workgroup: the block
   (this_thread_block: sync, thread_rank, size, group_index, thread_index, group_dim), its
   tiles of 2 to 64 lanes (tiled_partition<N>: thread_rank, size, meta_group_rank,
   meta_group_size, sync, shfl, shfl_up, shfl_down, shfl_xor, any, all, ballot), and
   thread_group, which either is, as a function taking any group sees it (tiled_partition
   with a size chosen at run time makes one). A tile
   lies inside one wave, so its sync orders memory within the wave and waits for no other;
   its shuffles are HIP's with a width of N. Grid-wide groups (this_grid) need a
   cooperative launch, which gpusim does not model, and are not declared. */
#ifndef GPUSIM_HIP_COOPERATIVE_GROUPS_H
#define GPUSIM_HIP_COOPERATIVE_GROUPS_H

namespace cooperative_groups {

/* Any group: a block or a tile, known by its kind, size and this thread's rank in it (what a function taking a
   thread_group sees of either). tiled_partition(group, size) makes one at run time. */
class thread_group {
 protected:
  bool block_;
  unsigned size_, rank_;

 public:
  __device__ thread_group(bool block, unsigned size, unsigned rank) : block_(block), size_(size), rank_(rank) {}
  __device__ unsigned thread_rank() const { return rank_; }
  __device__ unsigned size() const { return size_; }
  __device__ unsigned num_threads() const { return size_; }
  __device__ void sync() const {
    if (block_) {
      __syncthreads();
    } else {   /* a tile lies inside one wave */
      __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
      __builtin_amdgcn_wave_barrier();
      __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
    }
  }
};

static __device__ __forceinline__ unsigned __gpusim_block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

class thread_block : public thread_group {
 public:
  __device__ thread_block() : thread_group(true, blockDim.x * blockDim.y * blockDim.z, __gpusim_block_rank()) {}
  __device__ void sync() const { __syncthreads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};

static __device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }

/* tiles of ``size`` lanes (a power of two up to 64) of a block, chosen at run time */
static __device__ __forceinline__ thread_group tiled_partition(const thread_group &parent, unsigned size) {
  return thread_group(false, size, parent.thread_rank() % size);
}

template <unsigned N> class thread_block_tile : public thread_group {
  static_assert(N >= 2 && N <= 64 && (N & (N - 1)) == 0, "a tile has 2, 4, 8, 16, 32 or 64 lanes");
  /* the tile's lanes as bits of a wave's ballot, shifted to lane 0 */
  __device__ unsigned long long lanes(unsigned long long ballot) const {
    unsigned long long mask = N == 64 ? ~0ull : (1ull << N) - 1;
    return ballot >> (__lane_id() & (64 - N)) & mask;
  }

 public:
  __device__ thread_block_tile() : thread_group(false, N, __gpusim_block_rank() % N) {}
  __device__ unsigned meta_group_rank() const { return __gpusim_block_rank() / N; }
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

template <unsigned N> static __device__ __forceinline__ thread_block_tile<N> tiled_partition(const thread_group &) {
  return thread_block_tile<N>();
}

template <class Group> static __device__ __forceinline__ void sync(const Group &g) { g.sync(); }

}  // namespace cooperative_groups

#endif
