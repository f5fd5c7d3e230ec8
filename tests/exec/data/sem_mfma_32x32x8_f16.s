; One v_mfma_f32_32x32x8_f16 on register images: lane l loads its A registers
; from a[l, :], B from b[l, :], C from c[l, :] and stores D to d[l, :].
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer u32[64,2]
; gpusim-arg: b buffer u32[64,2]
; gpusim-arg: c buffer f32[64,16]
; gpusim-arg: d buffer f32[64,16] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_mfma_32x32x8_f16
	.p2align 8
	.type sem_mfma_32x32x8_f16,@function
sem_mfma_32x32x8_f16:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 3, v0
	v_lshlrev_b32_e32 v40, 6, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	global_load_dwordx4 v[8:11], v40, s[8:9]
	global_load_dwordx4 v[12:15], v40, s[8:9] offset:16
	global_load_dwordx4 v[16:19], v40, s[8:9] offset:32
	global_load_dwordx4 v[20:23], v40, s[8:9] offset:48
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8_f16 v[24:39], v[2:3], v[4:5], v[8:23]
	s_nop 7
	s_nop 7
	s_nop 2
	global_store_dwordx4 v40, v[24:27], s[10:11]
	global_store_dwordx4 v40, v[28:31], s[10:11] offset:16
	global_store_dwordx4 v40, v[32:35], s[10:11] offset:32
	global_store_dwordx4 v40, v[36:39], s[10:11] offset:48
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_mfma_32x32x8_f16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 41
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 44
	.end_amdhsa_kernel
