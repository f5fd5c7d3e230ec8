; An f64 MFMA's C as an inline constant is 64 bits wide: 1.0 and 0.5 are the f64 values (llvm-mc encodes the
; constant's code alone, and the hardware reads it at the operand's width). Each lane holds A = 2, B = 1, so
; every D of v_mfma_f64_4x4x4_4b_f64 is the sum of 4 products, 8, plus C; neg:[1,0,1] negates A and C.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: plus buffer f64[64] out
; gpusim-arg: negated buffer f64[64] out
; gpusim-check: plus == np.full(64, 8.5)
; gpusim-check: negated == np.full(64, -9.0)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl mfma_f64_inline_c
	.p2align 8
	.type mfma_f64_inline_c,@function
mfma_f64_inline_c:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_mov_b32 v2, 0
	v_mov_b32 v3, 0x40000000
	v_mov_b32 v4, 0
	v_mov_b32 v5, 0x3ff00000
	v_mfma_f64_4x4x4_4b_f64 v[6:7], v[2:3], v[4:5], 0.5
	v_mfma_f64_4x4x4_4b_f64 v[8:9], v[2:3], v[4:5], 1.0 neg:[1,0,1]
	s_nop 7
	s_nop 7
	v_lshlrev_b32 v0, 3, v0
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v0, v[6:7], s[0:1]
	global_store_dwordx2 v0, v[8:9], s[2:3]
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel mfma_f64_inline_c
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
