; gpusim-launch: grid=304,1,1 block=512,1,1
; gpusim-arg: src buffer u32[1024] init=randint(0,256) seed=1
; gpusim-arg: out buffer u32[155648] out
; gpusim-check: out == np.tile(256 * src[:1024].reshape(4, 64, 4)[:, :, :4].sum(axis=(0, 2)), 2432)
; LDS read bandwidth: ds_read_b128, 1024 reads per wave (256 trips of 4), 304 workgroups of 8 waves
; lane l reads 16 bytes at word l * 4 of a row (256 words); 4 rows, 1024 bytes apart
; LDS model: 8 groups of 8 lanes, 8 clocks per read (conflict-free; 8 is the minimum)
; bytes read from LDS: 2550136832; LDS filled from src (4096 bytes) first
; out[thread] = the sum of every u32 the thread read (the check recomputes it)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl lds_read_b128_s4_w8
	.p2align 8
	.type lds_read_b128_s4_w8,@function
lds_read_b128_s4_w8:
	s_load_dwordx2 s[4:5], s[0:1], 0x0              ; src: the values to put in LDS
	s_load_dwordx2 s[6:7], s[0:1], 0x8              ; out: one sum per thread

	; -- fill the LDS: thread tid copies dwords tid, tid + 512, ... (2 trips)
	v_lshlrev_b32_e32 v1, 2, v0                     ; tid * 4: the same byte offset in src and in LDS
	s_mov_b32 s8, 2                                 ; trips left
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
.Lfill:
	global_load_dword v2, v1, s[4:5]                ; src[i]
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2                             ; lds[i] = src[i]
	v_add_u32_e32 v1, 2048, v1                      ; i += 512
	s_sub_u32 s8, s8, 1
	s_cmp_lg_u32 s8, 0
	s_cbranch_scc1 .Lfill
	s_waitcnt lgkmcnt(0)                            ; this wave's writes are in LDS ...
	s_barrier                                       ; ... and after the barrier every wave's are

	; -- each lane's read address: word lane * 4 (lanes side by side)
	v_and_b32_e32 v3, 63, v0                        ; lane = tid % 64: every wave reads the same rows
	v_mul_u32_u24_e32 v3, 16, v3                    ; lane * 4 words * 4 bytes
	v_mov_b32_e32 v4, 0                             ; sum = 0
	s_mov_b32 s9, 256                               ; trips left
.Lread:
	ds_read_b128 v[8:11], v3                        ; row 0: 8 LDS clocks
	ds_read_b128 v[12:15], v3 offset:1024           ; row 1
	ds_read_b128 v[16:19], v3 offset:2048           ; row 2
	ds_read_b128 v[20:23], v3 offset:3072           ; row 3
	s_waitcnt lgkmcnt(3)                            ; read 0 is back (LDS returns in order)
	v_add3_u32 v4, v4, v8, v9                       ; sum += two dwords read
	v_add3_u32 v4, v4, v10, v11
	s_waitcnt lgkmcnt(2)                            ; read 1 is back (LDS returns in order)
	v_add3_u32 v4, v4, v12, v13                     ; sum += two dwords read
	v_add3_u32 v4, v4, v14, v15
	s_waitcnt lgkmcnt(1)                            ; read 2 is back (LDS returns in order)
	v_add3_u32 v4, v4, v16, v17                     ; sum += two dwords read
	v_add3_u32 v4, v4, v18, v19
	s_waitcnt lgkmcnt(0)                            ; read 3 is back (LDS returns in order)
	v_add3_u32 v4, v4, v20, v21                     ; sum += two dwords read
	v_add3_u32 v4, v4, v22, v23
	s_sub_u32 s9, s9, 1
	s_cmp_lg_u32 s9, 0
	s_cbranch_scc1 .Lread

	; -- out[workgroup * block + tid] = sum
	s_mul_i32 s10, s2, 2048                         ; workgroup id * 2048 bytes
	s_add_u32 s6, s6, s10                           ; out += this workgroup's first thread
	s_addc_u32 s7, s7, 0
	v_lshlrev_b32_e32 v5, 2, v0                     ; tid * 4
	global_store_dword v5, v4, s[6:7]
	s_endpgm
	.size lds_read_b128_s4_w8, .-lds_read_b128_s4_w8

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel lds_read_b128_s4_w8
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 24
		.amdhsa_next_free_sgpr 11
		.amdhsa_accum_offset 24
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
