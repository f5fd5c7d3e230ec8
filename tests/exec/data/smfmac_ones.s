; A sparse MFMA end to end: every kept entry of A is 1.0 at positions 0 and 2 of each group of four (src2's
; fields 0b1000 in the set ABID 1 picks), B is all 1.0 and D starts at 0.5, so each D entry is 0.5 plus
; the 16 kept entries of its row (v_smfmac_f32_16x16x32_f16: K = 32).
; gpusim-launch: grid=2,1,1 block=64,1,1
; gpusim-arg: d buffer f32[2, 64, 4] out
; gpusim-check: d == 16.5
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl smfmac_ones
	.p2align 8
	.type smfmac_ones,@function
smfmac_ones:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_mov_b32_e32 v4, 0x3c003c00
	v_mov_b32_e32 v5, 0x3c003c00
	v_mov_b32_e32 v6, 0x3c003c00
	v_mov_b32_e32 v7, 0x3c003c00
	v_mov_b32_e32 v8, 0x3c003c00
	v_mov_b32_e32 v9, 0x3c003c00
	v_mov_b32_e32 v10, 0x8800
	v_mov_b32_e32 v0, 0.5
	v_mov_b32_e32 v1, 0.5
	v_mov_b32_e32 v2, 0.5
	v_mov_b32_e32 v3, 0.5
	s_nop 0
	v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10 abid:1
	s_nop 7
	s_nop 7
	v_mbcnt_lo_u32_b32 v11, -1, 0
	v_mbcnt_hi_u32_b32 v11, -1, v11
	s_lshl_b32 s3, s2, 10
	v_lshl_add_u32 v11, v11, 4, s3
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v11, v[0:3], s[0:1]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel smfmac_ones
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 4
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
