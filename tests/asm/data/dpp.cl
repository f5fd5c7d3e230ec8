// Wave reduction with DPP and ds_swizzle, LDS traffic, and 16-bit math that becomes SDWA.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void reduce_dpp(__global int* out, __global const int* in) {
  __local int lds[256];
  int lane = __builtin_amdgcn_workitem_id_x();
  int v = in[__builtin_amdgcn_workgroup_id_x() * 256 + lane];
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false);  // row_shr:1
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false);  // row_shr:2
  v += __builtin_amdgcn_mov_dpp(v, 0x141, 0xf, 0xf, true);         // row_half_mirror
  v += __builtin_amdgcn_mov_dpp(v, 0x142, 0xa, 0xf, false);        // row_bcast:15
  v += __builtin_amdgcn_mov_dpp(v, 0x143, 0xc, 0xf, false);        // row_bcast:31
  v += __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, false);         // quad_perm
  v += __builtin_amdgcn_ds_swizzle(v, 0x041F);
  v += __builtin_amdgcn_ds_bpermute(lane * 4, v);
  lds[lane] = v;
  __builtin_amdgcn_s_barrier();
  v += lds[(lane + 1) & 255] + lds[(lane + 7) & 255];
  __atomic_fetch_add(out, v, __ATOMIC_RELAXED);
}
__kernel void halfops(__global half* o, __global const half* a, __global const short* s, __global short* so) {
  int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 256;
  half x = a[2 * i], y = a[2 * i + 1];
  o[i] = x * y + (half)1.5f;
  short p = s[2 * i], q = s[2 * i + 1];
  so[i] = (short)(p >> 3) * q + (short)(q >> 8);
  o[i + 1024] = fabs(x) - y;
}
