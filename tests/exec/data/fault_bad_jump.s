; s_setpc_b64 to an address two bytes into an instruction.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl bad_jump
	.p2align 8
	.type bad_jump,@function
bad_jump:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, 2
	s_addc_u32 s5, s5, 0
	s_setpc_b64 s[4:5]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel bad_jump
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
