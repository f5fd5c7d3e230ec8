; One wave loads the same 128 B line twice (every lane from one address), with
; s_waitcnt vmcnt(0) after each: the first load misses to HBM on cold caches,
; the second hits the vector L1. tests/engine/test_golden_cycles.py derives its cycles.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: buf buffer u32[64] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl global_load_l1_hit
	.p2align 8
	.type global_load_l1_hit,@function
global_load_l1_hit:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v3, v1, s[2:3]
	s_waitcnt vmcnt(0)
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel global_load_l1_hit
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
