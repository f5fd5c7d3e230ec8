; A kernel that calls malloc: the function before it (where compilers put a called function, as Triton does
; its assert handler) loads a word of the device heap, as the ROCm device libraries' malloc does, through
; the pointer the hidden_heap_v1 argument holds. gpusim provides no heap, so the load must fault at an
; address that names that service; the function lies before the kernel, so its pc is negative.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.p2align 2
	.type allocate,@function
allocate:
	v_mov_b32_e32 v1, 0
	global_load_dwordx2 v[2:3], v1, s[4:5] offset:24
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
	.globl heap_alloc
	.p2align 8
	.type heap_alloc,@function
heap_alloc:
	s_load_dwordx2 s[4:5], s[0:1], 0x8
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, allocate@rel32@lo+4
	s_addc_u32 s7, s7, allocate@rel32@hi+12
	s_waitcnt lgkmcnt(0)
	s_swappc_b64 s[30:31], s[6:7]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel heap_alloc
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 32
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           8
        .value_kind:     hidden_heap_v1
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           heap_alloc
    .private_segment_fixed_size: 0
    .sgpr_count:     32
    .symbol:         heap_alloc.kd
    .vgpr_count:     4
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
