; A kernel without s_endpgm: the wave runs past its last instruction.
; gpusim-launch: grid=2,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl no_endpgm
	.p2align 8
	.type no_endpgm,@function
no_endpgm:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v0, s[4:5]
	.rodata
	.p2align 6
	.amdhsa_kernel no_endpgm
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
