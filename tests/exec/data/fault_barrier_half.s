; Wave 0 of each workgroup waits at s_barrier; wave 1 never arrives because
; it spins forever. Real hardware hangs here.
; gpusim-launch: grid=1,1,1 block=128,1,1
; gpusim-arg: dst buffer u32[128] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl barrier_half
	.p2align 8
	.type barrier_half,@function
barrier_half:
	v_and_b32_e32 v0, 0x3ff, v0
	v_readfirstlane_b32 s4, v0
	s_cmp_lt_u32 s4, 64
	s_cbranch_scc0 .Lspin
	s_barrier
	s_endpgm
.Lspin:
	s_branch .Lspin
	.rodata
	.p2align 6
	.amdhsa_kernel barrier_half
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
