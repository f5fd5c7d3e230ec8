/*
 * gpusim_builtins.h maps the few OpenCL library functions the corpus needs
 * onto clang builtins.
 *
 * The corpus is compiled with -nogpulib, so a call to get_global_id(),
 * barrier() or atomic_add() would stay an external call (s_swappc_b64) that
 * no simulator can follow. Everything here expands inline to builtins.
 * Block sizes are compile-time constants in each kernel (with
 * reqd_work_group_size) so no kernel reads the hidden dispatch arguments.
 */
#ifndef GPUSIM_BUILTINS_H
#define GPUSIM_BUILTINS_H

#define LID_X() ((int)__builtin_amdgcn_workitem_id_x())
#define LID_Y() ((int)__builtin_amdgcn_workitem_id_y())
#define GROUP_X() ((int)__builtin_amdgcn_workgroup_id_x())
#define GROUP_Y() ((int)__builtin_amdgcn_workgroup_id_y())

/* Global id along x for a kernel whose block width is the constant BX. */
#define GID_X(BX) (GROUP_X() * (BX) + LID_X())
#define GID_Y(BY) (GROUP_Y() * (BY) + LID_Y())

/* barrier(CLK_LOCAL_MEM_FENCE): LDS writes before it are visible after it. */
static inline void lds_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* Relaxed atomic adds, device scope for global memory, group scope for LDS. */
static inline uint atomic_add_global_u32(__global uint *p, uint v) {
  return __opencl_atomic_fetch_add((volatile __global atomic_uint *)p, v,
                                   __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
}
static inline uint atomic_add_local_u32(__local uint *p, uint v) {
  return __opencl_atomic_fetch_add((volatile __local atomic_uint *)p, v,
                                   __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
}

#endif
