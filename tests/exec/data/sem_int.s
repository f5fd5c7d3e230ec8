; 32-bit integer VALU semantics on arbitrary bit patterns; out[lane, slot]:
;  0 mul_hi_u32(a,b)  1 mul_hi_i32(a,b)  2,3 mad_u64_u32(a, b, {c, b}) lo, hi
;  4 its carry-out    5 bfe_u32(a, b&31, c&31) with off+width <= 32
;  6 bfe_i32 (same operands)  7 alignbit(a, b, c)  8 perm(a, b, c & 0x0f0f0f0f)
;  9 bfe_i32(a, b, c) on the raw operands (field may run past bit 31)
; 10 mul_lo_u32(a,b)  11 alignbyte(a, b, c)
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer u32[256] init=randint(0,4294967296) seed=9
; gpusim-arg: b buffer u32[256] init=randint(0,4294967296) seed=10
; gpusim-arg: c buffer u32[256] init=randint(0,4294967296) seed=11
; gpusim-arg: out buffer u32[256,16] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_int
	.p2align 8
	.type sem_int,@function
sem_int:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 6, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_dword v4, v1, s[6:7]
	global_load_dword v5, v1, s[8:9]
	s_waitcnt vmcnt(0)
	v_mul_hi_u32 v6, v3, v4
	global_store_dword v2, v6, s[10:11]
	v_mul_hi_i32 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:4
	v_mov_b32_e32 v8, v5
	v_mov_b32_e32 v9, v4
	v_mad_u64_u32 v[10:11], s[12:13], v3, v4, v[8:9]
	global_store_dwordx2 v2, v[10:11], s[10:11] offset:8
	v_cndmask_b32_e64 v6, 0, 1, s[12:13]
	global_store_dword v2, v6, s[10:11] offset:16
	v_and_b32_e32 v12, 31, v4
	v_sub_u32_e32 v13, 32, v12
	v_and_b32_e32 v14, 31, v5
	v_min_u32_e32 v13, v13, v14
	v_bfe_u32 v6, v3, v12, v13
	global_store_dword v2, v6, s[10:11] offset:20
	v_bfe_i32 v6, v3, v12, v13
	global_store_dword v2, v6, s[10:11] offset:24
	v_alignbit_b32 v6, v3, v4, v5
	global_store_dword v2, v6, s[10:11] offset:28
	v_and_b32_e32 v7, 0x0f0f0f0f, v5
	v_perm_b32 v6, v3, v4, v7
	global_store_dword v2, v6, s[10:11] offset:32
	v_bfe_i32 v6, v3, v4, v5
	global_store_dword v2, v6, s[10:11] offset:36
	v_mul_lo_u32 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:40
	v_alignbyte_b32 v6, v3, v4, v5
	global_store_dword v2, v6, s[10:11] offset:44
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_int
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 15
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 16
	.end_amdhsa_kernel
