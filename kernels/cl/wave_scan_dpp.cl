// gpusim-launch: grid=8,1,1 block=256,1,1
// gpusim-arg: x buffer i32[2048] init=randint(-1000,1000) seed=4
// gpusim-arg: scan buffer i32[2048] out
// gpusim-arg: wsum buffer i32[32] out
// gpusim-check: scan == np.cumsum(x.reshape(-1, 64), axis=1).reshape(-1).astype(i32)
// gpusim-check: wsum == x.reshape(-1, 64).sum(axis=1).astype(i32)
//
// Inclusive wave64 scan with DPP row shifts and row broadcasts (the
// sequence LLVM's atomic optimizer uses), then the wave total from lane 63.
#include "gpusim_builtins.h"

#define DPP_ROW_SHR(n) (0x110 + (n))
#define DPP_ROW_BCAST15 0x142
#define DPP_ROW_BCAST31 0x143

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void wave_scan_dpp(__global const int *x, __global int *scan,
                   __global int *wsum) {
  int i = GID_X(256);
  int v = x[i];
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(1), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(2), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(4), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(8), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST15, 0xa, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST31, 0xc, 0xf, false);
  scan[i] = v;
  int total = __builtin_amdgcn_readlane(v, 63);
  if ((LID_X() & 63) == 0)
    wsum[i >> 6] = total;
}
