; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: next buffer u32[8192] init=cycle seed=1
; gpusim-arg: steps i32 65536
; gpusim-arg: out buffer u32[1] out
; gpusim-arg: table buffer u32[8192,32] out
; gpusim-check: out[0] == (e := steps % next.size, p := next.astype(i64), r := 0, r := p[r] if e >> 0 & 1 else r, p := p[p], r := p[r] if e >> 1 & 1 else r, p := p[p], r := p[r] if e >> 2 & 1 else r, p := p[p], r := p[r] if e >> 3 & 1 else r, p := p[p], r := p[r] if e >> 4 & 1 else r, p := p[p], r := p[r] if e >> 5 & 1 else r, p := p[p], r := p[r] if e >> 6 & 1 else r, p := p[p], r := p[r] if e >> 7 & 1 else r, p := p[p], r := p[r] if e >> 8 & 1 else r, p := p[p], r := p[r] if e >> 9 & 1 else r, p := p[p], r := p[r] if e >> 10 & 1 else r, p := p[p], r := p[r] if e >> 11 & 1 else r, p := p[p], r := p[r] if e >> 12 & 1 else r)[-1]
; gpusim-check: table[:, 0] == next
; pointer chase: one lane, 65536 dependent loads over 8192 elements 128 bytes apart (footprint 1048576 bytes)
; next is a random single cycle: from 0 the chase visits every element once per pass
; the kernel first copies next[j] to table[j][0] (table is u32[8192][32]: one element per 128 bytes), then chases table
; check: out[0] is next applied `steps` times to 0 (pointer doubling replays the chase)
; latency: (cycles(steps2) - cycles(steps1)) / (steps2 - steps1) over two runs (--arg steps=N)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl chase_1048576b_s128
	.p2align 8
	.type chase_1048576b_s128,@function
chase_1048576b_s128:
	s_load_dwordx2 s[4:5], s[0:1], 0x0              ; next: the header's single-cycle permutation
	s_load_dword s6, s[0:1], 0x8                    ; steps
	s_load_dwordx2 s[8:9], s[0:1], 0x10             ; out: where the final index goes
	s_load_dwordx2 s[10:11], s[0:1], 0x18           ; table: the elements, stride bytes apart

	; -- copy next[j] to table[j * 32]: all 64 lanes, lane l takes j = l, l + 64, ... (128 trips)
	v_lshlrev_b32_e32 v4, 2, v0                     ; j * 4: next[j]
	v_lshlrev_b32_e32 v5, 7, v0                     ; j * 128: table[j][0]
	s_mov_b32 s7, 128                               ; trips left
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
.Lcopy:
	global_load_dword v6, v4, s[4:5]                ; next[j]
	s_waitcnt vmcnt(0)
	global_store_dword v5, v6, s[10:11]             ; table[j][0] = next[j]
	v_add_u32_e32 v4, 256, v4                       ; j += 64
	v_add_u32_e32 v5, 8192, v5
	s_sub_u32 s7, s7, 1
	s_cmp_lg_u32 s7, 0
	s_cbranch_scc1 .Lcopy
	s_waitcnt vmcnt(0)                              ; every store is in the L2 before the chase reads it

	; -- the chase: lane 0 alone
	s_mov_b64 exec, 1                               ; exec = lane 0: one address per load, one cache line touched
	v_mov_b32_e32 v1, 0                             ; i = 0: the chase starts at element 0
	v_mov_b32_e32 v3, 0                             ; offset 0, for the final store
.Lchase:
	v_lshlrev_b32_e32 v2, 7, v1                     ; i * 128: element i's byte offset
	global_load_dword v1, v2, s[10:11]              ; i = next[i]: the address of the next load is this load's data
	s_waitcnt vmcnt(0)                              ; load-to-use: nothing to do but wait
	s_sub_u32 s6, s6, 1                             ; loop bookkeeping: these 3 run after the wait, part of each step
	s_cmp_lg_u32 s6, 0
	s_cbranch_scc1 .Lchase
	global_store_dword v3, v1, s[8:9]               ; out[0] = the final index
	s_endpgm
	.size chase_1048576b_s128, .-chase_1048576b_s128

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel chase_1048576b_s128
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
