"""The ``; gpusim-*`` launch header and the CLI overrides applied on top of it."""
import pytest

from gpusim.asm.header import apply_overrides
from gpusim.asm.ir import ArgSpec, CheckSpec, LaunchSpec
from gpusim.asm.parser import parse_text
from gpusim.errors import HeaderError

HEADER = """\
; gpusim-launch: grid=32,32,1 block=256,1,1
; gpusim-arg: A buffer f16[4096,4096] init=uniform(-1,1) seed=1
; gpusim-arg: B buffer f16[4096*4096] init=normal(0, 0.5) seed=2
; gpusim-arg: C buffer f32[4096,4096] out
; gpusim-arg: P buffer u32[1024] init=cycle
; gpusim-arg: R buffer i32[64, 2*8] init=randint(0,10) seed=0x10
; gpusim-arg: V buffer f64[8] init=value(-2.5)
; gpusim-arg: K i32 4096
; gpusim-arg: H u32 0xffffffff
; gpusim-arg: N i64 -0x10
; gpusim-arg: alpha f32 1e-3
; gpusim-arg: beta bf16 -2
; gpusim-check: C ~= A.astype(f32) @ B.astype(f32)  rtol=2e-2
; gpusim-check: C[0:2, (1==1)] == np.sum(A, axis=0)[0]
; gpusim-check: P ~= np.sort(P) atol=0.5 rtol=0
"""
CODE = "k:\n s_endpgm\n"


def parse(header, code=CODE):
    return parse_text(header + code, path="h.s")


def test_full_header():
    m = parse(HEADER)
    assert m.launch == LaunchSpec((32, 32, 1), (256, 1, 1), m.launch.loc)
    assert m.launch.loc.line == 1
    by = {a.name: a for a in m.args}
    assert [a.name for a in m.args] == ["A", "B", "C", "P", "R", "V", "K", "H", "N", "alpha", "beta"]
    a = by["A"]
    assert (a.kind, a.dtype, a.shape, a.init, a.init_params, a.seed, a.out) == \
        ("buffer", "f16", (4096, 4096), "uniform", (-1.0, 1.0), 1, False)
    assert by["B"].shape == (4096 * 4096,) and by["B"].init_params == (0.0, 0.5)
    assert by["C"].out and by["C"].init == "zeros"
    assert by["P"].init == "cycle" and by["P"].init_params == ()
    assert by["R"].shape == (64, 16) and by["R"].seed == 16 and by["R"].init == "randint"
    assert by["V"].init_params == (-2.5,)
    assert (by["K"].kind, by["K"].dtype, by["K"].value) == ("scalar", "i32", 4096)
    assert by["H"].value == 0xFFFFFFFF and by["N"].value == -16
    assert by["alpha"].value == pytest.approx(1e-3) and by["beta"].value == -2.0
    assert by["A"].loc.line == 2 and by["A"].loc.col == 15
    c0, c1, c2 = m.checks
    assert (c0.lhs, c0.op, c0.rhs, c0.rtol, c0.atol) == ("C", "~=", "A.astype(f32) @ B.astype(f32)", 2e-2, 1e-8)
    assert (c1.lhs, c1.op, c1.rhs) == ("C[0:2, (1==1)]", "==", "np.sum(A, axis=0)[0]")
    assert (c2.rtol, c2.atol) == (0.0, 0.5)
    assert c0.loc.line == 13


@pytest.mark.parametrize("text, grid, block", [
    ("grid=8 block=64", (8, 1, 1), (64, 1, 1)),
    ("block=16,16 grid=4,4", (4, 4, 1), (16, 16, 1)),
    ("grid = 2, 3, 4  block = 1024", (2, 3, 4), (1024, 1, 1)),
    ("grid=64*64 block=32*32", (4096, 1, 1), (1024, 1, 1)),
])
def test_launch_forms(text, grid, block):
    m = parse(f"; gpusim-launch: {text}\n")
    assert (m.launch.grid, m.launch.block) == (grid, block)


