// One wave computes a 32x32 tile with MFMA, accumulating over K; plus a 16x16x16 variant.
typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
typedef float float4_ __attribute__((ext_vector_type(4)));
__kernel void mfma_32x32(__global const half4* A, __global const half4* B, __global float16_* C, int K) {
  int lane = __builtin_amdgcn_workitem_id_x();
  int wg = __builtin_amdgcn_workgroup_id_x();
  float16_ acc = 0;
  for (int k = 0; k < K; ++k)
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(A[k * 64 + lane], B[k * 64 + lane], acc, 0, 0, 0);
  C[wg * 64 + lane] = acc;
}
__kernel void mfma_16x16(__global const half4* A, __global float4_* C) {
  int lane = __builtin_amdgcn_workitem_id_x();
  float4_ acc = 0;
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(A[lane], A[lane + 64], acc, 1, 2, 3);
  C[lane] = acc;
}
