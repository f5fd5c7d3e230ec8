; s_setpc_b64 to the address just past the last instruction.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl setpc_to_end
	.p2align 8
	.type setpc_to_end,@function
setpc_to_end:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, 16
	s_addc_u32 s5, s5, 0
	s_setpc_b64 s[4:5]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel setpc_to_end
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