def test_header_lines_anywhere_and_absent():
    m = parse_text("k:\n s_nop 0\n; gpusim-arg: K i32 7\n s_endpgm ; gpusim-launch: grid=1 block=64\n")
    assert m.launch.grid == (1, 1, 1) and m.args[0].value == 7
    m = parse_text(CODE)
    assert m.launch is None and m.args == [] and m.checks == []


# (header text, line, column, phrase, hint phrase or None)
ERRORS = [
    ("; gpusim-lunch: grid=1\n", 1, 3, "unknown header keyword 'gpusim-lunch'", "'gpusim-launch'"),
    ("; gpusim-launch grid=1 block=1\n", 1, 17, "expected ':'", None),
    ("; gpusim-launch: grid=1,1,1 block=2048\n", 1, 17, "exceeds the maximum of 1024", None),
    ("; gpusim-launch: grid=1,1,1 block=32,32,2\n", 1, 17, "2048 work-items", None),
    ("; gpusim-launch: grid=0 block=1\n", 1, 23, "must be positive", None),
    ("; gpusim-launch: grid=-1 block=1\n", 1, 23, "must be positive, got '-1'", None),
    ("; gpusim-launch: grid=1,2,3,4 block=1\n", 1, 23, "at most three", None),
    ("; gpusim-launch: grid=1 blok=1\n", 1, 25, "unknown launch parameter 'blok'", "'block'"),
    ("; gpusim-launch: grid=1\n", 1, 17, "needs 'block=", None),
    ("; gpusim-launch: grid=1 block=1 grid=2\n", 1, 33, "duplicate 'grid='", None),
    ("; gpusim-launch: grid=1 block=1\n; gpusim-launch: grid=1 block=1\n", 2, 3, "duplicate gpusim-launch", None),
    ("; gpusim-arg: A buffer f61[4]\n", 1, 24, "unknown dtype 'f61'", "'f64'"),
    ("; gpusim-arg: A buffer f32[0]\n", 1, 28, "must be positive", None),
    ("; gpusim-arg: A buffer f32[4,-2]\n", 1, 30, "must be positive, got '-2'", None),
    ("; gpusim-arg: A buffer f32[]\n", 1, 28, "empty shape", None),
    ("; gpusim-arg: A buffer f32\n", 1, 27, "needs a shape", None),
    ("; gpusim-arg: A f32[4]\n", 1, 17, "missing 'buffer'", None),
    ("; gpusim-arg: A buffer f32[4] init=uniform(1)\n", 1, 36, "takes 2 parameters, got 1", None),
    ("; gpusim-arg: A buffer f32[4] init=uniform\n", 1, 36, "needs 2 parameters", None),
    ("; gpusim-arg: A buffer f32[4] init=unifrom(0,1)\n", 1, 36, "unknown init 'unifrom'", "'uniform'"),
    ("; gpusim-arg: A buffer f32[4] init=uniform(1,0)\n", 1, 36, "lo < hi", None),
    ("; gpusim-arg: A buffer f32[4] init=cycle_offsets\n", 1, 36, "needs an integer buffer, not f32", None),
    ("; gpusim-arg: A buffer f32[4] init=randint(0,1.5)\n", 1, 36, "integer bounds", None),
    ("; gpusim-arg: A buffer i32[4] init=randint(0,1e30)\n", 1, 36, "which i32 cannot hold", None),
    ("; gpusim-arg: A buffer u8[4] init=randint(-1,2)\n", 1, 35, "draws -1..1, which u8 cannot hold", None),
    ("; gpusim-arg: A buffer i32[4] init=randint(0,2147483649)\n", 1, 36, "in -2147483648..2147483647", None),
    ("; gpusim-arg: A buffer u64[4] init=randint(0,18446744073709551617)\n", 1, 36, "which u64 cannot hold", None),
    ("; gpusim-arg: A buffer f16[4] init=randint(0,70000)\n", 1, 36, "which f16 cannot hold", None),
    ("; gpusim-arg: A buffer f64[4] init=uniform(-1e308,1e308)\n", 1, 36, "finite distance apart", None),
    ("; gpusim-arg: A buffer f32[4] init=uniform(0,inf)\n", 1, 36, "needs finite bounds", None),
    ("; gpusim-arg: A buffer f32[4] init=normal(0,inf)\n", 1, 36, "needs a finite mu and sigma", None),
    ("; gpusim-arg: A buffer f32[4] init=normal(0,x)\n", 1, 36, "malformed number 'x'", None),
    ("; gpusim-arg: A buffer f32[4] init=uniform(0,1\n", 1, 43, "unbalanced", None),
    ("; gpusim-arg: A buffer f32[4] seed=-1\n", 1, 36, "non-negative integer", None),
    ("; gpusim-arg: A buffer f32[4] out out\n", 1, 35, "duplicate option 'out'", None),
    ("; gpusim-arg: A buffer f32[4] sed=3\n", 1, 31, "unknown buffer option 'sed'", "'seed'"),
    ("; gpusim-arg: A buffer f32[4]\n; gpusim-arg: A i32 5\n", 2, 15, "duplicate argument 'A'", None),
    ("; gpusim-arg: 9A i32 5\n", 1, 15, "invalid argument name", None),
    ("; gpusim-arg: f32 i32 4\n", 1, 15, "reserved", None),
    ("; gpusim-arg: K i32 1.5\n", 1, 21, "malformed i32 value", None),
    ("; gpusim-arg: K u8 256\n", 1, 20, "out of range for u8", None),
    ("; gpusim-arg: K u32 -1\n", 1, 21, "out of range for u32", None),
    ("; gpusim-arg: K f16 1e6\n", 1, 21, "out of range for f16", None),
    ("; gpusim-arg: K flaot 1\n", 1, 17, "unknown dtype 'flaot'", "dtypes are"),
    ("; gpusim-arg: K i32\n", 1, 20, "needs a value", None),
    ("; gpusim-arg: K i32 1 2\n", 1, 23, "unexpected '2'", None),
    ("; gpusim-arg: K\n", 1, 15, "needs 'NAME buffer", None),
    ("; gpusim-check: C ~= A +\n", 1, 22, "invalid check expression", None),
    ("; gpusim-check: C = A\n", 1, 16, "needs 'EXPR ~= EXPR'", None),
    ("; gpusim-check: C == A == B\n", 1, 24, "more than one top-level comparison", None),
    ("; gpusim-check:  ~= A\n", 1, 18, "missing expression before", None),
    ("; gpusim-arg: C buffer f32[4]\n; gpusim-check: C ~= Q * 2\n", 2, 22, "unknown name 'Q'", None),
    ("; gpusim-arg: Cout buffer f32[4]\n; gpusim-check: Cot ~= 1\n", 2, 17, "unknown name 'Cot'", "'Cout'"),
    ("; gpusim-arg: C buffer f32[4]\n; gpusim-check: C ~= C rtl=1\n", 2, 24, "unknown check option 'rtl'", "'rtol'"),
    ("; gpusim-arg: C buffer f32[4]\n; gpusim-check: C ~= C rtol=-1\n", 2, 24, "non-negative", None),
    ("; gpusim-arg: C buffer f32[4]\n; gpusim-check: C == C rtol=1\n", 2, 19, "only apply to '~='", None),
]


