// The few HIP names the accuracy kernels use, spelled with clang builtins so the
// sources compile with clang-19 alone (no ROCm install): -nogpuinc -nogpulib.
// hipBlockDim_* read the dispatch's group size from the hidden kernel arguments,
// as HIP does on gfx942 (code object v5), so the kernels do the same loads.
#pragma once
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define hipThreadIdx_x __builtin_amdgcn_workitem_id_x()
#define hipThreadIdx_y __builtin_amdgcn_workitem_id_y()
#define hipBlockIdx_x __builtin_amdgcn_workgroup_id_x()
#define hipBlockIdx_y __builtin_amdgcn_workgroup_id_y()
#define hipBlockDim_x __builtin_amdgcn_workgroup_size_x()
#define hipBlockDim_y __builtin_amdgcn_workgroup_size_y()
#define __syncthreads() __builtin_amdgcn_s_barrier()

typedef float float4_t __attribute__((ext_vector_type(4)));
