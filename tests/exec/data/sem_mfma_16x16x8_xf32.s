; One v_mfma_f32_16x16x8_xf32 on register images: lane l loads its two A
; values from a[l, :], its two B values from b[l, :], C from c[l, :] and
; stores D to d[l, :]. The xf32 MFMA reads A and B at TF32 precision.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer f32[64,2]
; gpusim-arg: b buffer f32[64,2]
; gpusim-arg: c buffer f32[64,4]
; gpusim-arg: d buffer f32[64,4] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_mfma_16x16x8_xf32
	.p2align 8
	.type sem_mfma_16x16x8_xf32,@function
sem_mfma_16x16x8_xf32:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 3, v0
	v_lshlrev_b32_e32 v20, 4, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	global_load_dwordx4 v[8:11], v20, s[8:9]
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x8_xf32 v[12:15], v[2:3], v[4:5], v[8:11]
	s_nop 7
	s_nop 3
	global_store_dwordx4 v20, v[12:15], s[10:11]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_mfma_16x16x8_xf32
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 21
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 24
	.end_amdhsa_kernel
