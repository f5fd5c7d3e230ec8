; f32 -> bf16 round-to-nearest-even the way LLVM lowers it for gfx942
; (v_bfe_u32 + v_add3_u32 0x7fff, quiet NaN via v_cmp_u_f32/v_cndmask),
; stored with global_store_short_d16_hi; and bf16 -> f32 by a shift.
; gpusim-launch: grid=4,1,1 block=256,1,1
; gpusim-arg: x buffer f32[1024] init=normal(0,100) seed=5
; gpusim-arg: bf buffer u16[1024] out
; gpusim-arg: back buffer f32[1024] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_bf16
	.p2align 8
	.type sem_bf16,@function
sem_bf16:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshl_or_b32 v0, s2, 8, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 1, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	s_movk_i32 s10, 0x7fff
	s_waitcnt vmcnt(0)
	v_bfe_u32 v4, v3, 16, 1
	v_add3_u32 v4, v4, v3, s10
	v_or_b32_e32 v5, 0x400000, v3
	v_cmp_u_f32_e32 vcc, v3, v3
	v_cndmask_b32_e32 v4, v4, v5, vcc
	global_store_short_d16_hi v2, v4, s[6:7]
	v_and_b32_e32 v4, 0xffff0000, v4
	global_store_dword v1, v4, s[8:9]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_bf16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
