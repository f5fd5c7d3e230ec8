; A kernel that reads which XCD and CU its wave runs on (s_getreg_b32 of HW_REG_XCC_ID and HW_REG_HW_ID's CU_ID):
; every s_getreg_b32 reads 0 in gpusim, and the report says so.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: ids buffer u32[64, 2] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl hwreg_reads
	.p2align 8
	.type hwreg_reads,@function
hwreg_reads:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_getreg_b32 s4, hwreg(HW_REG_XCC_ID, 0, 4)
	s_getreg_b32 s5, hwreg(HW_REG_HW_ID, 8, 4)
	v_lshlrev_b32_e32 v0, 3, v0
	v_mov_b32_e32 v2, s4
	v_mov_b32_e32 v3, s5
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v0, v[2:3], s[2:3]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel hwreg_reads
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 9
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
