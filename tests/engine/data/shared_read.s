; Eight one-wave workgroups read the same 4 KiB (32 lines of 128 B).
; Placed on eight XCDs (round_robin_xcd) each XCD's L2 misses on all 32 lines;
; placed on CUs 0..7 of one XCD (linear) the L2 fetches them once.
; tests/engine/test_policies.py checks the L2 miss counts of both dispatch orders.
; gpusim-launch: grid=8,1,1 block=64,1,1
; gpusim-arg: buf buffer u32[1024] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl shared_read
	.p2align 8
	.type shared_read,@function
shared_read:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 4, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 v[4:7], v1, s[2:3] offset:0
	global_load_dwordx4 v[4:7], v1, s[2:3] offset:1024
	global_load_dwordx4 v[4:7], v1, s[2:3] offset:2048
	global_load_dwordx4 v[4:7], v1, s[2:3] offset:3072
	s_waitcnt vmcnt(0)
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel shared_read
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
