"""attention: flash-attention forward, O = softmax(Q K^T * scale) V for each head, on the matrix cores.

Layouts, one slice per head (``--heads`` counts batch x heads): Q is S_q x D and K is S_k x D, f16
row-major; V is stored transposed, Vt is D x S_k f16 row-major (see below why); O is S_q x D, f32
row-major. The problem size is compiled into the code; ``scale`` (default 1/sqrt(D)) is a kernel
argument.

One workgroup owns Br query rows of one head (grid x: query blocks, grid y: heads); each of its waves
owns Br / waves of those rows and walks all S_k keys in blocks of Bc, FlashAttention-2 style: the
S_q x S_k score matrix never exists in memory. Per key block:

1. the block's Bc rows of K and Bc columns of Vt go through LDS (global loads into VGPRs, ds_write,
   s_barrier; with ``--prefetch 1`` the next block's loads are issued before this one is computed);
2. scores S = Q K^T on the MFMAs, f32 accumulate. The wave computes the transpose, S^T = K Q^T (A
   operand: K rows from LDS; B operand: Q rows, loaded once into registers). In an MFMA result a lane
   is a column, so in S^T each lane holds keys of ONE query: everything per query (running max m, sum
   l, the rescale factor) is a per-lane register, and row reductions are in-lane, plus one exchange
   with the other lane group(s) that hold the same query (``ds_bpermute_b32``);
3. online softmax in the log2 domain, c = scale * log2(e): m_new = max(m, c * rowmax(S)),
   P = 2^(c S - m_new) (``v_fma_f32`` then ``v_exp_f32``), alpha = 2^(m - m_new), l = alpha l + rowsum(P);
4. O = alpha O + P V, also transposed: O^T = Vt P^T. P^T is the B operand, and the S^T accumulators
   are already laid out as that operand (lane = query, registers = 4 consecutive keys of a k-step):
   two f32 become one register of two f16 (``v_cvt_pkrtz_f16_f32``) in place, no LDS round trip.
   Vt rows from LDS are the A operand; that is why V is stored transposed (the A operand of a k-step
   wants 4 consecutive keys of one d, contiguous in Vt);

and at the end O = O / l (``v_rcp_f32``), stored with one ``global_store_dwordx4`` per 4 consecutive d.

S, P and O live in VGPRs (gfx90a+ MFMAs write VGPRs; no AGPRs are used): the softmax and the rescale
are plain VALU work on them. LDS rows are padded by ``--lds-pad`` elements (default 4, 8 bytes) so the
fragment reads of 16 or 32 consecutive rows hit distinct banks; like the gemm template's, the rows are
then 8-byte (not 16-byte) aligned for their ``ds_write_b128``.

The check compares O with an f32 numpy reference computed from the f16 inputs, ``rtol=2e-3 atol=1e-3``:
P rounded to f16 (toward zero, relative error below 2^-10) bounds |O - reference| by 2^-10 max|V|.

Hardware wait states that gfx942 needs and llvm-mc does not insert are written out as s_nop: an MFMA
result read by a VALU (passes + 3 wait states: 11 for 32x32x8, 7 for 16x16x16), a VALU result read by
an MFMA (2), a transcendental's result read by a VALU (1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from gpusim.templates.registry import Param, Template, parse_dims, register
from gpusim.templates.writer import KernelWriter, RegisterBump, log2_exact, reg

# f16 MFMA shape -> (instruction, passes on CDNA3; 1 pass = 4 cycles)
_MFMA = {
    "32x32x8": ("v_mfma_f32_32x32x8_f16", 8),
    "16x16x16": ("v_mfma_f32_16x16x16_f16", 4),
}
LOG2E = "0x3fb8aa3b"    # log2(e) = 1.4426950 as an f32 bit pattern
NEG_INF = "0xff800000"  # -inf: the running max before the first key block
_MAX_LGKM = 15          # the largest lgkmcnt s_waitcnt can wait for on gfx9
_RING = 8               # LDS fragment registers in flight (pairs of VGPRs): reads run this far ahead of the MFMAs
_MAX_VGPRS = 256        # architectural VGPRs per lane (AGPRs are the other 256 of the 512)


@dataclass(frozen=True)
class Plan:
    """Plan is every number the attention code is built from, derived once from the parameters."""

    sq: int
    sk: int
    d: int
    heads: int
    br: int
    bc: int
    waves: int
    mm: int          # MFMA block rows = columns (32 or 16)
    kd: int          # MFMA depth (8 or 16)
    pad: int         # LDS row padding, elements
    prefetch: int
    scale: float

    @property
    def threads(self) -> int:
        return 64 * self.waves

    @property
    def rows_per_wave(self) -> int:
        return self.br // self.waves

    @property
    def qblocks(self) -> int:
        """qblocks is the MFMA blocks of queries a wave owns (MFMA columns of S^T and O^T)."""
        return self.rows_per_wave // self.mm

    @property
    def kblocks(self) -> int:
        """kblocks is the MFMA blocks of keys in a key block (MFMA rows of S^T)."""
        return self.bc // self.mm

    @property
    def dblocks(self) -> int:
        """dblocks is the MFMA blocks of the head dimension (MFMA rows of O^T)."""
        return self.d // self.mm

    @property
    def accs(self) -> int:
        """accs is the f32 result registers of one MFMA block."""
        return self.mm * self.mm // 64

    @property
    def groups(self) -> int:
        """groups is the lanes that hold the same query in a result: 64 / MFMA columns."""
        return 64 // self.mm

    @property
    def s_steps(self) -> int:
        return self.d // self.kd

    @property
    def o_steps(self) -> int:
        return self.bc // self.kd

    @property
    def pitch_k(self) -> int:
        """pitch_k is one LDS row of the K tile (D elements plus padding), bytes."""
        return (self.d + self.pad) * 2

    @property
    def pitch_v(self) -> int:
        return (self.bc + self.pad) * 2

    @property
    def k_tile_bytes(self) -> int:
        return self.bc * self.pitch_k

    @property
    def lds_bytes(self) -> int:
        return self.k_tile_bytes + self.d * self.pitch_v

    @property
    def lanes_per_row_k(self) -> int:
        """lanes_per_row_k is the work-items that load one K row, 16 bytes each."""
        return self.d * 2 // 16

    @property
    def lanes_per_row_v(self) -> int:
        return self.bc * 2 // 16

    @property
    def rows_per_load_k(self) -> int:
        return self.threads // self.lanes_per_row_k

    @property
    def rows_per_load_v(self) -> int:
        return self.threads // self.lanes_per_row_v

    @property
    def loads_k(self) -> int:
        return self.bc // self.rows_per_load_k

    @property
    def loads_v(self) -> int:
        return self.d // self.rows_per_load_v

    @property
    def kv_blocks(self) -> int:
        return self.sk // self.bc


def plan_of(v: dict) -> Plan:
    """plan_of turns parsed parameter values into a Plan (no validity checks beyond parsing)."""
    mm, _, kd = parse_dims(v["mfma"], 3)
    scale = _scale_of(v)
    return Plan(v["seq-q"], v["seq-k"], v["head-dim"], v["heads"], v["br"], v["bc"], v["waves"], mm, kd,
                v["lds-pad"], v["prefetch"], scale)


def _scale_of(v: dict) -> float:
    """_scale_of is --scale (1/sqrt(D) when not given)."""
    return 1.0 / math.sqrt(v["head-dim"]) if v["scale"] is None else v["scale"]


def problems(v: dict, arch) -> list:
    """problems lists why parameters ``v`` cannot make an attention kernel on ``arch`` (empty: they can)."""
    out = []
    for name in ("seq-q", "seq-k", "heads", "br", "bc", "waves"):
        if v[name] <= 0:
            out.append(f"--{name} {v[name]} must be positive")
    if v["lds-pad"] < 0 or v["lds-pad"] % 4:
        out.append(f"--lds-pad {v['lds-pad']} must be a non-negative multiple of 4 elements (rows stay 8-byte aligned)")
    scale = _scale_of(v)
    if not math.isfinite(scale) or scale <= 0:
        out.append(f"--scale {v['scale']!r} must be a positive number")
    if out:
        return out
    p = plan_of(v)
    if p.threads > arch.cu.max_workitems_per_workgroup:
        return [(f"--waves {p.waves} makes {p.threads} work-items per workgroup, over the "
                 f"{arch.cu.max_workitems_per_workgroup} allowed")]
    if p.sq % p.br:
        out.append(f"--seq-q {p.sq} is not a multiple of --br {p.br} (each workgroup takes whole query blocks)")
    if p.sk % p.bc:
        out.append(f"--seq-k {p.sk} is not a multiple of --bc {p.bc} (each trip takes a whole key block)")
    if p.br % p.waves or p.rows_per_wave % p.mm:
        out.append(f"--br {p.br} does not divide into {p.waves} waves of whole {p.mm}-query MFMA blocks")
    if p.bc % p.mm or p.bc & (p.bc - 1):
        out.append(f"--bc {p.bc} must be a power of two and a multiple of the {p.mm}-key MFMA block")
    else:
        # each global load moves 16 bytes per work-item: whole rows of the tile, the same rows count each time
        for what, lanes, rows, tile_rows in (("K", p.lanes_per_row_k, p.bc, "--bc"), ("Vt", p.lanes_per_row_v, p.d, "D")):
            if p.threads % lanes or rows % (p.threads // lanes):
                out.append(f"{p.threads} work-items load {p.threads / lanes:g} rows of {what} at a time (16 bytes "
                           f"each), which does not divide its {rows} rows ({tile_rows}): use fewer waves or a larger --bc")
    if p.lds_bytes > arch.cu.lds.size_bytes:
        out.append(f"the K and Vt tiles need {p.lds_bytes} bytes of LDS, over {arch.name}'s "
                   f"{arch.cu.lds.size_bytes} per CU (use a smaller --bc)")
    elif p.lds_bytes > 65536:
        out.append(f"the LDS tiles of {p.lds_bytes} bytes are beyond the 64 KiB ds_* offsets reach")
    biggest = p.heads * max(p.sq, p.sk) * p.d * 4
    if biggest >= 2 ** 31:
        out.append(f"a {p.heads}x{max(p.sq, p.sk)}x{p.d} buffer is over 2 GiB; the kernel uses 32-bit byte offsets")
    if not out:
        w = build(v)
        if w.vgprs > _MAX_VGPRS or w.unified_vgprs > 2 * _MAX_VGPRS:
            out.append(f"the kernel needs {w.vgprs} VGPRs per lane, over the {_MAX_VGPRS} architectural VGPRs "
                       f"(the scores, O and Q of {p.rows_per_wave} queries per wave live in VGPRs; the AGPRs, the "
                       "other 256 of 512, stay unused): use more waves or a smaller --bc")
    return out


class _FragmentStream:
    """_FragmentStream reads MFMA A-operand fragments from LDS into a ring of register pairs, ahead of use.

    Fragment i goes to ring slot i % R. ``start`` issues the first R reads; ``use(i)`` waits until
    fragment i has landed (LDS returns in order: lgkmcnt = the reads issued after it) and returns its
    registers; ``done(i)`` (after the MFMAs that read fragment i are issued) reuses the slot for
    fragment i + R. Each read is one ``ds_read_b64``: 4 f16 per lane. Refilling a slot right behind the
    MFMAs that read it relies on an MFMA reading its A and B operands as it issues: gfx942's wait-state
    table (and LLVM's hazard recognizer) has a write-after-read rule only for an MFMA's C operand.
    """

    def __init__(self, w: KernelWriter, ring: int, addr: str, offsets: list, what: str):
        self.w, self.ring, self.addr, self.offsets, self.what = w, ring, addr, offsets, what
        self.depth = min(len(offsets), _RING)
        self.issued = 0

    def _read(self, i: int) -> None:
        off = self.offsets[i]
        self.w.op("ds_read_b64", reg("v", self.ring + 2 * (i % self.depth), 2), self.addr,
                  *([f"offset:{off}"] if off else []), note=f"{self.what} fragment {i}" if i < self.depth else "")
        self.issued = i + 1

    def start(self) -> None:
        for i in range(self.depth):
            self._read(i)

    def use(self, i: int) -> str:
        after = self.issued - (i + 1)
        self.w.op("s_waitcnt", f"lgkmcnt({min(after, _MAX_LGKM)})", note=f"{self.what} fragment {i} has landed")
        return reg("v", self.ring + 2 * (i % self.depth), 2)

    def done(self, i: int) -> None:
        if i + self.depth < len(self.offsets):
            self._read(i + self.depth)


def _nops(w: KernelWriter, states: int, why: str) -> None:
    """_nops emits ``states`` wait states as s_nop (s_nop n is n + 1 states, at most 8)."""
    first = True
    while states > 0:
        n = min(states, 8)
        w.op("s_nop", n - 1, note=why if first else "")
        states -= n
        first = False


def build(v: dict) -> KernelWriter:
    """build writes the attention kernel for parameter values ``v`` (assumed valid: see problems)."""
    p = plan_of(v)
    mfma, passes = _MFMA[v["mfma"]]
    w = KernelWriter(f"attention_fwd_d{p.d}_br{p.br}_bc{p.bc}", workgroup_ids="xy", lds_bytes=p.lds_bytes)
    w.grid = (p.sq // p.br, p.heads, 1)
    w.block = p.threads
    H = p.heads
    off_q = w.buffer("Q", "f16", (H, p.sq, p.d), init="normal(0,1)", seed=1)
    off_k = w.buffer("K", "f16", (H, p.sk, p.d), init="normal(0,1)", seed=2)
    off_v = w.buffer("Vt", "f16", (H, p.d, p.sk), init="uniform(-1,1)", seed=3)
    off_o = w.buffer("O", "f32", (H, p.sq, p.d), out=True)
    off_scale = w.scalar("scale", "f32", repr(p.scale))
    assert (off_q, off_k, off_v, off_o, off_scale) == (0, 8, 16, 24, 32)
    # f32 reference from the f16 inputs. The kernel rounds P to f16 toward zero before P V, a relative error
    # below 2^-10 per term; O is a weighted mean of V (|V| <= 1), so |O - reference| < 2^-10 < atol = 1e-3
    # (about 1e-4 in practice). A wrong max, rescale or sum is off by a sizeable part of |O| itself.
    w.check("O ~= (P := np.exp((S := scale * (Q.astype(f32) @ K.astype(f32).transpose(0, 2, 1)))"
            " - S.max(axis=2, keepdims=True))) / P.sum(axis=2, keepdims=True) @ Vt.astype(f32).transpose(0, 2, 1)"
            " rtol=2e-3 atol=1e-3")
    w.describe(f"generated by: gpusim gen attention {_flags(v)}")
    w.describe(f"O[{H},{p.sq},{p.d}] = softmax(Q K^T * scale) V per head; Q[{H},{p.sq},{p.d}], K[{H},{p.sk},{p.d}] "
               f"and Vt[{H},{p.d},{p.sk}] (V transposed) f16, O f32; scale = {p.scale!r}")
    w.describe(f"workgroup (x, y) = query block x of head y: {p.br} queries, {p.waves} waves of {p.rows_per_wave}; "
               f"{p.kv_blocks} key blocks of {p.bc}; {mfma}")
    w.describe(f"S^T = K Q^T and O^T = Vt P^T (query = lane of the MFMA result); online softmax in registers; "
               f"LDS {p.lds_bytes} B (K tile {p.bc}x{p.d}+{p.pad}, Vt tile {p.d}x{p.bc}+{p.pad}); "
               f"global prefetch depth {p.prefetch}")

    # -- registers
    sQ, sK, sV, sO = 4, 6, 8, 10               # s_load_dwordx8 fills s[4:11] with the four pointers
    s_scale, s_wave, s_cnt, s_t = 12, 13, 14, 15
    vr = RegisterBump(1)
    v_lane, v_t, v_u, v_c = vr.take(), vr.take(), vr.take(), vr.take()
    v_x32 = vr.take()                                          # LDS-free lane exchange addresses
    v_x16 = vr.take() if p.groups == 4 else None
    v_kfrag, v_vfrag, v_wk, v_wv = vr.take(), vr.take(), vr.take(), vr.take()
    v_gk = [vr.take() for _ in range(p.loads_k)]
    v_gv = [vr.take() for _ in range(p.loads_v)]
    v_alpha = vr.take(2, 2)                                    # alpha twice: the f32 pair v_pk_mul_f32 multiplies by
    v_m = [vr.take() for _ in range(p.qblocks)]
    v_l = [vr.take() for _ in range(p.qblocks)]
    v_mx = [vr.take() for _ in range(p.qblocks)]
    v_xt = [vr.take() for _ in range(p.qblocks)]             # what ds_bpermute brings from the other lanes
    v_data_k = [vr.take(4, 4) for _ in range(p.loads_k)]
    v_data_v = [vr.take(4, 4) for _ in range(p.loads_v)]
    v_q = [[vr.take(2, 2) for _ in range(p.s_steps)] for _ in range(p.qblocks)]
    ring = vr.take(2 * _RING, 2)
    v_s = [[vr.take(p.accs, 4) for _ in range(p.qblocks)] for _ in range(p.kblocks)]
    v_o = [[vr.take(p.accs, 4) for _ in range(p.qblocks)] for _ in range(p.dblocks)]

    w.comment("-- pointers; this workgroup's head (wg y) and query block (wg x); this wave's queries")
    w.op("s_load_dwordx8", reg("s", sQ, 8), "s[0:1]", hex(off_q), note="Q, K, Vt, O")
    w.op("s_load_dword", f"s{s_scale}", "s[0:1]", hex(off_scale), note="scale")
    w.op("v_and_b32_e32", f"v{v_lane}", 63, "v0", note="lane within the wave")
    w.op("v_readfirstlane_b32", f"s{s_wave}", "v0", note="work-item id of lane 0 ...")
    w.op("s_lshr_b32", f"s{s_wave}", f"s{s_wave}", 6, note="... / 64 = this wave's index")
    w.op("v_xor_b32_e32", f"v{v_x32}", 32, f"v{v_lane}", note="lane ^ 32: the other half of the wave ...")
    w.op("v_lshlrev_b32_e32", f"v{v_x32}", 2, f"v{v_x32}", note="... as a ds_bpermute byte address")
    if v_x16 is not None:
        w.op("v_xor_b32_e32", f"v{v_x16}", 16, f"v{v_lane}", note="lane ^ 16: the other lane group of 16")
        w.op("v_lshlrev_b32_e32", f"v{v_x16}", 2, f"v{v_x16}")
    w.op("s_waitcnt", "lgkmcnt(0)")
    _add_product(w, sQ, "s3", p.sq * p.d * 2, s_t, "Q += head * S_q rows")
    _add_product(w, sQ, "s2", p.br * p.d * 2, s_t, "Q += query block * Br rows")
    _add_product(w, sQ, f"s{s_wave}", p.rows_per_wave * p.d * 2, s_t, "Q += wave * its rows")
    _add_product(w, sO, "s3", p.sq * p.d * 4, s_t, "O likewise, f32")
    _add_product(w, sO, "s2", p.br * p.d * 4, s_t)
    _add_product(w, sO, f"s{s_wave}", p.rows_per_wave * p.d * 4, s_t)
    _add_product(w, sK, "s3", p.sk * p.d * 2, s_t, "K += head * S_k rows")
    _add_product(w, sV, "s3", p.d * p.sk * 2, s_t, "Vt += head * D rows")
    w.op("v_mov_b32_e32", f"v{v_c}", LOG2E, note="log2(e) ...")
    w.op("v_mul_f32_e32", f"v{v_c}", f"s{s_scale}", f"v{v_c}", note="... * scale = c: exp(scale s) = 2^(c s)")

    w.blank()
    w.comment(f"-- global loads of a key block, 16 bytes per lane: K rows are contiguous ({p.loads_k} loads); "
              f"Vt rows are {p.sk * 2} bytes apart, {p.lanes_per_row_v} lanes per row ({p.loads_v} loads)")
    w.op("v_lshlrev_b32_e32", f"v{v_t}", 4, "v0", note="tid * 16")
    w.op("v_mov_b32_e32", f"v{v_gk[0]}", f"v{v_t}", note="K offset of load j: (tid + j * threads) * 16")
    for j, vg in enumerate(v_gk[1:], 1):
        w.op("v_add_u32_e32", f"v{vg}", j * p.threads * 16, f"v{v_t}")
    w.op("v_lshrrev_b32_e32", f"v{v_t}", log2_exact(p.lanes_per_row_k), "v0", note="K row = tid / lanes per row")
    w.op("v_and_b32_e32", f"v{v_u}", p.lanes_per_row_k - 1, "v0")
    w.op("v_lshlrev_b32_e32", f"v{v_u}", 4, f"v{v_u}", note="byte column = tid % lanes per row * 16")
    w.mad_u32_u24(f"v{v_wk}", f"v{v_t}", p.pitch_k, f"v{v_u}", note="LDS write address in the K tile")
    w.op("v_lshrrev_b32_e32", f"v{v_t}", log2_exact(p.lanes_per_row_v), "v0", note="Vt row (a d) = tid / lanes per row")
    w.op("v_and_b32_e32", f"v{v_u}", p.lanes_per_row_v - 1, "v0")
    w.op("v_lshlrev_b32_e32", f"v{v_u}", 4, f"v{v_u}")
    w.mad_u32_u24(f"v{v_wv}", f"v{v_t}", p.pitch_v, f"v{v_u}", note="LDS write address in the Vt tile ...")
    w.op("v_add_u32_e32", f"v{v_wv}", p.k_tile_bytes, f"v{v_wv}", note="... which follows the K tile")
    for j, vg in enumerate(v_gv):
        w.mad_u32_u24(f"v{vg}", f"v{v_t}", p.sk * 2, f"v{v_u}", note="Vt offset of load j: row * S_k * 2 + column" if not j else "")
        if j:
            w.op("v_add_u32_e32", f"v{vg}", j * p.rows_per_load_v * p.sk * 2, f"v{vg}")

    w.blank()
    w.comment(f"-- MFMA operand lanes: lane l holds row (l % {p.mm}) of its block and 4 elements of K-depth from "
              f"4 * (l / {p.mm}) on: byte offset (l % {p.mm}) * pitch + (l / {p.mm}) * 8")
    w.op("v_and_b32_e32", f"v{v_t}", p.mm - 1, f"v{v_lane}", note="l % MFMA rows")
    w.op("v_lshrrev_b32_e32", f"v{v_u}", log2_exact(p.mm), f"v{v_lane}", note="l / MFMA rows")
    w.op("v_lshlrev_b32_e32", f"v{v_u}", 3, f"v{v_u}", note="... * 8 bytes")
    w.mad_u32_u24(f"v{v_kfrag}", f"v{v_t}", p.pitch_k, f"v{v_u}", note="K fragments (A of S^T = K Q^T), in LDS")
    w.mad_u32_u24(f"v{v_vfrag}", f"v{v_t}", p.pitch_v, f"v{v_u}", note="Vt fragments (A of O^T = Vt P^T) ...")
    w.op("v_add_u32_e32", f"v{v_vfrag}", p.k_tile_bytes, f"v{v_vfrag}", note="... after the K tile")
    w.mad_u32_u24(f"v{v_t}", f"v{v_t}", p.d * 2, f"v{v_u}", note="Q fragments (B of S^T), in global memory")

    w.blank()
    w.comment("-- the first key block into VGPRs, and this wave's Q once for all: "
              f"{p.qblocks} block(s) x {p.s_steps} k-steps of 4 f16 per lane")
    _global_loads(w, p, sK, sV, v_gk, v_gv, v_data_k, v_data_v)
    for qb in range(p.qblocks):
        if qb:
            w.op("v_add_u32_e32", f"v{v_t}", p.mm * p.d * 2, f"v{v_t}", note="next query block")
        for ks in range(p.s_steps):
            off = ks * p.kd * 2
            w.op("global_load_dwordx2", reg("v", v_q[qb][ks], 2), f"v{v_t}", reg("s", sQ, 2),
                 *([f"offset:{off}"] if off else []))
    w.comment("   running max m = -inf, sum l = 0, O = 0")
    for qb in range(p.qblocks):
        w.op("v_mov_b32_e32", f"v{v_m[qb]}", NEG_INF)
        w.op("v_mov_b32_e32", f"v{v_l[qb]}", 0)
    for db in range(p.dblocks):
        for qb in range(p.qblocks):
            for r in range(p.accs):
                w.op("v_mov_b32_e32", f"v{v_o[db][qb] + r}", 0)
    w.op("s_mov_b32", f"s{s_cnt}", p.kv_blocks, note="key blocks left")
    w.op("s_waitcnt", "vmcnt(0)", note="the key block and Q")
    _lds_writes(w, p, v_wk, v_wv, v_data_k, v_data_v)
    w.op("s_waitcnt", "lgkmcnt(0)")
    w.op("s_barrier", note="the first key block is in LDS")

    w.blank()
    w.label(".Lkey_block")
    w.op("s_sub_u32", f"s{s_cnt}", f"s{s_cnt}", 1)
    if p.prefetch:
        w.comment("-- prefetch: the next key block's global loads fly while this one is computed")
        w.op("s_cmp_eq_u32", f"s{s_cnt}", 0, note="last block: nothing to prefetch")
        w.op("s_cbranch_scc1", ".Lscores")
        _advance(w, p, sK, sV)
        _global_loads(w, p, sK, sV, v_gk, v_gv, v_data_k, v_data_v)
        w.label(".Lscores")

    w.comment(f"-- S^T = K Q^T: {p.kblocks}x{p.qblocks} blocks of {p.mm}x{p.mm} (keys x queries), "
              f"{p.s_steps} k-steps over D; k-step 0 starts from 0")
    k_offsets = [kb * p.mm * p.pitch_k + ks * p.kd * 2 for ks in range(p.s_steps) for kb in range(p.kblocks)]
    kf = _FragmentStream(w, ring, f"v{v_kfrag}", k_offsets, "K")
    kf.start()
    for i in range(len(k_offsets)):
        ks, kb = divmod(i, p.kblocks)
        a = kf.use(i)
        for qb in range(p.qblocks):
            s = reg("v", v_s[kb][qb], p.accs)
            w.op(mfma, s, a, reg("v", v_q[qb][ks], 2), s if ks else 0)
        kf.done(i)

    w.blank()
    o_offsets = [db * p.mm * p.pitch_v + ks * p.kd * 2 for ks in range(p.o_steps) for db in range(p.dblocks)]
    vf = _FragmentStream(w, ring, f"v{v_vfrag}", o_offsets, "Vt")
    w.comment("-- the first Vt fragments load while the softmax runs")
    vf.start()
    _nops(w, passes + 3 - vf.depth, f"a VALU reads an MFMA's result {passes} + 3 wait states after it (gfx940)")

    w.comment(f"-- online softmax; lane l holds query l % {p.mm} of each query block, "
              f"{p.kblocks * p.accs} of its {p.bc} keys (the other {p.groups - 1} lane group(s) hold the rest)")
    w.comment("   row max of the raw scores over this lane's keys")
    for qb in range(p.qblocks):
        vals = [f"v{v_s[kb][qb] + r}" for kb in range(p.kblocks) for r in range(p.accs)]
        mx = f"v{v_mx[qb]}"
        w.op("v_max3_f32", mx, vals[0], vals[1], vals[2])
        rest = vals[3:]
        while len(rest) >= 2:
            w.op("v_max3_f32", mx, mx, rest[0], rest[1])
            rest = rest[2:]
        if rest:
            w.op("v_max_f32_e32", mx, rest[0], mx)
    _exchange(w, p, "max", v_mx, v_xt, v_x32, v_x16)
    w.comment("   m_new = max(m, c * rowmax) (c > 0, so c * max(s) = max(c s)); alpha = 2^(m - m_new)")
    for qb in range(p.qblocks):
        mx, m = f"v{v_mx[qb]}", f"v{v_m[qb]}"
        w.op("v_mul_f32_e32", mx, mx, f"v{v_c}")
        w.op("v_max_f32_e32", mx, m, mx, note="m_new")
        w.op("v_sub_f32_e32", m, m, mx, note="m - m_new: <= 0, -inf on the first block")
        w.op("v_exp_f32_e32", m, m, note="alpha (0 on the first block)")
        for kb in range(p.kblocks):
            for r in range(p.accs):
                s = f"v{v_s[kb][qb] + r}"
                w.op("v_fma_f32", s, s, f"v{v_c}", f"-{mx}", note="c s - m_new" if kb + r == 0 else "")
        for kb in range(p.kblocks):
            for r in range(p.accs):
                s = f"v{v_s[kb][qb] + r}"
                w.op("v_exp_f32_e32", s, s, note="P = 2^(c s - m_new), in (0, 1]" if kb + r == 0 else "")
        _nops(w, 1, "a VALU reading a transcendental's result waits 1 state (gfx940)")
        vals = [f"v{v_s[kb][qb] + r}" for kb in range(p.kblocks) for r in range(p.accs)]
        w.op("v_add_f32_e32", f"v{v_t}", vals[0], vals[1], note="this lane's part of rowsum(P)")
        for s in vals[2:]:
            w.op("v_add_f32_e32", f"v{v_t}", s, f"v{v_t}")
        w.op("v_fma_f32", f"v{v_l[qb]}", f"v{v_l[qb]}", m, f"v{v_t}", note="l = alpha l + rowsum(P) "
             "(this lane's keys; lane groups are added at the end)")
        w.op("v_mov_b32_e32", f"v{v_alpha}", m, note="alpha, twice ...")
        w.op("v_mov_b32_e32", f"v{v_alpha + 1}", m)
        w.op("v_mov_b32_e32", m, mx, note="m = m_new")
        for db in range(p.dblocks):
            for r in range(0, p.accs, 2):
                o = reg("v", v_o[db][qb] + r, 2)
                w.op("v_pk_mul_f32", o, o, reg("v", v_alpha, 2), note="... O *= alpha, two f32 at a time"
                     if db + r == 0 else "")
        w.comment("   P to f16 in place: registers 4j..4j+3 (4 keys of k-step j) become the pair 4j, 4j+1")
        for kb in range(p.kblocks):
            base = v_s[kb][qb]
            for r in range(0, p.accs, 4):
                w.op("v_cvt_pkrtz_f16_f32", f"v{base + r}", f"v{base + r}", f"v{base + r + 1}")
                w.op("v_cvt_pkrtz_f16_f32", f"v{base + r + 1}", f"v{base + r + 2}", f"v{base + r + 3}")

    w.blank()
    w.comment(f"-- O^T += Vt P^T: {p.dblocks}x{p.qblocks} blocks (d x queries), {p.o_steps} k-steps over the "
              f"{p.bc} keys")
    _nops(w, 2, "an MFMA reads VGPRs a VALU just wrote (P, O): 2 wait states")
    for i in range(len(o_offsets)):
        ks, db = divmod(i, p.dblocks)
        a = vf.use(i)
        # k-step ks takes keys ks*kd .. ks*kd + kd-1: register group 4j..4j+3 of key block kb, P in 4j, 4j+1
        kb, first = divmod(ks * p.kd, p.mm)
        j = first // p.kd
        for qb in range(p.qblocks):
            o = reg("v", v_o[db][qb], p.accs)
            w.op(mfma, o, a, reg("v", v_s[kb][qb] + 4 * j, 2), o)
        vf.done(i)

    w.blank()
    w.op("s_cmp_eq_u32", f"s{s_cnt}", 0)
    w.op("s_cbranch_scc1", ".Lepilogue")
    if not p.prefetch:
        _advance(w, p, sK, sV)
        _global_loads(w, p, sK, sV, v_gk, v_gv, v_data_k, v_data_v)
    w.op("s_waitcnt", "vmcnt(0)", note="the next key block is in VGPRs")
    w.op("s_barrier", note="every wave has read this block from LDS")
    _lds_writes(w, p, v_wk, v_wv, v_data_k, v_data_v)
    w.op("s_waitcnt", "lgkmcnt(0)")
    w.op("s_barrier", note="the next block is in LDS")
    w.op("s_branch", ".Lkey_block")

    w.blank()
    w.label(".Lepilogue")
    _epilogue(w, p, passes, sO, v_lane, v_t, v_u, v_xt, v_x32, v_x16, v_l, v_alpha, v_o)
    w.op("s_endpgm")
    return w


def _add_product(w, s_ptr: int, s_factor: str, scale: int, s_t: int, note: str = "") -> None:
    """_add_product adds s_factor * scale to the 64-bit pointer in s[s_ptr:s_ptr+1] (products below 4 GiB)."""
    w.op("s_mul_i32", f"s{s_t}", s_factor, scale, note=note)
    w.add_to_pointer(s_ptr, f"s{s_t}")


def _advance(w, p: Plan, sK: int, sV: int) -> None:
    w.add_to_pointer(sK, p.bc * p.d * 2, note="K moves Bc rows on")
    w.add_to_pointer(sV, p.bc * 2, note="Vt moves Bc columns on")


def _global_loads(w, p: Plan, sK: int, sV: int, v_gk, v_gv, v_data_k, v_data_v) -> None:
    for vg, vd in zip(v_gk, v_data_k):
        w.op("global_load_dwordx4", reg("v", vd, 4), f"v{vg}", reg("s", sK, 2))
    for vg, vd in zip(v_gv, v_data_v):
        w.op("global_load_dwordx4", reg("v", vd, 4), f"v{vg}", reg("s", sV, 2))


def _lds_writes(w, p: Plan, v_wk, v_wv, v_data_k, v_data_v) -> None:
    """_lds_writes stores a loaded key block; the rows of later loads are reached through the offset field."""
    for j, vd in enumerate(v_data_k):
        off = j * p.rows_per_load_k * p.pitch_k
        w.op("ds_write_b128", f"v{v_wk}", reg("v", vd, 4), *([f"offset:{off}"] if off else []))
    for j, vd in enumerate(v_data_v):
        off = j * p.rows_per_load_v * p.pitch_v
        w.op("ds_write_b128", f"v{v_wv}", reg("v", vd, 4), *([f"offset:{off}"] if off else []))


def _exchange(w, p: Plan, op: str, regs, temps, v_x32: int, v_x16) -> None:
    """_exchange combines each register of ``regs`` over the lanes that hold the same query (v_{op}_f32).

    A query's lanes are N apart (N = the MFMA block's columns): l and l ^ 32 for 32x32 blocks, and
    also l ^ 16 for 16x16 (two butterfly steps). gfx9's DPP cannot move data across rows of 16 lanes
    that way, so ``ds_bpermute_b32`` does it: the LDS crossbar without LDS memory, lane l reading the
    register of lane (address / 4). ``temps`` receive the other lanes' values, one per register.
    """
    for x, dist in ([(v_x32, 32)] + ([(v_x16, 16)] if v_x16 is not None else [])):
        for k, (r, t) in enumerate(zip(regs, temps)):
            w.op("ds_bpermute_b32", f"v{t}", f"v{x}", f"v{r}", note="" if k else f"{op} of lane l ^ {dist}")
        w.op("s_waitcnt", "lgkmcnt(0)")
        for r, t in zip(regs, temps):
            w.op(f"v_{op}_f32_e32", f"v{r}", f"v{t}", f"v{r}")


def _epilogue(w, p: Plan, passes: int, sO: int, v_lane, v_t, v_u, v_xt, v_x32, v_x16, v_l, v_alpha, v_o) -> None:
    """_epilogue adds l over the lane groups, divides O by it and stores O^T's registers as rows of O.

    Register r of an O^T block holds d = 4 * G * (r / 4) + 4 * (l / N) + r % 4 of query l % N: four
    consecutive registers are four consecutive d, one global_store_dwordx4 each. Such a store writes 16
    bytes into each of N rows of O, not one contiguous run; it runs once per wave, after the key loop.
    """
    w.comment("-- epilogue: l over all lane groups of a query; O = O / l; stores of 4 consecutive d per lane")
    _exchange(w, p, "add", v_l, v_xt, v_x32, v_x16)
    for qb in range(p.qblocks):
        w.op("v_rcp_f32_e32", f"v{v_l[qb]}", f"v{v_l[qb]}", note="1 / l")
    _nops(w, passes + 3, f"a VALU reads an MFMA's result {passes} + 3 wait states after it (gfx940)")
    w.op("v_and_b32_e32", f"v{v_t}", p.mm - 1, f"v{v_lane}", note="query within the block")
    w.op("v_lshrrev_b32_e32", f"v{v_u}", log2_exact(p.mm), f"v{v_lane}", note="lane group g: d from 4 g")
    w.op("v_lshlrev_b32_e32", f"v{v_u}", 4, f"v{v_u}")
    w.mad_u32_u24(f"v{v_t}", f"v{v_t}", p.d * 4, f"v{v_u}", note="lane's byte offset in O")
    for qb in range(p.qblocks):
        w.op("v_mov_b32_e32", f"v{v_alpha}", f"v{v_l[qb]}")
        w.op("v_mov_b32_e32", f"v{v_alpha + 1}", f"v{v_l[qb]}", note="1 / l, twice")
        for db in range(p.dblocks):
            for r in range(0, p.accs, 2):
                o = reg("v", v_o[db][qb] + r, 2)
                w.op("v_pk_mul_f32", o, o, reg("v", v_alpha, 2))
        if qb:
            w.op("v_add_u32_e32", f"v{v_t}", p.mm * p.d * 4, f"v{v_t}", note="next query block")
        for db in range(p.dblocks):
            for r in range(0, p.accs, 4):
                off = (db * p.mm + 4 * p.groups * (r // 4)) * 4
                w.op("global_store_dwordx4", f"v{v_t}", reg("v", v_o[db][qb] + r, 4), reg("s", sO, 2),
                     *([f"offset:{off}"] if off else []))


def _flags(v: dict) -> str:
    out = []
    for prm in ATTENTION.params:
        value = v[prm.name]
        if value is not None:
            out.append(f"--{prm.name} {value}")
    return " ".join(out)


ATTENTION = register(Template(
    name="attention",
    summary="flash-attention forward O = softmax(Q K^T scale) V, f16 MFMA, online softmax in registers",
    about=__doc__.split("\n\n", 1)[1].strip(),
    params=(
        Param("seq-q", "int", 1024, "queries per head (rows of Q and O)"),
        Param("seq-k", "int", 1024, "keys per head (rows of K, columns of Vt)"),
        Param("head-dim", "int", 64, "D, the head dimension", choices=(64, 128)),
        Param("heads", "int", 8, "batch x heads: independent attention problems (grid y)"),
        Param("br", "int", 128, "queries per workgroup (Br); each wave owns Br / waves of them"),
        Param("bc", "int", 64, "keys per inner-loop trip (Bc): one K and one Vt tile in LDS"),
        Param("waves", "int", 4, "waves per workgroup"),
        Param("mfma", "dims:3", "32x32x8", "f16 MFMA block MxNxK", choices=tuple(_MFMA)),
        Param("scale", "float", None, "the score scale, a positive number (default: 1/sqrt(head-dim))"),
        Param("prefetch", "int", 1, "1 issues the next key block's global loads before computing this one, "
              "0 loads after", choices=(0, 1), minimum=0),
        Param("lds-pad", "int", 4, "elements added to each LDS row so MFMA fragment reads hit distinct banks "
              "(0 shows the conflicts)", minimum=0),
    ),
    build=build,
    problems=problems,
    examples=(
        "gpusim gen attention -o attn.s   # 8 heads of 1024 x 1024, D = 64, Br = 128, Bc = 64, 4 waves",
        "gpusim gen attention --seq-q 256 --seq-k 256 --head-dim 128 --heads 2 --bc 32 -o small.s",
        "gpusim gen attention --mfma 16x16x16 --br 64 --waves 2 -o attn16.s",
    ),
))