@pytest.mark.parametrize("header, line, col, phrase, hint", ERRORS, ids=[e[0].strip()[-40:] for e in ERRORS])
def test_header_errors(header, line, col, phrase, hint):
    with pytest.raises(HeaderError) as info:
        parse(header)
    err = info.value
    assert (err.loc.file, err.loc.line) == ("h.s", line), str(err)
    assert err.loc.col == col, str(err)
    assert phrase in err.message, str(err)
    if hint:
        assert hint in err.hint, str(err)


def test_check_expressions_refuse_other_builtins_when_the_header_is_read():
    with pytest.raises(HeaderError) as info:
        parse("; gpusim-arg: C buffer f32[4]\n"
              "; gpusim-check: C == np.array([abs(x) for x in range(4)], dtype=f32)\n")
    assert (info.value.loc.line, info.value.loc.col) == (2, 32)
    assert "may not contain a call of 'abs'" in info.value.message


# -- overrides -----------------------------------------------------------------------
def test_overrides_replace_launch_and_scalars():
    m = parse(HEADER)
    o = apply_overrides(m, grid="8,8", block=[64], args={"K": "1024", "alpha": 2.5, "H": "0x10"})
    assert (o.launch.grid, o.launch.block) == ((8, 8, 1), (64, 1, 1))
    by = {a.name: a.value for a in o.args}
    assert (by["K"], by["alpha"], by["H"]) == (1024, 2.5, 16)
    assert m.launch.grid == (32, 32, 1) and {a.name: a.value for a in m.args}["K"] == 4096  # input untouched
    assert o.instructions is m.instructions


