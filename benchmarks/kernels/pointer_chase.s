; Single-lane pointer chase: each load's address comes from the previous load,
; so the time per step is the load-to-use latency of the level the footprint
; fits in. benchmarks/latency_ladder.py rewrites N (footprint) and STEPS.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: next buffer u32[2048] init=cycle seed=1
; gpusim-arg: steps i32 4096
; gpusim-arg: out buffer u32[1] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl pointer_chase
	.p2align 8
	.type pointer_chase,@function
pointer_chase:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	s_mov_b64 exec, 1
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v3, 0
	s_waitcnt lgkmcnt(0)
.Lchase:
	v_lshlrev_b32_e32 v2, 2, v1
	global_load_dword v1, v2, s[4:5]
	s_waitcnt vmcnt(0)
	s_sub_u32 s6, s6, 1
	s_cmp_lg_u32 s6, 0
	s_cbranch_scc1 .Lchase
	global_store_dword v3, v1, s[8:9]
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel pointer_chase
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
