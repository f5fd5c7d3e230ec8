// Single-lane pointer chase for benchmarks/latency_ladder.py, compiled to pointer_chase_clang.s with
// clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 -S (see its header).
__kernel void pointer_chase(__global const uint *next, int steps, __global uint *out) {
    uint p = __builtin_amdgcn_workitem_id_x();
    for (int i = 0; i < steps; i++)
        p = next[p];
    out[__builtin_amdgcn_workitem_id_x()] = p;
}
