; A VALU-bound loop (f32 add/mul/fma, u32 add) with a scalar loop counter:
; the executor's best case, for benchmarks/functional_rate.py.
; gpusim-launch: grid=64,1,1 block=256,1,1
; gpusim-arg: out buffer f32[16384] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl k
	.p2align 8
	.type k,@function
k:
	s_movk_i32 s4, 0x200
	v_cvt_f32_u32_e32 v1, v0
	v_mov_b32_e32 v2, 1.0
.Lloop:
	v_add_f32_e32 v1, v1, v2
	v_mul_f32_e32 v3, v1, v2
	v_fma_f32 v4, v1, v2, v3
	v_add_u32_e32 v5, v0, v5
	v_add_f32_e32 v1, v1, v2
	v_mul_f32_e32 v3, v1, v2
	v_fma_f32 v4, v1, v2, v3
	v_add_u32_e32 v5, v0, v5
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 .Lloop
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
