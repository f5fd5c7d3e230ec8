; Every wave of a 64-workgroup grid loads x[i] in a loop whose counter s6 runs
; 1, 3, 5, ... and is compared with 100: the exit is never taken. Hundreds of
; waves run side by side in the timed model, so the timing model runs the first
; workgroup alone first and faults it at the per-wave budget (the runaway probe).
; gpusim-launch: grid=64,1,1 block=256,1,1
; gpusim-arg: x buffer f32[16384]
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl loop_past_bound
	.p2align 8
	.type loop_past_bound,@function
loop_past_bound:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_lshlrev_b32_e32 v0, 2, v0
	s_lshl_b32 s4, s2, 10
	v_add_u32_e32 v0, s4, v0
	s_mov_b32 s6, 1
	s_waitcnt lgkmcnt(0)
.Lloop:
	global_load_dword v1, v0, s[0:1]
	s_waitcnt vmcnt(0)
	s_add_u32 s6, s6, 2
	s_cmp_eq_u32 s6, 100
	s_cbranch_scc0 .Lloop
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel loop_past_bound
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 7
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
