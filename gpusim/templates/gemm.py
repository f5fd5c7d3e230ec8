"""GEMM on the matrix cores: C = A . Bt^T with MFMA, LDS tiling, optional double buffering and prefetch.

Layouts: A is M x K and Bt is N x K, both row-major (K contiguous: "NT", the layout MFMA operands read
without a transpose), C is M x N f32 row-major. The problem size is compiled into the code.

One workgroup computes a BM x BN macro tile of C; its WM x WN waves each own a (BM/WM) x (BN/WN) wave
tile made of MFMA blocks (32x32 or 16x16), accumulated in AGPRs. Each trip of the K loop:

1. global loads bring the next BM x BK slice of A and BN x BK slice of Bt into VGPRs (``--vec`` bytes
   per lane per load; with ``--prefetch 1`` they are issued before the current slice is computed,
   so their latency hides behind the MFMAs);
2. ds_writes put them in LDS, rows padded by ``--lds-pad`` elements so that the fragment reads
   below hit distinct banks (with ``--lds-double-buffer`` into the other of two buffers, which saves
   one barrier per trip);
3. each wave reads its A and B fragments for the whole BK from LDS (one ds_read per MFMA operand,
   waiting with lgkmcnt only for the fragments the next k-step needs) and issues the MFMAs.

The epilogue moves the accumulators to VGPRs and stores C (one global_store_dword per register).
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusim.templates.registry import Param, Template, parse_dims, register
from gpusim.templates.writer import KernelWriter, RegisterBump, dtype_bytes, log2_exact, reg

# MFMA instructions by (dtype, shape) on gfx942
_MFMA = {
    ("f16", "32x32x8"): "v_mfma_f32_32x32x8_f16",
    ("f16", "16x16x16"): "v_mfma_f32_16x16x16_f16",
    ("bf16", "32x32x8"): "v_mfma_f32_32x32x8_bf16",
    ("bf16", "16x16x16"): "v_mfma_f32_16x16x16_bf16",
    ("f32", "32x32x2"): "v_mfma_f32_32x32x2_f32",
    ("f32", "16x16x4"): "v_mfma_f32_16x16x4_f32",
}
_LOAD = {4: "global_load_dword", 8: "global_load_dwordx2", 16: "global_load_dwordx4"}
_DS_WRITE = {4: "ds_write_b32", 8: "ds_write_b64", 16: "ds_write_b128"}
_DS_READ = {4: "ds_read_b32", 8: "ds_read_b64"}
_MAX_LGKM = 15  # the largest lgkmcnt s_waitcnt can wait for on gfx9


@dataclass(frozen=True)
class Plan:
    """Plan is every number the GEMM code is built from, derived once from the parameters."""

    m: int
    n: int
    k: int
    dtype: str
    bm: int
    bn: int
    bk: int
    wm: int
    wn: int
    mm: int      # MFMA block rows
    nn: int      # MFMA block columns
    mk: int      # MFMA depth
    vec: int     # bytes per lane per global load
    pad: int     # LDS row padding, elements
    double: bool
    prefetch: int
    unroll: int

    @property
    def es(self) -> int:
        return dtype_bytes(self.dtype)

    @property
    def threads(self) -> int:
        return 64 * self.wm * self.wn

    @property
    def kpl(self) -> int:
        """kpl is the K elements one lane holds of an MFMA operand."""
        return self.mk * self.mm // 64

    @property
    def frag_dwords(self) -> int:
        return max(1, self.kpl * self.es // 4)

    @property
    def row_bytes(self) -> int:
        """row_bytes is one LDS row (BK elements plus padding) of A or Bt."""
        return (self.bk + self.pad) * self.es

    @property
    def buffer_bytes(self) -> int:
        return (self.bm + self.bn) * self.row_bytes

    @property
    def lds_bytes(self) -> int:
        return self.buffer_bytes * (2 if self.double else 1)

    @property
    def lanes_per_row(self) -> int:
        return self.bk * self.es // self.vec

    @property
    def rows_per_load(self) -> int:
        return self.threads // self.lanes_per_row

    @property
    def loads_a(self) -> int:
        return self.bm // self.rows_per_load

    @property
    def loads_b(self) -> int:
        return self.bn // self.rows_per_load

    @property
    def blocks_m(self) -> int:
        """blocks_m is the MFMA blocks down a wave tile."""
        return self.bm // self.wm // self.mm

    @property
    def blocks_n(self) -> int:
        return self.bn // self.wn // self.nn

    @property
    def acc_per_block(self) -> int:
        return self.mm * self.nn // 64

    @property
    def k_steps(self) -> int:
        return self.bk // self.mk

    @property
    def k_tiles(self) -> int:
        return self.k // self.bk


def plan_of(v: dict) -> Plan:
    """plan_of turns parsed parameter values into a Plan (no validity checks)."""
    bm, bn, bk = parse_dims(v["tile"], 3)
    wm, wn = parse_dims(v["waves"], 2)
    mm, nn, mk = parse_dims(v["mfma"], 3)
    es = dtype_bytes(v["dtype"])
    pad = v["lds-pad"]
    if pad is None:  # shift consecutive fragment rows by 8 bytes (16-bit types) or 4 (f32): no bank conflicts
        pad = 4 if es == 2 else 1
    return Plan(v["m"], v["n"], v["k"], v["dtype"], bm, bn, bk, wm, wn, mm, nn, mk, v["vec"], pad,
                bool(v["lds-double-buffer"]), v["prefetch"], v["unroll"])


def problems(v: dict, arch) -> list:
    """problems lists why parameters ``v`` cannot make a GEMM on ``arch`` (empty: they can)."""
    p = plan_of(v)
    out = []
    if (p.dtype, v["mfma"]) not in _MFMA:
        shapes = [s for (d, s) in _MFMA if d == p.dtype]
        return [f"--mfma {v['mfma']} has no {p.dtype} instruction (for {p.dtype}: {', '.join(shapes)})"]
    if p.m % p.bm or p.n % p.bn or p.k % p.bk:
        out.append(f"problem {p.m}x{p.n}x{p.k} is not a multiple of the tile {v['tile']}")
    if p.bm % (p.wm * p.mm) or p.bn % (p.wn * p.nn):
        out.append(f"tile {p.bm}x{p.bn} does not divide into {p.wm}x{p.wn} waves of {p.mm}x{p.nn} MFMA blocks")
    if p.bk % p.mk:
        out.append(f"tile depth {p.bk} is not a multiple of the MFMA depth {p.mk}")
    if p.threads > 1024:
        out.append(f"{p.wm}x{p.wn} waves make {p.threads} work-items per workgroup, over the 1024 allowed")
    if (p.bk * p.es) % p.vec or p.lanes_per_row > p.threads or p.threads % p.lanes_per_row:
        out.append(f"a {p.bk}-element row of {p.dtype} ({p.bk * p.es} B) does not split into --vec {p.vec} B loads")
    elif p.bm % p.rows_per_load or p.bn % p.rows_per_load:
        out.append(f"{p.threads} work-items load {p.rows_per_load} rows at a time, which does not divide "
                   f"the tile's {p.bm} and {p.bn} rows (try a smaller --vec or fewer waves)")
    if p.lds_bytes > arch.cu.lds.size_bytes:
        out.append(f"the LDS tiles need {p.lds_bytes} bytes, over {arch.name}'s {arch.cu.lds.size_bytes} per CU")
    elif p.buffer_bytes > 65536:
        out.append(f"one LDS buffer of {p.buffer_bytes} bytes is beyond the 64 KiB ds_* offsets reach")
    if p.k_tiles % p.unroll:
        out.append(f"--unroll {p.unroll} does not divide the {p.k_tiles} K tiles")
    if not out:
        w = build(v)
        if w.unified_vgprs > 512 or w.vgprs > 256 or w.agprs > 256:
            out.append(f"the kernel needs {w.vgprs} VGPRs + {w.agprs} AGPRs per lane, over 256 + 256 (512 in "
                       "all): use a smaller wave tile")
    return out


def build(v: dict) -> KernelWriter:
    """build writes the GEMM for parameter values ``v`` (assumed valid: see problems)."""
    p = plan_of(v)
    name = f"gemm_{p.dtype}_{p.bm}x{p.bn}x{p.bk}"
    w = KernelWriter(name, workgroup_ids="xy", lds_bytes=p.lds_bytes)
    w.grid = (p.n // p.bn, p.m // p.bm, 1)
    w.block = p.threads
    tol = "rtol=2e-3 atol=2e-3" if p.dtype != "bf16" else "rtol=2e-2 atol=2e-2"
    off_a = w.buffer("A", p.dtype, (p.m, p.k), init="uniform(-1,1)", seed=1)
    off_b = w.buffer("Bt", p.dtype, (p.n, p.k), init="uniform(-1,1)", seed=2)
    off_c = w.buffer("C", "f32", (p.m, p.n), out=True)
    if p.dtype == "bf16":  # bf16 buffers reach checks as their uint16 bits (numpy has no bfloat16)
        w.check(f"C ~= (A.astype(u32) << 16).view(f32) @ (Bt.astype(u32) << 16).view(f32).T {tol}")
    else:
        w.check(f"C ~= A.astype(f32) @ Bt.astype(f32).T {tol}")
    w.describe(f"generated by: gpusim gen gemm {_flags(v)}")
    w.describe(f"C[{p.m},{p.n}] = A[{p.m},{p.k}] . Bt[{p.n},{p.k}]^T in {p.dtype}, f32 accumulate; "
               f"{p.bm}x{p.bn}x{p.bk} macro tile, {p.wm}x{p.wn} waves of {p.bm // p.wm}x{p.bn // p.wn}, "
               f"{_MFMA[(p.dtype, v['mfma'])]}")
    w.describe(f"LDS {p.lds_bytes} B ({'two buffers' if p.double else 'one buffer'} of A and Bt rows of "
               f"{p.bk}+{p.pad} elements); global prefetch depth {p.prefetch}; K loop unrolled {p.unroll}x")

    s = RegisterBump(4)
    sA, sB, sC = s.take(2, 2), s.take(2, 2), s.take(2, 2)
    s_wave, s_cnt, s_rd, s_wr, s_t = s.take(), s.take(), s.take(), s.take(), s.take()
    vr = RegisterBump(1)
    v_lane = vr.take()
    v_ga = [vr.take() for _ in range(p.loads_a)]
    v_gb = [vr.take() for _ in range(p.loads_b)]
    v_wa, v_wb, v_ra, v_rb = vr.take(), vr.take(), vr.take(), vr.take()
    v_t, v_u = vr.take(), vr.take()
    dw = p.vec // 4
    v_data_a = [vr.take(dw, min(dw, 4)) for _ in range(p.loads_a)]
    v_data_b = [vr.take(dw, min(dw, 4)) for _ in range(p.loads_b)]
    fd = p.frag_dwords
    v_fa = [[vr.take(fd, fd) for _ in range(p.blocks_m)] for _ in range(p.k_steps)]
    v_fb = [[vr.take(fd, fd) for _ in range(p.blocks_n)] for _ in range(p.k_steps)]
    acc = [[(bi * p.blocks_n + bj) * p.acc_per_block for bj in range(p.blocks_n)] for bi in range(p.blocks_m)]
    mfma = _MFMA[(p.dtype, v["mfma"])]

    w.comment("-- pointers and this workgroup's tiles: wg x -> columns of C (rows of Bt), wg y -> rows of C")
    assert sB == sA + 2 and off_b == off_a + 8  # one s_load_dwordx4 fetches both pointers
    w.op("s_load_dwordx4", reg("s", sA, 4), "s[0:1]", hex(off_a), note="A, Bt")
    w.op("s_load_dwordx2", reg("s", sC, 2), "s[0:1]", hex(off_c), note="C")
    w.op("v_and_b32_e32", f"v{v_lane}", 63, "v0", note="lane within the wave")
    w.op("v_readfirstlane_b32", f"s{s_wave}", "v0", note="work-item id of lane 0 ...")
    w.op("s_lshr_b32", f"s{s_wave}", f"s{s_wave}", 6, note="... / 64 = this wave's index")
    w.op("s_waitcnt", "lgkmcnt(0)")
    _add_product(w, sA, "s3", p.bm * p.k * p.es, s_t, "A += wg_y * BM rows")
    _add_product(w, sB, "s2", p.bn * p.k * p.es, s_t, "Bt += wg_x * BN rows")

    w.blank()
    w.comment(f"-- global loads: {p.lanes_per_row} lanes per {p.bk}-element row, {p.rows_per_load} rows per load, "
              f"{p.loads_a} loads of A and {p.loads_b} of Bt per lane")
    w.op("v_lshrrev_b32_e32", f"v{v_t}", log2_exact(p.lanes_per_row), "v0", note="row = tid / lanes_per_row")
    w.op("v_and_b32_e32", f"v{v_u}", p.lanes_per_row - 1, "v0", note="tid % lanes_per_row ...")
    w.op("v_lshlrev_b32_e32", f"v{v_u}", log2_exact(p.vec), f"v{v_u}", note="... * vec = byte column")
    for j, vg in enumerate(v_ga):
        w.mad_u32_u24(f"v{vg}", f"v{v_t}", p.k * p.es, f"v{v_u}", note=f"A offset of load {j}: row * K * es + col")
        if j:
            w.op("v_add_u32_e32", f"v{vg}", j * p.rows_per_load * p.k * p.es, f"v{vg}")
    for j, vg in enumerate(v_gb):
        w.mad_u32_u24(f"v{vg}", f"v{v_t}", p.k * p.es, f"v{v_u}", note=f"Bt offset of load {j}")
        if j:
            w.op("v_add_u32_e32", f"v{vg}", j * p.rows_per_load * p.k * p.es, f"v{vg}")
    w.mad_u32_u24(f"v{v_wa}", f"v{v_t}", p.row_bytes, f"v{v_u}", note="LDS write address in A's rows")
    w.op("v_add_u32_e32", f"v{v_wb}", p.bm * p.row_bytes, f"v{v_wa}", note="and in Bt's, after A's BM rows")

    w.blank()
    w.comment(f"-- LDS fragment addresses: lane l reads row (l % {p.mm}) of its block, K elements "
              f"{p.kpl} * (l / {p.mm}) on")
    w.op("s_lshr_b32", f"s{s_t}", f"s{s_wave}", log2_exact(p.wn), note="wave row = wave / WN")
    w.op("s_mul_i32", f"s{s_t}", f"s{s_t}", (p.bm // p.wm) * p.row_bytes, note="... * wave-tile rows * row bytes")
    w.op("v_and_b32_e32", f"v{v_t}", p.mm - 1, f"v{v_lane}", note="l % MFMA rows")
    w.op("v_lshrrev_b32_e32", f"v{v_u}", log2_exact(p.mm), f"v{v_lane}", note="l / MFMA rows")
    w.op("v_mul_u32_u24_e32", f"v{v_u}", p.kpl * p.es, f"v{v_u}", note="... * bytes per lane of K")
    w.mad_u32_u24(f"v{v_ra}", f"v{v_t}", p.row_bytes, f"v{v_u}")
    w.op("v_add_u32_e32", f"v{v_ra}", f"s{s_t}", f"v{v_ra}", note="A fragment base")
    w.op("s_and_b32", f"s{s_t}", f"s{s_wave}", p.wn - 1, note="wave column = wave % WN")
    w.op("s_mul_i32", f"s{s_t}", f"s{s_t}", (p.bn // p.wn) * p.row_bytes)
    w.op("s_add_u32", f"s{s_t}", f"s{s_t}", p.bm * p.row_bytes, note="Bt's rows follow A's")
    w.mad_u32_u24(f"v{v_rb}", f"v{v_t}", p.row_bytes, f"v{v_u}")
    w.op("v_add_u32_e32", f"v{v_rb}", f"s{s_t}", f"v{v_rb}", note="Bt fragment base")

    w.blank()
    w.comment(f"-- zero the {p.blocks_m * p.blocks_n * p.acc_per_block} accumulators")
    for a in range(p.blocks_m * p.blocks_n * p.acc_per_block):
        w.op("v_accvgpr_write_b32", f"a{a}", 0)
    w.op("s_mov_b32", f"s{s_rd}", 0, note="LDS buffer read from")
    w.op("s_mov_b32", f"s{s_wr}", p.buffer_bytes if p.double else 0, note="LDS buffer written to")
    w.op("s_mov_b32", f"s{s_cnt}", p.k_tiles, note="K tiles left")

    w.blank()
    w.comment("-- prologue: the first K tile into LDS")
    _global_loads(w, p, sA, sB, v_ga, v_gb, v_data_a, v_data_b)
    w.op("s_waitcnt", "vmcnt(0)")
    _lds_writes(w, p, v_wa, v_wb, v_data_a, v_data_b, None, v_t, v_u)
    w.op("s_waitcnt", "lgkmcnt(0)")
    w.op("s_barrier")

    w.blank()
    w.label(".Lk_loop")
    for u in range(p.unroll):
        w.comment(f"-- K tile (copy {u + 1} of {p.unroll} in the loop body)")
        w.op("s_sub_u32", f"s{s_cnt}", f"s{s_cnt}", 1)
        if p.prefetch:
            w.op("s_cmp_eq_u32", f"s{s_cnt}", 0, note="last tile: nothing to prefetch")
            w.op("s_cbranch_scc1", f".Lcompute_{u}")
            _advance(w, p, sA, sB)
            _global_loads(w, p, sA, sB, v_ga, v_gb, v_data_a, v_data_b)
            w.label(f".Lcompute_{u}")
        _compute(w, p, mfma, s_rd, v_ra, v_rb, v_t, v_u, v_fa, v_fb, acc)
        w.op("s_cmp_eq_u32", f"s{s_cnt}", 0)
        w.op("s_cbranch_scc1", ".Lepilogue")
        if not p.prefetch:
            _advance(w, p, sA, sB)
            _global_loads(w, p, sA, sB, v_ga, v_gb, v_data_a, v_data_b)
        w.op("s_waitcnt", "vmcnt(0)")
        if not p.double:
            w.op("s_barrier", note="every wave has read the buffer about to be overwritten")
        _lds_writes(w, p, v_wa, v_wb, v_data_a, v_data_b, f"s{s_wr}", v_t, v_u)
        w.op("s_waitcnt", "lgkmcnt(0)")
        w.op("s_barrier", note="the next tile is in LDS")
        if p.double:
            w.op("s_xor_b32", f"s{s_rd}", f"s{s_rd}", p.buffer_bytes, note="swap the two LDS buffers")
            w.op("s_xor_b32", f"s{s_wr}", f"s{s_wr}", p.buffer_bytes)
    w.op("s_branch", ".Lk_loop")

    w.blank()
    w.label(".Lepilogue")
    _epilogue(w, p, sC, s_wave, s_t, v_lane, v_t, v_u, acc)
    w.op("s_endpgm")
    return w


def _add_product(w, s_ptr: int, s_factor: str, scale: int, s_t: int, note: str) -> None:
    """_add_product adds s_factor * scale to the 64-bit pointer in s[s_ptr:s_ptr+1] (products below 4 GiB)."""
    w.op("s_mul_i32", f"s{s_t}", s_factor, scale, note=note)
    w.add_to_pointer(s_ptr, f"s{s_t}")


def _advance(w, p: Plan, sA: int, sB: int) -> None:
    w.add_to_pointer(sA, p.bk * p.es, note="A and Bt move one tile along K")
    w.add_to_pointer(sB, p.bk * p.es)


def _global_loads(w, p: Plan, sA: int, sB: int, v_ga, v_gb, v_data_a, v_data_b) -> None:
    for vg, vd in zip(v_ga, v_data_a):
        w.op(_LOAD[p.vec], reg("v", vd, p.vec // 4), f"v{vg}", reg("s", sA, 2))
    for vg, vd in zip(v_gb, v_data_b):
        w.op(_LOAD[p.vec], reg("v", vd, p.vec // 4), f"v{vg}", reg("s", sB, 2))


def _lds_writes(w, p: Plan, v_wa, v_wb, v_data_a, v_data_b, s_buf, v_t, v_u) -> None:
    """_lds_writes stores the loaded tile; rows of later loads are reached through the ds offset field."""
    if s_buf is not None and p.double:
        w.op("v_add_u32_e32", f"v{v_t}", s_buf, f"v{v_wa}", note="into the buffer being filled")
        w.op("v_add_u32_e32", f"v{v_u}", s_buf, f"v{v_wb}")
        va, vb = v_t, v_u
    else:
        va, vb = v_wa, v_wb
    step = p.rows_per_load * p.row_bytes
    for j, vd in enumerate(v_data_a):
        w.op(_DS_WRITE[p.vec], f"v{va}", reg("v", vd, p.vec // 4), *( [f"offset:{j * step}"] if j else []))
    for j, vd in enumerate(v_data_b):
        w.op(_DS_WRITE[p.vec], f"v{vb}", reg("v", vd, p.vec // 4), *( [f"offset:{j * step}"] if j else []))


def _compute(w, p: Plan, mfma, s_rd, v_ra, v_rb, v_t, v_u, v_fa, v_fb, acc) -> None:
    """_compute reads every fragment of the tile, then runs each k-step's MFMAs once its reads have landed."""
    if p.double:
        w.op("v_add_u32_e32", f"v{v_t}", f"s{s_rd}", f"v{v_ra}", note="the buffer being read")
        w.op("v_add_u32_e32", f"v{v_u}", f"s{s_rd}", f"v{v_rb}")
        ra, rb = v_t, v_u
    else:
        ra, rb = v_ra, v_rb
    rd = _DS_READ[p.kpl * p.es]
    per_step = p.blocks_m + p.blocks_n
    for ks in range(p.k_steps):
        for bi in range(p.blocks_m):
            off = bi * p.mm * p.row_bytes + ks * p.mk * p.es
            w.op(rd, reg("v", v_fa[ks][bi], p.frag_dwords), f"v{ra}", *([f"offset:{off}"] if off else []))
        for bj in range(p.blocks_n):
            off = bj * p.nn * p.row_bytes + ks * p.mk * p.es
            w.op(rd, reg("v", v_fb[ks][bj], p.frag_dwords), f"v{rb}", *([f"offset:{off}"] if off else []))
    total = p.k_steps * per_step
    n_acc = p.acc_per_block
    for ks in range(p.k_steps):
        left = total - (ks + 1) * per_step
        w.op("s_waitcnt", f"lgkmcnt({min(left, _MAX_LGKM)})", note=f"fragments of k-step {ks} have landed")
        for bi in range(p.blocks_m):
            for bj in range(p.blocks_n):
                a = reg("a", acc[bi][bj], n_acc)
                w.op(mfma, a, reg("v", v_fa[ks][bi], p.frag_dwords), reg("v", v_fb[ks][bj], p.frag_dwords), a)


