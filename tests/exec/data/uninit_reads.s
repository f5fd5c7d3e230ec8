; Reads of registers nothing wrote: v_add_f32 reads v2 and s_or_b64 reads s3
; (s2 holds the workgroup id), which neither the launch nor an earlier
; instruction sets (both read 0). v4 is
; written under a one-lane EXEC and then read by every lane: written, as
; gpusim tracks registers, not lanes.
; gpusim-launch: grid=1,1,1 block=128,1,1
; gpusim-arg: dst buffer u32[128] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl uninit_reads
	.p2align 8
	.type uninit_reads,@function
uninit_reads:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_add_f32_e32 v3, v2, v1
	s_or_b64 s[8:9], s[2:3], exec
	s_mov_b64 s[6:7], exec
	s_mov_b64 exec, 1
	v_mov_b32_e32 v4, 7
	s_mov_b64 exec, s[6:7]
	v_add_u32_e32 v3, v3, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v3, s[0:1]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel uninit_reads
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 11
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
