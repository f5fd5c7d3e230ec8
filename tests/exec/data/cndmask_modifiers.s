; v_cndmask_b32's source modifiers: -x and |x| act on the f32 sign bit, as in clang's f32 cos, which selects
; between the sine and cosine polynomials with v_cndmask_b32_e64 v3, -v3, v4, vcc.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: out buffer f32[192] out
; gpusim-check: out[:64] == np.where(np.arange(64) % 2 == 1, 2.0, -1.5)
; gpusim-check: out[64:128] == np.where(np.arange(64) % 2 == 1, 2.0, 1.5)
; gpusim-check: out[128:192] == np.where(np.arange(64) % 2 == 1, -2.0, -1.5)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl cndmask_modifiers
	.p2align 8
	.type cndmask_modifiers,@function
cndmask_modifiers:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_mov_b32_e32 v1, 1.5
	v_mov_b32_e32 v2, 2.0
	v_mov_b32_e32 v5, -1.5
	v_and_b32_e32 v3, 1, v0
	v_cmp_eq_u32_e32 vcc, 1, v3
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	v_cndmask_b32_e64 v4, -v1, v2, vcc
	global_store_dword v0, v4, s[0:1]
	v_cndmask_b32_e64 v4, |v5|, v2, vcc
	global_store_dword v0, v4, s[0:1] offset:256
	v_cndmask_b32_e64 v4, v5, -|v2|, vcc
	global_store_dword v0, v4, s[0:1] offset:512
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel cndmask_modifiers
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
