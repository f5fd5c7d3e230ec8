"""reduce: the sum of an f32 array, one partial sum per workgroup.

Workgroup g owns the slice x[g*B*I : (g+1)*B*I] (B threads, I items per thread) and writes its
sum to out[g]; a second launch (or the host) adds the G partial sums. Each thread first adds
its I elements in registers: element g*B*I + k*B + tid for k = 0..I-1, so every load
instruction reads B consecutive words (coalesced). Then the B per-thread sums become one, two
ways:

* ``lds-tree``: every thread stores its sum in LDS[tid]; then log2(B) halving steps, in step s
  the threads tid < s add LDS[tid + s] to their sum and store it back. While s >= 128 the
  writers and the readers of the next step are in different waves, so each such step ends at
  a barrier; from s = 64 down only wave 0 works and the LDS runs one wave's instructions in
  order, so no barrier is needed, but every step still costs an LDS round trip (~64 cycles
  and more).
* ``wave-shuffle``: lanes exchange registers without LDS. DPP (data-parallel primitives, a
  source modifier of an ordinary VALU add) lets a lane read another lane's register: inside a
  row of 16 lanes quad_perm swaps within 4 and row_half_mirror / row_mirror reflect 8 and 16
  lanes, each step doubling the lanes summed; then row_bcast:15 and row_bcast:31 (gfx9) carry
  a row's last lane into the next rows, and lane 63 holds the wave's sum, which
  v_readlane_b32 copies to an SGPR. The waves' sums meet in LDS (one word per wave) and wave 0
  reduces those the same way. Six VALU steps instead of six LDS round trips.

``wave_reduce`` in gpusim/templates/reduce.py writes the DPP sequence; the softmax template uses
it for its max and sum.
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter

METHODS = ("lds-tree", "wave-shuffle")
MAX_IMM_OFFSET = 4095  # global_* instructions take a 13-bit signed byte offset on gfx942
MAX_ITEMS = 64         # one register per item, and vmcnt counts up to 63 outstanding loads

# One DPP step per doubling: (lanes combined after it, DPP control, what each lane i adds).
# quad_perm and the mirrors move data inside a row of 16 lanes; row_bcast (gfx9 only) carries
# the last lane of a row into the rows after it, and row_mask picks the rows that take it.
_DPP_STEPS = (
    (2, "quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "lane i^1"),
    (4, "quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf", "lane i^2"),
    (8, "row_half_mirror row_mask:0xf bank_mask:0xf", "lane 7-i of its 8 (the other quad)"),
    (16, "row_mirror row_mask:0xf bank_mask:0xf", "lane 15-i of its row (the other 8)"),
    (32, "row_bcast:15 row_mask:0xa bank_mask:0xf", "lane 15 of the row before, in rows 1 and 3"),
    (64, "row_bcast:31 row_mask:0xc bank_mask:0xf", "lane 31, in rows 2 and 3"),
)
_RESULT_LANE = {2: 0, 4: 0, 8: 0, 16: 0, 32: 31, 64: 63}


def wave_reduce(w: KernelWriter, op: str, acc: str, sreg: str, lanes: int = 64,
                valu_wrote_acc: bool = True) -> None:
    """wave_reduce combines ``acc`` over the first ``lanes`` lanes of each wave (2..64, a power of
    two) with ``v_{op}_f32`` (op: add, max, min) and leaves the result in SGPR ``sreg``, the same
    for the whole wave. Every lane must be active; ``acc`` is overwritten. ``valu_wrote_acc``: the
    instruction before wrote ``acc`` on the VALU, so the first DPP step waits too.

    Everything stays in registers: no LDS. (ds_swizzle_b32 or ds_bpermute_b32 could replace the
    row_bcast steps, at an LDS round trip each.)
    """
    v = f"v_{op}_f32"
    for step, (n, ctrl, what) in enumerate(_DPP_STEPS):
        if lanes < n:
            break
        if step or valu_wrote_acc:
            w.op("s_nop", 1, note="DPP reads a VGPR a VALU just wrote: 2 wait states")
        w.op(f"{v}_dpp", acc, acc, f"{acc} {ctrl}", note=f"{op} with {what} -> {n} lanes")
    lane = _RESULT_LANE[lanes]
    w.op("s_nop", 0, note="v_readlane reads a VGPR a VALU just wrote: 1 wait state (gfx940)")
    w.op("v_readlane_b32", sreg, acc, lane, note=f"lane {lane} holds the result: {sreg}, one value for the wave")
    w.op("s_nop", 1, note=f"a VALU reading {sreg}, which a VALU wrote, waits 2 states (gfx940)")


def problems(v: dict, arch) -> list:
    out = []
    n, block, items, method = v["n"], v["block"], v["items-per-thread"], v["method"]
    if block % 64 or not 64 <= block <= arch.cu.max_workitems_per_workgroup:
        out.append(f"--block {block} must be a multiple of 64 (whole waves) up to "
                   f"{arch.cu.max_workitems_per_workgroup}")
    elif method == "lds-tree" and block & (block - 1):
        out.append(f"--block {block} must be a power of two for lds-tree (each step halves the threads)")
    if not 1 <= items <= MAX_ITEMS:
        out.append(f"--items-per-thread {items} must be 1..{MAX_ITEMS} (one register per item)")
    if n <= 0 or (block > 0 and items > 0 and n % (block * items)):
        out.append(f"--n {n} must be a positive multiple of --block x --items-per-thread = {block * items} "
                   "(each workgroup sums a whole slice)")
    if n * 4 >= 2 ** 31:
        out.append(f"--n {n}: over 2 GiB of f32; the kernel uses 32-bit byte offsets")
    return out


def build(v: dict) -> KernelWriter:
    n, B, I, method = v["n"], v["block"], v["items-per-thread"], v["method"]
    slice_len = B * I
    G = n // slice_len
    W = B // 64
    lds = B * 4 if method == "lds-tree" else (W * 4 if W > 1 else 0)
    w = KernelWriter(f"reduce_{method.replace('-', '_')}_b{B}_i{I}", lds_bytes=lds)
    w.grid = (G, 1, 1)
    w.block = B
    assert w.buffer("x", "f32", n, init="uniform(0,1)", seed=3) == 0
    assert w.buffer("out", "f32", G, out=True) == 8
    w.check(f"out ~= x.reshape({G}, -1).sum(axis=1) rtol=1e-5")
    w.describe(f"reduce ({method}): out[g] = sum of x[g*{slice_len} : (g+1)*{slice_len}], {G} workgroups of {B}")
    w.describe(f"thread tid adds x[g*{slice_len} + k*{B} + tid] for k < {I} in registers (coalesced loads), then")
    if method == "lds-tree":
        w.describe(f"the {B} sums halve through LDS[{B}] in {B.bit_length() - 1} steps (barriers while >= 128 remain)")
    else:
        w.describe("each wave adds its 64 sums by DPP lane moves in registers (v_readlane takes the result),")
        w.describe(f"and wave 0 adds the {W} wave sums, met in LDS[{W}]" if W > 1 else "and that is the workgroup's sum")

    X, OUT = "s[4:5]", "s[6:7]"
    SAVED = "s[10:11]"             # EXEC while a branch of the code runs with fewer lanes
    OFF, TMP, ADDR = "v1", "v2", "v3"
    DATA = 4                       # v4 .. v[4 + I - 1]; v4 also accumulates
    ACC = f"v{DATA}"

    w.comment("-- per workgroup: the slice and the output word")
    w.op("s_load_dwordx4", "s[4:7]", "s[0:1]", "0x0", note="s[4:5] = x, s[6:7] = out")
    w.op("s_mul_i32", "s8", "s2", slice_len * 4, note=f"g * {slice_len} elements * 4 bytes")
    w.op("s_lshl_b32", "s9", "s2", 2, note="g * 4 bytes: out[g]")
    w.op("v_lshlrev_b32_e32", OFF, 2, "v0", note="tid * 4: this thread's byte offset (and LDS slot)")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
    w.add_to_pointer(4, "s8", note="x += slice offset (64-bit add: low word ...", carry_note="... plus the carry)")
    w.add_to_pointer(6, "s9", note="out += g * 4")
    w.blank()
    w.comment(f"-- {I} load{'s' if I > 1 else ''} per thread, all in flight before the first wait")
    for k in range(I):
        off, addr = k * B * 4, OFF
        if off > MAX_IMM_OFFSET:
            w.op("v_add_u32_e32", ADDR, off, OFF, note=f"+ {off} bytes: too big for the offset field")
            off, addr = 0, ADDR
        w.op("global_load_dword", f"v{DATA + k}", addr, X, *([f"offset:{off}"] if off else []),
             note=f"x[g*{slice_len} + {k * B} + tid]")
    if I > 1:
        w.comment("-- add them as they arrive (loads return in order)")
        w.op("s_waitcnt", f"vmcnt({I - 2})", note="loads 0 and 1 are back")
        w.op("v_add_f32_e32", ACC, f"v{DATA + 1}", ACC, note=f"sum = x0 + x1 (the sum lives in {ACC})")
        for k in range(2, I):
            w.op("s_waitcnt", f"vmcnt({I - 1 - k})", note=f"load {k} is back")
            w.op("v_add_f32_e32", ACC, f"v{DATA + k}", ACC, note=f"sum += x{k}")
    else:
        w.op("s_waitcnt", "vmcnt(0)", note="the sum is the one element")
    w.blank()

    if method == "lds-tree":
        _lds_tree(w, B, OFF, TMP, ACC, SAVED)
    else:
        _wave_shuffle(w, B, OFF, TMP, ACC, SAVED)

    w.blank()
    w.comment("-- thread 0 writes the workgroup's sum")
    w.op("v_mov_b32_e32", TMP, 0, note="address offset 0: out was moved to out[g]")
    w.op("v_cmp_eq_u32_e32", "vcc", 0, "v0", note="tid == 0")
    w.op("s_and_saveexec_b64", SAVED, "vcc", note="EXEC = that one lane")
    w.op("global_store_dword", TMP, ACC, OUT, note="out[g] = sum")
    w.label(".Lend")
    w.op("s_endpgm")
    return w


def _lds_tree(w, B, OFF, TMP, ACC, SAVED) -> None:
    w.comment(f"-- tree through LDS: LDS[tid] = sum, then {B.bit_length() - 1} halving steps")
    w.op("ds_write_b32", OFF, ACC, note="LDS[tid] = sum")
    if B > 64:
        w.op("s_waitcnt", "lgkmcnt(0)", note="this wave's word is in LDS ...")
        w.op("s_barrier", note="... and every wave's")
    s = B // 2
    while s >= 1:
        w.comment(f"   step: threads tid < {s} add LDS[tid + {s}]")
        w.op("v_cmp_gt_u32_e32", "vcc", s, "v0", note=f"tid < {s}")
        w.op("s_and_saveexec_b64", SAVED, "vcc", note="EXEC = those lanes (old EXEC saved)")
        w.op("s_cbranch_execz", f".Lstep{s}_done", note="a wave with none of them skips the step")
        w.op("ds_read_b32", TMP, OFF, f"offset:{s * 4}", note=f"LDS[tid + {s}]")
        w.op("s_waitcnt", "lgkmcnt(0)", note="one LDS round trip per step")
        w.op("v_add_f32_e32", ACC, TMP, ACC, note="sum += LDS[tid + s]")
        if s > 1:
            w.op("ds_write_b32", OFF, ACC, note="LDS[tid] = sum, for the next step")
        w.label(f".Lstep{s}_done")
        w.op("s_mov_b64", "exec", SAVED, note="all lanes again")
        if s >= 128:
            w.op("s_waitcnt", "lgkmcnt(0)", note="the next step reads words that waves other than 0 wrote:")
            w.op("s_barrier", note="wait for them")
        elif s == 64:
            w.comment("   from here only wave 0 works; the LDS runs its instructions in order: no barriers")
        s //= 2


def _wave_shuffle(w, B, OFF, TMP, ACC, SAVED) -> None:
    W = B // 64
    w.comment("-- the wave's 64 sums by DPP lane moves: each step doubles the lanes summed")
    wave_reduce(w, "add", ACC, "s12")
    w.op("v_mov_b32_e32", ACC, "s12", note="the wave's sum, in every lane")
    if W == 1:
        return
    w.blank()
    w.comment(f"-- the {W} wave sums: lane 0 of wave i writes LDS[i]; wave 0 adds them")
    w.op("v_lshrrev_b32_e32", TMP, 6, "v0", note="wave index i = tid / 64")
    w.op("v_lshlrev_b32_e32", TMP, 2, TMP, note="... LDS byte address i * 4")
    w.op("s_mov_b64", SAVED, "exec", note="save EXEC (all 64 lanes)")
    w.op("s_mov_b64", "exec", 1, note="lane 0 only")
    w.op("ds_write_b32", TMP, ACC, note="LDS[i] = wave i's sum")
    w.op("s_mov_b64", "exec", SAVED, note="all lanes again")
    w.op("s_waitcnt", "lgkmcnt(0)", note="this wave's sum is in LDS ...")
    w.op("s_barrier", note="... and every wave's")
    w.op("v_mov_b32_e32", ACC, 0, note=f"lanes {W}..63 add zeros")
    w.op("v_cmp_gt_u32_e32", "vcc", W, "v0", note=f"tid < {W}: lanes of wave 0 only")
    w.op("s_and_saveexec_b64", SAVED, "vcc", note="EXEC = those lanes")
    w.op("s_cbranch_execz", ".Lend", note="waves 1.. are done")
    w.op("ds_read_b32", ACC, OFF, note="lane i: wave i's sum")
    w.op("s_mov_b64", "exec", SAVED, note="all 64 lanes of wave 0 (DPP needs them)")
    w.op("s_waitcnt", "lgkmcnt(0)")
    lanes = 1 << (W - 1).bit_length()
    wave_reduce(w, "add", ACC, "s12", lanes=lanes, valu_wrote_acc=False)
    w.op("v_mov_b32_e32", ACC, "s12", note="the workgroup's sum")


register(Template(
    name="reduce",
    summary="sum of an f32 array, one partial sum per workgroup: an LDS tree or wave shuffles (DPP)",
    params=(
        Param("n", "int", 65536, "elements in x (a multiple of --block x --items-per-thread)"),
        Param("block", "int", 256, "work-items per workgroup (whole waves; a power of two for lds-tree)"),
        Param("items-per-thread", "int", 4, f"elements each thread adds in registers first (1..{MAX_ITEMS})"),
        Param("method", "str", "wave-shuffle", "lds-tree: halving steps through LDS; wave-shuffle: DPP lane "
              "moves inside each wave, LDS only between waves", choices=METHODS),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen reduce --n 1048576 --block 256 --items-per-thread 16 --method wave-shuffle -o r.s",
              "gpusim gen reduce --n 65536 --method lds-tree"),
))
