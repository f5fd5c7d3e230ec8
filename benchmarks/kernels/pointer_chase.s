; Single-lane pointer chase as the published MI300X latency figures measure it ([H] in cdna-facts.md:
; the gpu-latency benchmark of gpu-benches): a random single cycle of elements 64 bytes apart, chased by
; dependent loads with nothing between two of them but the load and its wait, unrolled 32 deep. `next`
; holds byte offsets (init=cycle_offsets: row i's first u32 is the offset of the row after it in the
; cycle; a row is 16 u32 = 64 bytes), so the loaded value is the next load's offset as it is:
; `global_load_dword v1, v1, s[4:5]` then `s_waitcnt vmcnt(0)`, 32 times per trip. The trip's counter
; work is issued while its first load is in flight, and its one branch is shared by 32 loads.
; STEPS must be a multiple of 32. benchmarks/latency_ladder.py rewrites the rows (footprint / 64) and
; STEPS and only times the chase; the check below is written for the header's 128 rows.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: next buffer u32[128,16] init=cycle_offsets seed=1
; gpusim-arg: steps i32 4096
; gpusim-arg: out buffer u32[1] out
; gpusim-check: out[0] == 64 * (e := steps % next.shape[0], p := (next[:, 0] // 64).astype(i64), r := 0, r := p[r] if e >> 0 & 1 else r, p := p[p], r := p[r] if e >> 1 & 1 else r, p := p[p], r := p[r] if e >> 2 & 1 else r, p := p[p], r := p[r] if e >> 3 & 1 else r, p := p[p], r := p[r] if e >> 4 & 1 else r, p := p[p], r := p[r] if e >> 5 & 1 else r, p := p[p], r := p[r] if e >> 6 & 1 else r)[-1]
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl pointer_chase
	.p2align 8
	.type pointer_chase,@function
pointer_chase:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        ; next
	s_load_dword s6, s[0:1], 0x8              ; steps
	s_load_dwordx2 s[8:9], s[0:1], 0x10       ; out
	s_mov_b64 exec, 1                         ; lane 0 alone: one address per load
	v_mov_b32_e32 v1, 0                       ; the chase starts at offset 0
	v_mov_b32_e32 v3, 0
	s_waitcnt lgkmcnt(0)
.Lchase:
	global_load_dword v1, v1, s[4:5]          ; load 1: v1 = next's offset
	s_sub_u32 s6, s6, 32                      ; the trip's counter work, issued under load 1
	s_cmp_gt_i32 s6, 0
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 2: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 3: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 4: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 5: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 6: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 7: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 8: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 9: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 10: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 11: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 12: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 13: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 14: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 15: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 16: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 17: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 18: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 19: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 20: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 21: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 22: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 23: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 24: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 25: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 26: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 27: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 28: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 29: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 30: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 31: v1 = next's offset
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[4:5]          ; load 32: v1 = next's offset
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .Lchase
	global_store_dword v3, v1, s[8:9]         ; out[0] = the final offset
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel pointer_chase
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
