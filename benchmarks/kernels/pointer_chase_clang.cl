// Single-lane pointer chase for benchmarks/latency_ladder.py, compiled to pointer_chase_clang.s with
// clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 -S (see its header).
// `next` holds byte offsets (the header's init=cycle_offsets), so each load's value is the next load's
// offset from `next` as it is: no index arithmetic between dependent loads. The inner loop is unrolled
// 32 deep and the outer one is not, as in the published benchmark, so the loop's own work is shared by
// 32 loads. `steps` must be a multiple of 32.
__kernel void pointer_chase(__global const uint *next, int steps, __global uint *out) {
    const __global uchar *base = (const __global uchar *)next;
    // 0 for the one work-item; an index the compiler cannot prove uniform keeps the chase in VGPRs
    // (a uniform one compiles to a chase of s_load_dword)
    uint offset = __builtin_amdgcn_workitem_id_x();
#pragma unroll 1
    for (int i = 0; i < steps; i += 32) {
#pragma unroll
        for (int j = 0; j < 32; j++)
            offset = *(const __global uint *)(base + offset);
    }
    out[__builtin_amdgcn_workitem_id_x()] = offset;
}
