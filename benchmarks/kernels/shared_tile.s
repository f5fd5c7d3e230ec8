; Shared-tile read-after-write. Every workgroup stores to the same tile of a
; global scratch buffer (work-item t writes tile[t] = (t + 64) % n, n = the
; workgroup size, a power of two), waits for its stores, meets its barrier, then
; chases LOADS dependent loads through the tile: v starts at t and becomes
; tile[v], so each load waits for the one before and reads the line the next
; wave wrote (the same wave's lines when n = 64). All workgroups re-read the
; same few lines: the access pattern of a kernel that stages a tile in a
; scratch buffer all its workgroups share. benchmarks/shared_tile.py rewrites
; the grid, the block (with n and the tile size) and LOADS.
; gpusim-launch: grid=8,1,1 block=64,1,1
; gpusim-arg: tile buffer u32[64] init=zeros
; gpusim-arg: loads i32 64
; gpusim-arg: mask i32 63
; gpusim-arg: out buffer u32[512] out
; gpusim-check: out == np.tile(np.arange(64), 8)
; gpusim-check: tile == np.arange(64)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl shared_tile
	.p2align 8
	.type shared_tile,@function
shared_tile:
	s_load_dwordx2 s[4:5], s[0:1], 0x0      ; tile
	s_load_dwordx2 s[6:7], s[0:1], 0x8      ; loads, mask
	s_load_dwordx2 s[8:9], s[0:1], 0x10     ; out
	v_lshlrev_b32_e32 v1, 2, v0             ; byte offset of work-item t in the tile
	v_add_u32_e32 v2, 64, v0
	s_waitcnt lgkmcnt(0)
	v_and_b32_e32 v2, s7, v2                ; (t + 64) % n
	global_store_dword v1, v2, s[4:5]       ; tile[t], by every workgroup
	s_waitcnt vmcnt(0)
	s_barrier
	v_mov_b32_e32 v2, v0
.Lchase:
	v_lshlrev_b32_e32 v3, 2, v2
	global_load_dword v2, v3, s[4:5]        ; v = tile[v]: depends on the previous load
	s_waitcnt vmcnt(0)
	s_sub_u32 s6, s6, 1
	s_cmp_lg_u32 s6, 0
	s_cbranch_scc1 .Lchase
	s_add_u32 s7, s7, 1                     ; n
	s_mul_i32 s10, s2, s7                   ; workgroup id * n
	s_lshl_b32 s10, s10, 2
	s_add_u32 s8, s8, s10
	s_addc_u32 s9, s9, 0
	global_store_dword v1, v2, s[8:9]
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel shared_tile
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
