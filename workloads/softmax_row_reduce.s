; gpusim-launch: grid=1024,1,1 block=256,1,1
; gpusim-arg: x buffer f32[1024,4096] init=normal(0,2) seed=32
; gpusim-arg: y buffer f32[1024,4096] out
; gpusim-check: y ~= np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True) rtol=1e-5 atol=1e-7
; softmax over each row of a 1024x4096 f32 matrix: y = exp(x - max) / sum(exp(x - max))
; workgroup r = row r; its 256 threads hold 16 elements each (x[r][k*256 + tid]) in registers from load to store
; max and sum: DPP reductions in each wave, then across the 4 waves through LDS
; exp(t) = v_exp_f32(t * log2(e)); 1/sum = v_rcp_f32
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl softmax_1024x4096_b256
	.p2align 8
	.type softmax_1024x4096_b256,@function
softmax_1024x4096_b256:
	; -- per workgroup: row r = s2 of x and y
	s_load_dwordx4 s[4:7], s[0:1], 0x0              ; s[4:5] = x, s[6:7] = y
	s_mul_i32 s8, s2, 16384                         ; r * 4096 elements * 4 bytes
	v_lshlrev_b32_e32 v1, 2, v0                     ; tid * 4: byte offset of element tid
	v_and_b32_e32 v2, 63, v0                        ; lane = tid % 64
	v_lshlrev_b32_e32 v2, 2, v2                     ; lane * 4: LDS address of word 'lane'
	v_lshrrev_b32_e32 v3, 6, v0                     ; wave = tid / 64
	v_lshlrev_b32_e32 v3, 2, v3                     ; wave * 4: LDS address of word 'wave'
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
	s_add_u32 s4, s4, s8                            ; x += row offset (64-bit: low word ...
	s_addc_u32 s5, s5, 0                            ; ... plus the carry)
	s_add_u32 s6, s6, s8                            ; y += row offset
	s_addc_u32 s7, s7, 0

	; -- load the row: 16 elements per thread, all in flight
	global_load_dword v6, v1, s[4:5]                ; x[r][0 + tid]
	global_load_dword v7, v1, s[4:5] offset:1024    ; x[r][256 + tid]
	global_load_dword v8, v1, s[4:5] offset:2048    ; x[r][512 + tid]
	global_load_dword v9, v1, s[4:5] offset:3072    ; x[r][768 + tid]
	v_add_u32_e32 v4, 4096, v1                      ; + 4096 bytes: too big for the offset field
	global_load_dword v10, v4, s[4:5]               ; x[r][1024 + tid]
	v_add_u32_e32 v4, 5120, v1                      ; + 5120 bytes: too big for the offset field
	global_load_dword v11, v4, s[4:5]               ; x[r][1280 + tid]
	v_add_u32_e32 v4, 6144, v1                      ; + 6144 bytes: too big for the offset field
	global_load_dword v12, v4, s[4:5]               ; x[r][1536 + tid]
	v_add_u32_e32 v4, 7168, v1                      ; + 7168 bytes: too big for the offset field
	global_load_dword v13, v4, s[4:5]               ; x[r][1792 + tid]
	v_add_u32_e32 v4, 8192, v1                      ; + 8192 bytes: too big for the offset field
	global_load_dword v14, v4, s[4:5]               ; x[r][2048 + tid]
	v_add_u32_e32 v4, 9216, v1                      ; + 9216 bytes: too big for the offset field
	global_load_dword v15, v4, s[4:5]               ; x[r][2304 + tid]
	v_add_u32_e32 v4, 10240, v1                     ; + 10240 bytes: too big for the offset field
	global_load_dword v16, v4, s[4:5]               ; x[r][2560 + tid]
	v_add_u32_e32 v4, 11264, v1                     ; + 11264 bytes: too big for the offset field
	global_load_dword v17, v4, s[4:5]               ; x[r][2816 + tid]
	v_add_u32_e32 v4, 12288, v1                     ; + 12288 bytes: too big for the offset field
	global_load_dword v18, v4, s[4:5]               ; x[r][3072 + tid]
	v_add_u32_e32 v4, 13312, v1                     ; + 13312 bytes: too big for the offset field
	global_load_dword v19, v4, s[4:5]               ; x[r][3328 + tid]
	v_add_u32_e32 v4, 14336, v1                     ; + 14336 bytes: too big for the offset field
	global_load_dword v20, v4, s[4:5]               ; x[r][3584 + tid]
	v_add_u32_e32 v4, 15360, v1                     ; + 15360 bytes: too big for the offset field
	global_load_dword v21, v4, s[4:5]               ; x[r][3840 + tid]

	; -- 1. the row's maximum
	s_waitcnt vmcnt(14)                             ; elements 0 and 1 are back (loads return in order)
	v_max_f32_e32 v5, v6, v7                        ; this thread's max so far
	s_waitcnt vmcnt(13)                             ; element 2 is back
	v_max_f32_e32 v5, v8, v5
	s_waitcnt vmcnt(12)                             ; element 3 is back
	v_max_f32_e32 v5, v9, v5
	s_waitcnt vmcnt(11)                             ; element 4 is back
	v_max_f32_e32 v5, v10, v5
	s_waitcnt vmcnt(10)                             ; element 5 is back
	v_max_f32_e32 v5, v11, v5
	s_waitcnt vmcnt(9)                              ; element 6 is back
	v_max_f32_e32 v5, v12, v5
	s_waitcnt vmcnt(8)                              ; element 7 is back
	v_max_f32_e32 v5, v13, v5
	s_waitcnt vmcnt(7)                              ; element 8 is back
	v_max_f32_e32 v5, v14, v5
	s_waitcnt vmcnt(6)                              ; element 9 is back
	v_max_f32_e32 v5, v15, v5
	s_waitcnt vmcnt(5)                              ; element 10 is back
	v_max_f32_e32 v5, v16, v5
	s_waitcnt vmcnt(4)                              ; element 11 is back
	v_max_f32_e32 v5, v17, v5
	s_waitcnt vmcnt(3)                              ; element 12 is back
	v_max_f32_e32 v5, v18, v5
	s_waitcnt vmcnt(2)                              ; element 13 is back
	v_max_f32_e32 v5, v19, v5
	s_waitcnt vmcnt(1)                              ; element 14 is back
	v_max_f32_e32 v5, v20, v5
	s_waitcnt vmcnt(0)                              ; element 15 is back
	v_max_f32_e32 v5, v21, v5
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf ; max with lane i^1 -> 2 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf ; max with lane i^2 -> 4 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 row_half_mirror row_mask:0xf bank_mask:0xf ; max with lane 7-i of its 8 (the other quad) -> 8 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 row_mirror row_mask:0xf bank_mask:0xf ; max with lane 15-i of its row (the other 8) -> 16 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 row_bcast:15 row_mask:0xa bank_mask:0xf ; max with lane 15 of the row before, in rows 1 and 3 -> 32 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 row_bcast:31 row_mask:0xc bank_mask:0xf ; max with lane 31, in rows 2 and 3 -> 64 lanes
	s_nop 0                                         ; v_readlane reads a VGPR a VALU just wrote: 1 wait state (gfx940)
	v_readlane_b32 s12, v5, 63                      ; lane 63 holds the result: s12, one value for the wave
	s_nop 1                                         ; a VALU reading s12, which a VALU wrote, waits 2 states (gfx940)
	;    across the 4 waves: LDS[0 + i] = wave i's max; every wave reads all 4
	v_mov_b32_e32 v5, s12
	s_mov_b64 s[10:11], exec                        ; save EXEC (all lanes)
	s_mov_b64 exec, 1                               ; lane 0 only
	ds_write_b32 v3, v5                             ; LDS[0 + wave] = this wave's max
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	s_waitcnt lgkmcnt(0)                            ; this wave's word is in LDS ...
	s_barrier                                       ; ... and every wave's
	v_mov_b32_e32 v5, 0xff800000                    ; lanes 4..63 hold the identity of max
	v_cmp_gt_u32_e32 vcc, 16, v2                    ; lane < 4
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes
	ds_read_b32 v5, v2                              ; lane i: wave i's max
	s_mov_b64 exec, s[10:11]                        ; all lanes again (DPP needs them)
	s_waitcnt lgkmcnt(0)
	v_max_f32_dpp v5, v5, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf ; max with lane i^1 -> 2 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_max_f32_dpp v5, v5, v5 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf ; max with lane i^2 -> 4 lanes
	s_nop 0                                         ; v_readlane reads a VGPR a VALU just wrote: 1 wait state (gfx940)
	v_readlane_b32 s12, v5, 0                       ; lane 0 holds the result: s12, one value for the wave
	s_nop 1                                         ; a VALU reading s12, which a VALU wrote, waits 2 states (gfx940)

	; -- 2. e = exp(x - max) = 2^((x - max) * log2(e)), and the row's sum of e
	v_subrev_f32_e32 v6, s12, v6                    ; x - max (subrev: src1 - src0; an SGPR must be src0)
	v_subrev_f32_e32 v7, s12, v7
	v_subrev_f32_e32 v8, s12, v8
	v_subrev_f32_e32 v9, s12, v9
	v_subrev_f32_e32 v10, s12, v10
	v_subrev_f32_e32 v11, s12, v11
	v_subrev_f32_e32 v12, s12, v12
	v_subrev_f32_e32 v13, s12, v13
	v_subrev_f32_e32 v14, s12, v14
	v_subrev_f32_e32 v15, s12, v15
	v_subrev_f32_e32 v16, s12, v16
	v_subrev_f32_e32 v17, s12, v17
	v_subrev_f32_e32 v18, s12, v18
	v_subrev_f32_e32 v19, s12, v19
	v_subrev_f32_e32 v20, s12, v20
	v_subrev_f32_e32 v21, s12, v21
	v_mul_f32_e32 v6, 0x3fb8aa3b, v6                ; t = (x - max) * log2(e), log2(e) = 1.442695
	v_mul_f32_e32 v7, 0x3fb8aa3b, v7
	v_mul_f32_e32 v8, 0x3fb8aa3b, v8
	v_mul_f32_e32 v9, 0x3fb8aa3b, v9
	v_mul_f32_e32 v10, 0x3fb8aa3b, v10
	v_mul_f32_e32 v11, 0x3fb8aa3b, v11
	v_mul_f32_e32 v12, 0x3fb8aa3b, v12
	v_mul_f32_e32 v13, 0x3fb8aa3b, v13
	v_mul_f32_e32 v14, 0x3fb8aa3b, v14
	v_mul_f32_e32 v15, 0x3fb8aa3b, v15
	v_mul_f32_e32 v16, 0x3fb8aa3b, v16
	v_mul_f32_e32 v17, 0x3fb8aa3b, v17
	v_mul_f32_e32 v18, 0x3fb8aa3b, v18
	v_mul_f32_e32 v19, 0x3fb8aa3b, v19
	v_mul_f32_e32 v20, 0x3fb8aa3b, v20
	v_mul_f32_e32 v21, 0x3fb8aa3b, v21
	v_exp_f32_e32 v6, v6                            ; e = 2^t, a quarter-rate transcendental
	v_exp_f32_e32 v7, v7
	v_exp_f32_e32 v8, v8
	v_exp_f32_e32 v9, v9
	v_exp_f32_e32 v10, v10
	v_exp_f32_e32 v11, v11
	v_exp_f32_e32 v12, v12
	v_exp_f32_e32 v13, v13
	v_exp_f32_e32 v14, v14
	v_exp_f32_e32 v15, v15
	v_exp_f32_e32 v16, v16
	v_exp_f32_e32 v17, v17
	v_exp_f32_e32 v18, v18
	v_exp_f32_e32 v19, v19
	v_exp_f32_e32 v20, v20
	v_exp_f32_e32 v21, v21
	s_nop 0                                         ; a VALU reading a transcendental's result waits 1 state (gfx940)
	v_add_f32_e32 v5, v6, v7                        ; this thread's sum
	v_add_f32_e32 v5, v8, v5
	v_add_f32_e32 v5, v9, v5
	v_add_f32_e32 v5, v10, v5
	v_add_f32_e32 v5, v11, v5
	v_add_f32_e32 v5, v12, v5
	v_add_f32_e32 v5, v13, v5
	v_add_f32_e32 v5, v14, v5
	v_add_f32_e32 v5, v15, v5
	v_add_f32_e32 v5, v16, v5
	v_add_f32_e32 v5, v17, v5
	v_add_f32_e32 v5, v18, v5
	v_add_f32_e32 v5, v19, v5
	v_add_f32_e32 v5, v20, v5
	v_add_f32_e32 v5, v21, v5
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf ; add with lane i^1 -> 2 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf ; add with lane i^2 -> 4 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 row_half_mirror row_mask:0xf bank_mask:0xf ; add with lane 7-i of its 8 (the other quad) -> 8 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 row_mirror row_mask:0xf bank_mask:0xf ; add with lane 15-i of its row (the other 8) -> 16 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 row_bcast:15 row_mask:0xa bank_mask:0xf ; add with lane 15 of the row before, in rows 1 and 3 -> 32 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 row_bcast:31 row_mask:0xc bank_mask:0xf ; add with lane 31, in rows 2 and 3 -> 64 lanes
	s_nop 0                                         ; v_readlane reads a VGPR a VALU just wrote: 1 wait state (gfx940)
	v_readlane_b32 s13, v5, 63                      ; lane 63 holds the result: s13, one value for the wave
	s_nop 1                                         ; a VALU reading s13, which a VALU wrote, waits 2 states (gfx940)
	;    across the 4 waves: LDS[4 + i] = wave i's add; every wave reads all 4
	v_mov_b32_e32 v5, s13
	s_mov_b64 s[10:11], exec                        ; save EXEC (all lanes)
	s_mov_b64 exec, 1                               ; lane 0 only
	ds_write_b32 v3, v5 offset:16                   ; LDS[4 + wave] = this wave's add
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	s_waitcnt lgkmcnt(0)                            ; this wave's word is in LDS ...
	s_barrier                                       ; ... and every wave's
	v_mov_b32_e32 v5, 0                             ; lanes 4..63 hold the identity of add
	v_cmp_gt_u32_e32 vcc, 16, v2                    ; lane < 4
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes
	ds_read_b32 v5, v2 offset:16                    ; lane i: wave i's add
	s_mov_b64 exec, s[10:11]                        ; all lanes again (DPP needs them)
	s_waitcnt lgkmcnt(0)
	v_add_f32_dpp v5, v5, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf ; add with lane i^1 -> 2 lanes
	s_nop 1                                         ; DPP reads a VGPR a VALU just wrote: 2 wait states
	v_add_f32_dpp v5, v5, v5 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf ; add with lane i^2 -> 4 lanes
	s_nop 0                                         ; v_readlane reads a VGPR a VALU just wrote: 1 wait state (gfx940)
	v_readlane_b32 s13, v5, 0                       ; lane 0 holds the result: s13, one value for the wave
	s_nop 1                                         ; a VALU reading s13, which a VALU wrote, waits 2 states (gfx940)

	; -- 3. y = e * (1 / sum), stored
	v_rcp_f32_e32 v5, s13                           ; 1 / sum (the same in every lane)
	s_nop 0                                         ; a VALU reading a transcendental's result waits 1 state (gfx940)
	v_mul_f32_e32 v6, v6, v5                        ; y = e * (1 / sum)
	v_mul_f32_e32 v7, v7, v5
	v_mul_f32_e32 v8, v8, v5
	v_mul_f32_e32 v9, v9, v5
	v_mul_f32_e32 v10, v10, v5
	v_mul_f32_e32 v11, v11, v5
	v_mul_f32_e32 v12, v12, v5
	v_mul_f32_e32 v13, v13, v5
	v_mul_f32_e32 v14, v14, v5
	v_mul_f32_e32 v15, v15, v5
	v_mul_f32_e32 v16, v16, v5
	v_mul_f32_e32 v17, v17, v5
	v_mul_f32_e32 v18, v18, v5
	v_mul_f32_e32 v19, v19, v5
	v_mul_f32_e32 v20, v20, v5
	v_mul_f32_e32 v21, v21, v5
	global_store_dword v1, v6, s[6:7]               ; y[r][0 + tid]
	global_store_dword v1, v7, s[6:7] offset:1024   ; y[r][256 + tid]
	global_store_dword v1, v8, s[6:7] offset:2048   ; y[r][512 + tid]
	global_store_dword v1, v9, s[6:7] offset:3072   ; y[r][768 + tid]
	v_add_u32_e32 v4, 4096, v1                      ; + 4096 bytes: too big for the offset field
	global_store_dword v4, v10, s[6:7]              ; y[r][1024 + tid]
	v_add_u32_e32 v4, 5120, v1                      ; + 5120 bytes: too big for the offset field
	global_store_dword v4, v11, s[6:7]              ; y[r][1280 + tid]
	v_add_u32_e32 v4, 6144, v1                      ; + 6144 bytes: too big for the offset field
	global_store_dword v4, v12, s[6:7]              ; y[r][1536 + tid]
	v_add_u32_e32 v4, 7168, v1                      ; + 7168 bytes: too big for the offset field
	global_store_dword v4, v13, s[6:7]              ; y[r][1792 + tid]
	v_add_u32_e32 v4, 8192, v1                      ; + 8192 bytes: too big for the offset field
	global_store_dword v4, v14, s[6:7]              ; y[r][2048 + tid]
	v_add_u32_e32 v4, 9216, v1                      ; + 9216 bytes: too big for the offset field
	global_store_dword v4, v15, s[6:7]              ; y[r][2304 + tid]
	v_add_u32_e32 v4, 10240, v1                     ; + 10240 bytes: too big for the offset field
	global_store_dword v4, v16, s[6:7]              ; y[r][2560 + tid]
	v_add_u32_e32 v4, 11264, v1                     ; + 11264 bytes: too big for the offset field
	global_store_dword v4, v17, s[6:7]              ; y[r][2816 + tid]
	v_add_u32_e32 v4, 12288, v1                     ; + 12288 bytes: too big for the offset field
	global_store_dword v4, v18, s[6:7]              ; y[r][3072 + tid]
	v_add_u32_e32 v4, 13312, v1                     ; + 13312 bytes: too big for the offset field
	global_store_dword v4, v19, s[6:7]              ; y[r][3328 + tid]
	v_add_u32_e32 v4, 14336, v1                     ; + 14336 bytes: too big for the offset field
	global_store_dword v4, v20, s[6:7]              ; y[r][3584 + tid]
	v_add_u32_e32 v4, 15360, v1                     ; + 15360 bytes: too big for the offset field
	global_store_dword v4, v21, s[6:7]              ; y[r][3840 + tid]
	s_endpgm
	.size softmax_1024x4096_b256, .-softmax_1024x4096_b256

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel softmax_1024x4096_b256
		.amdhsa_group_segment_fixed_size 32
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 22
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 24
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
