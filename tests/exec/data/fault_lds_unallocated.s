; ds_write_b32 at LDS offset 0 in a kernel that allocates no LDS (group segment size 0).
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl lds_unallocated
	.p2align 8
	.type lds_unallocated,@function
lds_unallocated:
	v_lshlrev_b32_e32 v1, 2, v0
	ds_write_b32 v1, v0
	s_waitcnt lgkmcnt(0)
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel lds_unallocated
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
