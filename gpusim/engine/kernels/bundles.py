"""The timing loop's arrays as named bundles, one per part of the machine.

numba compiles a namedtuple of arrays into a struct whose fields are resolved at compile time, so
gpusim.engine.kernels.cu.run_timed takes a few bundles (program, launch, values, waves, workgroups, CUs,
counters, scratch, plus the memory hierarchy's gpusim.memory.kernels.arrays.MemoryArrays) instead of sixty
positional arrays, and state added to one part is a field here rather than a new argument threaded through
every call. gpusim.engine.timing.time_kernel builds them; shapes are per instruction (rows of the program),
per wave slot (``n_cu * slots_per_cu``), per workgroup slot (``n_cu * workgroups_per_cu``) or per CU.
"""
from collections import namedtuple

# What the kernel is: per-instruction tables, read only.
#   sem, ops, mods, pc_bytes: gpusim.asm.program.Program's; xops: ``ops`` with the vector registers renumbered
#   as ValueArrays.vreg holds them (gpusim.asm.value_slice.compact_vgprs), the operands that execute;
#   tkind, tcat, tbusy: timing kind (TK_*), issue category (CAT_*) and unit-busy cycles (timing.timing_tables;
#   an s_nop's extra wait cycles, an s_sleep's 64-clock periods, an s_setprio's priority 0-3);
#   full[i]: False for an instruction whose values are skipped (only its addresses are computed);
#   endless[i]: a branch landing here never leaves its loop (gpusim.exec.runaway);
#   reads_at, reads, writes_at, writes: the registers each instruction reads and writes
#   (gpusim.engine.scoreboard.RegisterLists), the columns of WaveArrays.reg_ready.
ProgramArrays = namedtuple("ProgramArrays", (
    "sem", "ops", "xops", "mods", "pc_bytes", "tkind", "tcat", "tbusy", "full", "endless",
    "reads_at", "reads", "writes_at", "writes",
))

# How the dispatch is launched and placed, read only except ``stop``, ``xcd_next`` and ``progress``.
#   abi, user_sgprs, abi_written: the launch's register state (gpusim.exec.launch.Dispatch: abi(),
#   user_sgprs(), register_tracking()); regions, env: the buffers' address regions and the dispatch's
#   environment values; params: the machine and the run's limits (params.P_* columns); cu_order[p]: the CU that
#   workgroup p of the first round goes to (timing.dispatch_order); stop[0]: set nonzero by the host-time
#   watchdog; xcd_next[x]: the first cycle XCD x's workgroup dispatcher may launch its next workgroup
#   (cu._dispatch_at, arch launch.workgroup_dispatch_cycles); progress: what the loop has done so far, written
#   once per window for a watcher on another thread (gpusim.engine.progress PUBLISHED_* columns).
LaunchArrays = namedtuple("LaunchArrays", (
    "abi", "user_sgprs", "abi_written", "regions", "env", "params", "cu_order", "stop", "xcd_next", "progress",
))

# The values the waves compute (the functional state gpusim.exec.kernels.interpreter.step mutates).
#   sreg, vreg: scalar and vector registers per wave slot; T: the interpreter's scratch rows; valid: lane
#   validity scratch; mem: the memory image (every buffer); lds: the LDS bytes of each workgroup slot.
ValueArrays = namedtuple("ValueArrays", ("sreg", "vreg", "T", "valid", "mem", "lds"))

# Per wave slot: where the wave is and what holds it.
#   pc, state (FREE/RUNNING/AT_BARRIER/DONE/TRAPPED), ready (the cycle it may next issue), age (dispatch
#   stamp, for oldest-first), wg_of (its workgroup slot); vmq/vmn, lgq/lgn: completion cycles of its
#   outstanding vmcnt / lgkmcnt operations and how many; reg_ready: the cycle each register's latest value
#   is ready (0: never written, -1: set by the launch); deps_at: the cycle its next instruction's sources
#   are ready (-1: not worked out); why, acct: what held it since cycle ``acct`` (WHY_*); hazard: RAW_WAITED /
#   REFILLING / UNINIT / SLEEPING bits; wcount: instructions it issued (the per-wave budget); prio: its s_setprio
#   user priority (0-3), which the issue arbiter serves before age.
WaveArrays = namedtuple("WaveArrays", (
    "pc", "state", "ready", "age", "wg_of", "vmq", "vmn", "lgq", "lgn", "reg_ready", "deps_at", "why", "acct",
    "hazard", "wcount", "prio",
))

