; f64: out[lane, 0] = fma(a, b, c); out[lane, 1] = a / b with the sequence
; clang-19 emits for gfx942 (div_scale, rcp, fma refinement, div_fmas,
; div_fixup); out[lane, 2] = a * b; out[lane, 3] = a + c.
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer f64[256] init=normal(0,1000) seed=6
; gpusim-arg: b buffer f64[256] init=normal(0,1000) seed=7
; gpusim-arg: c buffer f64[256] init=normal(0,1000) seed=8
; gpusim-arg: out buffer f64[256,4] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_f64
	.p2align 8
	.type sem_f64,@function
sem_f64:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 3, v0
	v_lshlrev_b32_e32 v30, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	global_load_dwordx2 v[14:15], v1, s[8:9]
	s_waitcnt vmcnt(0)
	v_fma_f64 v[16:17], v[2:3], v[4:5], v[14:15]
	global_store_dwordx2 v30, v[16:17], s[10:11]
	v_div_scale_f64 v[6:7], s[0:1], v[4:5], v[4:5], v[2:3]
	v_rcp_f64_e32 v[8:9], v[6:7]
	v_div_scale_f64 v[10:11], vcc, v[2:3], v[4:5], v[2:3]
	v_fma_f64 v[12:13], -v[6:7], v[8:9], 1.0
	v_fmac_f64_e32 v[8:9], v[8:9], v[12:13]
	v_fma_f64 v[12:13], -v[6:7], v[8:9], 1.0
	v_fmac_f64_e32 v[8:9], v[8:9], v[12:13]
	v_mul_f64 v[12:13], v[10:11], v[8:9]
	v_fma_f64 v[6:7], -v[6:7], v[12:13], v[10:11]
	v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[12:13]
	v_div_fixup_f64 v[6:7], v[6:7], v[4:5], v[2:3]
	global_store_dwordx2 v30, v[6:7], s[10:11] offset:8
	v_mul_f64 v[16:17], v[2:3], v[4:5]
	global_store_dwordx2 v30, v[16:17], s[10:11] offset:16
	v_add_f64 v[16:17], v[2:3], v[14:15]
	global_store_dwordx2 v30, v[16:17], s[10:11] offset:24
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_f64
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 31
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 32
	.end_amdhsa_kernel
