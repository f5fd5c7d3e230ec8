"""chase: a single-lane pointer chase, the load-to-use latency of the level its footprint fits in.

One wave, one active lane (exec = 1). The lane starts at element 0 and makes ``--steps`` dependent
loads: each load's result is the index of the next element to load, so no load can issue before
the previous one has returned. With nothing else in flight, the time per step is the latency of
one load (address calculation, cache lookups, the data's way back) plus the loop's few
instructions: the load-to-use latency of wherever the footprint lives.

The next-indices come from the launch header: ``next buffer u32[m] init=cycle`` is a random
permutation with a single cycle, so the chase visits all m elements once before it repeats, in
an order no prefetcher or stride detector could guess. Elements are ``--stride-bytes`` apart:

* ``--stride-bytes 4``: the m = footprint / 4 elements are the header's buffer itself (as in
  benchmarks/kernels/pointer_chase.s, which this reproduces instruction for instruction). Several
  elements share each 128-byte cache line, visited at random times.
* larger strides (default 128, one L1 line): the header cannot place a cycle at a stride, so the
  kernel first copies ``next[j]`` to ``table[j * stride / 4]`` with all 64 lanes, then chases
  ``table``. Each of the m = footprint / stride elements has a line (or more) to itself. The copy's
  stores leave ``table`` in the L2 (and MALL): the first pass is not cold. A cold chase (first
  touches from HBM) needs ``--stride-bytes 4``.

To measure a level, time two runs that differ only in ``steps`` and divide the difference in
cycles by the difference in steps (benchmarks/latency_ladder.py): the launch, the copy and the
cold first pass cancel. The kernel stores the final index; the check replays the chase in numpy.
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter

MAX_FOOTPRINT = 1 << 31   # byte offsets of the chased elements are 32-bit


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def problems(v: dict, arch) -> list:
    out = []
    fp, stride, steps = v["footprint-bytes"], v["stride-bytes"], v["steps"]
    if not _pow2(stride) or stride < 4:
        out.append(f"--stride-bytes {stride} must be a power of two, at least 4 (one u32; the index is "
                   "scaled by a shift)")
    if fp <= 0 or fp >= MAX_FOOTPRINT:
        out.append(f"--footprint-bytes {fp} must be positive and under {MAX_FOOTPRINT} (32-bit byte offsets)")
    elif _pow2(stride) and stride >= 4:
        if fp % stride:
            out.append(f"--footprint-bytes {fp} is not a multiple of --stride-bytes {stride}")
        else:
            m = fp // stride
            if m < 2:
                out.append(f"--footprint-bytes {fp} holds {m} element of {stride} bytes; a chase needs at least 2")
            elif stride > 4 and m > 64 and m % 64:
                out.append(f"--footprint-bytes / --stride-bytes = {m} elements: over 64 it must be a multiple "
                           "of 64 (the copy into the strided table takes 64 elements per trip)")
    if steps < 1:
        out.append(f"--steps {steps} must be at least 1")
    elif steps >= 2 ** 31:
        out.append(f"--steps {steps} does not fit the i32 argument")
    return out


def chase_check(m: int) -> str:
    """chase_check is the check that out[0] is ``next`` applied ``steps`` times to 0, for m elements.

    ``next`` is one cycle of m, so ``steps % m`` applications are as good as ``steps``. The check
    replays them by pointer doubling in the safe check language: ``p`` is next applied 2**b times,
    and ``r`` moves by ``p`` for each set bit b of the remaining step count.
    """
    levels = max(1, (m - 1).bit_length())
    parts = ["e := steps % next.size", "p := next.astype(i64)", "r := 0"]
    for b in range(levels):
        parts.append(f"r := p[r] if e >> {b} & 1 else r")
        if b < levels - 1:
            parts.append("p := p[p]")
    return f"out[0] == ({', '.join(parts)})[-1]"


def build(v: dict) -> KernelWriter:
    fp, stride, steps = v["footprint-bytes"], v["stride-bytes"], v["steps"]
    m = fp // stride                  # chased elements
    k = stride // 4                   # u32 slots per element
    shift = stride.bit_length() - 1   # element -> byte offset
    dense = stride == 4

    name = f"chase_{fp}b_s{stride}"
    w = KernelWriter(name)
    w.grid = (1, 1, 1)
    w.block = 64
    nxt = w.buffer("next", "u32", m, init="cycle", seed=1)
    n_steps = w.scalar("steps", "i32", steps)
    out = w.buffer("out", "u32", 1, out=True)
    if not dense:
        table = w.buffer("table", "u32", (m, k), out=True)
    # the chase from 0: apply next `steps` times (by pointer doubling)
    w.check(chase_check(m))
    if not dense:
        w.check("table[:, 0] == next")

    w.describe(f"pointer chase: one lane, {steps} dependent loads over {m} elements {stride} bytes apart "
               f"(footprint {fp} bytes)")
    w.describe("next is a random single cycle: from 0 the chase visits every element once per pass")
    if dense:
        w.describe("the elements are next's own u32 slots (as benchmarks/kernels/pointer_chase.s)")
    else:
        w.describe(f"the kernel first copies next[j] to table[j][0] (table is u32[{m}][{k}]: one element "
                   f"per {stride} bytes), then chases table")
    w.describe("check: out[0] is next applied `steps` times to 0 (pointer doubling replays the chase)")
    w.describe("latency: (cycles(steps2) - cycles(steps1)) / (steps2 - steps1) over two runs (--arg steps=N)")

    NEXT, STEPS, OUT, TABLE = "s[4:5]", "s6", "s[8:9]", "s[10:11]"
    IDX, ADDR, ZERO = "v1", "v2", "v3"
    w.op("s_load_dwordx2", NEXT, "s[0:1]", hex(nxt), note="next: the header's single-cycle permutation")
    w.op("s_load_dword", STEPS, "s[0:1]", hex(n_steps), note="steps")
    w.op("s_load_dwordx2", OUT, "s[0:1]", hex(out), note="out: where the final index goes")
    if not dense:
        w.op("s_load_dwordx2", TABLE, "s[0:1]", hex(table), note="table: the elements, stride bytes apart")
        w.blank()
        trips = -(-m // 64)
        SRC, DST, VAL, TRIPS = "v4", "v5", "v6", "s7"
        w.comment(f"-- copy next[j] to table[j * {k}]: all 64 lanes, lane l takes j = l, l + 64, ... ({trips} "
                  f"trip{'s' if trips > 1 else ''})")
        w.op("v_lshlrev_b32_e32", SRC, 2, "v0", note="j * 4: next[j]")
        w.op("v_lshlrev_b32_e32", DST, shift, "v0", note=f"j * {stride}: table[j][0]")
        if m < 64:
            w.op("v_cmp_gt_u32_e32", "vcc", m, "v0", note=f"only {m} elements:")
            w.op("s_and_b64", "exec", "exec", "vcc", note=f"lanes 0..{m - 1} take part")
        w.op("s_mov_b32", TRIPS, trips, note="trips left")
        w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
        w.label(".Lcopy")
        w.op("global_load_dword", VAL, SRC, NEXT, note="next[j]")
        w.op("s_waitcnt", "vmcnt(0)")
        w.op("global_store_dword", DST, VAL, TABLE, note="table[j][0] = next[j]")
        w.op("v_add_u32_e32", SRC, 64 * 4, SRC, note="j += 64")
        w.op("v_add_u32_e32", DST, 64 * stride, DST)
        w.op("s_sub_u32", TRIPS, TRIPS, 1)
        w.op("s_cmp_lg_u32", TRIPS, 0)
        w.op("s_cbranch_scc1", ".Lcopy")
        w.op("s_waitcnt", "vmcnt(0)", note="every store is in the L2 before the chase reads it")
        w.blank()

    w.comment("-- the chase: lane 0 alone")
    w.op("s_mov_b64", "exec", 1, note="exec = lane 0: one address per load, one cache line touched")
    w.op("v_mov_b32_e32", IDX, 0, note="i = 0: the chase starts at element 0")
    w.op("v_mov_b32_e32", ZERO, 0, note="offset 0, for the final store")
    if dense:
        w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers and steps have arrived")
    w.label(".Lchase")
    w.op("v_lshlrev_b32_e32", ADDR, shift, IDX, note=f"i * {stride}: element i's byte offset")
    w.op("global_load_dword", IDX, ADDR, NEXT if dense else TABLE,
         note="i = next[i]: the address of the next load is this load's data")
    w.op("s_waitcnt", "vmcnt(0)", note="load-to-use: nothing to do but wait")
    w.op("s_sub_u32", STEPS, STEPS, 1, note="loop bookkeeping: these 3 run after the wait, part of each step")
    w.op("s_cmp_lg_u32", STEPS, 0)
    w.op("s_cbranch_scc1", ".Lchase")
    w.op("global_store_dword", ZERO, IDX, OUT, note="out[0] = the final index")
    w.op("s_endpgm")
    return w


register(Template(
    name="chase",
    summary="single-lane pointer chase (a random single cycle): load-to-use latency per memory level",
    params=(
        Param("footprint-bytes", "int", 8192, "bytes the chased elements span (pick one that fits the level "
              "to measure: under 32 KiB for the L1, under 4 MiB for the L2, ...)"),
        Param("steps", "int", 4096, "dependent loads (the i32 argument 'steps'; override with --arg steps=N)"),
        Param("stride-bytes", "int", 128, "bytes between chased elements (a power of two; 4 = the header's "
              "buffer itself, also the only cold-capable choice; 128 = one L1 line per element)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen chase --footprint-bytes 8192 --steps 128 -o l1.s   # 64 lines of the L1",
              "gpusim gen chase --footprint-bytes 262144 --stride-bytes 4 --steps 65536 -o l2.s"),
))
