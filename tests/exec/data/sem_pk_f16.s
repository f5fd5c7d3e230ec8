; Packed f16 (VOP3P) with op_sel / op_sel_hi / neg_lo / neg_hi. a, b, c hold
; two halves each (bits 0-15 "lo", 16-31 "hi"); out[lane, slot]:
;  0 v_pk_add_f16 a, b
;  1 v_pk_mul_f16 a, b op_sel:[1,0] op_sel_hi:[0,1]   lo = a.hi*b.lo, hi = a.lo*b.hi
;  2 v_pk_fma_f16 a, b, c neg_lo:[1,0,0] neg_hi:[0,0,1]  lo = -a.lo*b.lo+c.lo, hi = a.hi*b.hi-c.hi
;  3 v_pk_fma_f16 a, b, c op_sel_hi:[0,0,0]            both = fma(a.lo, b.lo, c.lo)
;  4 v_pk_add_f16 a, b op_sel:[0,1] op_sel_hi:[1,0]    lo = a.lo+b.hi, hi = a.hi+b.lo
;  5 v_pk_max_f16 a, b   6 v_pk_mul_lo_u16 a, b   7 v_pk_add_u16 a, b
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer u32[256]
; gpusim-arg: b buffer u32[256]
; gpusim-arg: c buffer u32[256]
; gpusim-arg: out buffer u32[256,8] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_pk_f16
	.p2align 8
	.type sem_pk_f16,@function
sem_pk_f16:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx4 s[8:11], s[0:1], 0x10
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v2, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v1, s[4:5]
	global_load_dword v4, v1, s[6:7]
	global_load_dword v5, v1, s[8:9]
	s_waitcnt vmcnt(0)
	v_pk_add_f16 v6, v3, v4
	global_store_dword v2, v6, s[10:11]
	v_pk_mul_f16 v6, v3, v4 op_sel:[1,0] op_sel_hi:[0,1]
	global_store_dword v2, v6, s[10:11] offset:4
	v_pk_fma_f16 v6, v3, v4, v5 neg_lo:[1,0,0] neg_hi:[0,0,1]
	global_store_dword v2, v6, s[10:11] offset:8
	v_pk_fma_f16 v6, v3, v4, v5 op_sel_hi:[0,0,0]
	global_store_dword v2, v6, s[10:11] offset:12
	v_pk_add_f16 v6, v3, v4 op_sel:[0,1] op_sel_hi:[1,0]
	global_store_dword v2, v6, s[10:11] offset:16
	v_pk_max_f16 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:20
	v_pk_mul_lo_u16 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:24
	v_pk_add_u16 v6, v3, v4
	global_store_dword v2, v6, s[10:11] offset:28
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_pk_f16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
