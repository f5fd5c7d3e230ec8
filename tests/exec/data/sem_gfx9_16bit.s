; gfx9's 16-bit three-operand ops, 16-bit multiply-adds, the f16 frexp and normalized conversions, the quad
; SADs, v_swap_b32 and v_pk_fmac_f16: one workgroup of 256 lanes, lane i reads a[i], b[i], c[i] (u32 bit
; patterns the test chooses) and writes 32 slots out[32*i + k]. Slots whose instruction is marked (pre)
; start from c in the destination, to show which half of it the instruction keeps:
;    0: v_min3_f16 v10, v1, v2, v3
;    1: v_max3_f16 v10, v1, v2, v3
;    2: v_med3_f16 v10, v1, v2, v3
;    3: v_min3_i16 v10, v1, v2, v3
;    4: v_max3_i16 v10, v1, v2, v3
;    5: v_med3_i16 v10, v1, v2, v3
;    6: v_min3_u16 v10, v1, v2, v3
;    7: v_max3_u16 v10, v1, v2, v3
;    8: v_med3_u16 v10, v1, v2, v3
;    9: v_mad_legacy_u16 v10, v1, v2, v3 (pre)
;   10: v_mad_u16 v10, v1, v2, v3 (pre)
;   11: v_mad_i32_i16 v10, v1, v2, v3
;   12: v_mad_u32_u16 v10, v1, v2, v3 op_sel:[1,1,0,0]
;   13: v_frexp_mant_f16_e32 v10, v1
;   14: v_frexp_exp_i16_f16_e32 v10, v1 (pre)
;   15: v_cvt_norm_i16_f16_e32 v10, v1
;   16: v_cvt_norm_u16_f16_e32 v10, v1
;   17: v_cvt_pknorm_i16_f32 v10, v1, v2
;   18: v_cvt_pknorm_u16_f32 v10, v1, v2
;   19: v_cvt_pknorm_i16_f16 v10, v1, v2 op_sel:[1,0,0]
;   20: v_sat_pk_u8_i16_e32 v10, v1 (pre)
;   21: v_cvt_off_f32_i4_e32 v10, v1
;   22: QSAD
;   24: MQSAD
;   26: SWAP
;   28: v_pk_fmac_f16_e32 v10, v1, v2 (pre)
;   29: v_med3_i16 v10, v1, v2, v3 op_sel:[0,1,0,1] (pre)
;   30: v_fma_legacy_f16 v10, v1, v2, v3 (pre)
;   31: v_max3_u16 v10, v1, v2, v3 (pre)
;   (QSAD/MQSAD: v_[m]qsad_pk_u16_u8 v[10:11], v[4:5], v3, v[6:7], into slots k and k+1;
;    SWAP: v10 = a, v11 = b, v_swap_b32 v10, v11, into slots 26 and 27)
; gpusim-launch: grid=1,1,1 block=256,1,1
; gpusim-arg: a buffer u32[256] init=zeros
; gpusim-arg: b buffer u32[256] init=zeros
; gpusim-arg: c buffer u32[256] init=zeros
; gpusim-arg: out buffer u32[8192] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl sem_gfx9_16bit
	.p2align 8
	.type sem_gfx9_16bit,@function
sem_gfx9_16bit:
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	v_and_b32_e32 v0, 0xff, v0
	v_lshlrev_b32_e32 v8, 2, v0
	v_lshlrev_b32_e32 v9, 7, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v8, s[4:5]
	global_load_dword v2, v8, s[6:7]
	global_load_dword v3, v8, s[8:9]
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v4, v1
	v_mov_b32_e32 v5, v2
	v_mov_b32_e32 v6, v2
	v_mov_b32_e32 v7, v3
	v_min3_f16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:0
	v_max3_f16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:4
	v_med3_f16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:8
	v_min3_i16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:12
	v_max3_i16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:16
	v_med3_i16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:20
	v_min3_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:24
	v_max3_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:28
	v_med3_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:32
	v_mov_b32_e32 v10, v3
	v_mad_legacy_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:36
	v_mov_b32_e32 v10, v3
	v_mad_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:40
	v_mad_i32_i16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:44
	v_mad_u32_u16 v10, v1, v2, v3 op_sel:[1,1,0,0]
	global_store_dword v9, v10, s[10:11] offset:48
	v_frexp_mant_f16_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:52
	v_mov_b32_e32 v10, v3
	v_frexp_exp_i16_f16_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:56
	v_cvt_norm_i16_f16_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:60
	v_cvt_norm_u16_f16_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:64
	v_cvt_pknorm_i16_f32 v10, v1, v2
	global_store_dword v9, v10, s[10:11] offset:68
	v_cvt_pknorm_u16_f32 v10, v1, v2
	global_store_dword v9, v10, s[10:11] offset:72
	v_cvt_pknorm_i16_f16 v10, v1, v2 op_sel:[1,0,0]
	global_store_dword v9, v10, s[10:11] offset:76
	v_mov_b32_e32 v10, v3
	v_sat_pk_u8_i16_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:80
	v_cvt_off_f32_i4_e32 v10, v1
	global_store_dword v9, v10, s[10:11] offset:84
	v_qsad_pk_u16_u8 v[10:11], v[4:5], v3, v[6:7]
	global_store_dwordx2 v9, v[10:11], s[10:11] offset:88
	v_mqsad_pk_u16_u8 v[10:11], v[4:5], v3, v[6:7]
	global_store_dwordx2 v9, v[10:11], s[10:11] offset:96
	v_mov_b32_e32 v10, v1
	v_mov_b32_e32 v11, v2
	v_swap_b32 v10, v11
	global_store_dwordx2 v9, v[10:11], s[10:11] offset:104
	v_mov_b32_e32 v10, v3
	v_pk_fmac_f16_e32 v10, v1, v2
	global_store_dword v9, v10, s[10:11] offset:112
	v_mov_b32_e32 v10, v3
	v_med3_i16 v10, v1, v2, v3 op_sel:[0,1,0,1]
	global_store_dword v9, v10, s[10:11] offset:116
	v_mov_b32_e32 v10, v3
	v_fma_legacy_f16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:120
	v_mov_b32_e32 v10, v3
	v_max3_u16 v10, v1, v2, v3
	global_store_dword v9, v10, s[10:11] offset:124
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel sem_gfx9_16bit
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
