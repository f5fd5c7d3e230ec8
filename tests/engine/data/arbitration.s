; Eight waves (two per SIMD), each: 16 VALU ops, a global load it waits for, 16 more VALU ops.
; Oldest-first lets the older wave of a SIMD reach its load early and hides its latency behind
; the younger one's work; round robin interleaves them so both loads wait together.
; tests/engine/test_policies.py compares the wave arbitration policies on it.
; gpusim-launch: grid=1,1,1 block=512,1,1
; gpusim-arg: buf buffer u32[512] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl arbitration
	.p2align 8
	.type arbitration,@function
arbitration:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	global_load_dword v2, v1, s[2:3]
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	v_add_f32_e32 v4, v4, v5
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel arbitration
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
