"""softmax: y = exp(x - max) / sum(exp(x - max)) along each row of an f32 [rows, cols] matrix.

One workgroup per row; its B threads hold the row in registers, K = cols / B elements each
(element k*B + tid, so every load and store instruction touches B consecutive words). The row
is read once and written once; between, two reductions over the whole row:

1. the row maximum m (subtracting it keeps every exponent <= 0: no overflow, and the largest
   term is exactly 1);
2. the sum s of e = exp(x - m), which the hardware computes as ``v_exp_f32`` (2^t) of
   t = (x - m) * log2(e);

then y = e * (1 / s) with ``v_rcp_f32``. Both reductions work like the reduce template's
wave-shuffle method: DPP lane moves inside each wave (``reduce.wave_reduce``), then the waves
swap their results through LDS (one word per wave and reduction) and every wave reduces those
again, so that every thread ends with m and s in an SGPR.

Hardware wait states that gfx942 needs and llvm-mc does not insert are written out as s_nop
(DPP after a VALU write, v_readlane after a VALU write, a VALU reading an SGPR that v_readlane
wrote, a VALU reading the result of a transcendental).
"""
from __future__ import annotations

from gpusim.templates.reduce import wave_reduce
from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter

MAX_IMM_OFFSET = 4095  # global_* instructions take a 13-bit signed byte offset on gfx942
MAX_PER_THREAD = 64    # one register per element, and vmcnt counts up to 63 outstanding loads
LOG2E = "0x3fb8aa3b"   # log2(e) = 1.4426950 as an f32 bit pattern
NEG_INF = "0xff800000" # -inf as an f32 bit pattern: the identity of max


def problems(v: dict, arch) -> list:
    out = []
    rows, cols, block = v["rows"], v["cols"], v["block"]
    if rows <= 0:
        out.append(f"--rows {rows} must be positive")
    if block % 64 or not 64 <= block <= arch.cu.max_workitems_per_workgroup:
        out.append(f"--block {block} must be a multiple of 64 (whole waves) up to "
                   f"{arch.cu.max_workitems_per_workgroup}")
    elif cols <= 0 or cols % block:
        out.append(f"--cols {cols} must be a positive multiple of --block {block} (each thread holds "
                   "the same number of elements)")
    elif cols // block > MAX_PER_THREAD:
        out.append(f"--cols {cols} / --block {block} = {cols // block} elements per thread; at most "
                   f"{MAX_PER_THREAD} (one register each): raise --block")
    if rows * cols * 4 >= 2 ** 31:
        out.append(f"a {rows}x{cols} f32 matrix is over 2 GiB; the kernel uses 32-bit byte offsets")
    return out


