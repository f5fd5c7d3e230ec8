; A hand-written kernel that reads its own .rodata and .data through the program counter (@rel32) and by
; absolute address (@abs32), as a linker would resolve them. out[i] = bytes[i] + words[i] * 256 for lane i < 8,
; and out[8] = the address low half by @abs32 less the one @rel32 gives (0: they name the same byte).
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: out buffer u32[9] out
; gpusim-check: out == np.array([1, 2, 3, 4, 5, 6, 7, 8, 0], u32) + np.array([10, 20, 30, 40, 50, 60, 70, 80, 0], u32) * 256
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl	static_data
	.p2align	8
	.type	static_data,@function
static_data:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, bytes@rel32@lo+4
	s_addc_u32 s5, s5, bytes@rel32@hi+12
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, words@rel32@lo+4
	s_addc_u32 s7, s7, words@rel32@hi+12
	s_mov_b32 s8, bytes@abs32@lo
	v_cmp_gt_u32_e32 vcc, 8, v0
	s_and_saveexec_b64 s[10:11], vcc
	v_lshlrev_b32_e32 v4, 1, v0
	v_lshlrev_b32_e32 v5, 2, v0
	global_load_ubyte v1, v0, s[4:5]
	global_load_ushort v2, v4, s[6:7]
	s_waitcnt vmcnt(0)
	v_lshl_add_u32 v1, v2, 8, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v5, v1, s[2:3]
	s_or_b64 exec, exec, s[10:11]
	v_cmp_eq_u32_e32 vcc, 0, v0
	s_and_saveexec_b64 s[10:11], vcc
	s_sub_u32 s8, s8, s4
	v_mov_b32_e32 v1, s8
	v_mov_b32_e32 v5, 32
	global_store_dword v5, v1, s[2:3]
	s_endpgm
.Lfunc_end0:
	.size	static_data, .Lfunc_end0-static_data

	.section	.rodata,"a",@progbits
bytes:
	.byte	1, 2, 3, 4, 5, 6, 7, 8
	.data
	.p2align	3, 0x0
words:
	.short	10, 20, 30, 40, 50, 60, 70, 80

	.rodata
	.p2align	6
	.amdhsa_kernel static_data
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