def test_overrides_without_launch_line_need_grid_and_block():
    m = parse("")
    o = apply_overrides(m, grid=(4, 2), block="128")
    assert o.launch == LaunchSpec((4, 2, 1), (128, 1, 1))
    with pytest.raises(HeaderError, match="both --grid and --block"):
        apply_overrides(m, grid="4")


@pytest.mark.parametrize("kwargs, phrase", [
    (dict(args={"Kk": "1"}), "unknown argument 'Kk'"),
    (dict(args={"A": "1"}), "'A' is a buffer"),
    (dict(args={"K": "0x1_"}), "malformed i32 value"),
    (dict(args={"K": "99999999999"}), "out of range for i32"),
    (dict(block="2048"), "exceeds the maximum"),
    (dict(grid="a,b"), "malformed size 'a'"),
    (dict(grid="0"), "must be positive"),
])
def test_override_errors(kwargs, phrase):
    m = parse(HEADER)
    with pytest.raises(HeaderError) as info:
        apply_overrides(m, **kwargs)
    assert phrase in info.value.message


def test_unknown_override_suggests_a_name():
    with pytest.raises(HeaderError) as info:
        apply_overrides(parse(HEADER), args={"alpah": "1"})
    assert "'alpha'" in info.value.hint
    with pytest.raises(HeaderError) as info:
        apply_overrides(parse(""), args={"zzz": "1"})
    assert "no arguments" in info.value.hint


def test_spec_types():
    m = parse(HEADER)
    assert all(isinstance(a, ArgSpec) for a in m.args)
    assert all(isinstance(c, CheckSpec) for c in m.checks)


# -- shapes in terms of scalar arguments ------------------------------------------------
SHAPED = """\
; gpusim-arg: n i32 4000
; gpusim-arg: x buffer f32[n] init=uniform(-1,1) seed=1
; gpusim-arg: t buffer u8[(n + 3) // 4, 2*2] out
; gpusim-arg: a f32 2.5
"""


def _shapes(module) -> dict:
    return {a.name: a.shape for a in module.args if a.kind == "buffer"}


def test_shapes_may_name_integer_arguments_and_follow_their_overrides():
    m = parse(SHAPED)
    assert _shapes(m) == {"x": (4000,), "t": (1000, 4)}
    o = apply_overrides(m, args={"n": "16384"})
    assert _shapes(o) == {"x": (16384,), "t": (4096, 4)}
    assert _shapes(m) == {"x": (4000,), "t": (1000, 4)}   # the input is untouched


def test_an_argument_declared_after_the_buffer_sizes_it():
    m = parse("; gpusim-arg: x buffer f32[2*m-1]\n; gpusim-arg: m u32 8\n")
    assert _shapes(m) == {"x": (15,)}


