"""transpose: b = a.T for an f32 matrix, one T x T tile per workgroup, three ways.

The matrix ``a`` is R x C (row-major), ``b`` is C x R. Workgroup (bx, by) of the 2-D grid
(C/T, R/T) owns the tile whose top-left element is a[by*T][bx*T]; it writes that tile's
transpose to b[bx*T][by*T]. The block is one-dimensional: work-item ``tid`` is at column
``tx = tid % T`` and row ``ty = tid / T`` of a block-wide pass, and one pass covers
``P = block / T`` rows, so a thread makes ``T / P`` steps, rows ty, ty + P, ty + 2P, ...

Reads of ``a`` are always coalesced: a wave's lanes read consecutive columns of one row. The
variants differ in how the tile gets to ``b``:

* ``naive``: each thread writes the value it read straight to its transposed place. Consecutive
  lanes now write addresses R*4 bytes apart: (for R >= 32) every lane's word is in a different
  cache line, so one store instruction becomes up to 64 memory requests.
* ``lds``: the tile goes through LDS as ``tile[T][T]``. Threads write tile[ty][tx] (a row:
  consecutive banks), wait at a barrier, read tile[tx][ty] (a column) and write rows of b,
  coalesced again. But a column of tile[T][T] is T words apart: for T >= 32 its 32 words are
  on one bank, and each column read is a 32-way bank conflict (the LDS serves a b32 access 32
  lanes at a time, one word per bank per clock).
* ``lds-padded``: the same with ``tile[T][T+1]``: one unused word per row shifts each row by
  one bank, so a column's 32 words lie on 32 different banks. The counter SQ_LDS_BANK_CONFLICT
  shows the difference. (With T = 16 a half-wave spans two tile rows, and no row stride makes
  both the row writes and the column reads conflict-free: a stride of 18 = 2 x 9 puts the reads
  on 32 banks and leaves the writes a 2-way conflict, 3 LDS clocks per 32 lanes where the
  unpadded tile takes 9.)
"""
from __future__ import annotations

from gpusim.templates.registry import Param, Template, register
from gpusim.templates.writer import KernelWriter

VARIANTS = ("naive", "lds", "lds-padded")
TILES = (16, 32, 64)
MAX_IMM_OFFSET = 4095  # global_* instructions take a 13-bit signed byte offset on gfx942


def row_stride(tile: int, variant: str) -> int:
    """row_stride is the LDS words between rows of the tile: T, or T plus the padding."""
    if variant != "lds-padded":
        return tile
    return tile + (2 if tile < 32 else 1)


def lds_bytes(tile: int, variant: str) -> int:
    """lds_bytes is the tile buffer's size: T rows of row_stride words (0 for naive)."""
    return 0 if variant == "naive" else tile * row_stride(tile, variant) * 4


def problems(v: dict, arch) -> list:
    out = []
    rows, cols, tile, block, variant = v["rows"], v["cols"], v["tile"], v["block"], v["variant"]
    if tile not in TILES:
        out.append(f"--tile {tile} is not one of {', '.join(map(str, TILES))}")
        return out
    if rows <= 0 or cols <= 0:
        out.append("--rows and --cols must be positive")
        return out
    if rows % tile or cols % tile:
        out.append(f"--rows {rows} and --cols {cols} must be multiples of --tile {tile} "
                   "(the kernel has no edge handling)")
    if block % 64 or not 64 <= block <= arch.cu.max_workitems_per_workgroup:
        out.append(f"--block {block} must be a multiple of 64 (whole waves) up to "
                   f"{arch.cu.max_workitems_per_workgroup}")
    elif block % tile or (tile * tile) % block:
        out.append(f"--block {block} must divide the {tile}x{tile} tile into whole rows "
                   f"(block % tile == 0 and tile*tile % block == 0)")
    elif tile * tile // block > 64:
        out.append(f"--block {block} leaves {tile * tile // block} elements per thread; at most 64 "
                   "(one register each)")
    if rows * cols * 4 >= 2 ** 31:
        out.append(f"a {rows}x{cols} f32 matrix is over 2 GiB; the kernel uses 32-bit byte offsets")
    if lds_bytes(tile, variant) > arch.cu.lds.size_bytes:
        out.append(f"the tile needs {lds_bytes(tile, variant)} bytes of LDS, over {arch.cu.lds.size_bytes}")
    return out


