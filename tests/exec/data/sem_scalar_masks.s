; gfx9's scalar lane-mask and relative-move instructions on one wave (lane 0 stores): x holds the sources
; s4..s11 (x[0..7]); out[k] is, in order: s_wqm_b32 of s4 and its SCC, s_wqm_b64 of s[4:5] (2 words),
; s_quadmask_b32 of s6, s_quadmask_b64 of s[6:7] (2 words), s_bitreplicate_b64_b32 of s8 (2 words),
; s_flbit_i32_i64 of s[10:11], s_movrels_b32 from s4 with M0 = 3, s_movrels_b64 from s[4:5] with M0 = 2
; (2 words), s39 after s_movreld_b32 to s34 of s9 with M0 = 5, the SCC of a zero quadmask, and
; s_flbit_i32_i64 of -1.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: x buffer u32[8] init=zeros
; gpusim-arg: out buffer u32[16] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_scalar_masks
	.p2align 8
	.type sem_scalar_masks,@function
sem_scalar_masks:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	s_mov_b64 exec, 1
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	s_wqm_b32 s20, s4
	s_cselect_b32 s21, 1, 0
	s_wqm_b64 s[22:23], s[4:5]
	s_quadmask_b32 s24, s6
	s_quadmask_b64 s[26:27], s[6:7]
	s_bitreplicate_b64_b32 s[28:29], s8
	s_flbit_i32_i64 s30, s[10:11]
	s_mov_b32 m0, 3
	s_movrels_b32 s31, s4
	s_mov_b32 m0, 2
	s_movrels_b64 s[32:33], s[4:5]
	s_mov_b32 m0, 5
	s_movreld_b32 s34, s9
	s_quadmask_b32 s35, 0
	s_cselect_b32 s36, 1, 0
	s_flbit_i32_i64 s37, -1
	v_mov_b32_e32 v1, s20
	global_store_dword v0, v1, s[2:3] offset:0
	v_mov_b32_e32 v1, s21
	global_store_dword v0, v1, s[2:3] offset:4
	v_mov_b32_e32 v1, s22
	global_store_dword v0, v1, s[2:3] offset:8
	v_mov_b32_e32 v1, s23
	global_store_dword v0, v1, s[2:3] offset:12
	v_mov_b32_e32 v1, s24
	global_store_dword v0, v1, s[2:3] offset:16
	v_mov_b32_e32 v1, s26
	global_store_dword v0, v1, s[2:3] offset:20
	v_mov_b32_e32 v1, s27
	global_store_dword v0, v1, s[2:3] offset:24
	v_mov_b32_e32 v1, s28
	global_store_dword v0, v1, s[2:3] offset:28
	v_mov_b32_e32 v1, s29
	global_store_dword v0, v1, s[2:3] offset:32
	v_mov_b32_e32 v1, s30
	global_store_dword v0, v1, s[2:3] offset:36
	v_mov_b32_e32 v1, s31
	global_store_dword v0, v1, s[2:3] offset:40
	v_mov_b32_e32 v1, s32
	global_store_dword v0, v1, s[2:3] offset:44
	v_mov_b32_e32 v1, s33
	global_store_dword v0, v1, s[2:3] offset:48
	v_mov_b32_e32 v1, s39
	global_store_dword v0, v1, s[2:3] offset:52
	v_mov_b32_e32 v1, s36
	global_store_dword v0, v1, s[2:3] offset:56
	v_mov_b32_e32 v1, s37
	global_store_dword v0, v1, s[2:3] offset:60
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_scalar_masks
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 40
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
