; A loop that never ends.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl spin_forever
	.p2align 8
	.type spin_forever,@function
spin_forever:
	s_mov_b32 s4, 0
.Lspin:
	s_add_u32 s4, s4, 1
	s_branch .Lspin
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel spin_forever
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
