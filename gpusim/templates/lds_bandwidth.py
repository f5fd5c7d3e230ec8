"""lds-bandwidth: every wave reads LDS over and over with ds_read_b32/b64/b128, with or without bank conflicts.

The LDS of a CU has 32 banks of 4 bytes and carries 128 bytes per clock. A wave64 ds_read is
served in groups of consecutive lanes whose data fill one clock: 32 lanes for b32, 16 for b64,
8 for b128. Within a group each bank delivers one 4-byte word per clock, so two lanes that need
different words of the same bank make the group take two clocks (a 2-way bank conflict).

Lane l reads ``--width`` bytes at word ``l * S`` of a row (S = ``--stride-words``). With the
default S = width / 4 the lanes' data lie side by side and each group covers 32 consecutive
words, one per bank: no conflicts. A larger S spreads the lanes apart: S = 2 x width/4 puts two
lanes of a group on each bank used (2-way), S = 32 puts every lane of a b32 group on one bank
(32-way). The header comment states the clocks per read the LDS model predicts.

The kernel:

1. fills the LDS from the global buffer ``src`` (every thread copies dwords tid, tid + block, ...),
   then waits at a barrier;
2. each wave makes ``--reads`` ds_reads: a loop whose trip issues ``--unroll`` reads of
   consecutive rows (all in flight together: the offset field picks the row), then adds every
   dword read into a per-thread sum;
3. stores the sums to ``out`` (one u32 per thread). The check recomputes them from ``src`` with
   numpy, so a wrong address or a lost read shows up as a failed check.

All waves of a workgroup read the same rows; more workgroups (``--workgroups``) put more CUs to work.
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter, reg

READ = {4: "ds_read_b32", 8: "ds_read_b64", 16: "ds_read_b128"}
MAX_LGKM = 15          # s_waitcnt lgkmcnt is 4 bits on gfx9
MAX_DS_OFFSET = 65535  # ds_* take a 16-bit unsigned byte offset
SRC_MAX = 256          # src holds u32 values in [0, 256): the sums stay far from 2^32


def stride_words(v: dict) -> int:
    """stride_words is the words between lanes: --stride-words, or width/4 (side by side)."""
    return v["stride-words"] if v["stride-words"] is not None else v["width"] // 4


def sizes(v: dict) -> dict:
    """sizes are the LDS layout: words per row, rows, the filled words (a multiple of the block)."""
    S, U, block = stride_words(v), v["unroll"], 64 * v["waves-per-block"]
    row_words = 64 * S
    used = U * row_words
    fill = -(-used // block) * block
    return {"S": S, "row_words": row_words, "used_words": used, "fill_words": fill, "block": block}


def clocks_per_read(width: int, stride: int, banks: int = 32, bank_bytes: int = 4) -> tuple:
    """clocks_per_read is (LDS clocks, groups) for one wave's ds_read: the rule of gpusim's LDS model.

    Each group of consecutive lanes takes as many clocks as the most distinct words one bank holds.
    """
    per_clock = banks * bank_bytes // width
    clocks = 0
    for first in range(0, 64, per_clock):
        words_of_bank: dict = {}
        for lane in range(first, first + per_clock):
            for k in range(width // bank_bytes):
                word = lane * stride + k
                words_of_bank.setdefault(word % banks, set()).add(word)
        clocks += max(len(ws) for ws in words_of_bank.values())
    return clocks, 64 // per_clock


def problems(v: dict, arch) -> list:
    out = []
    width, reads, U, waves = v["width"], v["reads"], v["unroll"], v["waves-per-block"]
    words = width // 4
    if v["stride-words"] is not None and (v["stride-words"] < words or v["stride-words"] % words):
        out.append(f"--stride-words {v['stride-words']} must be a positive multiple of width/4 = {words} "
                   f"(a ds_read_b{width * 8} address must be {width}-byte aligned)")
        return out
    if not 1 <= U <= MAX_LGKM:
        out.append(f"--unroll {U} must be 1..{MAX_LGKM} (lgkmcnt counts at most {MAX_LGKM} LDS reads in flight)")
        return out
    if reads < 1 or reads % U:
        out.append(f"--reads {reads} must be a positive multiple of --unroll {U} (whole loop trips)")
    block = 64 * waves
    if waves < 1 or block > arch.cu.max_workitems_per_workgroup:
        out.append(f"--waves-per-block {waves} must be 1..{arch.cu.max_workitems_per_workgroup // 64}")
        return out
    if v["workgroups"] < 1:
        out.append(f"--workgroups {v['workgroups']} must be at least 1")
    z = sizes(v)
    lds = z["fill_words"] * 4
    if lds > arch.cu.lds.size_bytes:
        out.append(f"{U} rows of 64 lanes x {z['S']} words need {lds} bytes of LDS, over the "
                   f"{arch.cu.lds.size_bytes} of {arch.name}")
    elif (U - 1) * z["row_words"] * 4 > MAX_DS_OFFSET:
        out.append(f"row {U - 1} is {(U - 1) * z['row_words'] * 4} bytes in, past the ds offset field's "
                   f"{MAX_DS_OFFSET}")
    if reads * words * (SRC_MAX - 1) >= 2 ** 32:
        out.append(f"--reads {reads}: the per-thread sum could pass 2^32")
    vgprs = 8 + U * words
    if vgprs > arch.cu.max_arch_vgprs_per_wave:
        out.append(f"--unroll {U} x {words} dwords needs {vgprs} VGPRs, over {arch.cu.max_arch_vgprs_per_wave}")
    return out


def build(v: dict) -> KernelWriter:
    width, reads, U, waves, wgs = v["width"], v["reads"], v["unroll"], v["waves-per-block"], v["workgroups"]
    z = sizes(v)
    S, block, row_bytes = z["S"], z["block"], z["row_words"] * 4
    words = width // 4
    trips = reads // U
    fill_trips = z["fill_words"] // block
    clocks, groups = clocks_per_read(width, S)

    name = f"lds_read_b{width * 8}_s{S}_w{waves}"
    w = KernelWriter(name, lds_bytes=z["fill_words"] * 4)
    w.grid = (wgs, 1, 1)
    w.block = block
    src = w.buffer("src", "u32", z["fill_words"], init=f"randint(0,{SRC_MAX})", seed=1)
    out = w.buffer("out", "u32", wgs * block, out=True)
    # lane l's sum: trips x (its words l*S .. l*S+words-1 of each of the U rows); every wave alike
    w.check(f"out == np.tile({trips} * src[:{z['used_words']}].reshape({U}, 64, {S})[:, :, :{words}]"
            f".sum(axis=(0, 2)), {wgs * waves})")

    w.describe(f"LDS read bandwidth: {READ[width]}, {reads} reads per wave ({trips} trips of {U}), "
               f"{wgs} workgroup{'s' if wgs > 1 else ''} of {waves} wave{'s' if waves > 1 else ''}")
    w.describe(f"lane l reads {width} bytes at word l * {S} of a row ({z['row_words']} words); "
               f"{U} rows, {row_bytes} bytes apart")
    conflict = "conflict-free" if clocks == groups else f"{clocks / groups:g}-way bank conflicts on average"
    w.describe(f"LDS model: {groups} groups of {64 // groups} lanes, {clocks} clocks per read "
               f"({conflict}; {groups} is the minimum)")
    w.describe(f"bytes read from LDS: {64 * width * reads * waves * wgs}; "
               f"LDS filled from src ({z['fill_words'] * 4} bytes) first")
    w.describe("out[thread] = the sum of every u32 the thread read (the check recomputes it)")

    SRC, OUT, FILL, TRIPS, TMP = "s[4:5]", "s[6:7]", "s8", "s9", "s10"
    FILL_OFF, FILL_VAL, ADDR, SUM, OUT_OFF = "v1", "v2", "v3", "v4", "v5"
    DATA = 8

    w.op("s_load_dwordx2", SRC, "s[0:1]", hex(src), note="src: the values to put in LDS")
    w.op("s_load_dwordx2", OUT, "s[0:1]", hex(out), note="out: one sum per thread")
    w.blank()
    w.comment(f"-- fill the LDS: thread tid copies dwords tid, tid + {block}, ... ({fill_trips} "
              f"trip{'s' if fill_trips > 1 else ''})")
    w.op("v_lshlrev_b32_e32", FILL_OFF, 2, "v0", note="tid * 4: the same byte offset in src and in LDS")
    w.op("s_mov_b32", FILL, fill_trips, note="trips left")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
    w.label(".Lfill")
    w.op("global_load_dword", FILL_VAL, FILL_OFF, SRC, note="src[i]")
    w.op("s_waitcnt", "vmcnt(0)")
    w.op("ds_write_b32", FILL_OFF, FILL_VAL, note="lds[i] = src[i]")
    w.op("v_add_u32_e32", FILL_OFF, block * 4, FILL_OFF, note=f"i += {block}")
    w.op("s_sub_u32", FILL, FILL, 1)
    w.op("s_cmp_lg_u32", FILL, 0)
    w.op("s_cbranch_scc1", ".Lfill")
    w.op("s_waitcnt", "lgkmcnt(0)", note="this wave's writes are in LDS ...")
    w.op("s_barrier", note="... and after the barrier every wave's are")

    w.blank()
    w.comment(f"-- each lane's read address: word lane * {S} (lanes {'side by side' if S == words else 'spread out'})")
    w.op("v_and_b32_e32", ADDR, 63, "v0", note="lane = tid % 64: every wave reads the same rows")
    w.op("v_mul_u32_u24_e32", ADDR, S * 4, ADDR, note=f"lane * {S} words * 4 bytes")
    w.op("v_mov_b32_e32", SUM, 0, note="sum = 0")
    w.op("s_mov_b32", TRIPS, trips, note="trips left")
    w.label(".Lread")
    for j in range(U):
        off = [f"offset:{j * row_bytes}"] if j else []
        w.op(READ[width], reg("v", DATA + j * words, words), ADDR, *off,
             note=f"row {j}: {clocks} LDS clocks" if j == 0 else f"row {j}")
    for j in range(U):
        w.op("s_waitcnt", f"lgkmcnt({U - 1 - j})", note=f"read {j} is back (LDS returns in order)")
        d = [f"v{DATA + j * words + k}" for k in range(words)]
        if words == 1:
            w.op("v_add_u32_e32", SUM, SUM, d[0], note="sum += the dword read")
        else:
            for k in range(0, words, 2):
                w.op("v_add3_u32", SUM, SUM, d[k], d[k + 1], note="sum += two dwords read" if k == 0 else "")
    w.op("s_sub_u32", TRIPS, TRIPS, 1)
    w.op("s_cmp_lg_u32", TRIPS, 0)
    w.op("s_cbranch_scc1", ".Lread")

    w.blank()
    w.comment("-- out[workgroup * block + tid] = sum")
    w.op("s_mul_i32", TMP, "s2", block * 4, note=f"workgroup id * {block * 4} bytes")
    w.add_to_pointer(6, TMP, note="out += this workgroup's first thread")
    w.op("v_lshlrev_b32_e32", OUT_OFF, 2, "v0", note="tid * 4")
    w.op("global_store_dword", OUT_OFF, SUM, OUT)
    w.op("s_endpgm")
    return w


register(Template(
    name="lds-bandwidth",
    summary="waves reading LDS with ds_read_b32/b64/b128, conflict-free or with chosen bank conflicts",
    params=(
        Param("width", "int", 16, "bytes per lane per read: 4 ds_read_b32, 8 ds_read_b64, 16 ds_read_b128",
              choices=(4, 8, 16)),
        Param("reads", "int", 1024, "ds_reads per wave (a multiple of --unroll)"),
        Param("stride-words", "int", None, "4-byte words between consecutive lanes' addresses (default "
              "width/4: side by side, conflict-free; larger multiples of width/4 create bank conflicts)"),
        Param("waves-per-block", "int", 4, "waves per workgroup (all read the same rows)"),
        Param("unroll", "int", 4, "reads in flight per wave: each loop trip reads this many rows"),
        Param("workgroups", "int", 1, "workgroups (one CU's LDS each)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen lds-bandwidth --width 16 --reads 1024 --waves-per-block 8 -o lds.s",
              "gpusim gen lds-bandwidth --width 4 --stride-words 32 -o conflicts.s   # 32-way conflicts"),
))
