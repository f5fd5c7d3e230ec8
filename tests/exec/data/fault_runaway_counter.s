; A loop whose counter never reaches its bound: s4 runs 3, 5, 7, ... and is
; compared with 100, so only the instruction budget ends it.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl count_past
	.p2align 8
	.type count_past,@function
count_past:
	s_mov_b32 s4, 1
.Lloop:
	s_add_u32 s4, s4, 2
	s_cmp_eq_u32 s4, 100
	s_cbranch_scc0 .Lloop
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel count_past
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
