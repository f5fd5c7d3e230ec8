"""Codes of the decoded fields the encoder writes into ``Program.mods``.

They are shared by the encoder (which chooses them) and the executor
kernels (which act on them): load/store access kinds, atomic operations,
vector-memory addressing bits and MFMA shapes.
"""

# M_ADDR bits: how a vector memory instruction forms its address; ADDR_LDS: a load whose lanes' dwords go to
# the LDS rather than to VGPRs (LDS DMA: global_load_lds_dword, scratch_load_lds_dword, buffer_load_dword ... lds),
# lane l's to M0 + the instruction offset + 4 * l
ADDR_SADDR, ADDR_OFFEN, ADDR_IDXEN, ADDR_FLAT, ADDR_BUFFER, ADDR_SCRATCH, ADDR_LDS = 1, 2, 4, 16, 32, 64, 128

# load kinds (M_SUB low byte of loads): whole dwords, or one sub-dword value,
# extended to 32 bits, or written into one half of the register (d16)
(LD_DWORDS, LD_U8, LD_I8, LD_U16, LD_I16, LD_U8_D16, LD_I8_D16, LD_U16_D16,
 LD_U8_D16_HI, LD_I8_D16_HI, LD_U16_D16_HI) = range(11)
# store kinds (M_SUB low byte of stores)
(ST_DWORDS, ST_B8, ST_B16, ST_B8_D16_HI, ST_B16_D16_HI) = range(5)

# cache maintenance operations (M_SUB low byte of MEM_CACHE): write the L2's dirty lines back
# (buffer_wbl2); invalidate the CU's L1, and the L2 too at agent or system scope (gfx942 buffer_inv);
# invalidate the L1 only (buffer_wbinvl1*; the L1 is write-through, so nothing is written back);
# invalidate the L2 (gfx90a buffer_invl2)
(CACHE_WB_L2, CACHE_INV, CACHE_INV_L1, CACHE_INV_L2) = range(4)

# s_trap among the S_MISC instructions (M_SUB), and the trap ids of LLVM's trap handler ABI (AMDGPUUsage, "Trap
# Handler ABI"): llvm.trap halts the wave and puts the dispatch's queue in the error state; llvm.debugtrap does
# nothing without a debugger. The id is the low byte of the instruction's 16-bit immediate.
MISC_TRAP = 1
TRAP_LLVM_TRAP, TRAP_LLVM_DEBUGTRAP = 2, 3
# s_sendmsg and s_sendmsghalt among the S_MISC instructions (M_SUB), and the message (SIMM16[3:0]) that raises an
# interrupt: a hostcall buffer's doorbell rings with it (gpusim.exec.hostcall)
MISC_SENDMSG = 2
SENDMSG_INTERRUPT = 1
# the S_MISC instructions the timing model times (gpusim.engine.timing.timing_tables): a wave sleeps, a wave's
# issue priority, a wave wakes its workgroup's sleeping waves
MISC_SLEEP, MISC_SETPRIO, MISC_WAKEUP = 3, 4, 5

# atomic operations (M_SUB >> 8 of atomics); the LDS's reverse subtract, masked or, wrap and float
# compare-stores take two data operands, as ds_cmpst does (gpusim.exec.kernels.atomics.atomic_apply)
(A_ADD, A_SUB, A_SMIN, A_UMIN, A_SMAX, A_UMAX, A_AND, A_OR, A_XOR, A_INC, A_DEC,
 A_SWAP, A_CMPSWAP, A_ADD_F32, A_ADD_F64, A_MIN_F64, A_MAX_F64, A_PK_ADD_F16,
 A_PK_ADD_BF16, A_MIN_F32, A_MAX_F32, A_SUB_CLAMP, A_RSUB, A_MSKOR, A_WRAP, A_CMPSWAP_F32,
 A_CMPSWAP_F64) = range(27)
# a ds_write2 whose M_SUB has this bit returns the two values it replaced (ds_wrxchg2_rtn_*)
DS2_RETURNS = 0x200

# MFMA input element types
T_F32, T_F16, T_BF16, T_XF32, T_I8, T_FP8, T_BF8, T_F64 = range(8)


MFMA_SPARSE = 1 << 40   # M_SUB's flag of a sparse (4:2) MFMA, v_smfmac_*


def pack_shape(m: int, n: int, k: int, blocks: int, atype: int, btype: int, sparse: bool = False) -> int:
    """pack_shape encodes an MFMA shape, its input types and whether it is sparse into the M_SUB column."""
    return atype | (btype << 4) | (m << 8) | (n << 16) | (k << 24) | (blocks << 32) | (MFMA_SPARSE if sparse else 0)
