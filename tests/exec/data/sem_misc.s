; Conversions, bit counts and float special-value handling; out[lane, slot]:
;  0 v_cvt_i32_f32 fa   1 v_cvt_u32_f32 fa   2 v_cvt_f32_u32 b   3 v_cvt_f32_i32 b
;  4 v_cvt_pkrtz_f16_f32 fa, fc   5,6 v_lshlrev_b64 by c (low 6 bits) of {a, b}
;  7 v_ffbh_u32 b   8 v_ffbl_b32 b   9 v_bfrev_b32 b   10 v_bcnt_u32_b32 b, 0
; 11 v_min_f32 fa, fc   12 v_max_f32 fa, fc   13 v_cmp_class_f32 fa, c & 0x3ff
; 14 v_fract_f32 fa   15 v_rndne_f32 fa        (fa, fc: a and c read as f32)
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer u32[256]
; gpusim-arg: b buffer u32[256]
; gpusim-arg: c buffer u32[256]
; gpusim-arg: out buffer u32[256,16] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_misc
	.p2align 8
	.type sem_misc,@function
sem_misc:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 6, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v4, v1, s[4:5]
	global_load_dword v5, v1, s[6:7]
	global_load_dword v6, v1, s[8:9]
	s_waitcnt vmcnt(0)
	v_cvt_i32_f32_e32 v7, v4
	global_store_dword v2, v7, s[10:11]
	v_cvt_u32_f32_e32 v7, v4
	global_store_dword v2, v7, s[10:11] offset:4
	v_cvt_f32_u32_e32 v7, v5
	global_store_dword v2, v7, s[10:11] offset:8
	v_cvt_f32_i32_e32 v7, v5
	global_store_dword v2, v7, s[10:11] offset:12
	v_cvt_pkrtz_f16_f32 v7, v4, v6
	global_store_dword v2, v7, s[10:11] offset:16
	v_lshlrev_b64 v[8:9], v6, v[4:5]
	global_store_dwordx2 v2, v[8:9], s[10:11] offset:20
	v_ffbh_u32_e32 v7, v5
	global_store_dword v2, v7, s[10:11] offset:28
	v_ffbl_b32_e32 v7, v5
	global_store_dword v2, v7, s[10:11] offset:32
	v_bfrev_b32_e32 v7, v5
	global_store_dword v2, v7, s[10:11] offset:36
	v_bcnt_u32_b32 v7, v5, 0
	global_store_dword v2, v7, s[10:11] offset:40
	v_min_f32_e32 v7, v4, v6
	global_store_dword v2, v7, s[10:11] offset:44
	v_max_f32_e32 v7, v4, v6
	global_store_dword v2, v7, s[10:11] offset:48
	v_and_b32_e32 v7, 0x3ff, v6
	v_cmp_class_f32_e32 vcc, v4, v7
	v_cndmask_b32_e64 v7, 0, 1, vcc
	global_store_dword v2, v7, s[10:11] offset:52
	v_fract_f32_e32 v7, v4
	global_store_dword v2, v7, s[10:11] offset:56
	v_rndne_f32_e32 v7, v4
	global_store_dword v2, v7, s[10:11] offset:60
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_misc
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 10
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