def build(v: dict) -> KernelWriter:
    rows, cols, B = v["rows"], v["cols"], v["block"]
    K = cols // B
    W = B // 64
    w = KernelWriter(f"softmax_{rows}x{cols}_b{B}", lds_bytes=2 * W * 4 if W > 1 else 0)
    w.grid = (rows, 1, 1)
    w.block = B
    assert w.buffer("x", "f32", (rows, cols), init="normal(0,2)", seed=32) == 0
    assert w.buffer("y", "f32", (rows, cols), out=True) == 8
    m = "x.max(axis=1, keepdims=True)"
    w.check(f"y ~= np.exp(x - {m}) / np.exp(x - {m}).sum(axis=1, keepdims=True) rtol=1e-5 atol=1e-7")
    w.describe(f"softmax over each row of a {rows}x{cols} f32 matrix: y = exp(x - max) / sum(exp(x - max))")
    w.describe(f"workgroup r = row r; its {B} threads hold {K} element{'s' if K > 1 else ''} each "
               f"(x[r][k*{B} + tid]) in registers from load to store")
    w.describe("max and sum: DPP reductions in each wave" + (f", then across the {W} waves through LDS" if W > 1 else ""))
    w.describe("exp(t) = v_exp_f32(t * log2(e)); 1/sum = v_rcp_f32")

    X, Y = "s[4:5]", "s[6:7]"
    SAVED = "s[10:11]"
    MAX, SUM = "s12", "s13"       # the row's max and sum, the same in every wave
    OFF, LANE_ADDR, WAVE_ADDR, ADDR = "v1", "v2", "v3", "v4"
    ACC = "v5"                    # the running max or sum of this thread, then of the wave
    DATA = 6                      # v6 .. v[6 + K - 1]: x, then e = exp(x - max), then y
    xs = [f"v{DATA + k}" for k in range(K)]

    def global_op(mnemonic: str, data: str, k: int, sbase: str, note: str) -> None:
        off, addr = k * B * 4, OFF
        if off > MAX_IMM_OFFSET:
            w.op("v_add_u32_e32", ADDR, off, OFF, note=f"+ {off} bytes: too big for the offset field")
            off, addr = 0, ADDR
        ops = [data, addr, sbase] if mnemonic.startswith("global_load") else [addr, data, sbase]
        w.op(mnemonic, *ops, *([f"offset:{off}"] if off else []), note=note)

    def across_waves(op: str, sreg: str, slot0: int, identity) -> None:
        """Lane 0 of wave i puts the wave's result in LDS[slot0 + i]; every wave then reduces the W words."""
        if W == 1:
            return
        lanes = 1 << (W - 1).bit_length()
        w.comment(f"   across the {W} waves: LDS[{slot0} + i] = wave i's {op}; every wave reads all {W}")
        w.op("v_mov_b32_e32", ACC, sreg)
        w.op("s_mov_b64", SAVED, "exec", note="save EXEC (all lanes)")
        w.op("s_mov_b64", "exec", 1, note="lane 0 only")
        w.op("ds_write_b32", WAVE_ADDR, ACC, *([f"offset:{slot0 * 4}"] if slot0 else []),
             note=f"LDS[{slot0} + wave] = this wave's {op}")
        w.op("s_mov_b64", "exec", SAVED, note="all lanes again")
        w.op("s_waitcnt", "lgkmcnt(0)", note="this wave's word is in LDS ...")
        w.op("s_barrier", note="... and every wave's")
        w.op("v_mov_b32_e32", ACC, identity, note=f"lanes {W}..63 hold the identity of {op}")
        w.op("v_cmp_gt_u32_e32", "vcc", W * 4, LANE_ADDR, note=f"lane < {W}")
        w.op("s_and_saveexec_b64", SAVED, "vcc", note="EXEC = those lanes")
        w.op("ds_read_b32", ACC, LANE_ADDR, *([f"offset:{slot0 * 4}"] if slot0 else []),
             note=f"lane i: wave i's {op}")
        w.op("s_mov_b64", "exec", SAVED, note="all lanes again (DPP needs them)")
        w.op("s_waitcnt", "lgkmcnt(0)")
        wave_reduce(w, op, ACC, sreg, lanes=lanes, valu_wrote_acc=False)

    w.comment("-- per workgroup: row r = s2 of x and y")
    w.op("s_load_dwordx4", "s[4:7]", "s[0:1]", "0x0", note="s[4:5] = x, s[6:7] = y")
    w.op("s_mul_i32", "s8", "s2", cols * 4, note=f"r * {cols} elements * 4 bytes")
    w.op("v_lshlrev_b32_e32", OFF, 2, "v0", note="tid * 4: byte offset of element tid")
    if W > 1:
        w.op("v_and_b32_e32", LANE_ADDR, 63, "v0", note="lane = tid % 64")
        w.op("v_lshlrev_b32_e32", LANE_ADDR, 2, LANE_ADDR, note="lane * 4: LDS address of word 'lane'")
        w.op("v_lshrrev_b32_e32", WAVE_ADDR, 6, "v0", note="wave = tid / 64")
        w.op("v_lshlrev_b32_e32", WAVE_ADDR, 2, WAVE_ADDR, note="wave * 4: LDS address of word 'wave'")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
    w.add_to_pointer(4, "s8", note="x += row offset (64-bit: low word ...", carry_note="... plus the carry)")
    w.add_to_pointer(6, "s8", note="y += row offset")
    w.blank()
    w.comment(f"-- load the row: {K} element{'s' if K > 1 else ''} per thread, all in flight")
    for k in range(K):
        global_op("global_load_dword", xs[k], k, X, f"x[r][{k * B} + tid]")

    w.blank()
    w.comment("-- 1. the row's maximum")
    if K == 1:
        w.op("s_waitcnt", "vmcnt(0)")
        w.op("v_mov_b32_e32", ACC, xs[0], note="this thread's max is its one element")
    else:
        w.op("s_waitcnt", f"vmcnt({K - 2})", note="elements 0 and 1 are back (loads return in order)")
        w.op("v_max_f32_e32", ACC, xs[0], xs[1], note="this thread's max so far")
        for k in range(2, K):
            w.op("s_waitcnt", f"vmcnt({K - 1 - k})", note=f"element {k} is back")
            w.op("v_max_f32_e32", ACC, xs[k], ACC)
    wave_reduce(w, "max", ACC, MAX)
    across_waves("max", MAX, 0, NEG_INF)

    w.blank()
    w.comment("-- 2. e = exp(x - max) = 2^((x - max) * log2(e)), and the row's sum of e")
    for k in range(K):
        w.op("v_subrev_f32_e32", xs[k], MAX, xs[k], note="" if k else "x - max (subrev: src1 - src0; an SGPR must be src0)")
    for k in range(K):
        w.op("v_mul_f32_e32", xs[k], LOG2E, xs[k], note="" if k else "t = (x - max) * log2(e), log2(e) = 1.442695")
    for k in range(K):
        w.op("v_exp_f32_e32", xs[k], xs[k], note="" if k else "e = 2^t, a quarter-rate transcendental")
    w.op("s_nop", 0, note="a VALU reading a transcendental's result waits 1 state (gfx940)")
    if K == 1:
        w.op("v_mov_b32_e32", ACC, xs[0], note="this thread's sum is its one e")
    else:
        w.op("v_add_f32_e32", ACC, xs[0], xs[1], note="this thread's sum")
        for k in range(2, K):
            w.op("v_add_f32_e32", ACC, xs[k], ACC)
    wave_reduce(w, "add", ACC, SUM)
    across_waves("add", SUM, W, 0)

    w.blank()
    w.comment("-- 3. y = e * (1 / sum), stored")
    w.op("v_rcp_f32_e32", ACC, SUM, note="1 / sum (the same in every lane)")
    w.op("s_nop", 0, note="a VALU reading a transcendental's result waits 1 state (gfx940)")
    for k in range(K):
        w.op("v_mul_f32_e32", xs[k], xs[k], ACC, note="" if k else "y = e * (1 / sum)")
    for k in range(K):
        global_op("global_store_dword", xs[k], k, Y, f"y[r][{k * B} + tid]")
    w.op("s_endpgm")
    return w


register(Template(
    name="softmax",
    summary="row softmax of an f32 matrix, one workgroup per row, max-subtracted, with DPP reductions",
    params=(
        Param("rows", "int", 64, "rows of x (one workgroup each)"),
        Param("cols", "int", 1024, "columns of x (a multiple of --block)"),
        Param("block", "int", 256, "work-items per workgroup (whole waves)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen softmax --rows 128 --cols 4096 --block 256 -o s.s",),
))
