; A kernel that times its own loop with the shader clock (HIP's clock64()): gpusim computes values apart from
; timing, so s_memtime reads 0 and the difference it stores is 0; the report says so.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: elapsed buffer u64[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl clock_reads
	.p2align 8
	.type clock_reads,@function
clock_reads:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_memtime s[4:5]
	s_mov_b32 s8, 16
.Lloop:
	v_sin_f32_e32 v1, v0
	s_sub_u32 s8, s8, 1
	s_cmp_lg_u32 s8, 0
	s_cbranch_scc1 .Lloop
	s_memtime s[6:7]
	s_sub_u32 s6, s6, s4
	s_subb_u32 s7, s7, s5
	v_lshlrev_b32_e32 v0, 3, v0
	v_mov_b32_e32 v2, s6
	v_mov_b32_e32 v3, s7
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v0, v[2:3], s[2:3]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel clock_reads
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 9
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
