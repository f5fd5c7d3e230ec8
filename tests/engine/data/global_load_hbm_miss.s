; One wave loads one dword per lane, every lane from the same address (one
; 128 B line), on cold caches: the load misses L1, L2 and the MALL and is
; served by HBM. tests/engine/test_golden_cycles.py derives its cycles.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: buf buffer u32[64] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl global_load_hbm_miss
	.p2align 8
	.type global_load_hbm_miss,@function
global_load_hbm_miss:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[2:3]
	s_waitcnt vmcnt(0)
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel global_load_hbm_miss
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
