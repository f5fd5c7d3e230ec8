/* gpusim_hip_wave.h is HIP's wave-level functions for gpusim's HIP header, for a wave of 64 lanes: shuffles,
   votes and their *_sync forms, lane masks, __match_any/__match_all, and HIP's thin wrappers of the cross-lane
   builtins (__hip_ds_bpermute, __hip_ds_permute, __hip_ds_swizzle, __hip_move_dpp). */
#ifndef GPUSIM_HIP_WAVE_H
#define GPUSIM_HIP_WAVE_H

/* Wave-level functions, as HIP defines them for a wave of 64 lanes: a shuffle reads
   ``var`` from another lane of the same ``width``-lane segment (width a power of two
   up to 64) and a lane whose source falls outside its segment keeps its own value.
   They go through ds_bpermute_b32, which reads the source lane's value whether or
   not that lane is active (an inactive lane's register holds what it last held). */
static constexpr int warpSize = 64;
static __device__ __forceinline__ unsigned __lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
static __device__ __forceinline__ int __gpusim_shfl_lane(int src_lane, int width) {
  int self = (int)__lane_id();
  return (self & ~(width - 1)) + (src_lane & (width - 1));
}
static __device__ __forceinline__ int __gpusim_shfl_up_lane(unsigned delta, int width) {
  int self = (int)__lane_id();
  return (self & (width - 1)) < (int)delta ? self : self - (int)delta;
}
static __device__ __forceinline__ int __gpusim_shfl_down_lane(unsigned delta, int width) {
  int self = (int)__lane_id();
  return (self & (width - 1)) + (int)delta >= width ? self : self + (int)delta;
}
static __device__ __forceinline__ int __gpusim_shfl_xor_lane(int mask, int width) {
  int self = (int)__lane_id();
  int other = self ^ mask;
  return (other & ~(width - 1)) == (self & ~(width - 1)) ? other : self;
}
/* var as lane ``lane`` holds it, whatever T's 32 or 64 bits are (a 64-bit value in two halves) */
template <class T> static __device__ __forceinline__ T __gpusim_from_lane(T var, int lane) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits = __builtin_bit_cast(unsigned long long, var);
    unsigned lo = __builtin_amdgcn_ds_bpermute(lane << 2, (int)bits);
    unsigned hi = __builtin_amdgcn_ds_bpermute(lane << 2, (int)(bits >> 32));
    return __builtin_bit_cast(T, (unsigned long long)hi << 32 | lo);
  } else {
    return __builtin_bit_cast(T, __builtin_amdgcn_ds_bpermute(lane << 2, __builtin_bit_cast(int, var)));
  }
}
#define __GPUSIM_SHUFFLES(T)                                                                                   \
  static __device__ __forceinline__ T __shfl(T var, int src_lane, int width = warpSize) {                   \
    return __gpusim_from_lane(var, __gpusim_shfl_lane(src_lane, width));                                    \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_up(T var, unsigned delta, int width = warpSize) {              \
    return __gpusim_from_lane(var, __gpusim_shfl_up_lane(delta, width));                                    \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_down(T var, unsigned delta, int width = warpSize) {            \
    return __gpusim_from_lane(var, __gpusim_shfl_down_lane(delta, width));                                  \
  }                                                                                                            \
  static __device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = warpSize) {              \
    return __gpusim_from_lane(var, __gpusim_shfl_xor_lane(lane_mask, width));                               \
  }
__GPUSIM_SHUFFLES(int)
__GPUSIM_SHUFFLES(unsigned int)
__GPUSIM_SHUFFLES(float)
__GPUSIM_SHUFFLES(long)
__GPUSIM_SHUFFLES(unsigned long)
__GPUSIM_SHUFFLES(long long)
__GPUSIM_SHUFFLES(unsigned long long)
__GPUSIM_SHUFFLES(double)
static __device__ __forceinline__ unsigned long long __ballot(int predicate) {
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
static __device__ __forceinline__ int __any(int predicate) { return __ballot(predicate) != 0; }
static __device__ __forceinline__ int __all(int predicate) { return __ballot(predicate) == __ballot(1); }
static __device__ __forceinline__ unsigned long long __activemask() { return __ballot(1); }
/* The *_sync forms (HIP 6.2) name the lanes taking part in a 64-bit mask, as HIP requires of a wave of 64: a
   32-bit mask (CUDA's 0xffffffff) is refused where it is passed, rather than silently leaving out lanes 32-63. */
template <class M> static __device__ __forceinline__ void __gpusim_lane_mask(M) {
  static_assert(sizeof(M) == 8, "HIP's *_sync wave functions take a 64-bit lane mask (a wave has 64 lanes)");
}
#define __GPUSIM_SYNC_SHUFFLE(NAME, ARG_T, ARG)                                                          \
  template <class M, class T>                                                                               \
  static __device__ __forceinline__ T NAME##_sync(M mask, T var, ARG_T ARG, int width = warpSize) {         \
    __gpusim_lane_mask(mask);                                                                               \
    return NAME(var, ARG, width);                                                                           \
  }
__GPUSIM_SYNC_SHUFFLE(__shfl, int, src_lane)
__GPUSIM_SYNC_SHUFFLE(__shfl_up, unsigned, delta)
__GPUSIM_SYNC_SHUFFLE(__shfl_down, unsigned, delta)
__GPUSIM_SYNC_SHUFFLE(__shfl_xor, int, lane_mask)
#undef __GPUSIM_SYNC_SHUFFLE
template <class M> static __device__ __forceinline__ unsigned long long __ballot_sync(M mask, int predicate) {
  __gpusim_lane_mask(mask);
  return __ballot(predicate) & mask;
}
template <class M> static __device__ __forceinline__ int __any_sync(M mask, int predicate) {
  return __ballot_sync(mask, predicate) != 0;
}
template <class M> static __device__ __forceinline__ int __all_sync(M mask, int predicate) {
  return __ballot_sync(mask, predicate) == (__activemask() & mask);
}
static __device__ __forceinline__ unsigned long long __ballot64(int predicate) { return __ballot(predicate); }
/* the active lanes below (lt), above (gt) or at (eq) this one */
static __device__ __forceinline__ unsigned long long __lanemask_lt() {
  return ((1ull << __lane_id()) - 1ull) & __activemask();
}
static __device__ __forceinline__ unsigned long long __lanemask_gt() {
  return ((~0ull << __lane_id()) << 1) & __activemask();
}
static __device__ __forceinline__ unsigned long long __lanemask_eq() { return 1ull << __lane_id(); }

/* __match_any: the active lanes holding the same value as this one; __match_all: every active lane when they
   all hold the same value (and *pred = 1), else 0 (and *pred = 0). Values are compared bit for bit, as CUDA
   compares them (HIP compares with ==, which differs only for NaN and for -0.0 against 0.0). */
template <class T> static __device__ __forceinline__ unsigned long long __gpusim_match_bits(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any and __match_all take a 32- or 64-bit value");
  if constexpr (sizeof(T) == 8) return __builtin_bit_cast(unsigned long long, value);
  else return __builtin_bit_cast(unsigned, value);
}
/* what lane ``lane`` (the same for every lane) holds in bits */
static __device__ __forceinline__ unsigned long long __gpusim_read_lane(unsigned long long bits, int lane) {
  unsigned lo = (unsigned)__builtin_amdgcn_readlane((int)bits, lane);
  unsigned hi = (unsigned)__builtin_amdgcn_readlane((int)(bits >> 32), lane);
  return (unsigned long long)hi << 32 | lo;
}
template <class T> static __device__ __forceinline__ unsigned long long __match_any(T value) {
  unsigned long long bits = __gpusim_match_bits(value), left = __activemask(), mine = 0;
  while (left) {   /* one pass per distinct value: the lowest lane not yet matched leads */
    unsigned long long same = __ballot(bits == __gpusim_read_lane(bits, __builtin_ctzll(left)));
    if (same >> __lane_id() & 1ull) mine = same;
    left &= ~same;
  }
  return mine;
}
/* the lanes of ``lanes`` when all of them hold this lane's value's bits, else 0 */
template <class T> static __device__ __forceinline__ unsigned long long __gpusim_match_all(T value,
                                                                                         unsigned long long lanes,
                                                                                         int *pred) {
  unsigned long long bits = __gpusim_match_bits(value);
  bool all = (__ballot(bits == __gpusim_read_lane(bits, __builtin_ctzll(lanes))) & lanes) == lanes;
  *pred = all;
  return all ? lanes : 0ull;
}
template <class T> static __device__ __forceinline__ unsigned long long __match_all(T value, int *pred) {
  return __gpusim_match_all(value, __activemask(), pred);
}
template <class M, class T> static __device__ __forceinline__ unsigned long long __match_any_sync(M mask, T value) {
  __gpusim_lane_mask(mask);
  return __match_any(value) & mask;
}
template <class M, class T>
static __device__ __forceinline__ unsigned long long __match_all_sync(M mask, T value, int *pred) {
  __gpusim_lane_mask(mask);
  return __gpusim_match_all(value, __activemask() & mask, pred);
}

/* HIP's wrappers of the cross-lane builtins. bpermute reads src from the lane at byte address index (lane * 4),
   permute writes it there; swizzle and move_dpp take their patterns as constants (ds_swizzle_b32's offset,
   v_mov_b32's DPP controls). */
static __device__ __forceinline__ unsigned __hip_ds_bpermute(int index, unsigned src) {
  return (unsigned)__builtin_amdgcn_ds_bpermute(index, (int)src);
}
static __device__ __forceinline__ float __hip_ds_bpermutef(int index, float src) {
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(index, __builtin_bit_cast(int, src)));
}
static __device__ __forceinline__ unsigned __hip_ds_permute(int index, unsigned src) {
  return (unsigned)__builtin_amdgcn_ds_permute(index, (int)src);
}
static __device__ __forceinline__ float __hip_ds_permutef(int index, float src) {
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_permute(index, __builtin_bit_cast(int, src)));
}
#define __hip_ds_swizzle(src, pattern) ((unsigned)__builtin_amdgcn_ds_swizzle((int)(unsigned)(src), (pattern)))
#define __hip_ds_swizzlef(src, pattern) \
  __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(__builtin_bit_cast(int, (float)(src)), (pattern)))
#define __hip_move_dpp(src, dpp_ctrl, row_mask, bank_mask, bound_ctrl) \
  __builtin_amdgcn_mov_dpp((int)(src), (dpp_ctrl), (row_mask), (bank_mask), (bound_ctrl))

#endif
