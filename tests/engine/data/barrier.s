; gpusim-launch: grid=1,1,1 block=128,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl barrier
	.p2align 8
	.type barrier,@function
barrier:
	v_cmp_eq_u32_e32 vcc, 0, v0
	s_and_saveexec_b64 s[2:3], vcc
	s_cbranch_execz .Lwait
	v_add_f32_e32 v1, v1, v1
	v_add_f32_e32 v1, v1, v1
	v_add_f32_e32 v1, v1, v1
	v_add_f32_e32 v1, v1, v1
.Lwait:
	s_or_b64 exec, exec, s[2:3]
	s_barrier
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel barrier
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
