"""A kernel file cannot run code: every escape from the check-expression language is refused.

Each hostile ``gpusim-check`` line is refused with one clear error at its file:line, whether the
header refuses it when the kernel is read (most of them, before anything is simulated) or the
interpreter refuses it while checking (costs that only the values reveal). Nothing it asks for
happens: the marker file the payloads would create is never there.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from gpusim.asm.parser import parse_text
from gpusim.check_expr import CheckExprError, evaluate, parse
from gpusim.errors import HeaderError

REPO = Path(__file__).resolve().parents[2]
SAXPY = REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s"
HEADER = ("; gpusim-arg: n i32 4000\n; gpusim-arg: a f32 2.5\n"
          "; gpusim-arg: x buffer f32[4000]\n; gpusim-arg: y buffer f32[4000] out\n")

# (check line's right-hand side, a phrase of the refusal); MARK is replaced by the marker's path
REFUSED_WHEN_READ = [
    ("a * x + y + 0*__import__('os').system('touch MARK')", "may not contain the name '__import__'"),
    ("__import__('os').system('touch MARK')", "may not contain the name '__import__'"),
    ("open('MARK', 'w').write('x')", "may not contain a call of 'open'"),
    ("exec('open(\"MARK\", \"w\")')", "may not contain a call of 'exec'"),
    ("eval('1')", "may not contain a call of 'eval'"),
    ("compile('1', 'f', 'eval')", "may not contain a call of 'compile'"),
    ("getattr(x, 'tofile')('MARK')", "may not contain a call of 'getattr"),
    ("().__class__.__mro__[1].__subclasses__()", "may not contain the attribute '.__class__'"),
    ("x.__class__", "may not contain the attribute '.__class__'"),
    ("x._x", "names starting with '_'"),
    ("np.save('MARK', x)", "'np.save'"),
    ("np.load('MARK')", "'np.load'"),
    ("np.fromfile('MARK')", "'np.fromfile'"),
    ("np.savetxt('MARK', x)", "'np.savetxt'"),
    ("np.lib.format.open_memmap('MARK', mode='w+', shape=(1,))", "'np.lib'"),
    ("np.ctypeslib.as_array(x)", "'np.ctypeslib'"),
    ("np.testing.assert_equal(x, x)", "'np.testing'"),
    ("np.core.multiarray", "'np.core'"),
    ("np.frompyfunc(lambda i: i, 1, 1)(x)", "'np.frompyfunc'"),
    ("np.vectorize(lambda i: i)(x)", "'np.vectorize'"),
    ("np.apply_along_axis(np.sum, 0, x)", "'np.apply_along_axis'"),
    ("np.sum", "'np.sum' as a value"),
    ("np", "'np' on its own"),
    ("x.ctypes", "the attribute '.ctypes'"),
    ("x.tofile('MARK')", "the attribute '.tofile'"),
    ("x.dump('MARK')", "the attribute '.dump'"),
    ("x.tobytes()", "the attribute '.tobytes'"),
    ("x.data", "the attribute '.data'"),
    ("x.base", "the attribute '.base'"),
    ("x.fill(0)", "the attribute '.fill'"),
    ("x.sum", "the method '.sum' as a value"),
    # lambdas and comprehensions are in the language; these ways out of them are not
    ("(lambda v=x.__class__: v)()", "lambda default values"),
    ("(lambda v=open('MARK', 'w'): v)()", "lambda default values"),
    ("(lambda *a: a)(x)", "'*', '**', '/' or keyword-only lambda parameters"),
    ("(lambda **k: k)()", "'*', '**', '/' or keyword-only lambda parameters"),
    ("(lambda v: v.__class__)(x)", "the attribute '.__class__'"),
    ("(lambda v: v.__globals__)(x)", "the attribute '.__globals__'"),
    ("(lambda v: v.gi_frame)(x)", "the attribute '.gi_frame'"),
    ("[v.f_back for v in x]", "the attribute '.f_back'"),
    ("(lambda: 1).__code__", "a lambda as a value"),
    ("(f := lambda v: v).__closure__", "the attribute '.__closure__'"),
    ("[v for __class__ in x]", "the name '__class__'"),
    ("(lambda __builtins__: 1)(x)", "the name '__builtins__'"),
    ("(lambda f: f(f))(lambda f: f(f))", "a call of 'f' (a lambda's parameter"),
    ("(f := lambda v: f(v), f(x))[-1]", "a call of 'f' inside a lambda"),
    ("(g := lambda v: v, f := lambda v: g(v), f(x))[-1]", "a call of 'g' inside a lambda"),
    ("[f(0) for f in x]", "a call of 'f' (a lambda's parameter or a comprehension's variable"),
    ("(lambda np: np)(x)", "'np' as a lambda parameter"),
    ("(lambda range: range(3))(x)", "'range' as a lambda parameter"),
    ("[(w := v) for v in x]", "':=' inside a lambda or a comprehension"),
    ("(lambda: (w := open))()", "':=' inside a lambda or a comprehension"),
    ("([v for v in x], v)[1]", "unknown name 'v'"),
    ("(lambda v: v)(x) + v", "unknown name 'v'"),
    ("lambda: 1", "a lambda as a value"),
    ("np.sum(lambda: 1)", "a lambda as a value"),
    ("[lambda: v for v in x]", "a lambda as a value"),
    ("np.where(v for v in x)", "generator expressions except as the argument of"),
    ("{v for v in x}", "set comprehensions"),
    ("{v: v for v in x}", "dict comprehensions"),
    ("sum", "the builtin 'sum' as a value"),
    ("range(3)", "'range(...)' outside a comprehension's 'for ... in'"),
    ("sum((v for v in x), start=0)", "keyword arguments to 'sum'"),
    ("max(x, key=abs)", "keyword arguments to 'max'"),
    ("(lambda v: v)(v=x)", "keyword arguments to a lambda"),
    ("map(lambda v: v, x)", "a call of 'map'"),
    ("sorted(x)", "a call of 'sorted'"),
    ("(lambda: getattr)()", "unknown name 'getattr'"),
    ("[x for i in range(10**12)]", "comprehensions of 1000000000000 iterations"),
    ("[[y for j in range(1000)] for i in range(1000)]", "comprehensions of 1000000 iterations"),
    ("[0 for i in range(5000)]", "tuples or lists of more than 4096 items"),
    ("[v async for v in x]", None),
    ("[" * 40 + "x" + " for v in x]" * 40, "levels of nesting"),
    ("(lambda: " * 40 + "x" + ")()" * 40, "levels of nesting"),
    ("f'{x}'", "f-strings"),
    ("'{0.__class__}'.format(x)", "the attribute '.format'"),
    ("'%s' % x", "arithmetic or formatting on strings"),
    ("{'a': 1}", "dict literals"),
    ("{1, 2}", "set literals"),
    ("np.maximum(*x)", "starred arguments"),
    ("np.sum(x, **{'axis': 0})", "'**' arguments"),
    ("np.add(x, 1, out=y)", "the out= keyword"),
    ("x if x is None else y", "'is' comparisons"),
    ("(n := 5)", "':=' rebinding 'n'"),
    ("(np := 5)", "':=' rebinding 'np'"),
    ("(__builtins__ := 5)", "':=' rebinding '__builtins__'"),
    ("y.astype(f32).view(type(x))", "a call of 'type'"),
    ("x[0].real.__class__", "the attribute '.__class__'"),
    ("os.system('touch MARK')", "unknown name 'os'"),
    ("breakpoint()", "a call of 'breakpoint'"),
    ("b'x'", "bytes literals"),
    ("x" + "[0]" * 70, "levels of nesting"),
]


def _header_error(rhs: str, marker: Path) -> HeaderError:
    text = HEADER + f"; gpusim-check: y ~= {rhs.replace('MARK', str(marker))}\n"
    with pytest.raises(HeaderError) as info:
        parse_text(text, "k.s")
    return info.value


@pytest.mark.parametrize("rhs, phrase", REFUSED_WHEN_READ, ids=[r[0][:40] for r in REFUSED_WHEN_READ])
def test_escapes_are_refused_when_the_header_is_read(tmp_path, rhs, phrase):
    marker = tmp_path / "marker"
    err = _header_error(rhs, marker)
    assert (err.loc.file, err.loc.line) == ("k.s", 5), str(err)
    assert "may not contain" in err.message or "unknown name" in err.message, str(err)
    if phrase:
        assert phrase in err.message, str(err)
    assert len(str(err).splitlines()) == 1
    assert not marker.exists()


def test_the_refusal_points_at_the_offending_part():
    err = _header_error("a * x + y + 0*__import__('os').system('id')", Path("m"))
    line = "; gpusim-check: y ~= a * x + y + 0*__import__('os').system('id')"
    assert err.loc.col == line.index("__import__") + 1


@pytest.mark.parametrize("rhs, part", [
    ("np.stack([np.maximum(x[i], 0) for i in rnge(4)])", "rnge"),
    ("(lambda v: v.tofile('m'))(x)", "v.tofile"),
    ("np.stack([f(x) for i in range(4)])", "f(x)"),
    ("[x for i in range(10**12)]", "[x for"),
    ("np.sum([x for i in range(2)]) + (lambda: 1)", "lambda"),
])
def test_a_refusal_in_a_comprehension_or_lambda_points_at_its_part(rhs, part):
    err = _header_error(rhs, Path("m"))
    line = f"; gpusim-check: y ~= {rhs}"
    assert err.loc.col == line.index(part) + 1, str(err)
    assert len(str(err).splitlines()) == 1


# costs and values only the evaluation shows: (expression, phrase); x is f32[4000], n is 4000
REFUSED_WHEN_RUN = [
    ("9**9**9", "integer power over 4096 bits"),
    ("2**100000", "integer power over 4096 bits"),
    ("1 << 10**9", "integer shift over 4096 bits"),
    ("(k := 2**4000) * k", "integer product over 4096 bits"),
    ("np.zeros(10**12)", "an array of 1000000000000 elements"),
    ("np.ones((10**6, 10**6))", "an array of 1000000000000 elements"),
    ("np.full(10**10, 1.0)", "an array of 10000000000 elements"),
    ("np.arange(10**12)", "an array of 1000000000000 elements"),
    ("np.arange(0, 1, 1e-12)", "elements"),
    ("np.linspace(0, 1, 10**11)", "elements"),
    ("np.eye(10**6)", "elements"),
    ("np.tile(x, 10**9)", "elements"),
    ("np.repeat(x, 10**9)", "elements"),
    ("x.repeat(10**9)", "elements"),
    ("np.pad(x, 10**10)", "elements"),
    ("np.broadcast_to(x, (10**6, 4000))", "elements"),
    ("x.reshape(-1, 1) * x.reshape(1, -1) * x.reshape(-1, 1, 1)", "elements"),
    ("x[:, None] + x[None, :] + x[:, None, None]", "elements"),
    ("np.outer(np.outer(x, x), x)", "elements"),
    ("np.einsum('i,j,k->ijk', x, x, x)", "elements"),
    ("np.ones((4000, 40000)) @ x", "an array of 160000000 elements"),
    ("(m := np.ones((2000, 2000)), np.einsum('ij,jk,kl->il', m, m, m))", "multiply-adds"),
    ("np.bincount(np.array([2**40]))", "elements"),
    ("np.bincount(x.astype(i64), minlength=10**12)", "elements"),
    ("x[np.zeros((10**5, 10**5), i64)]", "elements"),
    ("np.diff(x, n=10**9)", "np.diff with n=1000000000"),
    ("np.pad(x[:1], 10**7, mode='wrap')", "np.pad mode='wrap' wider than 64 times the array"),
    ("np.einsum('a,b,c,d,e,f->', x, x, x, x, x, x, optimize='optimal')", "np.einsum over 6 operands"),
    ("[0] * 10**9", "more than 4096 items"),
    ("np.array([[x] * 4096] * 4096)", "tuples or lists holding 67108864000 elements"),
    ("[[[0] * 4096] * 4096] * 4096", "tuples or lists holding 68719476736 elements"),
    ("(1,) * 10**12", "more than 4096 items"),
    ("np.zeros(3, dtype='(10000,10000)f8')", "the dtype"),
    ("np.zeros(3, dtype='O')", "the dtype"),
    ("np.zeros(3, dtype=[('a', '(10000,10000)f8')])", "the dtype"),
    ("np.ones(3, ('f8', (10000, 10000)))", "the dtype"),
    ("x.astype(('f8', (10000, 10000)))", "the dtype"),
    ("np.zeros(3, 'V100000000')", "the dtype"),
    ("x.astype('U1000000')", "the dtype"),
    ("np.array([x, 'a'], dtype='O')", "the dtype"),
    ("'a' * 10**9", "arithmetic or formatting on strings"),
    ("'%s%s' % (x, x)", "arithmetic or formatting on strings"),
    ("n.real", "attribute '.real' of a value of type 'int'"),
    # comprehensions and lambdas: what only the values say is counted while running, before the cost
    ("[v for v in range(n * 10**9)]", "more than 65536 iterations in all"),
    ("[[0 for j in range(n)] for i in range(n)]", "more than 65536 iterations in all"),
    ("[v for i in range(16) for j in range(n) for v in range(n) if False]", "more than 65536 iterations"),
    ("sum(v for v in x.reshape(-1, 1) for w in range(n) if False)", "more than 65536 iterations"),
    ("sum(np.zeros(10**6))", "more than 65536 iterations"),
    ("[np.ones(10**7) for i in range(100)]", "holding 20000000 elements (the limit is 16777216)"),
    ("[np.ones(10**6).sum() for i in range(1000)]", "arrays of more than 268435456 elements in all"),
    ("[v for v in range(2**4000)]", "comprehensions of at least 2**4000 iterations"),
    ("sum([x[:, None, None], x[None, :, None], x])", "elements"),
    ("max([x, x])", "max() of arrays"),
    ("(f := lambda: 1)", "a lambda as the value of a check"),
    ("(f := lambda: 1, np.sum(f))", "a lambda as an argument or operand"),
    ("(f := lambda: 1, [f, 1])[1:]", None),
    ("(f := lambda: 1, x + f)", "a lambda as an argument or operand"),
    ("(f := lambda: 1, x[f])", "a lambda as an argument or operand"),
    ("(f := lambda: 1, (f,) * 2)", "a lambda as an argument or operand"),
    ("(f := lambda: 1, f(x))", "the lambda takes 0 arguments, 1 given"),
    ("[v for v in n]", "iterating over a value of type 'int'"),
    ("[v for v in x[0]]", "iterating over a value of type 'float32' with no axes"),
    ("[v for v, w in x]", "cannot unpack"),
    ("x.shape.count(1)", None),
]


@pytest.mark.parametrize("expr, phrase", REFUSED_WHEN_RUN, ids=[r[0][:40] for r in REFUSED_WHEN_RUN])
def test_costly_or_unsafe_values_are_refused_while_checking(expr, phrase):
    env = {"n": 4000, "a": 2.5, "x": np.linspace(-1, 1, 4000, dtype=np.float32),
           "y": np.zeros(4000, np.float32)}
    with pytest.raises(CheckExprError) as info:
        evaluate(parse(expr), env, limit=1 << 24)
    if phrase:
        assert phrase in info.value.message, info.value.message


def test_buffers_are_read_only_to_the_expression():
    x = np.arange(4.0)
    with pytest.raises(CheckExprError, match="read-only"):
        evaluate(parse("np.negative(x, x)"), {"x": x})
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


# --- end to end: `gpusim run --check` on a kernel file with a hostile check line -----------------

def _kernel_with_check(tmp_path: Path, check: str) -> Path:
    lines = SAXPY.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("; gpusim-check:"))
    lines[at] = f"; gpusim-check: {check}\n"
    path = tmp_path / "k.s"
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("check", [
    "y ~= a * x + y + 0*__import__('os').system('touch MARK')",
    "y ~= a * x + y + 0*len(open('MARK', 'w').name)",
    "y ~= a * x + y + 0*().__class__.__mro__[1].__subclasses__()[0]('touch MARK')",
    "y ~= a * x + y + 0*np.save('MARK', x)",
    "y ~= a * x + y + 0*x.tofile('MARK')",
])
def test_cli_refuses_a_hostile_check_line_before_running(tmp_path, cli, check):
    marker = tmp_path / "MARK"
    _kernel_with_check(tmp_path, check.replace("MARK", str(marker)))
    proc = cli("run", "k.s", "--check", "--no-timing")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(r"k\.s:6:\d+: error: ", lines[0]), proc.stderr
    assert "may not contain" in lines[0] and "Traceback" not in proc.stderr
    assert "PASS" not in proc.stdout
    assert not marker.exists()


def test_cli_refuses_a_check_line_that_would_hang(tmp_path, cli):
    _kernel_with_check(tmp_path, "y ~= a * x + y + 0 * 9**9**9")
    proc = cli("run", "k.s", "--check", "--no-timing")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("k.s:6:"), proc.stderr
    assert "integer power over 4096 bits" in lines[0]


def test_cli_checks_a_safe_line_as_before(tmp_path, cli):
    _kernel_with_check(tmp_path, "y ~= np.clip(a * x, -np.inf, np.inf) + y rtol=1e-6 atol=1e-6")
    proc = cli("run", "k.s", "--check", "--no-timing")
    assert proc.returncode == 0, proc.stderr
    assert "PASS" in proc.stdout
