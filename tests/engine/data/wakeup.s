; Two waves: wave 0 sleeps for 100 periods of 64 clocks (s_sleep); wave 1 works a little, then wakes its
; workgroup (s_wakeup). tests/engine/test_wave_control.py times it, and with s_wakeup made an s_nop.
; gpusim-launch: grid=1,1,1 block=128,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl waker
	.p2align 8
	.type waker,@function
waker:
	v_readfirstlane_b32 s0, v0
	s_cmp_lt_u32 s0, 64
	s_cbranch_scc0 .Lwaker
	s_sleep 100
	s_endpgm
.Lwaker:
	s_nop 7
	s_nop 7
	s_nop 7
	s_wakeup
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel waker
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 2
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
