// gpusim-launch: grid=2,2,1 block=256,1,1
// gpusim-arg: A buffer f16[256,64] init=uniform(-1,1) seed=35
// gpusim-arg: B buffer f16[64,256] init=uniform(-1,1) seed=36
// gpusim-arg: C buffer f32[256,256] out
// gpusim-arg: N i32 256
// gpusim-arg: K i32 64
// gpusim-check: C ~= A.astype(f32) @ B.astype(f32) rtol=1e-3 atol=1e-3
//
// Production-style f16 GEMM, C[M,N] = A[M,K] @ B[K,N] (A, B f16 row-major,
// C f32), on v_mfma_f32_32x32x8f16. M, N and K are multiples of the tiles
// (128, 128, 32); the grid is (N/128, M/128).
//
// Tiling
//   workgroup: a 128x128 macro tile of C, 256 work-items = 4 waves, 2x2.
//   wave w:    the 64x64 wave tile at rows 64*(w/2), columns 64*(w%2) of
//              the macro tile, as 2x2 blocks of 32x32 MFMA accumulators
//              (4 x 16 f32 per lane, 64 accumulator registers).
//   K loop:    K tiles of 32, staged in LDS; each is 4 MFMA k-steps of 8.
//
// LDS (20 KiB), both tiles k-contiguous so a lane reads its MFMA operands
// with 16-byte ds_read_b128:
//   As[m][k]  the 128x32 A tile, as in memory;
//   Bs[n][k]  the 32x128 B tile transposed (B^T), each thread transposing a
//             4x4 block in registers (v_perm_b32) on its way to LDS.
//   Rows are padded from 32 to 40 halfs (80 bytes = 20 banks), so the 8
//   lanes a ds_read_b128 serves per clock (8 consecutive rows) land on 8
//   disjoint groups of 4 banks: operand reads are conflict-free. (Unpadded,
//   64-byte rows would put every other row on the same 16 banks.) With 124
//   VGPRs, LDS is what limits occupancy: 3 workgroups (12 waves) per CU.
//
// Global -> LDS copy (all 256 threads, coalesced vector loads):
//   A: thread t loads 8 halfs (global_load_dwordx4) of rows r and r+64 at
//      k 8*(t%4); 4 threads cover one 64-byte row of the tile. r is t/4 with
//      bits 0 and 2 swapped, so the two rows one ds_write_b128 clock stores
//      are 4 apart (80 banks, = 16 mod 32) and do not collide.
//   B: thread t loads the 4x4 block at k rows 4*kb..+3, columns 4*nb..+3
//      (4 x global_load_dwordx2) with kb = t%4 + 4*(t/128), nb = (t/4)%32:
//      a wave reads 4 rows x 128 contiguous bytes per load, and the 16 lanes
//      a ds_write_b64 clock stores span 4 kb and 4 nb, a 2-way bank
//      conflict instead of the 8-way of giving consecutive lanes
//      consecutive nb only.
//   The next K tile is loaded into registers right after the barrier, so
//   its global latency overlaps this tile's MFMAs (register prefetch).
//
// MFMA operands. v_mfma_f32_32x32x8f16 takes, in lane l, A row l%32 at
// k 4*(l/32)..+3 and B column l%32 at the same k, and its accumulator
// register r holds C row 8*(r/4) + 4*(l/32) + r%4, column l%32. The sum over
// k does not care which real k each MFMA k-slot holds, as long as A and B
// agree, so lane half h = l/32 takes the 16 contiguous k 16h..16h+15 of the
// tile (two ds_read_b128) and feeds k 16h+4s..+3 to k-step s = 0..3.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_builtins.h"

#define TM 128           // macro tile rows (M) per workgroup
#define TN 128           // macro tile columns (N) per workgroup
#define TK 32            // K tile staged in LDS
#define LDK (TK + 8)     // padded LDS row, in halfs (80 bytes)

typedef __local half8 lhalf8;
typedef __local half4 lhalf4;
typedef __global const half8 ghalf8;
typedef __global const half4 ghalf4;

