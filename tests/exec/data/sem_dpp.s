; DPP lane moves on one wave. x is the source, every destination starts as
; old = 0xdead0000 + lane so that lanes a move does not write are visible.
;  0 row_shr:1            1 row_shr:3 bound_ctrl:1   2 row_bcast:15 row_mask:0xa
;  3 row_bcast:31 row_mask:0xc   4 quad_perm:[3,2,1,0]
;  5 quad_perm:[1,1,0,2] bank_mask:0x5   6 row_ror:4   7 row_mirror
;  8 v_add_u32 with src0 row_shl:2 bound_ctrl:1 (src1 is the lane's own x)
;  9 row_half_mirror
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: x buffer u32[64] init=randint(0,1000000) seed=12
; gpusim-arg: out buffer u32[64,16] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_dpp
	.p2align 8
	.type sem_dpp,@function
sem_dpp:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 6, v0
	v_or_b32_e32 v4, 0xdead0000, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_shr:1 row_mask:0xf bank_mask:0xf
	global_store_dword v2, v5, s[6:7]
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:1
	global_store_dword v2, v5, s[6:7] offset:4
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_bcast:15 row_mask:0xa bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:8
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_bcast:31 row_mask:0xc bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:12
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:16
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 quad_perm:[1,1,0,2] row_mask:0xf bank_mask:0x5
	global_store_dword v2, v5, s[6:7] offset:20
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_ror:4 row_mask:0xf bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:24
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_mirror row_mask:0xf bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:28
	v_mov_b32_e32 v5, v4
	v_add_u32_dpp v5, v3, v3 row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:1
	global_store_dword v2, v5, s[6:7] offset:32
	v_mov_b32_e32 v5, v4
	v_mov_b32_dpp v5, v3 row_half_mirror row_mask:0xf bank_mask:0xf
	global_store_dword v2, v5, s[6:7] offset:36
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_dpp
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
