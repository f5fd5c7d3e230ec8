; Clamp on the integer adds and subtracts, the integer dot products (VOP3P and the VOP2 v_dot*c forms, which
; accumulate into their destination) and the packed float instructions, against numpy. The accumulators
; 0x7fffff00 | lane, 0x80000000 | lane, 0xffff0000 | lane and 0xffffff00 | lane put some lanes past the 32-bit range and some not.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer u32[64] init=randint(0,4294967295) seed=1
; gpusim-arg: b buffer u32[64] init=randint(0,4294967295) seed=2
; gpusim-arg: o buffer u32[704] out
; gpusim-check: o[:64] == np.minimum((a & 0xffff).astype(i64) + (b & 0xffff), 65535)
; gpusim-check: o[64:128] == np.clip(a.view(i16)[::2].astype(i64) - b.view(i16)[::2], -32768, 32767) & 0xffff
; gpusim-check: o[128:192] == np.maximum(b.astype(i64) - a, 0)
; gpusim-check: o[192:256] == np.minimum((a.view(i8).reshape(64, 4).astype(i64) * b.view(i8).reshape(64, 4)).sum(axis=1) + (0x7fffff00 | np.arange(64)), 2**31 - 1)
; gpusim-check: o[256:320] == ((a.view(i16).reshape(64, 2).astype(i64) * b.view(i16).reshape(64, 2)).sum(axis=1) + (0x7fffff00 | np.arange(64))) % 2**32
; gpusim-check: o[320:384].view(i32) == np.maximum((((n := lambda v: (((v[:, None] >> np.arange(0, 32, 4)) & 15).astype(i64) ^ 8) - 8), n(a) * n(b))[-1]).sum(axis=1) - 2**31 + np.arange(64), -2**31)
; gpusim-check: o[384:448] == np.minimum((a.view(u16).reshape(64, 2).astype(i64) * b.view(u16).reshape(64, 2)).sum(axis=1) + (0xffff0000 | np.arange(64)), 2**32 - 1)
; gpusim-check: o[448:512] == ((((a[:, None] >> np.arange(0, 32, 4)) & 15).astype(i64) * ((b[:, None] >> np.arange(0, 32, 4)) & 15)).sum(axis=1) + (0xffffff00 | np.arange(64))) % 2**32
; gpusim-check: o[512:576].view(i16) == np.clip(a.view(i16).astype(i64) - b.view(i16), -32768, 32767)
; gpusim-check: o[576:640].view(f16) == np.clip((a & np.uint32(0x3fff3fff)).view(f16) * (b & np.uint32(0x3fff3fff)).view(f16), 0, 1)
; gpusim-check: o[640:704].view(f32) == np.clip((a & np.uint32(0x3fffffff)).view(f32).astype(f64) * (b & np.uint32(0x3fffffff)).view(f32) + 0.25, 0, 1).astype(f32)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl integer_clamp
	.p2align 8
	.type integer_clamp,@function
integer_clamp:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_lshlrev_b32_e32 v20, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v20, s[4:5]
	global_load_dword v2, v20, s[6:7]
	v_or_b32_e32 v5, 0x7fffff00, v0
	v_or_b32_e32 v6, 0x80000000, v0
	v_or_b32_e32 v7, 0xffff0000, v0
	v_or_b32_e32 v21, 0xffffff00, v0
	s_waitcnt vmcnt(0)
	v_add_u16_e64 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9]
	v_sub_i16 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9] offset:256
	v_subrev_u32_e64 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9] offset:512
	v_mov_b32_e32 v4, v5
	v_dot4c_i32_i8_e64 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9] offset:768
	v_mov_b32_e32 v4, v5
	v_dot2c_i32_i16_e32 v4, v1, v2
	global_store_dword v20, v4, s[8:9] offset:1024
	v_mov_b32_e32 v4, v6
	v_dot8c_i32_i4_e64 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9] offset:1280
	v_dot2_u32_u16 v4, v1, v2, v7 clamp
	global_store_dword v20, v4, s[8:9] offset:1536
	v_dot8_u32_u4 v4, v1, v2, v21
	global_store_dword v20, v4, s[8:9] offset:1792
	v_pk_sub_i16 v4, v1, v2 clamp
	global_store_dword v20, v4, s[8:9] offset:2048
	v_and_b32_e32 v8, 0x3fff3fff, v1
	v_and_b32_e32 v9, 0x3fff3fff, v2
	v_pk_mul_f16 v4, v8, v9 clamp
	global_store_dword v20, v4, s[8:9] offset:2304
	v_and_b32_e32 v10, 0x3fffffff, v1
	v_and_b32_e32 v12, 0x3fffffff, v2
	v_mov_b32_e32 v11, v10
	v_mov_b32_e32 v13, v12
	v_mov_b32_e32 v14, 0.25
	v_mov_b32_e32 v15, 0.25
	v_pk_fma_f32 v[16:17], v[10:11], v[12:13], v[14:15] clamp
	global_store_dword v20, v17, s[8:9] offset:2560
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel integer_clamp
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 24
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 24
	.end_amdhsa_kernel
