"""How the timing loop treats each instruction: its timing kind (TK_*, the unit or queue it occupies) and
its issue category (CAT_*, the arbiter it competes in), one of each per program row
(gpusim.engine.timing.timing_tables builds ProgramArrays.tkind and .tcat from them)."""

# issue categories
CAT_VALU, CAT_SCALAR, CAT_VMEM, CAT_LDS, CAT_BRANCH = range(5)
# timing kinds
(TK_VALU, TK_MFMA, TK_SALU, TK_SMEM, TK_VMEM, TK_LDS, TK_WAITCNT, TK_BARRIER, TK_NOP, TK_END,
 TK_BRANCH, TK_SLEEP, TK_SETPRIO, TK_WAKEUP) = range(14)
