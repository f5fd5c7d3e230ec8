; A returning flat atomic (sc0) writes the old value to its first operand
; (tests/asm/test_operand_classes.py runs it).
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: acc buffer u32[64] init=arange
; gpusim-arg: old buffer u32[64] out
; gpusim-check: old == np.arange(64, dtype=u32)
; gpusim-check: acc == 2 * np.arange(64, dtype=u32)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v3, s5
	v_add_co_u32 v2, vcc, s4, v1
	v_addc_co_u32 v3, vcc, 0, v3, vcc
	flat_atomic_add v4, v[2:3], v0 sc0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v1, v4, s[6:7]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
