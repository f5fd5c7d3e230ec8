"""stream: the four STREAM kernels (copy, scale, add, triad) over f32 arrays of n elements.

The kernels (s is a scalar argument, 3.0 as in STREAM):

* ``copy``:  b = a          (reads 1 array, writes 1: 8 bytes of traffic per element)
* ``scale``: b = s * a      (8 bytes per element)
* ``add``:   c = a + b      (12 bytes per element)
* ``triad``: a = b + s * c  (12 bytes per element; one fused multiply-add)

(STREAM's own source writes copy as c = a and scale as b = s * c; the work and traffic are the same.)

They do next to no arithmetic, so their speed is the memory system's: how many bytes per second
the loads and stores move. The parameters change how the same work is cut into instructions:

* ``--vec`` 1, 2 or 4 dwords per lane per load (global_load_dword / dwordx2 / dwordx4). One wave
  instruction moves 256, 512 or 1024 contiguous bytes; wider loads need fewer instructions (and
  fewer trips through the address and tag units) for the same bytes.
* ``--unroll U``: each thread issues U independent loads per array before it waits for any, so U
  requests per array are in flight per thread (latency hidden by parallelism, not by more waves).
* ``--grid-stride``: a fixed grid of ``--workgroups`` workgroups walks the array in a loop;
  without it there is one workgroup per chunk and the grid covers n exactly.

A chunk is what one workgroup handles per trip: ``block * vec * U`` elements. Load j of thread t
reads the ``vec`` dwords at element ``chunk_start + j * block * vec + t * vec``: for each j the
wave's 64 lanes read one contiguous span (coalesced), and the U spans of a chunk are contiguous.
The chunk's start lives in the scalar base pointers (one s_add per array per trip); each lane
keeps only its fixed byte offset within the chunk.
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter, reg

OPS = ("copy", "scale", "add", "triad")
# op -> (arrays read, array written); the order of the read arrays is the operand order below
ARRAYS = {"copy": (("a",), "b"), "scale": (("a",), "b"), "add": (("a", "b"), "c"), "triad": (("b", "c"), "a")}
FORMULA = {"copy": "b = a", "scale": "b = s * a", "add": "c = a + b", "triad": "a = b + s * c"}
CHECKS = {"copy": "b == a", "scale": "b ~= s * a rtol=1e-6", "add": "c ~= a + b rtol=1e-6",
          "triad": "a ~= b + s * c rtol=1e-6 atol=1e-6"}
SEEDS = {"a": 1, "b": 2, "c": 3}
LOAD = {1: "global_load_dword", 2: "global_load_dwordx2", 4: "global_load_dwordx4"}
STORE = {1: "global_store_dword", 2: "global_store_dwordx2", 4: "global_store_dwordx4"}
MAX_IMM_OFFSET = 4095       # global_* instructions take a 13-bit signed byte offset on gfx942
MAX_VMCNT = 63              # s_waitcnt vmcnt is 6 bits on gfx9
DEFAULT_WORKGROUPS = 1216   # --grid-stride default: 4 workgroups of 256 per CU of a 304-CU MI300X
SCALAR = 3.0


def _align(x: int, to: int) -> int:
    return -(-x // to) * to


def layout(v: dict) -> dict:
    """layout is every number the code is built from: chunk size, registers, offsets."""
    reads, _ = ARRAYS[v["op"]]
    vec, unroll, block = v["vec"], v["unroll"], v["block"]
    span = block * vec * 4                      # bytes one load instruction of the workgroup covers
    # load j uses the offset field when j * span fits in it; otherwise its own offset register
    own = [j for j in range(unroll) if j * span > MAX_IMM_OFFSET]
    offset_reg = {j: 1 + k + 1 for k, j in enumerate(own)}   # v2, v3, ... (v1 is the base offset)
    data = _align(2 + len(own), 4)              # data registers start 4-aligned (x2/x4 tuples)
    return {
        "reads": reads, "span": span, "chunk": block * vec * unroll, "chunk_bytes": span * unroll,
        "offset_reg": offset_reg, "data": data, "vgprs": data + len(reads) * unroll * vec,
    }


def problems(v: dict, arch) -> list:
    out = []
    n, vec, unroll, block = v["n"], v["vec"], v["unroll"], v["block"]
    if block % 64 or not 64 <= block <= arch.cu.max_workitems_per_workgroup:
        out.append(f"--block {block} must be a multiple of 64 (whole waves) up to "
                   f"{arch.cu.max_workitems_per_workgroup}")
        return out
    if unroll < 1:
        out.append(f"--unroll {unroll} must be at least 1")
        return out
    lay = layout(v)
    if n <= 0:
        out.append(f"--n {n} must be positive")
    elif n % lay["chunk"]:
        out.append(f"--n {n} is not a multiple of block*vec*unroll = {block}*{vec}*{unroll} = {lay['chunk']} "
                   "(a workgroup handles whole chunks; the kernel has no tail handling)")
    if n * 4 >= 2 ** 32:
        out.append(f"--n {n}: arrays of {n * 4} bytes need byte offsets past 32 bits")
    loads = (len(lay["reads"]) + 1) * unroll
    if loads > MAX_VMCNT:
        out.append(f"--unroll {unroll}: {loads} loads and stores in flight per thread, over the {MAX_VMCNT} vmcnt can count")
    if lay["vgprs"] > arch.cu.max_arch_vgprs_per_wave:
        out.append(f"--unroll {unroll} --vec {vec} needs {lay['vgprs']} VGPRs, over "
                   f"{arch.cu.max_arch_vgprs_per_wave}")
    wgs = v["workgroups"]
    if not v["grid-stride"]:
        if wgs is not None:
            out.append("--workgroups applies only with --grid-stride (without it the grid covers n)")
    elif wgs is not None:
        chunks = n // lay["chunk"] if n > 0 else 0
        if wgs < 1:
            out.append(f"--workgroups {wgs} must be at least 1")
        elif chunks and wgs > chunks:
            out.append(f"--workgroups {wgs} is more than the {chunks} chunks of {lay['chunk']} elements "
                       "(some workgroups would have nothing to do)")
    elif n > 0 and n // lay["chunk"] < DEFAULT_WORKGROUPS:
        out.append(f"--grid-stride: the default {DEFAULT_WORKGROUPS} workgroups exceed the "
                   f"{n // lay['chunk']} chunks of n; give --workgroups")
    return out


def build(v: dict) -> KernelWriter:
    op, n, vec, unroll, block = v["op"], v["n"], v["vec"], v["unroll"], v["block"]
    grid_stride = v["grid-stride"]
    lay = layout(v)
    reads, written = lay["reads"], ARRAYS[op][1]
    span, chunk, chunk_bytes = lay["span"], lay["chunk"], lay["chunk_bytes"]
    chunks = n // chunk
    wgs = (v["workgroups"] or DEFAULT_WORKGROUPS) if grid_stride else chunks
    U = unroll

    name = f"stream_{op}_v{vec}_u{U}" + ("_gs" if grid_stride else "")
    w = KernelWriter(name)
    w.grid = (wgs, 1, 1)
    w.block = block

    # arguments: the arrays this op touches (a, b, c order), then the scalar if it has one
    ptr = {}
    sreg = {"a": "s[4:5]", "b": "s[6:7]", "c": "s[8:9]"}
    for arr in ("a", "b", "c"):
        if arr in reads:
            ptr[arr] = w.buffer(arr, "f32", n, init="uniform(-1,1)", seed=SEEDS[arr])
        elif arr == written:
            ptr[arr] = w.buffer(arr, "f32", n, out=True)
    uses_s = op in ("scale", "triad")
    if uses_s:
        s_off = w.scalar("s", "f32", SCALAR)
    w.check(CHECKS[op])

    moved = (len(reads) + 1) * 4
    w.describe(f"STREAM {op}: {FORMULA[op]} over {n} f32 elements ({moved} bytes of traffic per element, "
               f"{moved * n} in all)")
    w.describe(f"each load: {LOAD[vec]} ({vec} dword{'s' if vec > 1 else ''} per lane, {64 * vec * 4} contiguous "
               f"bytes per wave); {U} load{'s' if U > 1 else ''} per array in flight per thread")
    w.describe(f"chunk = block * vec * unroll = {block} * {vec} * {U} = {chunk} elements ({chunk_bytes} bytes "
               f"per array); {chunks} chunks")
    if grid_stride:
        w.describe(f"grid-stride: {wgs} workgroups; workgroup g handles chunks g, g + {wgs}, g + {2 * wgs}, ...")
    else:
        w.describe(f"one chunk per workgroup: grid = {chunks} workgroups of {block}")
    w.describe("thread t, load j: elements chunk_start + j * block * vec + t * vec, ... + vec - 1")

    SCALE, CHUNK_OFF, CHUNK_ID = "s10", "s11", "s12"
    BASE = "v1"

    def data(i: int, j: int) -> str:
        """data names the registers of array reads[i], load j."""
        return reg("v", lay["data"] + (i * U + j) * vec, vec)

    def addr(j: int) -> tuple:
        """addr is load/store j's (offset register, offset-field operands)."""
        if j in lay["offset_reg"]:
            return f"v{lay['offset_reg'][j]}", []
        return BASE, ([f"offset:{j * span}"] if j else [])

    w.comment("-- per workgroup (scalar unit): the array pointers, moved to this workgroup's first chunk")
    for arr in ("a", "b", "c"):
        if arr in ptr:
            role = "read" if arr in reads else "written"
            w.op("s_load_dwordx2", sreg[arr], "s[0:1]", hex(ptr[arr]), note=f"{arr} ({role})")
    if uses_s:
        w.op("s_load_dword", SCALE, "s[0:1]", hex(s_off), note="the scalar s")
    w.op("s_mul_i32", CHUNK_OFF, "s2", chunk_bytes, note=f"workgroup id * {chunk_bytes} bytes per chunk")
    w.comment("-- per thread (vector unit): its byte offset within a chunk, for each of the U loads")
    shift = (vec * 4).bit_length() - 1
    w.op("v_lshlrev_b32_e32", BASE, shift, "v0", note=f"t * {vec * 4} bytes: lanes side by side")
    for j, r in lay["offset_reg"].items():
        w.op("v_add_u32_e32", f"v{r}", j * span, BASE,
             note=f"+ {j} * {span}: load {j}'s offset is over {MAX_IMM_OFFSET}, too big for the offset field")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
    for arr in ("a", "b", "c"):
        if arr in ptr:
            lo = sreg[arr][2:-1].split(":")[0]
            w.add_to_pointer(int(lo), CHUNK_OFF, note=f"{arr} += chunk offset (low word ...",
                             carry_note="... and the carry)")
    if grid_stride:
        w.op("s_mov_b32", CHUNK_ID, "s2", note="chunk = workgroup id")
        w.label(".Lchunk")

    w.blank()
    w.comment(f"-- issue all {len(reads) * U} loads before waiting for any: they are in flight together")
    for j in range(U):
        off, field = addr(j)
        for i, arr in enumerate(reads):
            w.op(LOAD[vec], data(i, j), off, sreg[arr], *field,
                 note=f"{arr}[chunk + {j} * {block * vec} + t * {vec}]" + ("" if vec == 1 else f" .. + {vec - 1}"))

    w.blank()
    what = {"copy": "(copy: nothing to compute)", "scale": "s * a", "add": "a + b", "triad": "b + s * c"}[op]
    w.comment(f"-- as each load's data arrives: {what}, then store. vmcnt counts loads and stores")
    w.comment("   together and they complete in issue order, so vmcnt(k) means 'all but the k youngest done'")
    for j in range(U):
        # younger than load j: the later loads and the stores already issued in this loop
        left = len(reads) * (U - 1 - j) + j
        w.op("s_waitcnt", f"vmcnt({left})",
             note=f"{' and '.join(reads)} load {j} back; {left} younger ops may still be in flight")
        for d in range(vec):
            x = f"v{lay['data'] + j * vec + d}"
            if op == "scale":
                w.op("v_mul_f32_e32", x, SCALE, x, note="s * a" if d == 0 else "")
            elif op == "add":
                y = f"v{lay['data'] + (U + j) * vec + d}"
                w.op("v_add_f32_e32", x, x, y, note="a + b" if d == 0 else "")
            elif op == "triad":
                y = f"v{lay['data'] + (U + j) * vec + d}"
                w.op("v_fmac_f32_e32", x, SCALE, y, note="b += s * c (one rounding: fused)" if d == 0 else "")
        off, field = addr(j)
        w.op(STORE[vec], off, data(0, j), sreg[written], *field, note=f"{written}[same elements]")

    if grid_stride:
        w.blank()
        step = wgs * chunk_bytes
        w.comment(f"-- next chunk of this workgroup: {wgs} chunks on ({step} bytes)")
        for arr in ("a", "b", "c"):
            if arr in ptr:
                lo = sreg[arr][2:-1].split(":")[0]
                w.add_to_pointer(int(lo), step, note=f"{arr} += workgroups * chunk bytes")
        w.op("s_add_u32", CHUNK_ID, CHUNK_ID, wgs, note="chunk += workgroups")
        w.op("s_cmp_lt_u32", CHUNK_ID, chunks, note=f"chunk < {chunks}?")
        w.op("s_cbranch_scc1", ".Lchunk", note="the loop is uniform: scalar registers, no exec mask")
    w.op("s_endpgm", note="the stores need no wait: the wave may end with them in flight")
    return w


register(Template(
    name="stream",
    summary="STREAM copy/scale/add/triad over f32 arrays: load width, loads in flight, grid-stride loop",
    params=(
        Param("op", "str", "triad", "copy: b = a; scale: b = s*a; add: c = a + b; triad: a = b + s*c",
              choices=OPS),
        Param("n", "int", 1 << 22, "elements per array (f32); a multiple of block*vec*unroll"),
        Param("vec", "int", 4, "dwords per lane per load: 1 global_load_dword, 2 dwordx2, 4 dwordx4",
              choices=(1, 2, 4)),
        Param("unroll", "int", 1, "independent loads per array in flight per thread per chunk"),
        Param("grid-stride", "bool", False, "a fixed grid of --workgroups workgroups loops over the arrays"),
        Param("workgroups", "int", None, f"workgroups of a --grid-stride kernel (default {DEFAULT_WORKGROUPS})"),
        Param("block", "int", 256, "work-items per workgroup (whole waves)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen stream --op triad --n 4194304 --vec 4 -o triad.s",
              "gpusim gen stream --op copy --n 1048576 --vec 1 --unroll 4 --grid-stride --workgroups 256 -o c.s"),
))