# Per workgroup slot: waves still running, waves arrived at the barrier, and the workgroup's id in the grid.
WorkgroupArrays = namedtuple("WorkgroupArrays", ("live", "arrived", "group"))

# Per CU (and SIMD, second axis 4): the cycle each unit is free (VALU and MFMA per SIMD, LDS per CU), the
# cycle each SIMD is next worth a visit, each SIMD's last issuing slot, the cycle the CU is next worth a
# visit, its resident waves, and the cycle its first workgroup started (GPUSIM_CU_BUSY_CYCLES counts from it).
CuArrays = namedtuple("CuArrays", (
    "unit_valu", "unit_mfma", "unit_lds", "simd_wake", "last_k", "cu_wake", "cu_live", "cu_start",
))

# What the run counts: counters (cu.C_* columns), icount (per instruction), uninit (reads of registers
# nothing wrote, gpusim.exec.kernels.interpreter.uninit_read), fault (gpusim.exec.kernels.memory F_* layout).
CounterArrays = namedtuple("CounterArrays", ("counters", "icount", "uninit", "fault"))

# Scratch the loop reuses: the LDS bank model's (lds_banks.scratch_for, memo_for), the workgroup id
# (int64[3]), the lines of one access (int64, timing._lines_per_access) and the arbiter's picks (int64[5] x 2).
ScratchArrays = namedtuple("ScratchArrays", ("lds_scratch", "lds_memo", "wgv", "lines", "pick", "pkey"))

# The memory hierarchy's counters as flat views (gpusim.memory.hierarchy.MemoryLevels.counter_views order):
# what a sampled run's snapshots copy.
MemoryCounterViews = namedtuple("MemoryCounterViews", ("tcp", "sqc", "tcc", "mall", "hbm", "utcl1", "utcl2"))

# Sampled simulation (gpusim.engine.kernels.skip, gpusim.engine.sampling).
#   params: skip.Z_* columns; out: skip.O_* columns; skip_head[b]: the head row of the loop whose back edge
#   is row b and which may be fast-forwarded, else -1; trip[b]: that loop's iterations per wave in the first
#   workgroup; per wave slot: iters (iterations of its current loop run), loop_row (that loop's back edge,
#   -1: in none), fresh (back edges since it entered the loop or last fast-forwarded), mark[w, fresh % (Z_MEASURE_ITERS
#   + 1)] (the cycles of its latest back edges), outside (1: live and not measuring a loop), todo
#   (iterations to fast-forward at its next back edge); per workgroup slot: insts (wave-instructions of the
#   running workgroup); samples: measured rates; snap_counters / snap_icount / snap_memory: two snapshots
#   of the counters (rows 0 and 1: the measuring window's start and end; row 2: the grid method's next
#   start); memory: the live views; rank (per wave slot) and pool_span / pool_prev / pool_n ([rows, slots per
#   CU]): a warp's rate classes (skip.warp); round_t[k]: the cycle the grid method's head completed its k-th
#   round, round_i[k]: the wave-instructions of the workgroups completed by then; t95[d - 1]: Student's
#   two-sided 95% point at d degrees of freedom (skip.interval_ppm).
SampleArrays = namedtuple("SampleArrays", (
    "params", "out", "skip_head", "trip", "iters", "loop_row", "fresh", "mark", "outside", "todo", "insts",
    "samples", "snap_counters", "snap_icount", "snap_memory", "memory", "rank", "pool_span", "pool_prev",
    "pool_n", "round_t", "round_i", "t95",
))
