// HIP's integer intrinsics from gpusim_hip_integer.h: halving adds over the whole 32-bit range (no overflow),
// funnel shifts with wrapped and clamped shift counts, 32- and 64-bit bit-field extracts and inserts with
// offsets and widths past the word, the lowest set bit, the lane counts __mbcnt_lo/hi, and the n-th set bit
// of a mask counted up, down and at its base (__fns64, __fns32).
#include <hip/hip_runtime.h>
// gpusim-launch: grid=2,1,1 block=64,1,1
// gpusim-arg: a buffer i32[128] init=randint(-2147483648,2147483648) seed=1
// gpusim-arg: b buffer i32[128] init=randint(-2147483648,2147483648) seed=2
// gpusim-arg: s buffer u32[128] init=randint(0,70) seed=3
// gpusim-arg: m buffer u64[128] init=randint(0,18446744073709551616) seed=4
// gpusim-arg: hadd buffer i32[128] out
// gpusim-arg: rhadd buffer i32[128] out
// gpusim-arg: uhadd buffer u32[128] out
// gpusim-arg: urhadd buffer u32[128] out
// gpusim-arg: fsl buffer u32[128] out
// gpusim-arg: fslc buffer u32[128] out
// gpusim-arg: fsr buffer u32[128] out
// gpusim-arg: fsrc buffer u32[128] out
// gpusim-arg: ext32 buffer u32[128] out
// gpusim-arg: ins32 buffer u32[128] out
// gpusim-arg: ext64 buffer u64[128] out
// gpusim-arg: ins64 buffer u64[128] out
// gpusim-arg: last buffer u32[128] out
// gpusim-arg: below buffer u32[128] out
// gpusim-arg: up buffer i32[128] out
// gpusim-arg: down buffer i32[128] out
// gpusim-arg: at buffer i32[128] out
// gpusim-check: hadd == (a.astype(np.int64) + b) >> 1
// gpusim-check: rhadd == (a.astype(np.int64) + b + 1) >> 1
// gpusim-check: uhadd == (a.view(np.uint32).astype(np.uint64) + b.view(np.uint32)) >> 1
// gpusim-check: urhadd == (a.view(np.uint32).astype(np.uint64) + b.view(np.uint32) + 1) >> 1
// gpusim-check: fsl == (((b.view(np.uint32).astype(np.uint64) << 32 | a.view(np.uint32)) << (s & 31)) >> 32) & 0xffffffff
// gpusim-check: fslc == (((b.view(np.uint32).astype(np.uint64) << 32 | a.view(np.uint32)) << np.minimum(s, 32)) >> 32) & 0xffffffff
// gpusim-check: fsr == ((b.view(np.uint32).astype(np.uint64) << 32 | a.view(np.uint32)) >> (s & 31)) & 0xffffffff
// gpusim-check: fsrc == ((b.view(np.uint32).astype(np.uint64) << 32 | a.view(np.uint32)) >> np.minimum(s, 32)) & 0xffffffff
// gpusim-check: ext32 == (a.view(np.uint32).astype(np.uint64) >> (s & 31)) & ((np.uint64(1) << (s * 7 & 31)) - 1)
// gpusim-check: ins32 == (mask := (np.uint64(1) << (s * 7 & 31)) - 1, (a.view(np.uint32) & ~(mask << (s & 31)) | (b.view(np.uint32) & mask) << (s & 31)) & 0xffffffff)[-1]
// gpusim-check: ext64 == (m >> (s & 63)) & ((np.uint64(1) << (s * 7 & 63)) - np.uint64(1))
// gpusim-check: ins64 == (mask := (np.uint64(1) << (s * 7 & 63)) - np.uint64(1), m & ~(mask << (s & 63)) | (~m & mask) << (s & 63))[-1]
// gpusim-check: last == (v := np.where(s < 8, np.uint64(0), m << (s & 63)), np.where(v == 0, 0xffffffff, np.log2(np.maximum(v & (~v + np.uint64(1)), np.uint64(1)).astype(np.float64))))[-1]
// gpusim-check: below == (bit := (m[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1), (bit * (np.arange(64) < np.arange(128)[:, None] % 64)).sum(axis=1))[-1]
// gpusim-check: up == (bit := (m[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1), inside := np.arange(64) >= (s & 63)[:, None], hit := (np.cumsum(bit * inside, axis=1) == np.arange(128)[:, None] % 3 + 1) & (bit == 1) & inside, np.where(hit.any(axis=1), hit.argmax(axis=1), -1))[-1]
// gpusim-check: down == (bit := (m[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1), inside := np.arange(64) <= (s & 63)[:, None], hit := (np.cumsum((bit * inside)[:, ::-1], axis=1)[:, ::-1] == np.arange(128)[:, None] % 3 + 1) & (bit == 1) & inside, np.where(hit.any(axis=1), hit.argmax(axis=1), -1))[-1]
// gpusim-check: at == np.where(((m >> (s & 63)) & np.uint64(1)) == 1, (s & 63).astype(np.int64), -1)
extern "C" __global__ void integer_intrinsics(const int *a, const int *b, const unsigned *s, const unsigned long long *m,
                                              int *hadd, int *rhadd, unsigned *uhadd, unsigned *urhadd, unsigned *fsl,
                                              unsigned *fslc, unsigned *fsr, unsigned *fsrc, unsigned *ext32,
                                              unsigned *ins32, unsigned long long *ext64, unsigned long long *ins64,
                                              unsigned *last, unsigned *below, int *up, int *down, int *at) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ua = (unsigned)a[i], ub = (unsigned)b[i], n = s[i];
  hadd[i] = __hadd(a[i], b[i]);
  rhadd[i] = __rhadd(a[i], b[i]);
  uhadd[i] = __uhadd(ua, ub);
  urhadd[i] = __urhadd(ua, ub);
  fsl[i] = __funnelshift_l(ua, ub, n);
  fslc[i] = __funnelshift_lc(ua, ub, n);
  fsr[i] = __funnelshift_r(ua, ub, n);
  fsrc[i] = __funnelshift_rc(ua, ub, n);
  ext32[i] = __bitextract_u32(ua, n, n * 7);
  ins32[i] = __bitinsert_u32(ua, ub, n, n * 7);
  ext64[i] = __bitextract_u64(m[i], n, n * 7);
  ins64[i] = __bitinsert_u64(m[i], ~m[i], n, n * 7);
  last[i] = __lastbit_u32_u64(n < 8 ? 0ull : m[i] << (n & 63));
  below[i] = __mbcnt_hi((unsigned)(m[i] >> 32), __mbcnt_lo((unsigned)m[i], 0u));
  up[i] = __fns64(m[i], n, i % 3 + 1);
  down[i] = __fns32(m[i], n, -(i % 3 + 1));
  at[i] = __fns64(m[i], n, 0);
}
