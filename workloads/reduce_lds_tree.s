; gpusim-launch: grid=4096,1,1 block=256,1,1
; gpusim-arg: x buffer f32[16777216] init=uniform(0,1) seed=3
; gpusim-arg: out buffer f32[4096] out
; gpusim-check: out ~= x.reshape(4096, -1).sum(axis=1) rtol=1e-5
; reduce (lds-tree): out[g] = sum of x[g*4096 : (g+1)*4096], 4096 workgroups of 256
; thread tid adds x[g*4096 + k*256 + tid] for k < 16 in registers (coalesced loads), then
; the 256 sums halve through LDS[256] in 8 steps (barriers while >= 128 remain)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl reduce_lds_tree_b256_i16
	.p2align 8
	.type reduce_lds_tree_b256_i16,@function
reduce_lds_tree_b256_i16:
	; -- per workgroup: the slice and the output word
	s_load_dwordx4 s[4:7], s[0:1], 0x0              ; s[4:5] = x, s[6:7] = out
	s_mul_i32 s8, s2, 16384                         ; g * 4096 elements * 4 bytes
	s_lshl_b32 s9, s2, 2                            ; g * 4 bytes: out[g]
	v_lshlrev_b32_e32 v1, 2, v0                     ; tid * 4: this thread's byte offset (and LDS slot)
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
	s_add_u32 s4, s4, s8                            ; x += slice offset (64-bit add: low word ...
	s_addc_u32 s5, s5, 0                            ; ... plus the carry)
	s_add_u32 s6, s6, s9                            ; out += g * 4
	s_addc_u32 s7, s7, 0

	; -- 16 loads per thread, all in flight before the first wait
	global_load_dword v4, v1, s[4:5]                ; x[g*4096 + 0 + tid]
	global_load_dword v5, v1, s[4:5] offset:1024    ; x[g*4096 + 256 + tid]
	global_load_dword v6, v1, s[4:5] offset:2048    ; x[g*4096 + 512 + tid]
	global_load_dword v7, v1, s[4:5] offset:3072    ; x[g*4096 + 768 + tid]
	v_add_u32_e32 v3, 4096, v1                      ; + 4096 bytes: too big for the offset field
	global_load_dword v8, v3, s[4:5]                ; x[g*4096 + 1024 + tid]
	v_add_u32_e32 v3, 5120, v1                      ; + 5120 bytes: too big for the offset field
	global_load_dword v9, v3, s[4:5]                ; x[g*4096 + 1280 + tid]
	v_add_u32_e32 v3, 6144, v1                      ; + 6144 bytes: too big for the offset field
	global_load_dword v10, v3, s[4:5]               ; x[g*4096 + 1536 + tid]
	v_add_u32_e32 v3, 7168, v1                      ; + 7168 bytes: too big for the offset field
	global_load_dword v11, v3, s[4:5]               ; x[g*4096 + 1792 + tid]
	v_add_u32_e32 v3, 8192, v1                      ; + 8192 bytes: too big for the offset field
	global_load_dword v12, v3, s[4:5]               ; x[g*4096 + 2048 + tid]
	v_add_u32_e32 v3, 9216, v1                      ; + 9216 bytes: too big for the offset field
	global_load_dword v13, v3, s[4:5]               ; x[g*4096 + 2304 + tid]
	v_add_u32_e32 v3, 10240, v1                     ; + 10240 bytes: too big for the offset field
	global_load_dword v14, v3, s[4:5]               ; x[g*4096 + 2560 + tid]
	v_add_u32_e32 v3, 11264, v1                     ; + 11264 bytes: too big for the offset field
	global_load_dword v15, v3, s[4:5]               ; x[g*4096 + 2816 + tid]
	v_add_u32_e32 v3, 12288, v1                     ; + 12288 bytes: too big for the offset field
	global_load_dword v16, v3, s[4:5]               ; x[g*4096 + 3072 + tid]
	v_add_u32_e32 v3, 13312, v1                     ; + 13312 bytes: too big for the offset field
	global_load_dword v17, v3, s[4:5]               ; x[g*4096 + 3328 + tid]
	v_add_u32_e32 v3, 14336, v1                     ; + 14336 bytes: too big for the offset field
	global_load_dword v18, v3, s[4:5]               ; x[g*4096 + 3584 + tid]
	v_add_u32_e32 v3, 15360, v1                     ; + 15360 bytes: too big for the offset field
	global_load_dword v19, v3, s[4:5]               ; x[g*4096 + 3840 + tid]
	; -- add them as they arrive (loads return in order)
	s_waitcnt vmcnt(14)                             ; loads 0 and 1 are back
	v_add_f32_e32 v4, v5, v4                        ; sum = x0 + x1 (the sum lives in v4)
	s_waitcnt vmcnt(13)                             ; load 2 is back
	v_add_f32_e32 v4, v6, v4                        ; sum += x2
	s_waitcnt vmcnt(12)                             ; load 3 is back
	v_add_f32_e32 v4, v7, v4                        ; sum += x3
	s_waitcnt vmcnt(11)                             ; load 4 is back
	v_add_f32_e32 v4, v8, v4                        ; sum += x4
	s_waitcnt vmcnt(10)                             ; load 5 is back
	v_add_f32_e32 v4, v9, v4                        ; sum += x5
	s_waitcnt vmcnt(9)                              ; load 6 is back
	v_add_f32_e32 v4, v10, v4                       ; sum += x6
	s_waitcnt vmcnt(8)                              ; load 7 is back
	v_add_f32_e32 v4, v11, v4                       ; sum += x7
	s_waitcnt vmcnt(7)                              ; load 8 is back
	v_add_f32_e32 v4, v12, v4                       ; sum += x8
	s_waitcnt vmcnt(6)                              ; load 9 is back
	v_add_f32_e32 v4, v13, v4                       ; sum += x9
	s_waitcnt vmcnt(5)                              ; load 10 is back
	v_add_f32_e32 v4, v14, v4                       ; sum += x10
	s_waitcnt vmcnt(4)                              ; load 11 is back
	v_add_f32_e32 v4, v15, v4                       ; sum += x11
	s_waitcnt vmcnt(3)                              ; load 12 is back
	v_add_f32_e32 v4, v16, v4                       ; sum += x12
	s_waitcnt vmcnt(2)                              ; load 13 is back
	v_add_f32_e32 v4, v17, v4                       ; sum += x13
	s_waitcnt vmcnt(1)                              ; load 14 is back
	v_add_f32_e32 v4, v18, v4                       ; sum += x14
	s_waitcnt vmcnt(0)                              ; load 15 is back
	v_add_f32_e32 v4, v19, v4                       ; sum += x15

	; -- tree through LDS: LDS[tid] = sum, then 8 halving steps
	ds_write_b32 v1, v4                             ; LDS[tid] = sum
	s_waitcnt lgkmcnt(0)                            ; this wave's word is in LDS ...
	s_barrier                                       ; ... and every wave's
	;    step: threads tid < 128 add LDS[tid + 128]
	v_cmp_gt_u32_e32 vcc, 128, v0                   ; tid < 128
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep128_done                  ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:512                   ; LDS[tid + 128]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep128_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	s_waitcnt lgkmcnt(0)                            ; the next step reads words that waves other than 0 wrote:
	s_barrier                                       ; wait for them
	;    step: threads tid < 64 add LDS[tid + 64]
	v_cmp_gt_u32_e32 vcc, 64, v0                    ; tid < 64
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep64_done                   ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:256                   ; LDS[tid + 64]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep64_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    from here only wave 0 works; the LDS runs its instructions in order: no barriers
	;    step: threads tid < 32 add LDS[tid + 32]
	v_cmp_gt_u32_e32 vcc, 32, v0                    ; tid < 32
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep32_done                   ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:128                   ; LDS[tid + 32]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep32_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    step: threads tid < 16 add LDS[tid + 16]
	v_cmp_gt_u32_e32 vcc, 16, v0                    ; tid < 16
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep16_done                   ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:64                    ; LDS[tid + 16]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep16_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    step: threads tid < 8 add LDS[tid + 8]
	v_cmp_gt_u32_e32 vcc, 8, v0                     ; tid < 8
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep8_done                    ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:32                    ; LDS[tid + 8]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep8_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    step: threads tid < 4 add LDS[tid + 4]
	v_cmp_gt_u32_e32 vcc, 4, v0                     ; tid < 4
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep4_done                    ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:16                    ; LDS[tid + 4]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep4_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    step: threads tid < 2 add LDS[tid + 2]
	v_cmp_gt_u32_e32 vcc, 2, v0                     ; tid < 2
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep2_done                    ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:8                     ; LDS[tid + 2]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
	ds_write_b32 v1, v4                             ; LDS[tid] = sum, for the next step
.Lstep2_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again
	;    step: threads tid < 1 add LDS[tid + 1]
	v_cmp_gt_u32_e32 vcc, 1, v0                     ; tid < 1
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = those lanes (old EXEC saved)
	s_cbranch_execz .Lstep1_done                    ; a wave with none of them skips the step
	ds_read_b32 v2, v1 offset:4                     ; LDS[tid + 1]
	s_waitcnt lgkmcnt(0)                            ; one LDS round trip per step
	v_add_f32_e32 v4, v2, v4                        ; sum += LDS[tid + s]
.Lstep1_done:
	s_mov_b64 exec, s[10:11]                        ; all lanes again

	; -- thread 0 writes the workgroup's sum
	v_mov_b32_e32 v2, 0                             ; address offset 0: out was moved to out[g]
	v_cmp_eq_u32_e32 vcc, 0, v0                     ; tid == 0
	s_and_saveexec_b64 s[10:11], vcc                ; EXEC = that one lane
	global_store_dword v2, v4, s[6:7]               ; out[g] = sum
.Lend:
	s_endpgm
	.size reduce_lds_tree_b256_i16, .-reduce_lds_tree_b256_i16

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel reduce_lds_tree_b256_i16
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 20
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 20
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