def build(v: dict) -> KernelWriter:
    rows, cols, tile, block, variant = v["rows"], v["cols"], v["tile"], v["block"], v["variant"]
    T = tile
    P = block // T           # tile rows one block-wide pass covers
    steps = T // P           # passes per tile = elements per thread
    S = row_stride(T, variant)
    log_t = T.bit_length() - 1
    name = f"transpose_{variant.replace('-', '_')}_{rows}x{cols}_t{T}"
    w = KernelWriter(name, workgroup_ids="xy", lds_bytes=lds_bytes(T, variant))
    w.grid = (cols // T, rows // T, 1)
    w.block = block
    a_in = w.buffer("a", "f32", (rows, cols), init="uniform(-1,1)", seed=7)
    a_out = w.buffer("b", "f32", (cols, rows), out=True)
    assert (a_in, a_out) == (0, 8)  # both pointers come with one s_load_dwordx4
    w.check("b == a.T")
    w.describe(f"transpose ({variant}): b = a.T, a is {rows}x{cols} f32, b is {cols}x{rows}")
    w.describe(f"workgroup (bx, by) of the {cols // T}x{rows // T} grid moves the {T}x{T} tile at "
               f"a[by*{T}][bx*{T}] to b[bx*{T}][by*{T}]")
    w.describe(f"thread tid: tx = tid % {T}, ty = tid / {T}; {block} threads cover {P} tile rows per pass, "
               f"{steps} passes (rows ty + {P}k)")
    if variant == "naive":
        w.describe("naive: lanes write b down a column, R*4 bytes apart: one memory request per lane")
    else:
        w.describe(f"LDS tile [{T}][{S}] ({lds_bytes(T, variant)} bytes): written by rows, read by columns;")
        if S == T:
            ways = 32 if T >= 32 else 8
            w.describe(f"a column's words are {T} apart, on the same bank: {ways}-way conflicts on every read")
        elif T >= 32:
            w.describe(f"rows padded to {S} words put a column's 32 words on 32 banks: no conflicts")
        else:
            w.describe(f"rows padded to {S} words put a column read's 32 lanes on 32 banks; the row writes,")
            w.describe("two rows per half-wave, keep a 2-way conflict (no stride avoids both at T = 16)")

    # registers: names a mentor can follow through the listing
    IN, OUT = "s[4:5]", "s[6:7]"               # the two pointers, moved to this tile's corner
    TX, TY = "v1", "v2"                        # place in the tile
    SRC, DST = "v3", "v4"                      # byte offsets of this thread's first element in a and b
    LDS_W, LDS_R = "v5", "v6"                  # LDS byte addresses for the row writes and column reads
    ADDR = "v7"                                # an address for a step whose offset is over 4095 bytes
    DATA = 8                                   # v8, v9, ...: one element per step

    def mem(mnemonic: str, data: str, base: str, step_bytes: int, k: int, sbase: str, note: str) -> None:
        """mem emits step k's global load or store: base + k * step_bytes, in the offset field if it fits."""
        off = k * step_bytes
        addr = base
        if off > MAX_IMM_OFFSET:
            w.op("v_add_u32_e32", ADDR, off, base, note=f"+ {off} bytes: too big for the offset field")
            addr, off = ADDR, 0
        ops = [data, addr, sbase] if mnemonic.startswith("global_load") else [addr, data, sbase]
        w.op(mnemonic, *ops, *([f"offset:{off}"] if off else []), note=note)

    w.comment("-- notes index a and b from the tile's corner: a[ty][tx] is a[by*T + ty][bx*T + tx]")
    w.comment("-- per workgroup (scalar unit, once): the arguments and where this tile starts")
    w.op("s_load_dwordx4", "s[4:7]", "s[0:1]", "0x0", note="s[4:5] = a, s[6:7] = b")
    w.op("s_mul_i32", "s8", "s3", T * cols * 4, note=f"by * {T} rows * {cols * 4} bytes per row of a")
    w.op("s_lshl_b32", "s9", "s2", log_t + 2, note=f"bx * {T} columns * 4 bytes")
    w.op("s_add_u32", "s8", "s8", "s9", note="byte offset of a[by*T][bx*T]")
    w.op("s_mul_i32", "s10", "s2", T * rows * 4, note=f"bx * {T} rows * {rows * 4} bytes per row of b")
    w.op("s_lshl_b32", "s11", "s3", log_t + 2, note=f"by * {T} columns * 4 bytes")
    w.op("s_add_u32", "s10", "s10", "s11", note="byte offset of b[bx*T][by*T]")
    w.comment("-- per thread (vector unit): its place in the tile")
    w.op("v_and_b32_e32", TX, T - 1, "v0", note=f"tx = tid % {T}")
    w.op("v_lshrrev_b32_e32", TY, log_t, "v0", note=f"ty = tid / {T}")
    w.op("s_mov_b32", "s12", cols, note="C, the row length of a")
    w.op("v_mad_u32_u24", SRC, TY, "s12", TX, note="ty * C + tx: a[ty][tx] within the tile")
    w.op("v_lshlrev_b32_e32", SRC, 2, SRC, note="... in bytes")
    w.op("s_mov_b32", "s13", rows, note="R, the row length of b")
    if variant == "naive":
        w.op("v_mad_u32_u24", DST, TX, "s13", TY, note="tx * R + ty: b[tx][ty], where a[ty][tx] goes")
    else:
        w.op("v_mad_u32_u24", DST, TY, "s13", TX, note="ty * R + tx: b[ty][tx], a row of b (coalesced)")
    w.op("v_lshlrev_b32_e32", DST, 2, DST, note="... in bytes")
    w.op("s_waitcnt", "lgkmcnt(0)", note="the pointers have arrived")
    w.add_to_pointer(4, "s8", note="a += tile offset (64-bit: low word ...", carry_note="... plus the carry)")
    w.add_to_pointer(6, "s10", note="b += tile offset")

    w.blank()
    w.comment(f"-- read the tile: {steps} coalesced loads per thread, all in flight before the first wait")
    for k in range(steps):
        mem("global_load_dword", f"v{DATA + k}", SRC, P * cols * 4, k, IN, f"a[ty + {P * k}][tx]")

    if variant == "naive":
        w.blank()
        w.comment(f"-- write each value to its transposed place: lanes tx and tx+1 are {rows * 4} bytes apart")
        for k in range(steps):
            w.op("s_waitcnt", f"vmcnt({steps - 1 - k})", note=f"load {k} is back (loads return in order)")
            mem("global_store_dword", f"v{DATA + k}", DST, P * 4, k, OUT, f"b[tx][ty + {P * k}]")
        w.op("s_endpgm")
        return w

    w.blank()
    w.comment(f"-- into LDS by rows: tile[ty + {P}k][tx] is word (ty + {P}k) * {S} + tx")
    if T >= 32:
        w.comment("   32 lanes write 32 consecutive words, one per bank: conflict-free")
    elif S == T:
        w.comment("   a half-wave writes two whole rows, 32 consecutive words: conflict-free")
    else:
        w.comment(f"   a half-wave writes two rows {S} words apart: lanes tx = 0, 1 and 14, 15 share banks, 2-way")
    w.op("s_movk_i32", "s14", S, note="the LDS row stride in words (VOP3 takes no literal: an SGPR)")
    w.op("v_mad_u32_u24", LDS_W, TY, "s14", TX, note=f"ty * {S} + tx")
    w.op("v_lshlrev_b32_e32", LDS_W, 2, LDS_W, note="... in bytes")
    for k in range(steps):
        w.op("s_waitcnt", f"vmcnt({steps - 1 - k})", note=f"load {k} is back (loads return in order)")
        off = k * P * S * 4
        w.op("ds_write_b32", LDS_W, f"v{DATA + k}", *([f"offset:{off}"] if off else []),
             note=f"tile[ty + {P * k}][tx]")
    w.op("s_waitcnt", "lgkmcnt(0)", note="this wave's writes are in LDS ...")
    w.op("s_barrier", note="... and after the barrier every wave's are")
    w.blank()
    w.comment(f"-- out of LDS by columns: tile[tx][ty + {P}k] is word tx * {S} + ty + {P}k; lanes tx, tx+1")
    if S == T and T >= 32:
        w.comment(f"   are {S} words apart, all on bank (ty + {P}k) % 32: a 32-way conflict, 32 LDS clocks per 32 lanes")
    elif S == T:
        w.comment(f"   are {S} words apart: a half-wave's 32 lanes on 2 banks, 8 words each: an 8-way conflict")
    elif T >= 32:
        w.comment(f"   are {S} words apart and {S} % 32 = {S % 32} spreads 32 lanes over all 32 banks: conflict-free")
    else:
        w.comment(f"   are {S} words apart: tx * {S} % 32 is 16 even banks, + ty (two rows) makes 32: conflict-free")
    w.op("v_mad_u32_u24", LDS_R, TX, "s14", TY, note=f"tx * {S} + ty")
    w.op("v_lshlrev_b32_e32", LDS_R, 2, LDS_R, note="... in bytes")
    for k in range(steps):
        off = k * P * 4
        w.op("ds_read_b32", f"v{DATA + k}", LDS_R, *([f"offset:{off}"] if off else []),
             note=f"tile[tx][ty + {P * k}], which is a[tx][ty + {P * k}]")
    w.blank()
    w.comment("-- write rows of b: lanes tx, tx+1 write consecutive words (coalesced)")
    for k in range(steps):
        left = min(steps - 1 - k, 15)  # lgkmcnt is 4 bits: waiting for 15 left is safe, if early
        w.op("s_waitcnt", f"lgkmcnt({left})", note=f"LDS read {k} is back (LDS returns in order)")
        mem("global_store_dword", f"v{DATA + k}", DST, P * rows * 4, k, OUT, f"b[ty + {P * k}][tx]")
    w.op("s_endpgm")
    return w


register(Template(
    name="transpose",
    summary="b = a.T for an f32 matrix: naive, through LDS, or through bank-conflict-free padded LDS",
    params=(
        Param("rows", "int", 256, "rows R of the input matrix (a multiple of --tile)"),
        Param("cols", "int", 256, "columns C of the input matrix (a multiple of --tile)"),
        Param("variant", "str", "lds-padded", "naive: write columns straight from registers; lds: a [T][T] "
              "LDS tile; lds-padded: a [T][T+1] tile whose columns hit 32 different banks", choices=VARIANTS),
        Param("tile", "int", 32, "tile edge T (16, 32 or 64)"),
        Param("block", "int", 256, "work-items per workgroup (whole waves; a multiple of T dividing T*T)"),
    ),
    build=build,
    problems=problems,
    about=__doc__.split("\n\n", 1)[1].strip(),
    examples=("gpusim gen transpose --rows 1024 --cols 1024 --variant lds-padded -o t.s",
              "gpusim gen transpose --rows 256 --cols 512 --variant lds --tile 64"),
))
