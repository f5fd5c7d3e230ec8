; LDS read stream: each lane reads 16 B at byte 16 x (work-item id) with
; ds_read_b128 (1 KiB per wave instruction), eight reads per loop iteration,
; `iters` iterations. Eight consecutive lanes read 128 contiguous bytes, one
; word from each of the 32 banks: conflict-free, 8 LDS clocks per wave
; instruction. Eight waves per workgroup (two per SIMD), one workgroup per CU.
; tests/engine/test_bandwidth.py measures it against the LDS peak.
; gpusim-launch: grid=304,1,1 block=512,1,1
; gpusim-arg: iters i32 4
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl lds_read_stream
	.p2align 8
	.type lds_read_stream,@function
lds_read_stream:
	s_load_dword s4, s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 4, v0
	s_waitcnt lgkmcnt(0)
.Lloop:
	ds_read_b128 v[4:7], v1
	ds_read_b128 v[8:11], v1
	ds_read_b128 v[12:15], v1
	ds_read_b128 v[16:19], v1
	ds_read_b128 v[20:23], v1
	ds_read_b128 v[24:27], v1
	ds_read_b128 v[28:31], v1
	ds_read_b128 v[32:35], v1
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_waitcnt lgkmcnt(0)
	s_cbranch_scc1 .Lloop
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel lds_read_stream
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_group_segment_fixed_size 8192
		.amdhsa_next_free_vgpr 36
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 36
	.end_amdhsa_kernel
