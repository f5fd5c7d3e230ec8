; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: next buffer u32[8192,32] init=cycle_offsets seed=1
; gpusim-arg: steps i32 65536
; gpusim-arg: out buffer u32[1] out
; gpusim-check: out[0] == 128 * (e := steps % next.shape[0], p := (next[:, 0] // 128).astype(i64), r := 0, r := p[r] if e >> 0 & 1 else r, p := p[p], r := p[r] if e >> 1 & 1 else r, p := p[p], r := p[r] if e >> 2 & 1 else r, p := p[p], r := p[r] if e >> 3 & 1 else r, p := p[p], r := p[r] if e >> 4 & 1 else r, p := p[p], r := p[r] if e >> 5 & 1 else r, p := p[p], r := p[r] if e >> 6 & 1 else r, p := p[p], r := p[r] if e >> 7 & 1 else r, p := p[p], r := p[r] if e >> 8 & 1 else r, p := p[p], r := p[r] if e >> 9 & 1 else r, p := p[p], r := p[r] if e >> 10 & 1 else r, p := p[p], r := p[r] if e >> 11 & 1 else r, p := p[p], r := p[r] if e >> 12 & 1 else r)[-1]
; pointer chase: one lane, 65536 dependent loads over 8192 elements 128 bytes apart (footprint 1048576 bytes)
; next is a random single cycle (init=cycle_offsets): each element holds the next one's byte offset, so a loaded value is the next load's address as it is
; 32 loads per trip with only their s_waitcnt between them (as the published gpu-latency benchmark and benchmarks/kernels/pointer_chase.s); steps % 32 more one per trip
; check: out[0] is next applied `steps` times from 0 (pointer doubling replays the chase)
; latency: (cycles(steps2) - cycles(steps1)) / (steps2 - steps1) over two runs (--arg steps=N, multiples of 32)
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl chase_1048576b_s128
	.p2align 8
	.type chase_1048576b_s128,@function
chase_1048576b_s128:
	s_load_dwordx2 s[4:5], s[0:1], 0x0              ; next: the header's single cycle of byte offsets
	s_load_dword s6, s[0:1], 0x8                    ; steps
	s_load_dwordx2 s[8:9], s[0:1], 0x10             ; out: where the final offset goes
	s_mov_b64 exec, 1                               ; exec = lane 0: one address per load, one cache line touched
	v_mov_b32_e32 v1, 0                             ; the chase starts at element 0
	v_mov_b32_e32 v3, 0                             ; offset 0, for the final store
	s_waitcnt lgkmcnt(0)                            ; the pointers and steps have arrived
	s_lshr_b32 s7, s6, 5                            ; trips of 32 loads
	s_and_b32 s6, s6, 31                            ; the steps left after them
	s_cmp_eq_u32 s7, 0
	s_cbranch_scc1 .Lrest

	; -- the chase, 32 dependent loads per trip: nothing between two but the wait
.Lchase:
	global_load_dword v1, v1, s[4:5]                ; offset = next's value at offset: the next load's address
	s_sub_u32 s7, s7, 1                             ; the trip's counter work, issued under its first load
	s_cmp_lg_u32 s7, 0
	s_waitcnt vmcnt(0)                              ; load-to-use: nothing to do but wait
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .Lchase

	; -- the last steps % 32, one per trip
.Lrest:
	s_cmp_eq_u32 s6, 0
	s_cbranch_scc1 .Ldone
.Lone:
	global_load_dword v1, v1, s[4:5]
	s_sub_u32 s6, s6, 1
	s_cmp_lg_u32 s6, 0
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .Lone
.Ldone:
	global_store_dword v3, v1, s[8:9]               ; out[0] = the final offset
	s_endpgm
	.size chase_1048576b_s128, .-chase_1048576b_s128

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel chase_1048576b_s128
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
