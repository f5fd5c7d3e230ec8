; Scalar ALU 64-bit operations and SCC, run by one wave; lane k of the
; result vector holds r[k]. p holds the inputs: A = p[0:2], B = p[2:4]
; (64-bit, little-endian), sh = p[4], bfe control = p[5], x = p[6], y = p[7].
;  0,1 A+B (s_add_u32/s_addc_u32)  2 its carry (SCC)  3 borrow of A-B (SCC)
;  4,5 A-B (s_sub_u32/s_subb_u32)  6,7 s_lshl_b64 A, sh  8 its SCC
;  9 SCC of s_and_b64 A, B        10,11 s_lshr_b64 A, sh  12,13 s_ashr_i64 A, sh
; 14,15 s_bfe_u64 A, ctl          16,17 s_and_b64 A, B
; 18 s_bcnt1_i32_b64 A  19 s_ff1_i32_b64 B  20 s_flbit_i32_b64 A
; 21 SCC of s_cmp_eq_u64 A, A  22 SCC of s_cmp_lg_u64 A, B  23 SCC of s_xor_b64 A, A
; 24,25 s_cselect_b64 A, B after s_cmp_eq_u64 A, B
; 26 s_mul_hi_u32 x, y  27 s_mul_i32 x, y  28,29 s_bfe_i64 A, ctl
; 30 s_add_i32 x, y  31 its SCC (signed overflow)
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: p buffer u32[16]
; gpusim-arg: r buffer u32[32] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_salu64
	.p2align 8
	.type sem_salu64,@function
sem_salu64:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_load_dwordx8 s[16:23], s[4:5], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v2, 0
	s_waitcnt lgkmcnt(0)
	s_add_u32 s40, s16, s18
	s_addc_u32 s41, s17, s19
	s_cselect_b32 s42, 1, 0
	s_sub_u32 s44, s16, s18
	s_subb_u32 s45, s17, s19
	s_cselect_b32 s43, 1, 0
	s_lshl_b64 s[46:47], s[16:17], s20
	s_cselect_b32 s48, 1, 0
	s_lshr_b64 s[50:51], s[16:17], s20
	s_ashr_i64 s[52:53], s[16:17], s20
	s_bfe_u64 s[54:55], s[16:17], s21
	s_and_b64 s[56:57], s[16:17], s[18:19]
	s_cselect_b32 s49, 1, 0
	s_bcnt1_i32_b64 s58, s[16:17]
	s_ff1_i32_b64 s59, s[18:19]
	s_flbit_i32_b64 s60, s[16:17]
	s_cmp_eq_u64 s[16:17], s[16:17]
	s_cselect_b32 s61, 1, 0
	s_cmp_lg_u64 s[16:17], s[18:19]
	s_cselect_b32 s62, 1, 0
	s_xor_b64 s[24:25], s[16:17], s[16:17]
	s_cselect_b32 s63, 1, 0
	s_cmp_eq_u64 s[16:17], s[18:19]
	s_cselect_b64 s[64:65], s[16:17], s[18:19]
	s_mul_hi_u32 s66, s22, s23
	s_mul_i32 s67, s22, s23
	s_bfe_i64 s[68:69], s[16:17], s21
	s_add_i32 s70, s22, s23
	s_cselect_b32 s71, 1, 0
	v_writelane_b32 v2, s40, 0
	v_writelane_b32 v2, s41, 1
	v_writelane_b32 v2, s42, 2
	v_writelane_b32 v2, s43, 3
	v_writelane_b32 v2, s44, 4
	v_writelane_b32 v2, s45, 5
	v_writelane_b32 v2, s46, 6
	v_writelane_b32 v2, s47, 7
	v_writelane_b32 v2, s48, 8
	v_writelane_b32 v2, s49, 9
	v_writelane_b32 v2, s50, 10
	v_writelane_b32 v2, s51, 11
	v_writelane_b32 v2, s52, 12
	v_writelane_b32 v2, s53, 13
	v_writelane_b32 v2, s54, 14
	v_writelane_b32 v2, s55, 15
	v_writelane_b32 v2, s56, 16
	v_writelane_b32 v2, s57, 17
	v_writelane_b32 v2, s58, 18
	v_writelane_b32 v2, s59, 19
	v_writelane_b32 v2, s60, 20
	v_writelane_b32 v2, s61, 21
	v_writelane_b32 v2, s62, 22
	v_writelane_b32 v2, s63, 23
	v_writelane_b32 v2, s64, 24
	v_writelane_b32 v2, s65, 25
	v_writelane_b32 v2, s66, 26
	v_writelane_b32 v2, s67, 27
	v_writelane_b32 v2, s68, 28
	v_writelane_b32 v2, s69, 29
	v_writelane_b32 v2, s70, 30
	v_writelane_b32 v2, s71, 31
	s_mov_b32 exec_hi, 0
	global_store_dword v1, v2, s[6:7]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_salu64
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 72
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
