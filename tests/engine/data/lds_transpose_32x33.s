; Transpose of a 32x32 u32 tile through LDS by one wave, rows padded to 33 words.
; Write phase: lane l, step i (0..15) stores a[2i + l/32][l%32] to LDS word row * 33 + col (a row-major,
; unit-stride, conflict-free ds_write_b32). Read phase: lane l, step j reads LDS word (l%32) * 33 + 2j + l/32,
; i.e. a column: 33 words apart, so the 32 lanes of a half-wave hit 32 different banks.
; tests/engine/test_lds_transpose.py checks SQ_LDS_BANK_CONFLICT and cycles.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer u32[32,32] init=arange
; gpusim-arg: b buffer u32[32,32] out
; gpusim-check: b == a.T
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl lds_transpose_32x33
	.p2align 8
	.type lds_transpose_32x33,@function
lds_transpose_32x33:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_and_b32_e32 v2, 31, v0
	v_lshrrev_b32_e32 v3, 5, v0
	v_mad_u32_u24 v5, v3, 33, v2
	v_lshlrev_b32_e32 v5, 2, v5
	v_mad_u32_u24 v2, v2, 33, v3
	v_lshlrev_b32_e32 v2, 2, v2
	s_waitcnt lgkmcnt(0)
	global_load_dword v8, v1, s[4:5]
	global_load_dword v9, v1, s[4:5] offset:256
	global_load_dword v10, v1, s[4:5] offset:512
	global_load_dword v11, v1, s[4:5] offset:768
	global_load_dword v12, v1, s[4:5] offset:1024
	global_load_dword v13, v1, s[4:5] offset:1280
	global_load_dword v14, v1, s[4:5] offset:1536
	global_load_dword v15, v1, s[4:5] offset:1792
	global_load_dword v16, v1, s[4:5] offset:2048
	global_load_dword v17, v1, s[4:5] offset:2304
	global_load_dword v18, v1, s[4:5] offset:2560
	global_load_dword v19, v1, s[4:5] offset:2816
	global_load_dword v20, v1, s[4:5] offset:3072
	global_load_dword v21, v1, s[4:5] offset:3328
	global_load_dword v22, v1, s[4:5] offset:3584
	global_load_dword v23, v1, s[4:5] offset:3840
	s_waitcnt vmcnt(0)
	ds_write_b32 v5, v8
	ds_write_b32 v5, v9 offset:264
	ds_write_b32 v5, v10 offset:528
	ds_write_b32 v5, v11 offset:792
	ds_write_b32 v5, v12 offset:1056
	ds_write_b32 v5, v13 offset:1320
	ds_write_b32 v5, v14 offset:1584
	ds_write_b32 v5, v15 offset:1848
	ds_write_b32 v5, v16 offset:2112
	ds_write_b32 v5, v17 offset:2376
	ds_write_b32 v5, v18 offset:2640
	ds_write_b32 v5, v19 offset:2904
	ds_write_b32 v5, v20 offset:3168
	ds_write_b32 v5, v21 offset:3432
	ds_write_b32 v5, v22 offset:3696
	ds_write_b32 v5, v23 offset:3960
	ds_read_b32 v24, v2
	ds_read_b32 v25, v2 offset:8
	ds_read_b32 v26, v2 offset:16
	ds_read_b32 v27, v2 offset:24
	ds_read_b32 v28, v2 offset:32
	ds_read_b32 v29, v2 offset:40
	ds_read_b32 v30, v2 offset:48
	ds_read_b32 v31, v2 offset:56
	ds_read_b32 v32, v2 offset:64
	ds_read_b32 v33, v2 offset:72
	ds_read_b32 v34, v2 offset:80
	ds_read_b32 v35, v2 offset:88
	ds_read_b32 v36, v2 offset:96
	ds_read_b32 v37, v2 offset:104
	ds_read_b32 v38, v2 offset:112
	ds_read_b32 v39, v2 offset:120
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v24, s[6:7]
	global_store_dword v1, v25, s[6:7] offset:256
	global_store_dword v1, v26, s[6:7] offset:512
	global_store_dword v1, v27, s[6:7] offset:768
	global_store_dword v1, v28, s[6:7] offset:1024
	global_store_dword v1, v29, s[6:7] offset:1280
	global_store_dword v1, v30, s[6:7] offset:1536
	global_store_dword v1, v31, s[6:7] offset:1792
	global_store_dword v1, v32, s[6:7] offset:2048
	global_store_dword v1, v33, s[6:7] offset:2304
	global_store_dword v1, v34, s[6:7] offset:2560
	global_store_dword v1, v35, s[6:7] offset:2816
	global_store_dword v1, v36, s[6:7] offset:3072
	global_store_dword v1, v37, s[6:7] offset:3328
	global_store_dword v1, v38, s[6:7] offset:3584
	global_store_dword v1, v39, s[6:7] offset:3840
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel lds_transpose_32x33
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_group_segment_fixed_size 4224
		.amdhsa_next_free_vgpr 40
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 40
	.end_amdhsa_kernel
