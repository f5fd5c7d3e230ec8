; gpusim-launch: grid=1,1,1 block=64,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl valu_chain
	.p2align 8
	.type valu_chain,@function
valu_chain:
	v_mov_b32_e32 v2, 1.0
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	v_add_f32_e32 v1, v1, v2
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel valu_chain
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