SHAPE_ERRORS = [
    ("; gpusim-arg: x buffer f32[nn]\n; gpusim-arg: n i32 4\n", 1, 28, "unknown name 'nn' in the shape", "'n'"),
    ("; gpusim-arg: x buffer f32[a]\n; gpusim-arg: a f32 4\n", 1, 28, "names 'a', a f32 argument", None),
    ("; gpusim-arg: x buffer f32[y]\n; gpusim-arg: y buffer f32[4]\n", 1, 28, "names 'y', a buffer", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[n-4]\n", 2, 28, "is 0 with n=4", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[n//(n-4)]\n", 2, 28, "division by zero", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[n+]\n", 2, 30, "found the end", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[n**2]\n", 2, 30, "expected a size", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[n.real]\n", 2, 29, "unexpected '.'", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[__import__('os')]\n", 2, 39, "unexpected '''", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[__import__]\n", 2, 28, "unknown name '__import__'", None),
    ("; gpusim-arg: n i32 65536\n; gpusim-arg: x buffer f32[n*n*n]\n", 2, 28, "a size must be 1..2147483647", None),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f32[" + "(" * 40 + "n" + ")" * 40 + "]\n", 2, None,
     "nested more than 32 deep", None),
    ("; gpusim-arg: x buffer f32[65536,65536]\n; gpusim-arg: y buffer u8[4]\n", 1, 15,
     "the buffers need 17,179,869,188 bytes together, over gpusim's limit", None),
]


@pytest.mark.parametrize("header, line, col, phrase, hint", SHAPE_ERRORS, ids=[e[3][:30] for e in SHAPE_ERRORS])
def test_shape_errors_are_located(header, line, col, phrase, hint):
    with pytest.raises(HeaderError) as info:
        parse(header)
    err = info.value
    assert (err.loc.file, err.loc.line) == ("h.s", line), str(err)
    if col is not None:
        assert err.loc.col == col, str(err)
    assert phrase in err.message, str(err)
    if hint:
        assert hint in err.hint, str(err)


@pytest.mark.parametrize("header, value, line, phrase", [
    (SHAPED, "0", 2, "shape 'n' of buffer 'x' is 0 with n=0"),
    (SHAPED, "-8", 2, "is -8 with n=-8"),
    ("; gpusim-arg: n i32 4\n; gpusim-arg: x buffer f64[n, n]\n", "65536", 2, "over gpusim's limit"),
])
def test_an_override_that_makes_a_shape_unusable_names_the_flag_and_the_buffer_line(header, value, line, phrase):
    with pytest.raises(HeaderError) as info:
        apply_overrides(parse(header), args={"n": value})
    err = info.value
    assert err.message.startswith(f"--arg n={value}: ") and phrase in err.message, str(err)
    assert err.loc is not None and err.loc.line == line, str(err)


def test_a_grid_beyond_32_bit_work_item_counts_is_refused_at_the_launch_line():
    with pytest.raises(HeaderError) as info:
        parse("; gpusim-launch: grid=8388608,1,1 block=1024,1,1\n")
    assert info.value.loc.line == 1 and "over the 4,294,967,295 a dispatch can address" in info.value.message
    assert parse("; gpusim-launch: grid=4194303,1,1 block=1024,1,1\n").launch.grid == (4194303, 1, 1)
    with pytest.raises(HeaderError):
        parse("; gpusim-launch: grid=1,4194304,1 block=1,1024,1\n")   # 2**32 work-items: one too many
    with pytest.raises(HeaderError) as info:
        apply_overrides(parse("; gpusim-launch: grid=64,1,1 block=256,1,1\n"), grid="2147483647")
    assert info.value.message.startswith("--grid: grid x: 2147483647 workgroups x 256 work-items")


def test_launch_line_takes_dynamic_lds_bytes():
    from gpusim.api import kernel_from_text
    text = ('; gpusim-launch: grid=1,1,1 block=64,1,1 lds=4096\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n'
            "\t.text\n\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n\ts_endpgm\n"
            "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n\t\t.amdhsa_group_segment_fixed_size 512\n"
            "\t\t.amdhsa_next_free_vgpr 4\n\t\t.amdhsa_next_free_sgpr 1\n\t\t.amdhsa_accum_offset 4\n"
            "\t.end_amdhsa_kernel\n")
    k = kernel_from_text(text)
    assert k.module.launch.lds == 4096
    assert k.descriptor["group_segment_fixed_size"] == 512 + 4096   # the workgroup's LDS: static plus dynamic
