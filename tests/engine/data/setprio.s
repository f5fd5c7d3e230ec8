; arbitration.s with the younger wave of each SIMD (threads 256-511) raising its priority to 3 first
; (s_setprio): whatever the arbitration policy, the SIMD then serves it before the older one, so it
; reaches its load early and its latency hides behind the older wave's work.
; tests/engine/test_wave_control.py compares it with arbitration.s.
; gpusim-launch: grid=1,1,1 block=512,1,1
; gpusim-arg: buf buffer u32[512] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl setprio
	.p2align 8
	.type setprio,@function
setprio:
	v_readfirstlane_b32 s4, v0
	s_cmp_lt_u32 s4, 256
	s_cbranch_scc1 .Lolder
	s_setprio 3
.Lolder:
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
	.amdhsa_kernel setprio
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