#define MFMA(a, b, c) __builtin_amdgcn_mfma_f32_32x32x8f16((a), (b), (c), 0, 0, 0)

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mfma_gemm_128x128f16(__global const half *A, __global const half *B,
                          __global float *C, int N, int K) {
  __local half As[TM * LDK];   // As[m * LDK + k]
  __local half Bs[TN * LDK];   // Bs[n * LDK + k] = B[k][n]

  int tid = LID_X();
  int lane = tid & 63;
  int wave = __builtin_amdgcn_readfirstlane(tid >> 6);   // uniform: SGPR
  int wm = (wave >> 1) * 64, wn = (wave & 1) * 64;       // wave tile origin
  int row0 = GROUP_Y() * TM, col0 = GROUP_X() * TN;      // macro tile origin

  // Global -> LDS copy assignment.
  int q = tid >> 2;
  int ar = (q & ~5) | ((q & 1) << 2) | ((q >> 2) & 1);   // A: rows ar, ar+64
  int ak = (tid & 3) * 8;
  int bk = ((tid & 3) + ((tid >> 7) << 2)) * 4;          // B: 4x4 block
  int bn = ((tid >> 2) & 31) * 4;
  __global const half *pa = A + (row0 + ar) * K + ak;
  __global const half *pb = B + bk * N + col0 + bn;

  // MFMA operand rows in LDS for this lane.
  int i = lane & 31, h = lane >> 5;
  __local const half *ra = As + (wm + i) * LDK + 16 * h;  // + 32*LDK: block 1
  __local const half *rb = Bs + (wn + i) * LDK + 16 * h;

  // First K tile into registers.
  half8 a0 = *(ghalf8 *)pa, a1 = *(ghalf8 *)(pa + 64 * K);
  half4 b0 = *(ghalf4 *)pb, b1 = *(ghalf4 *)(pb + N);
  half4 b2 = *(ghalf4 *)(pb + 2 * N), b3 = *(ghalf4 *)(pb + 3 * N);

  float16 c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TK) {
    // Registers -> LDS; B transposed 4x4 on the way.
    *(lhalf8 *)(As + ar * LDK + ak) = a0;
    *(lhalf8 *)(As + (ar + 64) * LDK + ak) = a1;
    *(lhalf4 *)(Bs + (bn + 0) * LDK + bk) = (half4)(b0.s0, b1.s0, b2.s0, b3.s0);
    *(lhalf4 *)(Bs + (bn + 1) * LDK + bk) = (half4)(b0.s1, b1.s1, b2.s1, b3.s1);
    *(lhalf4 *)(Bs + (bn + 2) * LDK + bk) = (half4)(b0.s2, b1.s2, b2.s2, b3.s2);
    *(lhalf4 *)(Bs + (bn + 3) * LDK + bk) = (half4)(b0.s3, b1.s3, b2.s3, b3.s3);
    lds_barrier();

    // Prefetch the next K tile; it lands while the MFMAs below run.
    if (k0 + TK < K) {
      __global const half *na = pa + k0 + TK;
      __global const half *nb = pb + (k0 + TK) * N;
      a0 = *(ghalf8 *)na;
      a1 = *(ghalf8 *)(na + 64 * K);
      b0 = *(ghalf4 *)nb;
      b1 = *(ghalf4 *)(nb + N);
      b2 = *(ghalf4 *)(nb + 2 * N);
      b3 = *(ghalf4 *)(nb + 3 * N);
    }

    // This lane's operands: 16 k for each of 2 A rows and 2 B columns.
    half8 x0 = *(lhalf8 *)ra, x1 = *(lhalf8 *)(ra + 8);                    // A block 0
    half8 x2 = *(lhalf8 *)(ra + 32 * LDK), x3 = *(lhalf8 *)(ra + 32 * LDK + 8);  // A block 1
    half8 y0 = *(lhalf8 *)rb, y1 = *(lhalf8 *)(rb + 8);                    // B block 0
    half8 y2 = *(lhalf8 *)(rb + 32 * LDK), y3 = *(lhalf8 *)(rb + 32 * LDK + 8);  // B block 1

    // 4 k-steps x 2x2 blocks = 16 MFMAs per wave per K tile.
    c00 = MFMA(x0.lo, y0.lo, c00); c01 = MFMA(x0.lo, y2.lo, c01);
    c10 = MFMA(x2.lo, y0.lo, c10); c11 = MFMA(x2.lo, y2.lo, c11);
    c00 = MFMA(x0.hi, y0.hi, c00); c01 = MFMA(x0.hi, y2.hi, c01);
    c10 = MFMA(x2.hi, y0.hi, c10); c11 = MFMA(x2.hi, y2.hi, c11);
    c00 = MFMA(x1.lo, y1.lo, c00); c01 = MFMA(x1.lo, y3.lo, c01);
    c10 = MFMA(x3.lo, y1.lo, c10); c11 = MFMA(x3.lo, y3.lo, c11);
    c00 = MFMA(x1.hi, y1.hi, c00); c01 = MFMA(x1.hi, y3.hi, c01);
    c10 = MFMA(x3.hi, y1.hi, c10); c11 = MFMA(x3.hi, y3.hi, c11);
    lds_barrier();   // everyone is done reading before the next tile lands
  }

  // Write the 2x2 accumulator blocks.
  __global float *pc = C + (row0 + wm + 4 * h) * N + col0 + wn + i;
#pragma unroll
  for (int r = 0; r < 16; ++r) {
    int o = (8 * (r / 4) + r % 4) * N;
    pc[o] = c00[r];
    pc[o + 32] = c01[r];
    pc[o + 32 * N] = c10[r];
    pc[o + 32 * N + 32] = c11[r];
  }
}
