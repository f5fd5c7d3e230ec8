; One wave stores a dword per lane and ends at once: s_endpgm's implicit s_waitcnt 0 holds the wave, and
; so its workgroup's slot, until the store is acknowledged. 64 KiB of LDS allows one workgroup per CU.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: out buffer f32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl store_then_end
	.p2align 8
	.type store_then_end,@function
store_then_end:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v2, 1.0
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[2:3]
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel store_then_end
		.amdhsa_group_segment_fixed_size 65536
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
