; Wave 0 waits at s_barrier before it sets flag[0]; wave 1 spins until the flag
; is set and only then goes to the barrier. Real hardware hangs; the loop has a
; conditional exit, so only wave 1's instruction budget ends it.
; gpusim-launch: grid=1,1,1 block=128,1,1
; gpusim-arg: flag buffer u32[1] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl spin_wait
	.p2align 8
	.type spin_wait,@function
spin_wait:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_readfirstlane_b32 s4, v0
	v_mov_b32_e32 v2, 0
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_u32 s4, 64
	s_cbranch_scc0 .Lwait
	s_barrier
	v_mov_b32_e32 v1, 1
	global_store_dword v2, v1, s[0:1]
	s_endpgm
.Lwait:
	global_load_dword v1, v2, s[0:1] sc0 sc1
	s_waitcnt vmcnt(0)
	v_readfirstlane_b32 s5, v1
	s_cmp_eq_u32 s5, 0
	s_cbranch_scc1 .Lwait
	s_barrier
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel spin_wait
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
