; Single-lane pointer chase as clang-19 compiles it (benchmarks/kernels/pointer_chase_clang.cl):
;   clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 -S
; The compiler's loop: 32 dependent `global_load_dword v1, v1, s[2:3]`, each followed by its
; `s_waitcnt vmcnt(0)` (`next` holds byte offsets, so a load's value is the next load's offset), the
; trip counter's SALU work issued under the first load, one branch per 32 loads: the shape of the
; published gpu-latency kernel ([H] in cdna-facts.md). The hand-written pointer_chase.s is the same chain
; over the same table (elements 64 bytes apart, init=cycle_offsets on rows of 16 u32).
; One work-item, so the offset stays in a VGPR (a workgroup-uniform one compiles to an s_load chase).
; STEPS must be a multiple of 32. benchmarks/latency_ladder.py rewrites the rows (footprint / 64) and
; STEPS and only times the chase; the check below is written for the header's 128 rows.
; gpusim-launch: grid=1,1,1 block=1,1,1
; gpusim-arg: next buffer u32[128,16] init=cycle_offsets seed=1
; gpusim-arg: steps i32 4096
; gpusim-arg: out buffer u32[1] out
; gpusim-check: out[0] == 64 * (e := steps % next.shape[0], p := (next[:, 0] // 64).astype(i64), r := 0, r := p[r] if e >> 0 & 1 else r, p := p[p], r := p[r] if e >> 1 & 1 else r, p := p[p], r := p[r] if e >> 2 & 1 else r, p := p[p], r := p[r] if e >> 3 & 1 else r, p := p[p], r := p[r] if e >> 4 & 1 else r, p := p[p], r := p[r] if e >> 5 & 1 else r, p := p[p], r := p[r] if e >> 6 & 1 else r)[-1]
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.protected	pointer_chase           ; -- Begin function pointer_chase
	.globl	pointer_chase
	.p2align	8
	.type	pointer_chase,@function
pointer_chase:                          ; @pointer_chase
; %bb.0:
	s_load_dword s4, s[0:1], 0x8
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s4, 1
	s_cbranch_scc1 .LBB0_4
; %bb.1:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_mov_b32 s5, 0
	v_mov_b32_e32 v1, v0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_add_i32 s5, s5, 32
	s_cmp_lt_i32 s5, s4
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_waitcnt vmcnt(0)
	global_load_dword v1, v1, s[2:3]
	s_cbranch_scc1 .LBB0_2
; %bb.3:
	s_load_dwordx2 s[0:1], s[0:1], 0x10
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
	s_endpgm
.LBB0_4:
	v_mov_b32_e32 v1, v0
	s_load_dwordx2 s[0:1], s[0:1], 0x10
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel pointer_chase
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	pointer_chase, .Lfunc_end0-pointer_chase
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 492
; NumSgprs: 12
; NumVgprs: 2
; NumAgprs: 0
; TotalNumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 2
; AccumOffset: 4
; Occupancy: 8
; WaveLimiterHint : 1
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 0
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.section	.rodata,"a",@progbits
	.weak	__oclc_ABI_version
	.p2align	2, 0x0
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'uint*'
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'uint*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           pointer_chase
    .private_segment_fixed_size: 0
    .sgpr_count:     12
    .sgpr_spill_count: 0
    .symbol:         pointer_chase.kd
    .uses_dynamic_stack: false
    .vgpr_count:     2
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
