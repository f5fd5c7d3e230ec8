; A copy kernel whose destination is 200 elements while the grid covers 256:
; workgroup 3 stores past the end of 'dst' from lane 8 on.
; gpusim-launch: grid=4,1,1 block=64,1,1
; gpusim-arg: src buffer u32[256] init=arange
; gpusim-arg: dst buffer u32[200] out
; gpusim-check: dst == src[:200]
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl store_past_end
	.p2align 8
	.type store_past_end,@function
store_past_end:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshl_or_b32 v0, s2, 6, v0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_store_dword v1, v2, s[6:7]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel store_past_end
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
