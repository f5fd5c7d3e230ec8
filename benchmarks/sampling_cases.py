"""The cases of benchmarks/sampling.py: every shipped workload and the clang-compiled kernels, at two sizes.

``cases(scale)`` returns one :class:`Case` per kernel, in a fixed order, each with a ``name`` and a ``load()``
that returns the gpusim.Kernel at that scale (``[(c.name, c.load) for c in cases("small")]`` are the pairs a
test needs). Nothing is simulated here and nothing is written to disk: the kernels are built in memory.

Groups (``Case.group``):
  workloads  every ``workloads/*.s``. The template-made ones are generated again with the parameters
             scripts/build_workloads.py ships them with and only their size changed (gpusim.templates);
             the clang-made ones (scripts/build_corpus.py) get their launch header rewritten.
  kernels    ``benchmarks/kernels/*.s``: the HIP kernels clang-19 compiled for the MI300A accuracy table
             (vectoradd, relu, fir, matrixtranspose), the clang pointer chase, and the three hand-written
             kernels beside them (pointer_chase, valu_loop, shared_tile); headers rewritten.
  corpus     the clang-19 OpenCL corpus ``tests/data/corpus/gfx942/*.s`` that is not also a workload (six
             corpus files are shipped as workloads byte for byte, and run once, there); headers rewritten.

Scales:
  small  what a test of sampling can afford: a kernel whose grid is at least 6.5 rounds on cdna3 (every
         workgroup slot of the 304 CUs filled 6.5 times; the grid method needs head + tail + 2 rounds) or
         whose first workgroup runs its main loop at least 32 times (4 x the loop method's 8 head
         iterations), at the least cost: 0.01-11 M wave-instructions, mostly 1-4 M, about 0.1-5 s of full
         timed simulation each (about 2 minutes for all). One exception: bitonic_local (45 short
         barriered stages per workgroup, no long loop) stays at 0.2 rounds, where sampling has nothing
         to apply to and runs it in full.
  large  a real kernel on a whole GPU: many rounds of workgroups or long loops, mostly 20-145 M
         wave-instructions (about 10-70 s of full timed simulation at 2-2.5 M wave-instructions per
         second; about 3.1 G, some 25 minutes, for all), among them the 4096^3 f16 GEMM, 16384^2
         transposes, 256M-element STREAM kernels (13-80 M) and flash attention over 16K tokens (145 M).
         Inherently small kernels keep their shape and only run longer: the single-lane pointer chases
         (4M steps, 8.8 M), the 8-workgroup LDS histogram (64M keys, 11.5 M).

  huge   issue 19's own examples of kernels too big to time in full interactively, past the large sizes
         (1.5-3.5 minutes of full simulation each, and 6-8 GB of host memory for their buffers): ReLU
         over 1G elements, the STREAM triad over 512M and the HIP transpose of a 32768^2 f32 matrix.
         Their grids have 2-4 times their large namesakes' rounds, which is where the grid method's head, a
         number of rounds the rate's noise sets rather than a share of the grid, becomes a small part.

``Case.tolerance_pct`` is issue 19's target on |sampled - full| / full cycles: 1% for the regular kernels
(GEMMs and STREAM-like streaming), 3% for the rest.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parents[1]
WORKLOADS = REPO / "workloads"
KERNELS = REPO / "benchmarks" / "kernels"
CORPUS = REPO / "tests" / "data" / "corpus" / "gfx942"
SCALES = ("small", "large", "huge")
GROUPS = ("workloads", "kernels", "corpus")
REGULAR_PCT = 1.0   # issue 19: GEMM and stream within 1% of the full simulation
OTHER_PCT = 3.0     # every other case within 3%


@dataclass(frozen=True)
class Case:
    """Case is one benchmark kernel at one scale: its name, where it comes from, its size in words, the error
    it must stay within, and ``text()``, the assembly (launch header included) that ``load()`` assembles."""

    name: str
    group: str
    source: str            # the shipped file it stands for, relative to the repository
    size: str              # the problem in words ("4096^3 f16", "n=256M")
    tolerance_pct: float
    text: Callable[[], str] = field(repr=False, compare=False)

    def load(self):
        """load assembles the case's kernel (gpusim.kernel_from_text); raises what load_kernel raises."""
        import gpusim
        return gpusim.kernel_from_text(self.text(), f"{self.source} [{self.size}]")


