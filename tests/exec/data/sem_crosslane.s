; Cross-lane moves through the LDS crossbar on one wave; out[lane, slot]:
;  0 swizzle(SWAP,16)  1 swizzle(REVERSE,8)  2 swizzle(QUAD_PERM,1,0,3,2)
;  3 swizzle(BITMASK_PERM,"01pi0")  4 swizzle(BROADCAST,8,3)
;  5 ds_bpermute_b32 (lane reads x[idx[lane]])
;  6 ds_permute_b32 (lane writes x[lane] to lane idx[lane])
;  7 ds_bpermute_b32 with EXEC = lanes 0-31 (other lanes keep 0xdead0000+lane)
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: x buffer u32[64] init=randint(0,1000000) seed=13
; gpusim-arg: idx buffer u32[64] init=perm seed=14
; gpusim-arg: out buffer u32[64,8] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_crosslane
	.p2align 8
	.type sem_crosslane,@function
sem_crosslane:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_dword v4, v1, s[6:7]
	s_waitcnt vmcnt(0)
	v_lshlrev_b32_e32 v4, 2, v4
	ds_swizzle_b32 v5, v3 offset:swizzle(SWAP,16)
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9]
	ds_swizzle_b32 v5, v3 offset:swizzle(REVERSE,8)
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:4
	ds_swizzle_b32 v5, v3 offset:swizzle(QUAD_PERM,1,0,3,2)
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:8
	ds_swizzle_b32 v5, v3 offset:swizzle(BITMASK_PERM,"01pi0")
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:12
	ds_swizzle_b32 v5, v3 offset:swizzle(BROADCAST,8,3)
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:16
	ds_bpermute_b32 v5, v4, v3
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:20
	ds_permute_b32 v5, v4, v3
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[8:9] offset:24
	v_or_b32_e32 v5, 0xdead0000, v0
	s_mov_b32 exec_hi, 0
	ds_bpermute_b32 v5, v4, v3
	s_waitcnt lgkmcnt(0)
	s_mov_b32 exec_hi, -1
	global_store_dword v2, v5, s[8:9] offset:28
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_crosslane
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
