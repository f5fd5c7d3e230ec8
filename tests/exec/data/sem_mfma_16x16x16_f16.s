; One v_mfma_f32_16x16x16_f16 with the accumulator in AGPRs (written with
; v_accvgpr_write, read back with v_accvgpr_read) on register images: lane l
; loads A from a[l, :], B from b[l, :], C from c[l, :]; D goes to d[l, :].
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer u32[64,2]
; gpusim-arg: b buffer u32[64,2]
; gpusim-arg: c buffer f32[64,4]
; gpusim-arg: d buffer f32[64,4] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_mfma_16x16x16_f16
	.p2align 8
	.type sem_mfma_16x16x16_f16,@function
sem_mfma_16x16x16_f16:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 3, v0
	v_lshlrev_b32_e32 v6, 4, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	global_load_dwordx4 v[8:11], v6, s[8:9]
	s_waitcnt vmcnt(0)
	v_accvgpr_write_b32 a0, v8
	v_accvgpr_write_b32 a1, v9
	v_accvgpr_write_b32 a2, v10
	v_accvgpr_write_b32 a3, v11
	s_nop 1
	v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[4:5], a[0:3]
	s_nop 7
	s_nop 3
	v_accvgpr_read_b32 v8, a0
	v_accvgpr_read_b32 v9, a1
	v_accvgpr_read_b32 v10, a2
	v_accvgpr_read_b32 v11, a3
	global_store_dwordx4 v6, v[8:11], s[10:11]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_mfma_16x16x16_f16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