def _epilogue(w, p: Plan, sC, s_wave, s_t, v_lane, v_t, v_u, acc) -> None:
    """_epilogue stores the accumulators: register r of a block holds row 4*G*(r/4) + 4*(l/N) + r%4, column l%N."""
    groups = 64 // p.nn
    w.comment("-- epilogue: C += this wave's tile origin; lane offset = (4 * (l / N) * n + l % N) * 4")
    w.op("s_lshr_b32", f"s{s_t}", f"s{s_wave}", log2_exact(p.wn))
    w.op("s_mul_i32", f"s{s_t}", f"s{s_t}", p.bm // p.wm, note="wave row origin")
    w.op("s_mul_i32", f"s{s_t}", f"s{s_t}", p.n * 4)
    w.add_to_pointer(sC, f"s{s_t}")
    w.op("s_and_b32", f"s{s_t}", f"s{s_wave}", p.wn - 1)
    w.op("s_mul_i32", f"s{s_t}", f"s{s_t}", (p.bn // p.wn) * 4, note="wave column origin, bytes")
    w.add_to_pointer(sC, f"s{s_t}")
    _add_product(w, sC, "s3", p.bm * p.n * 4, s_t, "C += wg_y * BM rows")
    _add_product(w, sC, "s2", p.bn * 4, s_t, "C += wg_x * BN columns")
    w.op("v_lshrrev_b32_e32", f"v{v_t}", log2_exact(p.nn), f"v{v_lane}", note="l / N: the lane's group of 4 rows")
    w.op("v_mul_u32_u24_e32", f"v{v_t}", 4 * p.n * 4, f"v{v_t}")
    w.op("v_and_b32_e32", f"v{v_u}", p.nn - 1, f"v{v_lane}", note="l % N: the lane's column")
    w.op("v_lshl_add_u32", f"v{v_lane}", f"v{v_u}", 2, f"v{v_t}", note="lane's byte offset in the block")
    w.op("s_nop", 7, note="MFMA results need wait states before a VALU reads them")
    w.op("s_nop", 7)
    w.op("s_nop", 2)
    for bi in range(p.blocks_m):
        for bj in range(p.blocks_n):
            for r in range(p.acc_per_block):
                row = bi * p.mm + 4 * groups * (r // 4) + r % 4
                off = (row * p.n + bj * p.nn) * 4
                w.op("v_accvgpr_read_b32", f"v{v_u}", f"a{acc[bi][bj] + r}")
                w.op("v_add_u32_e32", f"v{v_t}", off, f"v{v_lane}")
                w.op("global_store_dword", f"v{v_t}", f"v{v_u}", reg("s", sC, 2))


def _flags(v: dict) -> str:
    out = []
    for prm in GEMM.params:
        value = v[prm.name]
        if prm.kind == "bool":
            if value:
                out.append(f"--{prm.name}")
        elif value is not None:
            out.append(f"--{prm.name} {value}")
    return " ".join(out)


GEMM = register(Template(
    name="gemm",
    summary="matrix-core GEMM C = A . Bt^T (f16, bf16, f32) with LDS tiling, double buffering, prefetch",
    about=__doc__.split("\n\n", 1)[1],
    params=(
        Param("m", "int", 4096, "rows of A and C"),
        Param("n", "int", 4096, "columns of C (rows of Bt)"),
        Param("k", "int", 4096, "the reduction dimension (columns of A and Bt)"),
        Param("dtype", "str", "f16", "input element type (C is f32)", choices=("f16", "bf16", "f32")),
        Param("tile", "dims:3", "128x128x32", "macro tile BMxBNxBK a workgroup computes per K-loop trip"),
        Param("waves", "dims:2", "2x2", "waves per workgroup, WMxWN; each owns a (BM/WM)x(BN/WN) wave tile"),
        Param("mfma", "dims:3", "32x32x8", "MFMA block MxNxK: 32x32x8 or 16x16x16 for f16/bf16, 32x32x2 or "
              "16x16x4 for f32"),
        Param("vec", "int", 16, "bytes per lane per global load (dword, dwordx2, dwordx4)", choices=(4, 8, 16)),
        Param("lds-pad", "int", None, "elements added to each LDS row so fragment reads hit distinct banks "
              "(default: 8 bytes for 16-bit types, 4 for f32; 0 shows the conflicts)", minimum=0),
        Param("lds-double-buffer", "bool", False, "two LDS buffers: write the next tile while reading this one"),
        Param("prefetch", "int", 1, "global prefetch depth: 1 issues the next tile's loads before computing "
              "this one, 0 loads after", choices=(0, 1), minimum=0),
        Param("unroll", "int", 1, "K tiles per loop trip (copies of the loop body)", choices=(1, 2, 4)),
    ),
    build=build,
    problems=problems,
    examples=(
        "gpusim gen gemm -o gemm.s   # 4096^3 f16, 128x128x32 tile, 2x2 waves, 32x32x8 MFMA",
        "gpusim gen gemm --m 256 --n 256 --k 128 --tile 64x64x32 --waves 2x2 --mfma 16x16x16 -o small.s",
        "gpusim gen gemm --dtype f32 --mfma 32x32x2 --tile 64x64x16 --lds-double-buffer -o f32.s",
    ),
))
