; f32 VALU semantics: out[lane, slot] for a, b, c given per lane.
; slots: 0 a+b, 1 a*b, 2 fma(a,b,c), 3 fma(a,b,-(a*b)) (the product's rounding
; error, zero unless the fma is fused), 4 a-b, 5 max(a,b), 6 fmac c+=a*b,
; 7 med3(a,b,c)
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer f32[256] init=uniform(-4,4) seed=1
; gpusim-arg: b buffer f32[256] init=uniform(-4,4) seed=2
; gpusim-arg: c buffer f32[256] init=uniform(-4,4) seed=3
; gpusim-arg: out buffer f32[256,8] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_f32
	.p2align 8
	.type sem_f32,@function
sem_f32:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_dword v4, v1, s[6:7]
	global_load_dword v5, v1, s[8:9]
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v6, v3, v4
	global_store_dword v2, v6, s[10:11]
	v_mul_f32_e32 v7, v3, v4
	global_store_dword v2, v7, s[10:11] offset:4
	v_fma_f32 v6, v3, v4, v5
	global_store_dword v2, v6, s[10:11] offset:8
	v_fma_f32 v6, v3, v4, -v7
	global_store_dword v2, v6, s[10:11] offset:12
	v_sub_f32_e32 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:16
	v_max_f32_e32 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:20
	v_mov_b32_e32 v6, v5
	v_fmac_f32_e32 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:24
	v_med3_f32 v6, v3, v4, v5
	global_store_dword v2, v6, s[10:11] offset:28
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_f32
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
