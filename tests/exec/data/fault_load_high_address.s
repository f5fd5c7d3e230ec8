; Every lane of a full wave loads from 2**63 + 4 * lane: an address no buffer can hold (it is negative as a
; signed 64-bit number); lane 0 must fault, in the functional and the timed run alike.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl load_high_address
	.p2align 8
	.type load_high_address,@function
load_high_address:
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v3, 0x80000000
	global_load_dword v4, v[2:3], off
	s_waitcnt vmcnt(0)
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel load_high_address
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
