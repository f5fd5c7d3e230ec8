; 128 v_fma_f32 per wave on four independent accumulators (2 FLOP per lane each):
; a VALU-bound kernel for the plain-FMA FP32 vector peak test, one wave per SIMD, one workgroup per CU on cdna3.
; gpusim-launch: grid=304,1,1 block=256,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl valu_fma_peak
	.p2align 8
	.type valu_fma_peak,@function
valu_fma_peak:
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	v_fma_f32 v0, v8, v9, v0
	v_fma_f32 v1, v8, v9, v1
	v_fma_f32 v2, v8, v9, v2
	v_fma_f32 v3, v8, v9, v3
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel valu_fma_peak
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
