; gpusim-launch: grid=16384,1,1 block=256,1,1
; gpusim-arg: a buffer f32[16777216] init=uniform(-1,1) seed=1
; gpusim-arg: b buffer f32[16777216] out
; gpusim-check: b == a
; STREAM copy: b = a over 16777216 f32 elements (8 bytes of traffic per element, 134217728 in all)
; each load: global_load_dwordx4 (4 dwords per lane, 1024 contiguous bytes per wave); 1 load per array in flight per thread
; chunk = block * vec * unroll = 256 * 4 * 1 = 1024 elements (4096 bytes per array); 16384 chunks
; one chunk per workgroup: grid = 16384 workgroups of 256
; thread t, load j: elements chunk_start + j * block * vec + t * vec, ... + vec - 1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl stream_copy_v4_u1
	.p2align 8
	.type stream_copy_v4_u1,@function
stream_copy_v4_u1:
	; -- per workgroup (scalar unit): the array pointers, moved to this workgroup's first chunk
	s_load_dwordx2 s[4:5], s[0:1], 0x0              ; a (read)
	s_load_dwordx2 s[6:7], s[0:1], 0x8              ; b (written)
	s_mul_i32 s11, s2, 4096                         ; workgroup id * 4096 bytes per chunk
	; -- per thread (vector unit): its byte offset within a chunk, for each of the U loads
	v_lshlrev_b32_e32 v1, 4, v0                     ; t * 16 bytes: lanes side by side
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
	s_add_u32 s4, s4, s11                           ; a += chunk offset (low word ...
	s_addc_u32 s5, s5, 0                            ; ... and the carry)
	s_add_u32 s6, s6, s11                           ; b += chunk offset (low word ...
	s_addc_u32 s7, s7, 0                            ; ... and the carry)

	; -- issue all 1 loads before waiting for any: they are in flight together
	global_load_dwordx4 v[4:7], v1, s[4:5]          ; a[chunk + 0 * 1024 + t * 4] .. + 3

	; -- as each load's data arrives: (copy: nothing to compute), then store. vmcnt counts loads and stores
	;    together and they complete in issue order, so vmcnt(k) means 'all but the k youngest done'
	s_waitcnt vmcnt(0)                              ; a load 0 back; 0 younger ops may still be in flight
	global_store_dwordx4 v1, v[4:7], s[6:7]         ; b[same elements]
	s_endpgm                                        ; the stores need no wait: the wave may end with them in flight
	.size stream_copy_v4_u1, .-stream_copy_v4_u1

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel stream_copy_v4_u1
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
