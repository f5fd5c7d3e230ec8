; Each workgroup writes LDS at (global id * 4) but owns only 256 bytes, so
; workgroup 1 writes past its allocation from its first lane on.
; gpusim-launch: grid=2,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[128] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl lds_past_end
	.p2align 8
	.type lds_past_end,@function
lds_past_end:
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshl_or_b32 v0, s2, 6, v0
	v_lshlrev_b32_e32 v1, 2, v0
	ds_write_b32 v1, v0
	s_waitcnt lgkmcnt(0)
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel lds_past_end
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 4
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