# --- building the text ---------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _shipped_parameters() -> dict:
    """_shipped_parameters is scripts/build_workloads.py's WORKLOADS: file name -> (template, parameters)."""
    spec = importlib.util.spec_from_file_location("gpusim_build_workloads", REPO / "scripts" / "build_workloads.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.WORKLOADS


def template_text(workload: str, **size) -> Callable[[], str]:
    """template_text returns a builder of workload ``workload``'s template at the parameters it ships with,
    the size parameters ``size`` replaced (gpusim.templates.generate checks the combination)."""
    family, params = _shipped_parameters()[workload]
    params = {**params, **size}

    def build() -> str:
        from gpusim.templates import generate
        return generate(family, **params)
    return build


_ARG = re.compile(r"^(; gpusim-arg:\s+)(\S+)(\s+)(.*)$")


def rescaled_text(path: Path, grid: tuple, args: Optional[dict] = None,
                  subs: Optional[dict] = None) -> Callable[[], str]:
    """rescaled_text returns a builder of ``path``'s text with its launch header rewritten: the launch line's
    grid; for each ``args`` entry, a buffer's ``DTYPE[SHAPE]`` (give the new ``DTYPE[SHAPE]``) or a scalar's
    value; and each ``subs`` text (in check or init specs) replaced. Every rewrite must match exactly once,
    so a header that changed under the benchmark is an error, not a silently different kernel."""
    args, subs = dict(args or {}), dict(subs or {})

    def build() -> str:
        lines = path.read_text().split("\n")
        header = [i for i, line in enumerate(lines) if line.startswith("; gpusim-")]
        launches = [i for i in header if lines[i].startswith("; gpusim-launch:")]
        if len(launches) != 1:
            raise ValueError(f"{path}: expected one '; gpusim-launch:' line, found {len(launches)}")
        line, n = re.subn(r"\bgrid=\S+", "grid=" + ",".join(str(g) for g in grid), lines[launches[0]])
        if n != 1:
            raise ValueError(f"{path}: the launch line has no grid=")
        lines[launches[0]] = line
        done = set()
        for i in header:
            m = _ARG.match(lines[i])
            if not m or m.group(2) not in args:
                continue
            head, name, space, rest = m.groups()
            new = str(args[name])
            if rest.startswith("buffer "):
                rest, n = re.subn(r"^buffer \S+?\[[^\]]*\]", "buffer " + new, rest)
            else:
                rest, n = re.subn(r"^(\S+\s+)\S+", lambda mm: mm.group(1) + new, rest)
            if n != 1:
                raise ValueError(f"{path}: cannot rewrite argument {name!r} in {lines[i]!r}")
            lines[i] = head + name + space + rest
            done.add(name)
        if set(args) - done:
            raise ValueError(f"{path}: no header argument {sorted(set(args) - done)}")
        for old, new in subs.items():
            hits = [i for i in header if old in lines[i]]
            if len(hits) != 1 or lines[hits[0]].count(old) != 1:
                raise ValueError(f"{path}: the header should hold {old!r} exactly once")
            lines[hits[0]] = lines[hits[0]].replace(old, new)
        return "\n".join(lines)
    return build


def _bytes(n: int) -> str:
    """_bytes writes a byte count as 8 KiB, 1 MiB."""
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def _words(n: int) -> str:
    """_words writes a power-of-two-ish count as 4M, 256M, 1G (exact counts otherwise)."""
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return f"{n:,}"


# --- the cases -----------------------------------------------------------------------------------------------

def _pick(scale: str, small, large):
    return small if scale == "small" else large


def _workloads(scale: str) -> list:
    """_workloads is one case per workloads/*.s (see the module docstring for the sizes)."""
    out = []

    def add(name, size, text, tol=OTHER_PCT):
        out.append(Case(name, "workloads", f"workloads/{name}.s", size, tol, text))

    def gemm(name, m, n, k, dtype="f16"):
        add(name, f"{m}x{n}x{k} {dtype}" if not m == n == k else f"{m}^3 {dtype}",
            template_text(f"{name}.s", m=m, n=n, k=k), REGULAR_PCT)

    # GEMMs: the shipped 4096^3 at the large scale; small ones keep a K loop of 32+ trips
    gemm("gemm_128x128", *_pick(scale, (2048, 2048, 1024), (4096, 4096, 4096)))
    gemm("gemm_128x128_bf16", *_pick(scale, (2048, 2048, 1024), (4096, 4096, 4096)), dtype="bf16")
    gemm("gemm_128x128_f32", *_pick(scale, (1024, 1024, 1024), (4096, 4096, 4096)), dtype="f32")
    gemm("gemm_256x128", *_pick(scale, (2048, 2048, 1024), (4096, 4096, 4096)))
    gemm("gemm_32x32", *_pick(scale, (1024, 1024, 1024), (4096, 4096, 4096)))
    gemm("gemm_64x64", *_pick(scale, (1024, 1024, 1024), (4096, 4096, 4096)))
    # one GPU's tensor-parallel MLP GEMMs: 512 tokens as shipped, 8192 tokens large
    tokens = _pick(scale, 512, 8192)
    gemm("tp_mlp_up", tokens, 1792, 4096)
    gemm("tp_mlp_down", tokens, 4096, 1792)
    # flash attention: 2 heads of 2048 tokens small, 4 heads of 16384 tokens large
    seq, heads = _pick(scale, (2048, 2), (16384, 4))
    add("attention_fwd_d64", f"{heads} heads x {_words(seq)} tokens, d=64",
        template_text("attention_fwd_d64.s", seq_q=seq, seq_k=seq, heads=heads))
    # STREAM over 256M f32 elements (1 GiB per array) large; 16M (as shipped) or 4M small
    for name, n_small in (("stream_copy", 1 << 24), ("stream_triad", 1 << 24), ("stream_triad_scalar", 1 << 22)):
        n = _pick(scale, n_small, 1 << 28)
        add(name, f"n={_words(n)}", template_text(f"{name}.s", n=n), REGULAR_PCT)
    # grid-stride: small has fewer workgroups so that each loops 54 times
    n, wgs = _pick(scale, (1 << 25, 304), (1 << 28, 1216))
    add("stream_triad_grid_stride", f"n={_words(n)}, {wgs} WGs",
        template_text("stream_triad_grid_stride.s", n=n, workgroups=wgs), REGULAR_PCT)
    for name in ("transpose_naive", "transpose_lds_tile", "transpose_lds_padded"):
        w = _pick(scale, 4096, 16384)
        add(name, f"{w}^2 f32", template_text(f"{name}.s", rows=w, cols=w))
    for name in ("reduce_wave_shuffle", "reduce_lds_tree"):
        n = _pick(scale, 1 << 26, 1 << 28)
        add(name, f"n={_words(n)}", template_text(f"{name}.s", n=n))
    rows, cols = _pick(scale, (16384, 512), (32768, 4096))
    add("softmax_row_reduce", f"{rows}x{cols} f32", template_text("softmax_row_reduce.s", rows=rows, cols=cols))
    steps = _pick(scale, 4096, 1 << 22)
    add("chase_l1", f"{_words(steps)} steps over 8 KiB", template_text("chase_l1.s", steps=steps))
    steps = _pick(scale, 65536, 1 << 22)
    add("chase_l2", f"{_words(steps)} steps over 1 MiB", template_text("chase_l2.s", steps=steps))
    wgs, reads = _pick(scale, (304, 128), (2432, 1024))
    add("lds_bandwidth_b128", f"{wgs} WGs x {reads} reads",
        template_text("lds_bandwidth_b128.s", workgroups=wgs, reads=reads))
    add("lds_bandwidth_conflicts", f"{wgs} WGs x {reads} reads",
        template_text("lds_bandwidth_conflicts.s", workgroups=wgs, reads=reads))

    # clang-made workloads (kernels/cl, kernels/apps): the launch header rewritten
    def clang(name, size, grid, args=None, subs=None, tol=OTHER_PCT):
        add(name, size, rescaled_text(WORKLOADS / f"{name}.s", grid, args, subs), tol)

    n = _pick(scale, 1 << 18, 1 << 23)   # every 512-key block sorted: 45 barriered stages per workgroup
    clang("bitonic_local", f"n={_words(n)}", (n // 512, 1, 1), {"n": n})
    n = _pick(scale, 1 << 23, 1 << 27)
    clang("bitonic_step", f"n={_words(n)}", (n // 512, 1, 1), {"n": n})
    m, k = _pick(scale, (256, 512), (1024, 1024))
    clang("gemm_lds_tiled", f"{m}x{m}x{k} f32", (m // 16, m // 16, 1),
          {"A": f"f32[{m},{k}]", "B": f"f32[{k},{m}]", "C": f"f32[{m},{m}]", "N": m, "K": k},
          {"rtol=1e-5 atol=1e-5": "rtol=1e-4 atol=1e-4"}, tol=REGULAR_PCT)   # f32 sums of 512+ products
    m, k = _pick(scale, (1024, 256), (4096, 1024))
    clang("mfma_gemm_32x32x8f16", f"{m}x{m}x{k} f16", (m // 32, m // 32, 1),
          {"A": f"f16[{m},{k}]", "B": f"f16[{k},{m}]", "C": f"f32[{m},{m}]", "N": m, "K": k}, tol=REGULAR_PCT)
    n = _pick(scale, 1 << 22, 1 << 25)
    clang("reduce_lds", f"n={_words(n)}", (n // 256, 1, 1), {"x": f"f32[{n}]", "partial": f"f32[{n // 256}]"},
          {"x.reshape(16, 256)": "x.reshape(-1, 256)"})
    n = _pick(scale, 1 << 22, 1 << 28)
    clang("saxpy", f"n={_words(n)}", (n // 256, 1, 1), {"n": n}, tol=REGULAR_PCT)
    n = _pick(scale, 1 << 22, 1 << 26)
    clang("silu_to_f16", f"n={_words(n)}", (n // 256, 1, 1), {"n": n})
    rows = _pick(scale, 16384, 65536)
    clang("softmax_rows", f"{rows}x256 f32", (rows, 1, 1), {"x": f"f32[{rows},256]", "y": f"f32[{rows},256]"})
    w = _pick(scale, 2048, 8192)
    clang("transpose_lds", f"{w}^2 f32", (w // 16, w // 16, 1),
          {"a": f"f32[{w},{w}]", "b": f"f32[{w},{w}]", "rows": w, "cols": w})
    return out


def _kernels(scale: str) -> list:
    """_kernels is one case per benchmarks/kernels/*.s."""
    out = []

    def add(name, size, grid, args=None, subs=None, tol=OTHER_PCT):
        out.append(Case(name, "kernels", f"benchmarks/kernels/{name}.s", size, tol,
                        rescaled_text(KERNELS / f"{name}.s", grid, args, subs)))

    n = _pick(scale, 1 << 22, 1 << 27)
    add("vectoradd", f"n={_words(n)}", (n // 256, 1, 1), {"width": n}, tol=REGULAR_PCT)
    n = _pick(scale, 1 << 22, 1 << 28)
    add("relu", f"n={_words(n)}", (n // 256, 1, 1), {"count": n}, tol=REGULAR_PCT)
    n, taps = _pick(scale, (1 << 18, 64), (1 << 22, 64))
    add("fir", f"n={_words(n)}, {taps} taps", (n // 256, 1, 1),
        {"output": f"f32[{n}]", "input": f"f32[{n}]", "num_tap": taps})
    w = _pick(scale, 6144, 16384)
    add("matrixtranspose", f"{w}^2 f32", (w // 64, w // 64, 1),
        {"wi_width": w // 4, "wi_height": w // 4, "blocks_x": w // 64})
    for name in ("pointer_chase", "pointer_chase_clang"):
        rows, steps = _pick(scale, (128, 4096), (16384, 1 << 22))   # 8 KiB (the L1) / 1 MiB (the L2)
        add(name, f"{_words(steps)} steps over {_bytes(rows * 64)}", (1, 1, 1),
            {"next": f"u32[{rows},16]", "steps": steps})
    wgs = _pick(scale, 64, 4864)
    add("valu_loop", f"{wgs} WGs x 512 trips", (wgs, 1, 1))
    wgs, loads = _pick(scale, (2432, 64), (38912, 256))
    add("shared_tile", f"{wgs} WGs x {loads} loads", (wgs, 1, 1), {"loads": loads, "out": f"u32[{wgs * 64}]"},
        {"np.tile(np.arange(64), 8)": f"np.tile(np.arange(64), {wgs})"})
    return out


def _corpus(scale: str) -> list:
    """_corpus is one case per OpenCL corpus kernel not shipped as a workload."""
    out = []
    shipped = {p.name for p in WORKLOADS.glob("*.s")}

    def add(name, size, grid, args=None, subs=None, tol=OTHER_PCT):
        assert f"{name}.s" not in shipped, name
        out.append(Case(name, "corpus", f"tests/data/corpus/gfx942/{name}.s", size, tol,
                        rescaled_text(CORPUS / f"{name}.s", grid, args, subs)))

    def elementwise(name, large, buffers, scalars=(), block=256, subs=None, n_small=1 << 22, per=None):
        """elementwise cases have one work-item per element: every named buffer holds n (or ``per`` maps a
        buffer to its element count from n), every named scalar is n."""
        n = _pick(scale, n_small, large)
        args = {b: f"{dtype}[{(per or {}).get(b, lambda n: n)(n)}]" for b, dtype in buffers.items()}
        args.update({s: n for s in scalars})
        add(name, f"n={_words(n)}", (-(-n // block), 1, 1), args, subs)

    elementwise("bf16_convert", 1 << 27, {"x": "f32", "b": "bf16", "xb": "bf16", "bf": "f32"})
    elementwise("divergent_loop", 1 << 24, {"cnt": "i32", "out": "i32"}, n_small=1 << 20)
    n = _pick(scale, 1 << 20, 1 << 24)   # a private array of 16 per work-item
    add("dynamic_index", f"n={_words(n)} x 16", (n // 256, 1, 1),
        {"src": f"f32[{16 * n}]", "sel": f"i32[{n}]", "out": f"f32[{n}]", "mixed": f"f32[{n}]", "total": f"f32[{n}]"})
    elementwise("f16_math", 1 << 27, {"a": "f16", "b": "f16", "c": "f16", "f": "f32"}, ("n",))
    elementwise("f16x2_packed", 1 << 27, {"x": "f16", "y": "f16"}, per={"x": lambda n: 2 * n, "y": lambda n: 2 * n})
    elementwise("f64_math", 1 << 25, {"x": "f64", "y": "f64", "z": "f32"},
                subs={"np.arange(1024)": "np.arange(x.size)"})
    n = _pick(scale, 1 << 22, 1 << 27)
    src = _pick(scale, 1 << 20, 1 << 24)
    add("gather", f"n={_words(n)} from {_words(src)}", (n // 256, 1, 1),
        {"src": f"f32[{src}]", "idx": f"i32[{n}]", "out": f"f32[{n}]", "n": n},
        {"randint(0,4096)": f"randint(0,{src})"})
    elementwise("hist_global_atomic", 1 << 26, {"data": "u32"})
    n = _pick(scale, 1 << 20, 1 << 26)   # the kernel's grid-stride loop is written for 8 workgroups
    add("hist_lds_atomic", f"n={_words(n)}, 8 WGs", (8, 1, 1), {"data": f"u32[{n}]", "n": n})
    elementwise("hist_seq_cst_atomic", 1 << 26, {"data": "u32"})
    elementwise("intdiv", 1 << 25, {b: "i32" for b in ("a", "d", "q", "r", "qs")} | {"uq": "u32", "ur": "u32"})
    elementwise("intdiv64", 1 << 24, {"a": "i64", "q": "i64", "r": "i64"})
    elementwise("newton_sqrt", 1 << 24, {"x": "f32", "y": "f32"}, n_small=1 << 20)
    elementwise("scan_lds", 1 << 24, {"x": "i32", "y": "i32"})
    elementwise("short_math", 1 << 26, {**dict.fromkeys("abc", "f16"), **dict.fromkeys("pqr", "i16"), "hmin": "f16",
                                         "hmax": "f16", "smax": "i16", "umin": "u16", "umad": "u16", "imad": "i32"})
    elementwise("stream_compact", 1 << 26, {"x": "f32", "out": "f32"})
    n = _pick(scale, (1 << 22) - 1000, (1 << 27) - 1000)   # not a multiple of the block: the last one masks
    add("vadd_tail", f"n={n:,}", (-(-n // 256), 1, 1), {"a": f"f32[{n}]", "b": f"f32[{n}]", "c": f"f32[{n}]", "n": n})
    elementwise("wave_max_bpermute", 1 << 25, {"x": "f32", "wmax": "f32"}, per={"wmax": lambda n: n // 64})
    elementwise("wave_min_swizzle", 1 << 26, {"x": "u32", "wmin": "u32"}, block=128, per={"wmin": lambda n: n // 64})
    elementwise("wave_scan_dpp", 1 << 26, {"x": "i32", "scan": "i32", "wsum": "i32"}, per={"wsum": lambda n: n // 64})
    w = _pick(scale, 2048, 8192)
    add("stencil2d", f"{w}^2 f32", (w // 16, w // 16, 1), {"a": f"f32[{w},{w}]", "b": f"f32[{w},{w}]", "h": w, "w": w})

    def gemm(name, m, k, tile, dtype):
        add(name, f"{m}x{m}x{k} {dtype}" if m != k else f"{m}^3 {dtype}", (m // tile, m // tile, 1),
            {"A": f"{dtype}[{m},{k}]", "B": f"{dtype}[{k},{m}]", "C": f"f32[{m},{m}]", "N": m, "K": k},
            tol=REGULAR_PCT)

    m, k = _pick(scale, (256, 256), (1024, 512))
    add("gemm_naive", f"{m}x{m}x{k} f32", (m // 16, m // 16, 1),
        {"A": f"f32[{m},{k}]", "B": f"f32[{k},{m}]", "C": f"f32[{m},{m}]", "M": m, "N": m, "K": k}, tol=REGULAR_PCT)
    gemm("mfma_gemm_128x128f16", *_pick(scale, (1024, 1024), (4096, 4096)), 128, "f16")
    gemm("mfma_gemm_16x16x16f16", *_pick(scale, (512, 512), (2048, 2048)), 32, "f16")
    gemm("mfma_gemm_32x32x2f32", *_pick(scale, (1024, 128), (2048, 2048)), 32, "f32")
    return out


def _huge() -> list:
    """_huge is the huge scale's cases (see the module docstring), each named as its large counterpart."""
    return [
        Case("stream_triad", "workloads", "workloads/stream_triad.s", f"n={_words(1 << 29)}", REGULAR_PCT,
             template_text("stream_triad.s", n=1 << 29)),
        Case("matrixtranspose", "kernels", "benchmarks/kernels/matrixtranspose.s", "32768^2 f32", OTHER_PCT,
             rescaled_text(KERNELS / "matrixtranspose.s", (32768 // 64, 32768 // 64, 1),
                           {"wi_width": 32768 // 4, "wi_height": 32768 // 4, "blocks_x": 32768 // 64})),
        Case("relu", "kernels", "benchmarks/kernels/relu.s", f"n={_words(1 << 30)}", REGULAR_PCT,
             rescaled_text(KERNELS / "relu.s", ((1 << 30) // 256, 1, 1), {"count": 1 << 30})),
    ]


def cases(scale: str = "large") -> list:
    """cases returns every Case at ``scale`` ('small' or 'large'): workloads, then benchmarks/kernels, then
    the corpus, each in file-name order; at 'huge', its three cases (_huge)."""
    if scale not in SCALES:
        raise ValueError(f"scale {scale!r} is not one of {', '.join(SCALES)}")
    if scale == "huge":
        return _huge()
    out = []
    for group in (_workloads(scale), _kernels(scale), _corpus(scale)):
        out.extend(sorted(group, key=lambda c: c.name))
    names = [c.name for c in out]
    assert len(set(names)) == len(names), "case names must be unique"
    return out


def uncovered() -> list:
    """uncovered lists the shipped kernel files that no case stands for (a new workload or corpus kernel that
    benchmarks/sampling.py does not size yet); empty when every one is covered."""
    covered = {c.source for c in cases("small")}
    files = [*WORKLOADS.glob("*.s"), *KERNELS.glob("*.s"), *CORPUS.glob("*.s")]
    shipped = {p.name for p in WORKLOADS.glob("*.s")}
    return sorted(str(p.relative_to(REPO)) for p in files
                  if str(p.relative_to(REPO)) not in covered and not (p.parent == CORPUS and p.name in shipped))

