; llvm.debugtrap (s_trap 3) goes on without a debugger; llvm.trap (s_trap 2), reached by the waves whose
; workgroup id is odd, ends the dispatch: the first such wave (workgroup 1) must fault at it, after every wave
; stored its id past the debugtrap.
; gpusim-launch: grid=4,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[256] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl trap
	.p2align 8
	.type trap,@function
trap:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	s_trap 3
	v_lshl_add_u32 v1, s2, 6, v0
	v_lshlrev_b32_e32 v2, 2, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v1, s[0:1]
	s_bitcmp1_b32 s2, 0
	s_cbranch_scc0 .Ldone
	s_trap 2
.Ldone:
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel trap
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
