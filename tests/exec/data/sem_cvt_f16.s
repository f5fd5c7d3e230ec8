; f16 <-> f32 conversions, 256 workgroups x 256 lanes = every f16 bit pattern.
;   h[i]  = v_cvt_f16_f32(x[i])             (x: any f32 values)
;   y[i]  = v_cvt_f32_f16(p[i])             (p = 0..65535: every half)
;   rt[i] = v_cvt_f16_f32(v_cvt_f32_f16(p[i]))
; gpusim-launch: grid=256,1,1 block=256,1,1
; gpusim-arg: x buffer f32[65536] init=normal(0,3000) seed=4
; gpusim-arg: p buffer u16[65536] init=arange
; gpusim-arg: h buffer u16[65536] out
; gpusim-arg: y buffer f32[65536] out
; gpusim-arg: rt buffer u16[65536] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_cvt_f16
	.p2align 8
	.type sem_cvt_f16,@function
sem_cvt_f16:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	s_load_dwordx2 s[12:13], s[0:1], 0x20
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshl_or_b32 v0, s2, 8, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 1, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_ushort v4, v2, s[6:7]
	s_waitcnt vmcnt(0)
	v_cvt_f16_f32_e32 v5, v3
	global_store_short v2, v5, s[8:9]
	v_cvt_f32_f16_e32 v6, v4
	global_store_dword v1, v6, s[10:11]
	v_cvt_f16_f32_e32 v7, v6
	global_store_short v2, v7, s[12:13]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_cvt_f16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
