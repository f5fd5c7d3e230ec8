; f32 compares with NaN operands; out[lane, slot] is 0 or 1 except slot 7:
;  0 cmp_u(a,b)  1 cmp_nge(a,b)  2 cmp_lt(a,b)  3 cmp_o(a,b)  4 cmp_neq(a,b)
;  5 cmp_eq(a,b) 6 cmp_u written to an SGPR pair (VOP3 form)
;  7 cndmask(a, b, a < b) (the smaller, or a when unordered)
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer f32[256]
; gpusim-arg: b buffer f32[256]
; gpusim-arg: out buffer u32[256,8] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_cmp_nan
	.p2align 8
	.type sem_cmp_nan,@function
sem_cmp_nan:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_dword v4, v1, s[6:7]
	s_waitcnt vmcnt(0)
	v_cmp_u_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9]
	v_cmp_nge_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9] offset:4
	v_cmp_lt_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9] offset:8
	v_cndmask_b32_e32 v6, v3, v4, vcc
	v_cmp_o_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9] offset:12
	v_cmp_neq_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9] offset:16
	v_cmp_eq_f32_e32 vcc, v3, v4
	v_cndmask_b32_e64 v5, 0, 1, vcc
	global_store_dword v2, v5, s[8:9] offset:20
	v_cmp_u_f32_e64 s[10:11], v3, v4
	v_cndmask_b32_e64 v5, 0, 1, s[10:11]
	global_store_dword v2, v5, s[8:9] offset:24
	global_store_dword v2, v6, s[8:9] offset:28
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_cmp_nan
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
