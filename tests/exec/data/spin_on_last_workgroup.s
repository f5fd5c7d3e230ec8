; Workgroup 0 spins, with coherent (sc0 sc1) loads and s_sleep, until the last
; of the 16 workgroups sets flag[0], then writes flag[1] = 1. Correct on the
; hardware when all workgroups are resident; workgroup 0 alone never ends, so
; the timed run must not take the runaway probe's word for it.
; gpusim-launch: grid=16,1,1 block=64,1,1
; gpusim-arg: flag buffer u32[2] out
; gpusim-check: flag == [1, 1]
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl spin_on_last
	.p2align 8
	.type spin_on_last,@function
spin_on_last:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v1, 1
	s_waitcnt lgkmcnt(0)
	s_cmp_eq_u32 s2, 15
	s_cbranch_scc1 .Lsignal
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc1 .Lwait
	s_endpgm
.Lsignal:
	global_store_dword v2, v1, s[0:1] sc0 sc1
	s_endpgm
.Lwait:
	s_sleep 1
	global_load_dword v3, v2, s[0:1] sc0 sc1
	s_waitcnt vmcnt(0)
	v_readfirstlane_b32 s5, v3
	s_cmp_eq_u32 s5, 0
	s_cbranch_scc1 .Lwait
	global_store_dword v2, v1, s[0:1] offset:4
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel spin_on_last
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
