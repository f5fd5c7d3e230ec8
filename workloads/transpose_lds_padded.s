; gpusim-launch: grid=128,128,1 block=256,1,1
; gpusim-arg: a buffer f32[4096,4096] init=uniform(-1,1) seed=7
; gpusim-arg: b buffer f32[4096,4096] out
; gpusim-check: b == a.T
; transpose (lds-padded): b = a.T, a is 4096x4096 f32, b is 4096x4096
; workgroup (bx, by) of the 128x128 grid moves the 32x32 tile at a[by*32][bx*32] to b[bx*32][by*32]
; thread tid: tx = tid % 32, ty = tid / 32; 256 threads cover 8 tile rows per pass, 4 passes (rows ty + 8k)
; LDS tile [32][33] (4224 bytes): written by rows, read by columns;
; rows padded to 33 words put a column's 32 words on 32 banks: no conflicts
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl transpose_lds_padded_4096x4096_t32
	.p2align 8
	.type transpose_lds_padded_4096x4096_t32,@function
transpose_lds_padded_4096x4096_t32:
	; -- notes index a and b from the tile's corner: a[ty][tx] is a[by*T + ty][bx*T + tx]
	; -- per workgroup (scalar unit, once): the arguments and where this tile starts
	s_load_dwordx4 s[4:7], s[0:1], 0x0              ; s[4:5] = a, s[6:7] = b
	s_mul_i32 s8, s3, 524288                        ; by * 32 rows * 16384 bytes per row of a
	s_lshl_b32 s9, s2, 7                            ; bx * 32 columns * 4 bytes
	s_add_u32 s8, s8, s9                            ; byte offset of a[by*T][bx*T]
	s_mul_i32 s10, s2, 524288                       ; bx * 32 rows * 16384 bytes per row of b
	s_lshl_b32 s11, s3, 7                           ; by * 32 columns * 4 bytes
	s_add_u32 s10, s10, s11                         ; byte offset of b[bx*T][by*T]
	; -- per thread (vector unit): its place in the tile
	v_and_b32_e32 v1, 31, v0                        ; tx = tid % 32
	v_lshrrev_b32_e32 v2, 5, v0                     ; ty = tid / 32
	s_mov_b32 s12, 4096                             ; C, the row length of a
	v_mad_u32_u24 v3, v2, s12, v1                   ; ty * C + tx: a[ty][tx] within the tile
	v_lshlrev_b32_e32 v3, 2, v3                     ; ... in bytes
	s_mov_b32 s13, 4096                             ; R, the row length of b
	v_mad_u32_u24 v4, v2, s13, v1                   ; ty * R + tx: b[ty][tx], a row of b (coalesced)
	v_lshlrev_b32_e32 v4, 2, v4                     ; ... in bytes
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
	s_add_u32 s4, s4, s8                            ; a += tile offset (64-bit: low word ...
	s_addc_u32 s5, s5, 0                            ; ... plus the carry)
	s_add_u32 s6, s6, s10                           ; b += tile offset
	s_addc_u32 s7, s7, 0

	; -- read the tile: 4 coalesced loads per thread, all in flight before the first wait
	global_load_dword v8, v3, s[4:5]                ; a[ty + 0][tx]
	v_add_u32_e32 v7, 131072, v3                    ; + 131072 bytes: too big for the offset field
	global_load_dword v9, v7, s[4:5]                ; a[ty + 8][tx]
	v_add_u32_e32 v7, 262144, v3                    ; + 262144 bytes: too big for the offset field
	global_load_dword v10, v7, s[4:5]               ; a[ty + 16][tx]
	v_add_u32_e32 v7, 393216, v3                    ; + 393216 bytes: too big for the offset field
	global_load_dword v11, v7, s[4:5]               ; a[ty + 24][tx]

	; -- into LDS by rows: tile[ty + 8k][tx] is word (ty + 8k) * 33 + tx
	;    32 lanes write 32 consecutive words, one per bank: conflict-free
	s_movk_i32 s14, 33                              ; the LDS row stride in words (VOP3 takes no literal: an SGPR)
	v_mad_u32_u24 v5, v2, s14, v1                   ; ty * 33 + tx
	v_lshlrev_b32_e32 v5, 2, v5                     ; ... in bytes
	s_waitcnt vmcnt(3)                              ; load 0 is back (loads return in order)
	ds_write_b32 v5, v8                             ; tile[ty + 0][tx]
	s_waitcnt vmcnt(2)                              ; load 1 is back (loads return in order)
	ds_write_b32 v5, v9 offset:1056                 ; tile[ty + 8][tx]
	s_waitcnt vmcnt(1)                              ; load 2 is back (loads return in order)
	ds_write_b32 v5, v10 offset:2112                ; tile[ty + 16][tx]
	s_waitcnt vmcnt(0)                              ; load 3 is back (loads return in order)
	ds_write_b32 v5, v11 offset:3168                ; tile[ty + 24][tx]
	s_waitcnt lgkmcnt(0)                            ; this wave's writes are in LDS ...
	s_barrier                                       ; ... and after the barrier every wave's are

	; -- out of LDS by columns: tile[tx][ty + 8k] is word tx * 33 + ty + 8k; lanes tx, tx+1
	;    are 33 words apart and 33 % 32 = 1 spreads 32 lanes over all 32 banks: conflict-free
	v_mad_u32_u24 v6, v1, s14, v2                   ; tx * 33 + ty
	v_lshlrev_b32_e32 v6, 2, v6                     ; ... in bytes
	ds_read_b32 v8, v6                              ; tile[tx][ty + 0], which is a[tx][ty + 0]
	ds_read_b32 v9, v6 offset:32                    ; tile[tx][ty + 8], which is a[tx][ty + 8]
	ds_read_b32 v10, v6 offset:64                   ; tile[tx][ty + 16], which is a[tx][ty + 16]
	ds_read_b32 v11, v6 offset:96                   ; tile[tx][ty + 24], which is a[tx][ty + 24]

	; -- write rows of b: lanes tx, tx+1 write consecutive words (coalesced)
	s_waitcnt lgkmcnt(3)                            ; LDS read 0 is back (LDS returns in order)
	global_store_dword v4, v8, s[6:7]               ; b[ty + 0][tx]
	s_waitcnt lgkmcnt(2)                            ; LDS read 1 is back (LDS returns in order)
	v_add_u32_e32 v7, 131072, v4                    ; + 131072 bytes: too big for the offset field
	global_store_dword v7, v9, s[6:7]               ; b[ty + 8][tx]
	s_waitcnt lgkmcnt(1)                            ; LDS read 2 is back (LDS returns in order)
	v_add_u32_e32 v7, 262144, v4                    ; + 262144 bytes: too big for the offset field
	global_store_dword v7, v10, s[6:7]              ; b[ty + 16][tx]
	s_waitcnt lgkmcnt(0)                            ; LDS read 3 is back (LDS returns in order)
	v_add_u32_e32 v7, 393216, v4                    ; + 393216 bytes: too big for the offset field
	global_store_dword v7, v11, s[6:7]              ; b[ty + 24][tx]
	s_endpgm
	.size transpose_lds_padded_4096x4096_t32, .-transpose_lds_padded_4096x4096_t32

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel transpose_lds_padded_4096x4096_t32
		.amdhsa_group_segment_fixed_size 4224
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 15
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
