; L2 read stream: every workgroup (8 waves, one workgroup per CU) reads a
; 256 KiB window of a 512 KiB buffer `passes` times with unit-stride
; global_load_dwordx4 (each wave load is 1 KiB, eight 128 B lines; the
; workgroup's four loads per iteration cover 32 KiB). Window start =
; (workgroup id % 16) x 16 KiB: the windows of one XCD cover at most the
; 512 KiB buffer, which stays in its 4 MB L2, and each window is 8x the 32 KiB
; L1, so after the first pass every load misses L1 and hits L2.
; Loads are pipelined: a wave keeps up to 8 loads (8 KiB) in flight.
; tests/engine/test_bandwidth.py sets the grid to one workgroup per CU.
; gpusim-launch: grid=304,1,1 block=512,1,1
; gpusim-arg: buf buffer u32[131072] init=arange
; gpusim-arg: passes i32 1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl l2_read_stream
	.p2align 8
	.type l2_read_stream,@function
l2_read_stream:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	v_lshlrev_b32_e32 v1, 4, v0
	v_add_u32_e32 v2, 0x2000, v1
	v_add_u32_e32 v3, 0x4000, v1
	v_add_u32_e32 v4, 0x6000, v1
	s_and_b32 s7, s2, 15
	s_lshl_b32 s7, s7, 14
	s_waitcnt lgkmcnt(0)
	s_add_u32 s4, s4, s7
	s_addc_u32 s5, s5, 0
.Lpass:
	s_mov_b32 s8, 8
	s_mov_b64 s[10:11], s[4:5]
.Liter:
	global_load_dwordx4 v[8:11], v1, s[10:11]
	global_load_dwordx4 v[12:15], v2, s[10:11]
	global_load_dwordx4 v[16:19], v3, s[10:11]
	global_load_dwordx4 v[20:23], v4, s[10:11]
	s_add_u32 s10, s10, 0x8000
	s_addc_u32 s11, s11, 0
	s_sub_u32 s8, s8, 1
	s_cmp_lg_u32 s8, 0
	s_waitcnt vmcnt(4)
	s_cbranch_scc1 .Liter
	s_sub_u32 s6, s6, 1
	s_cmp_lg_u32 s6, 0
	s_cbranch_scc1 .Lpass
	s_waitcnt vmcnt(0)
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel l2_read_stream
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 24
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 24
	.end_amdhsa_kernel
