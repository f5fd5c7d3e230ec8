"""The timing loop's launch parameters: the columns of LaunchArrays.params (int64[P_N]), which
gpusim.engine.timing fills from the arch and the dispatch and gpusim.engine.kernels.cu and .skip read; and
the columns of LaunchArrays.progress, which the loop writes (gpusim.engine.progress)."""

# params columns
(P_CUS, P_SLOTS_PER_CU, P_WGS_PER_CU, P_WAVES_PER_WG, P_LINE_BYTES, P_LDS_LAT, P_COISSUE,
 P_BANKS, P_BANK_WIDTH, P_CODE_BASE, P_LIMIT, P_ARBITRATION, P_REFILL, P_QUANTUM, P_WAVE_LIMIT, P_FIRST_WGS,
 P_CUS_PER_XCD, P_DISPATCH_CYCLES, P_N) = range(19)
# wave arbitration policies (P_ARBITRATION), in gpusim.arch.schema.WAVE_ARBITRATION_POLICIES order
ARB_OLDEST_FIRST, ARB_ROUND_ROBIN, ARB_GREEDY_THEN_OLDEST = range(3)
# progress columns: the cycle the loop's current window began, the wave-instructions issued and the
# workgroups dispatched so far
PUBLISHED_CYCLE, PUBLISHED_ISSUED, PUBLISHED_DISPATCHED, PUBLISHED_N = range(4)
