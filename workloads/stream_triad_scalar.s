; gpusim-launch: grid=65536,1,1 block=256,1,1
; gpusim-arg: a buffer f32[16777216] out
; gpusim-arg: b buffer f32[16777216] init=uniform(-1,1) seed=2
; gpusim-arg: c buffer f32[16777216] init=uniform(-1,1) seed=3
; gpusim-arg: s f32 3.0
; gpusim-check: a ~= b + s * c rtol=1e-6 atol=1e-6
; STREAM triad: a = b + s * c over 16777216 f32 elements (12 bytes of traffic per element, 201326592 in all)
; each load: global_load_dword (1 dword per lane, 256 contiguous bytes per wave); 1 load per array in flight per thread
; chunk = block * vec * unroll = 256 * 1 * 1 = 256 elements (1024 bytes per array); 65536 chunks
; one chunk per workgroup: grid = 65536 workgroups of 256
; thread t, load j: elements chunk_start + j * block * vec + t * vec, ... + vec - 1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl stream_triad_v1_u1
	.p2align 8
	.type stream_triad_v1_u1,@function
stream_triad_v1_u1:
	; -- per workgroup (scalar unit): the array pointers, moved to this workgroup's first chunk
	s_load_dwordx2 s[4:5], s[0:1], 0x0              ; a (written)
	s_load_dwordx2 s[6:7], s[0:1], 0x8              ; b (read)
	s_load_dwordx2 s[8:9], s[0:1], 0x10             ; c (read)
	s_load_dword s10, s[0:1], 0x18                  ; the scalar s
	s_mul_i32 s11, s2, 1024                         ; workgroup id * 1024 bytes per chunk
	; -- per thread (vector unit): its byte offset within a chunk, for each of the U loads
	v_lshlrev_b32_e32 v1, 2, v0                     ; t * 4 bytes: lanes side by side
	s_waitcnt lgkmcnt(0)                            ; the pointers have arrived
	s_add_u32 s4, s4, s11                           ; a += chunk offset (low word ...
	s_addc_u32 s5, s5, 0                            ; ... and the carry)
	s_add_u32 s6, s6, s11                           ; b += chunk offset (low word ...
	s_addc_u32 s7, s7, 0                            ; ... and the carry)
	s_add_u32 s8, s8, s11                           ; c += chunk offset (low word ...
	s_addc_u32 s9, s9, 0                            ; ... and the carry)

	; -- issue all 2 loads before waiting for any: they are in flight together
	global_load_dword v4, v1, s[6:7]                ; b[chunk + 0 * 256 + t * 1]
	global_load_dword v5, v1, s[8:9]                ; c[chunk + 0 * 256 + t * 1]

	; -- as each load's data arrives: b + s * c, then store. vmcnt counts loads and stores
	;    together and they complete in issue order, so vmcnt(k) means 'all but the k youngest done'
	s_waitcnt vmcnt(0)                              ; b and c load 0 back; 0 younger ops may still be in flight
	v_fmac_f32_e32 v4, s10, v5                      ; b += s * c (one rounding: fused)
	global_store_dword v1, v4, s[4:5]               ; a[same elements]
	s_endpgm                                        ; the stores need no wait: the wave may end with them in flight
	.size stream_triad_v1_u1, .-stream_triad_v1_u1

	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel stream_triad_v1_u1
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
