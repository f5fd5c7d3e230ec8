; 64 MFMA 32x32x8 f16 per wave on two independent accumulators: a matrix-unit-bound
; kernel for the MFMA peak test (one wave per SIMD, one workgroup per CU on cdna3).
; gpusim-launch: grid=304,1,1 block=256,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl mfma_peak
	.p2align 8
	.type mfma_peak,@function
mfma_peak:
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel mfma_peak
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 40
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
