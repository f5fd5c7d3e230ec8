; A kernel that corrupts its hostcall buffer (gpusim.exec.hostcall) and rings the doorbell: the ready stack
; names packet 1 (a one-wave grid's buffer holds packets 0 and 1), whose next names packet 1 again, with every
; lane active and SERVICE_PRINTF, and the printf log's count of used words set to -2**60; then s_sendmsg
; sendmsg(MSG_INTERRUPT). The host gpusim plays must stop walking the cycle, log nothing, answer, and let the
; kernel end; the wave then reads packet 1's control word back: the host cleared its ready flag.
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
; gpusim-check: dst == 0
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl hostcall_cycle
	.p2align 8
	.type hostcall_cycle,@function
hostcall_cycle:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; dst, then the hostcall buffer
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v2, 1
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, -1
	v_mov_b32_e32 v5, -1
	v_mov_b32_e32 v6, 2
	v_mov_b32_e32 v7, 1
	s_waitcnt lgkmcnt(0)
	s_load_dwordx2 s[8:9], s[6:7], 0x0       ; the packet headers
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v1, v[2:3], s[8:9] offset:24    ; packet 1: next = 1 (a cycle)
	global_store_dwordx2 v1, v[4:5], s[8:9] offset:32    ; every lane active
	global_store_dwordx2 v1, v[6:7], s[8:9] offset:40    ; SERVICE_PRINTF, the ready flag set
	global_store_dwordx2 v1, v[2:3], s[6:7] offset:32    ; the ready stack: packet 1
	v_mov_b32_e32 v10, 0
	v_mov_b32_e32 v11, 0xf0000000
	global_store_dwordx2 v1, v[10:11], s[6:7] offset:120 ; the log's used words: -2**60
	s_waitcnt vmcnt(0)
	s_sendmsg sendmsg(MSG_INTERRUPT)
	global_load_dword v8, v1, s[8:9] offset:44 sc0 sc1   ; packet 1's control word
	v_lshlrev_b32_e32 v9, 2, v0
	s_waitcnt vmcnt(0)
	global_store_dword v9, v8, s[4:5]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel hostcall_cycle
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 12
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           8
        .value_kind:     hidden_hostcall_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           hostcall_cycle
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         hostcall_cycle.kd
    .vgpr_count:     12
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
