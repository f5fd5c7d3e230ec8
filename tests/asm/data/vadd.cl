// Vector add with a loop-free body: c[i] = a[i] + b[i] * alpha.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   float alpha, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  if (i < n) c[i] = a[i] + b[i] * alpha;
}
