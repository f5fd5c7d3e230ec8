; s_branch to a label at the very end of the code, after the last instruction.
; gpusim-launch: grid=1,1,1 block=128,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl branch_to_end
	.p2align 8
	.type branch_to_end,@function
branch_to_end:
	s_mov_b32 s4, 1
	s_branch .Lend
	s_endpgm
.Lend:
	.rodata
	.p2align 6
	.amdhsa_kernel branch_to_end
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
