"""chase: a single-lane pointer chase, the load-to-use latency of the level its footprint fits in.

One wave, one active lane (exec = 1). The lane starts at element 0 and makes ``--steps`` dependent
loads: each load's result is the address (a byte offset from the table) of the next element, so no
load can issue before the previous one has returned. As in the published gpu-latency benchmark
behind the MI300X figures (cdna-facts.md [H]) and benchmarks/kernels/pointer_chase.s, nothing but
the load and its ``s_waitcnt vmcnt(0)`` stands between two dependent loads
(``global_load_dword v1, v1, s[4:5]``), 32 of them per trip of the loop, whose counter work is
issued under the trip's first load: with nothing else in flight the time per step is the load-to-use
latency of wherever the footprint lives. Steps beyond a multiple of 32 are made one per trip of a
second loop (each with its loop's work), after the unrolled one.

The table comes from the launch header: ``next buffer u32[m,k] init=cycle_offsets`` is a random
single cycle over m elements ``--stride-bytes`` apart (k u32 each), each holding the byte offset of
the next, in an order no prefetcher or stride detector could guess. Nothing writes it, so a first
pass over a footprint past the MALL is cold (first touches come from HBM):

* ``--stride-bytes 4``: the m = footprint / 4 elements are a 1-D ``u32[m]``. Several elements share
  each 128-byte cache line, visited at random times.
* ``--stride-bytes 64``: the layout of benchmarks/kernels/pointer_chase.s (and of the published
  benchmark, 8-byte pointers 8 apart): two elements per L1 line.
* larger strides (default 128, one L1 line): each element has a line (or more) to itself.

To measure a level, time two runs that differ only in ``steps`` (multiples of 32) and divide the
difference in cycles by the difference in steps (benchmarks/latency_ladder.py): the launch and the
cold first pass cancel. The kernel stores the final offset; the check replays the chase in numpy.
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter, log2_exact

MAX_FOOTPRINT = 1 << 31   # byte offsets of the chased elements are 32-bit
UNROLL = 32               # dependent loads per trip of the chase's main loop, as the published benchmark


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def problems(v: dict, arch) -> list:
    out = []
    fp, stride, steps = v["footprint-bytes"], v["stride-bytes"], v["steps"]
    if not _pow2(stride) or stride < 4:
        out.append(f"--stride-bytes {stride} must be a power of two, at least 4 (one u32 holds an element's "
                   "next offset)")
    if fp <= 0 or fp >= MAX_FOOTPRINT:
        out.append(f"--footprint-bytes {fp} must be positive and under {MAX_FOOTPRINT} (32-bit byte offsets)")
    elif _pow2(stride) and stride >= 4:
        if fp % stride:
            out.append(f"--footprint-bytes {fp} is not a multiple of --stride-bytes {stride}")
        elif fp // stride < 2:
            out.append(f"--footprint-bytes {fp} holds {fp // stride} element of {stride} bytes; a chase needs "
                       "at least 2")
    if steps < 1:
        out.append(f"--steps {steps} must be at least 1")
    elif steps >= 2 ** 31:
        out.append(f"--steps {steps} does not fit the i32 argument")
    return out


def chase_check(m: int, stride: int = 0) -> str:
    """chase_check is the check that out[0] is ``next`` applied ``steps`` times to element 0, for m elements.

    With ``stride`` 0, ``next`` holds element indices (init=cycle) and out[0] the final index. Otherwise it
    holds byte offsets of elements ``stride`` bytes apart (init=cycle_offsets; 2-D, one row per element,
    when ``stride`` > 4) and out[0] the final offset. ``next`` is one cycle of m, so ``steps % m``
    applications are as good as ``steps``. The check replays them by pointer doubling in the safe check
    language: ``p`` is next applied 2**b times, and ``r`` moves by ``p`` for each set bit b of the
    remaining step count.
    """
    levels = max(1, (m - 1).bit_length())
    if not stride:
        first, scale = "p := next.astype(i64)", ""
    else:
        column = "next" if stride == 4 else "next[:, 0]"
        first, scale = f"p := ({column} // {stride}).astype(i64)", f"{stride} * "
    parts = ["e := steps % next.shape[0]", first, "r := 0"]
    for b in range(levels):
        parts.append(f"r := p[r] if e >> {b} & 1 else r")
        if b < levels - 1:
            parts.append("p := p[p]")
    return f"out[0] == {scale}({', '.join(parts)})[-1]"


def build(v: dict) -> KernelWriter:
    fp, stride, steps = v["footprint-bytes"], v["stride-bytes"], v["steps"]
    m = fp // stride                  # chased elements
    k = stride // 4                   # u32 slots per element

    name = f"chase_{fp}b_s{stride}"
    w = KernelWriter(name)
    w.grid = (1, 1, 1)
    w.block = 64
    nxt = w.buffer("next", "u32", m if k == 1 else (m, k), init="cycle_offsets", seed=1)
    n_steps = w.scalar("steps", "i32", steps)
    out = w.buffer("out", "u32", 1, out=True)
    # the chase from element 0: apply next `steps` times (by pointer doubling)
    w.check(chase_check(m, stride))

    w.describe(f"pointer chase: one lane, {steps} dependent loads over {m} elements {stride} bytes apart "
               f"(footprint {fp} bytes)")
    w.describe("next is a random single cycle (init=cycle_offsets): each element holds the next one's byte "
               "offset, so a loaded value is the next load's address as it is")
    w.describe(f"{UNROLL} loads per trip with only their s_waitcnt between them (as the published gpu-latency "
               f"benchmark and benchmarks/kernels/pointer_chase.s); steps % {UNROLL} more one per trip")
    w.describe("check: out[0] is next applied `steps` times from 0 (pointer doubling replays the chase)")
    w.describe(f"latency: (cycles(steps2) - cycles(steps1)) / (steps2 - steps1) over two runs (--arg steps=N, "
               f"multiples of {UNROLL})")

    NEXT, REST, TRIPS, OUT = "s[4:5]", "s6", "s7", "s[8:9]"
    OFFSET, ZERO = "v1", "v3"
    w.op("s_load_dwordx2", NEXT, "s[0:1]", hex(nxt), note="next: the header's single cycle of byte offsets")
    w.op("s_load_dword", REST, "s[0:1]", hex(n_steps), note="steps")
    w.op("s_load_dwordx2", OUT, "s[0:1]", hex(out), note="out: where the final offset goes")
    w.op("s_mov_b64", "exec", 1, note="exec = lane 0: one address per load, one cache line touched")
    w.op("v_mov_b32_e32", OFFSET, 0, note="the chase starts at element 0")
    w.op("v_mov_b32_e32", ZERO, 0, note="offset 0, for the final store")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers and steps have arrived")
    w.op("s_lshr_b32", TRIPS, REST, log2_exact(UNROLL), note=f"trips of {UNROLL} loads")
    w.op("s_and_b32", REST, REST, UNROLL - 1, note="the steps left after them")
    w.op("s_cmp_eq_u32", TRIPS, 0)
    w.op("s_cbranch_scc1", ".Lrest")
    w.blank()
    w.comment(f"-- the chase, {UNROLL} dependent loads per trip: nothing between two but the wait")
    w.label(".Lchase")
    for i in range(UNROLL):
        w.op("global_load_dword", OFFSET, OFFSET, NEXT,
             note="offset = next's value at offset: the next load's address" if i == 0 else "")
        if i == 0:
            w.op("s_sub_u32", TRIPS, TRIPS, 1, note="the trip's counter work, issued under its first load")
            w.op("s_cmp_lg_u32", TRIPS, 0)
        w.op("s_waitcnt", "vmcnt(0)", note="load-to-use: nothing to do but wait" if i == 0 else "")
    w.op("s_cbranch_scc1", ".Lchase")
    w.blank()
    w.comment(f"-- the last steps % {UNROLL}, one per trip")
    w.label(".Lrest")
    w.op("s_cmp_eq_u32", REST, 0)
    w.op("s_cbranch_scc1", ".Ldone")
    w.label(".Lone")
    w.op("global_load_dword", OFFSET, OFFSET, NEXT)
    w.op("s_sub_u32", REST, REST, 1)
    w.op("s_cmp_lg_u32", REST, 0)
    w.op("s_waitcnt", "vmcnt(0)")
    w.op("s_cbranch_scc1", ".Lone")
    w.label(".Ldone")
    w.op("global_store_dword", ZERO, OFFSET, OUT, note="out[0] = the final offset")
    w.op("s_endpgm")
    return w


register(Template(
    name="chase",
    summary="single-lane pointer chase (a random single cycle): load-to-use latency per memory level",
    params=(
        Param("footprint-bytes", "int", 8192, "bytes the chased elements span (pick one that fits the level "
              "to measure: under 32 KiB for the L1, under 4 MiB for the L2, ...)"),
        Param("steps", "int", 4096, "dependent loads (the i32 argument 'steps'; override with --arg steps=N; "
              "multiples of 32 make every step a bare load and wait)"),
        Param("stride-bytes", "int", 128, "bytes between chased elements (a power of two, at least 4; 64 = the "
              "published benchmark's and the latency ladder's layout; 128 = one L1 line per element)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen chase --footprint-bytes 8192 --steps 128 -o l1.s   # 64 lines of the L1",
              "gpusim gen chase --footprint-bytes 262144 --stride-bytes 64 --steps 4096 -o l2.s"),
))
