// gpusim-launch: grid=4,3,1 block=16,16,1
// gpusim-arg: a buffer f32[48,64] init=uniform(-1,1) seed=7
// gpusim-arg: b buffer f32[64,48] out
// gpusim-arg: rows i32 48
// gpusim-arg: cols i32 64
// gpusim-check: b == a.T
//
// Tiled transpose through LDS; the +1 column of padding keeps the
// column-wise reads free of bank conflicts.
#include "gpusim_builtins.h"

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_lds(__global const float *a, __global float *b, int rows,
                   int cols) {
  __local float tile[TILE][TILE + 1];
  int tx = LID_X(), ty = LID_Y();
  int x = GROUP_X() * TILE + tx;
  int y = GROUP_Y() * TILE + ty;
  if (x < cols && y < rows)
    tile[ty][tx] = a[y * cols + x];
  lds_barrier();
  int ox = GROUP_Y() * TILE + tx;
  int oy = GROUP_X() * TILE + ty;
  if (ox < rows && oy < cols)
    b[oy * rows + ox] = tile[tx][ty];
}
