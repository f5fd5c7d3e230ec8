/* gpusim_hip_integer.h is HIP's integer intrinsics for gpusim's HIP header: bit counts and reversal, byte
   permutes, 24-bit and high-half products, sums of absolute differences, halving adds, funnel shifts, bit-field
   extracts and inserts, the n-th set bit of a mask, and the lane-count builtins HIP names __mbcnt_lo/hi. */
#ifndef GPUSIM_HIP_INTEGER_H
#define GPUSIM_HIP_INTEGER_H

static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static __device__ __forceinline__ int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
static __device__ __forceinline__ int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static __device__ __forceinline__ int __clzll(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
/* byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x */
static __device__ __forceinline__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = (unsigned long long)y << 32 | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= (unsigned)(v >> ((s >> 4 * i & 7u) * 8) & 0xffu) << 8 * i;
  return r;
}
/* the low 32 bits of the product of the low 24 bits of each, sign-extended (__mul24) or not (__umul24) */
static __device__ __forceinline__ int __mul24(int x, int y) { return (x << 8 >> 8) * (y << 8 >> 8); }
static __device__ __forceinline__ unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static __device__ __forceinline__ int __mulhi(int x, int y) { return (int)((long long)x * y >> 32); }
static __device__ __forceinline__ unsigned __umulhi(unsigned x, unsigned y) {
  return (unsigned)((unsigned long long)x * y >> 32);
}
static __device__ __forceinline__ long long __mul64hi(long long x, long long y) { return (long long)((__int128)x * y >> 64); }
static __device__ __forceinline__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)((unsigned __int128)x * y >> 64);
}
static __device__ __forceinline__ unsigned __sad(int x, int y, unsigned z) { return (x > y ? (unsigned)x - y : (unsigned)y - x) + z; }
static __device__ __forceinline__ unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
/* the average of x and y, rounded down (__hadd, __uhadd) or up (__rhadd, __urhadd), without overflow */
static __device__ __forceinline__ int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static __device__ __forceinline__ int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static __device__ __forceinline__ unsigned __uhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y) >> 1);
}
static __device__ __forceinline__ unsigned __urhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y + 1) >> 1);
}
/* funnel shifts of the 64 bits hi:lo: left, the high word after shifting by shift & 31 (__funnelshift_l) or by
   shift clamped to 32 (__funnelshift_lc); right, the low word after shifting by shift & 31 or clamped to 32 */
static __device__ __forceinline__ unsigned __gpusim_funnel_left(unsigned lo, unsigned hi, unsigned shift) {
  return (unsigned)((((unsigned long long)hi << 32 | lo) << shift) >> 32);
}
static __device__ __forceinline__ unsigned __gpusim_funnel_right(unsigned lo, unsigned hi, unsigned shift) {
  return (unsigned)(((unsigned long long)hi << 32 | lo) >> shift);
}
static __device__ __forceinline__ unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return __gpusim_funnel_left(lo, hi, shift & 31u);
}
static __device__ __forceinline__ unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return __gpusim_funnel_left(lo, hi, shift < 32u ? shift : 32u);
}
static __device__ __forceinline__ unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return __gpusim_funnel_right(lo, hi, shift & 31u);
}
static __device__ __forceinline__ unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return __gpusim_funnel_right(lo, hi, shift < 32u ? shift : 32u);
}
/* the width-bit field of src at bit offset (both taken mod 32, or mod 64 for the u64 forms; a field past the top
   holds the bits there are); zero for width 0 */
static __device__ __forceinline__ unsigned __bitextract_u32(unsigned src, unsigned offset, unsigned width) {
  return __builtin_amdgcn_ubfe(src, offset & 31u, width & 31u);
}
static __device__ __forceinline__ unsigned long long __bitextract_u64(unsigned long long src, unsigned offset,
                                                                      unsigned width) {
  width &= 63u;
  return width == 0 ? 0 : (src >> (offset & 63u)) & ((1ull << width) - 1);
}
/* src with its width-bit field at bit offset replaced by the low width bits of field */
static __device__ __forceinline__ unsigned __bitinsert_u32(unsigned src, unsigned field, unsigned offset,
                                                           unsigned width) {
  unsigned mask = (1u << (width & 31u)) - 1u, at = offset & 31u;
  return (src & ~(mask << at)) | (field & mask) << at;
}
static __device__ __forceinline__ unsigned long long __bitinsert_u64(unsigned long long src, unsigned long long field,
                                                                     unsigned offset, unsigned width) {
  unsigned long long mask = (1ull << (width & 63u)) - 1ull;
  unsigned at = offset & 63u;
  return (src & ~(mask << at)) | (field & mask) << at;
}
/* the lowest set bit's position, or 0xffffffff for no bit */
static __device__ __forceinline__ unsigned __lastbit_u32_u64(unsigned long long x) {
  return x ? (unsigned)__builtin_ctzll(x) : ~0u;
}
/* __fns64 and __fns32 (which HIP also gives a 64-bit mask): the position of the offset-th set bit of mask counted
   from bit base (base included) upward for offset > 0, downward for offset < 0; for offset 0, base if its bit is
   set; -1 when there are not that many */
static __device__ __forceinline__ int __fns64(unsigned long long mask, unsigned base, int offset) {
  base &= 63u;
  if (offset == 0) return (mask >> base & 1ull) ? (int)base : -1;
  if (offset > 0) {
    unsigned long long m = mask & (~0ull << base);
    for (int n = 1; n < offset && m; ++n) m &= m - 1;   /* clear the lowest set bit */
    return m ? __builtin_ctzll(m) : -1;
  }
  unsigned long long m = mask & (~0ull >> (63u - base));
  for (int n = 1; n < -offset && m; ++n) m &= ~(1ull << (63 - __builtin_clzll(m)));   /* clear the highest */
  return m ? 63 - __builtin_clzll(m) : -1;
}
static __device__ __forceinline__ int __fns32(unsigned long long mask, unsigned base, int offset) {
  return __fns64(mask, base, offset);
}
/* the lanes of mask x below this one within lanes 0-31 (lo) or 32-63 (hi), added to y (v_mbcnt_lo/hi_u32_b32) */
static __device__ __forceinline__ unsigned __mbcnt_lo(unsigned x, unsigned y) { return __builtin_amdgcn_mbcnt_lo(x, y); }
static __device__ __forceinline__ unsigned __mbcnt_hi(unsigned x, unsigned y) { return __builtin_amdgcn_mbcnt_hi(x, y); }

#endif
