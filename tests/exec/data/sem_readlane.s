; Lane reads/writes under a partial EXEC on one wave. With
; EXEC = 0x0ff00000_f0f0f0f0: out[lane, 0] = v_readfirstlane(x) (lane 4),
; out[lane, 1] = v_readlane(x, 2) (an inactive lane), out[lane, 2] =
; v_readlane(x, s = 70) (lane 70 & 63 = 6), out[lane, 3] = y where y starts
; as 0xdead0000 + lane, gets v_add_u32 y, x, 1 under the partial EXEC and
; v_writelane_b32 y, readfirstlane, lane 9 (inactive); out[lane, 4] =
; s_bcnt1_i32_b64 of EXEC; out[lane, 5] = v_mbcnt (active lanes below this one, 0 in inactive lanes).
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: x buffer u32[64] init=randint(0,1000000) seed=15
; gpusim-arg: out buffer u32[64,8] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_readlane
	.p2align 8
	.type sem_readlane,@function
sem_readlane:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 5, v0
	v_or_b32_e32 v4, 0xdead0000, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	s_waitcnt vmcnt(0)
	s_mov_b32 s12, 70
	v_mov_b32_e32 v5, 0
	s_mov_b32 exec_lo, 0xf0f0f0f0
	s_mov_b32 exec_hi, 0x0ff00000
	v_readfirstlane_b32 s8, v3
	v_readlane_b32 s9, v3, 2
	v_readlane_b32 s10, v3, s12
	v_add_u32_e32 v4, 1, v3
	v_writelane_b32 v4, s8, 9
	s_bcnt1_i32_b64 s11, exec
	v_mbcnt_lo_u32_b32 v5, exec_lo, 0
	v_mbcnt_hi_u32_b32 v5, exec_hi, v5
	s_mov_b64 exec, -1
	v_mov_b32_e32 v6, s8
	global_store_dword v2, v6, s[6:7]
	v_mov_b32_e32 v6, s9
	global_store_dword v2, v6, s[6:7] offset:4
	v_mov_b32_e32 v6, s10
	global_store_dword v2, v6, s[6:7] offset:8
	global_store_dword v2, v4, s[6:7] offset:12
	v_mov_b32_e32 v6, s11
	global_store_dword v2, v6, s[6:7] offset:16
	global_store_dword v2, v5, s[6:7] offset:20
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_readlane
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
