; The hidden_dynamic_lds_size argument holds the dynamic LDS the launch adds (lds=BYTES): every lane stores it.
; gpusim-launch: grid=1,1,1 block=64,1,1 lds=512
; gpusim-arg: dst buffer u32[64] out
; gpusim-check: dst == 512
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl dynamic_lds_size
	.p2align 8
	.type dynamic_lds_size,@function
dynamic_lds_size:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s6
	global_store_dword v1, v2, s[4:5]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel dynamic_lds_size
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 12
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 8
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
        .size:           4
        .value_kind:     hidden_dynamic_lds_size
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 12
    .max_flat_workgroup_size: 64
    .name:           dynamic_lds_size
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .symbol:         dynamic_lds_size.kd
    .vgpr_count:     3
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
