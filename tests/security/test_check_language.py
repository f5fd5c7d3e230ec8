"""The check-expression language computes what numpy computes, for everything the README allows."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gpusim.check_expr import (MIN_ELEMENT_LIMIT, MAX_ELEMENTS, NP_FUNCTIONS, NP_TYPES, CheckExprError,
                               element_limit, evaluate, parse, validate)
from gpusim.asm.ir import ArgSpec
from gpusim.asm.header import DTYPES
from gpusim.exec.buffers import make_buffer

REPO = Path(__file__).resolve().parents[2]
rng = np.random.default_rng(7)
A = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
B = rng.uniform(-1, 1, (16, 4)).astype(np.float32)
X = rng.uniform(0, 1, 64).astype(np.float32)
I = rng.integers(0, 50, 64).astype(np.int32)
U = rng.integers(0, 1 << 31, 64).astype(np.uint32)
ENV = {"A": A, "B": B, "x": X, "idx": I, "u": U, "n": 64, "alpha": 0.5}

# (expression, the same computation written in numpy)
CASES = [
    ("A @ B", A @ B),
    ("A.astype(f64) @ B.astype(f64)", A.astype(np.float64) @ B.astype(np.float64)),
    ("alpha * x + 1", 0.5 * X + 1),
    ("-x ** 2 // 0.25 % 3", -X ** 2 // 0.25 % 3),
    ("(u >> 3 & 0xff | 1 << 4) ^ ~u", (U >> 3 & 0xFF | 1 << 4) ^ ~U),
    ("x[::-2]", X[::-2]),
    ("A[1:-1, ::3]", A[1:-1, ::3]),
    ("A[..., 0]", A[..., 0]),
    ("A[None, :, np.newaxis, 2]", A[None, :, np.newaxis, 2]),
    ("x[idx]", X[I]),
    ("x[x > 0.5]", X[X > 0.5]),
    ("A.T.reshape(-1, 4).sum(axis=1)", A.T.reshape(-1, 4).sum(axis=1)),
    ("np.exp(A - A.max(axis=1, keepdims=True))", np.exp(A - A.max(axis=1, keepdims=True))),
    ("np.cumsum(idx.reshape(-1, 16), axis=1).reshape(-1).astype(i32)",
     np.cumsum(I.reshape(-1, 16), axis=1).reshape(-1).astype(np.int32)),
    ("np.where(x > 0.5, x, -x)", np.where(X > 0.5, X, -X)),
    ("np.einsum('ij,jk->ik', A, B)", np.einsum("ij,jk->ik", A, B)),
    ("np.sort(x)[:5]", np.sort(X)[:5]),
    ("np.bincount(idx, minlength=64).astype(u32)", np.bincount(I, minlength=64).astype(np.uint32)),
    ("np.concatenate([np.zeros(1, i32), np.cumsum(idx)])", np.concatenate([np.zeros(1, np.int32), np.cumsum(I)])),
    ("np.pad(A, 1, mode='edge')[1:-1, 2:]", np.pad(A, 1, mode="edge")[1:-1, 2:]),
    ("np.arange(n, dtype=u32) * 2", np.arange(64, dtype=np.uint32) * 2),
    ("np.float32(1.5) * x", np.float32(1.5) * X),
    ("np.array([1, 2, 3], u16)", np.array([1, 2, 3], np.uint16)),
    ("x.view(u32) >> 16", X.view(np.uint32) >> 16),
    ("np.maximum(x, 0.25) if n > 3 else x", np.maximum(X, 0.25)),
    ("np.count_nonzero(x > 0.5) == (x > 0.5).sum()", True),
    ("n > 3 and alpha < 1", True),
    ("not n", False),
    ("0 < alpha < 1", True),
    ("(s := A.sum(axis=0), s / s.max())[-1]", A.sum(axis=0) / A.sum(axis=0).max()),
    ("x.shape + (1,)", (64, 1)),
    ("[1, 2] * 2", [1, 2, 1, 2]),
    ("2**64 - 1", 2 ** 64 - 1),
    ("np.pi * np.e", np.pi * np.e),
    ("np.tile(x[:4], 3)", np.tile(X[:4], 3)),
    ("np.isnan(np.nan) or np.isinf(np.inf)", True),
    ("np.fmod(idx, 7) + (idx - np.fmod(idx, 7)) // 7", np.fmod(I, 7) + (I - np.fmod(I, 7)) // 7),
    # comprehensions and lambdas, as a Triton user writes a check
    ("np.stack([np.maximum(A[i], 0) for i in range(8)])", np.maximum(A, 0)),
    ("np.stack(np.maximum(A[i], 0) for i in range(8))", np.maximum(A, 0)),
    ("[np.sum(A[i]) for i in range(4)]", [np.sum(A[i]) for i in range(4)]),
    ("np.array([sum(row) for row in A])", np.array([sum(row) for row in A])),
    ("[i * j for i in range(4) for j in range(i) if j % 2 == 0]", [0, 0, 0, 6]),
    ("np.concatenate([A[i, :k] for i, k in enumerate(range(2, 10))])",
     np.concatenate([A[i, :k] for i, k in enumerate(range(2, 10))])),
    ("[a @ b for a, b in zip(A[:2], B.T[:2])]", [A[0] @ B.T[0], A[1] @ B.T[1]]),
    ("sum(x[i::4] for i in range(4))", sum(X[i::4] for i in range(4))),
    ("max(v * v for v in range(-3, 2))", 9),
    ("all(r.max() <= 1 for r in A) and not any(r.min() < -1 for r in A)", True),
    ("len([v for v in x if v > 0.5])", int(np.sum(X > 0.5))),
    ("(lambda v: np.where(v > 0, v, 0.01 * v))(A)", np.where(A > 0, A, 0.01 * A)),
    ("(gelu := lambda v: 0.5 * v * (1 + np.tanh(0.79788456 * (v + 0.044715 * v ** 3))), gelu(x))[-1]",
     0.5 * X * (1 + np.tanh(0.79788456 * (X + 0.044715 * X ** 3)))),
    ("(f := lambda a, b: a * alpha + b, f(x, 1) - f(0, x))[-1]", X * 0.5 + 1 - X),
    ("[(lambda v: v + i)(0) for i in range(3)]", [0, 1, 2]),
    ("(lambda x: x * 2)(n)", 128),
    ("[x for x in range(3)] + [x.size]", [0, 1, 2, 64]),
]


@pytest.mark.parametrize("expr, want", CASES, ids=[c[0][:40] for c in CASES])
def test_allowed_expressions_match_numpy(expr, want):
    got = evaluate(parse(expr), ENV)
    if isinstance(want, (list, tuple)) or np.isscalar(want) and not isinstance(want, np.generic):
        assert got == want
    else:
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_an_unknown_name_is_refused_with_a_suggestion():
    with pytest.raises(CheckExprError) as info:
        validate(parse("alpah * x"), ENV)
    assert info.value.message == "unknown name 'alpah' in check expression"
    assert info.value.hint == "did you mean 'alpha'?" and info.value.col == 0


def test_a_refused_attribute_suggests_an_allowed_one():
    with pytest.raises(CheckExprError) as info:
        validate(parse("x.astyp(f32)"), ENV)
    assert "the attribute '.astyp'" in info.value.message and "'astype'" in info.value.hint
    assert info.value.col == 0


def test_a_name_read_before_it_is_bound_is_an_error_not_a_crash():
    with pytest.raises(CheckExprError, match=r"the name 'r' is used before ':=' binds it"):
        evaluate(parse("(r, r := 1)"), ENV)


def test_numpy_errors_are_reported_by_name_not_raised():
    with pytest.raises(CheckExprError, match=r"ValueError: .*"):
        evaluate(parse("A @ A"), ENV)
    with pytest.raises(CheckExprError, match=r"ZeroDivisionError"):
        evaluate(parse("n // 0"), ENV)


def test_every_allowed_numpy_name_exists_and_is_not_a_module():
    for name in NP_FUNCTIONS | NP_TYPES:
        value = getattr(np, name)
        assert callable(value) and not isinstance(value, type(np)), name


@pytest.mark.parametrize("name", DTYPES)
def test_a_dtype_name_in_a_check_is_the_type_its_buffers_are_stored_as(name):
    buffer = make_buffer(ArgSpec(name="x", kind="buffer", dtype=name, shape=(3,)))
    assert evaluate(parse(f"x.astype({name})"), {"x": np.arange(3.0)}).dtype == buffer.dtype


def test_the_element_limit_follows_the_buffers_within_bounds():
    assert element_limit([]) == MIN_ELEMENT_LIMIT
    assert element_limit([np.zeros(1 << 20)]) == 64 << 20
    assert element_limit([np.zeros((1, 1))] * 2) == MIN_ELEMENT_LIMIT
    big = np.broadcast_to(np.zeros(1), (1 << 30,))
    assert element_limit([big]) == MAX_ELEMENTS


def _check_lines():
    for pattern in ("workloads/*.s", "tests/**/*.s", "kernels/**/*.cl", "kernels/**/*.hip"):
        for path in sorted(REPO.glob(pattern)):
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if re.match(r"\s*(;|//)\s*gpusim-check:", line):
                    yield path, number, line


def test_every_check_line_in_the_repository_is_in_the_language():
    from gpusim.asm.header import parse_header_lines
    from gpusim.asm.lexer import HeaderLine
    seen = 0
    for path, number, line in _check_lines():
        body = "gpusim-" + line.split("gpusim-", 1)[1]
        names = re.findall(r"gpusim-arg:\s*(\w+)", path.read_text(errors="replace"))
        args = [HeaderLine(str(path), n, 1, f"gpusim-arg: {name} buffer f32[1]", "")
                for n, name in enumerate(dict.fromkeys(names))]
        parse_header_lines(args + [HeaderLine(str(path), number, 1, body, line)])
        seen += 1
    assert seen > 100


LEAVES = ["x", "A", "B", "idx", "u", "n", "alpha", "r", "f32", "i64", "0", "1", "-1", "2", "9", "64", "10**9",
          "1e300", "None", "True", "...", "'ij,jk->ik'", "'edge'", "'O'", "(1, 2)", "[0, 1]", "np.newaxis"]
FUNCTIONS = ["np.sum", "np.zeros", "np.ones", "np.arange", "np.einsum", "np.pad", "np.where", "np.tile",
             "np.repeat", "np.bincount", "np.reshape", "np.broadcast_to", "np.outer", "np.matmul", "np.cumsum"]
METHODS = ["astype", "reshape", "view", "sum", "max", "repeat", "dot", "transpose", "take"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "<", "==", "and", "or"]


def _expressions():
    leaf = st.sampled_from(LEAVES)

    def grow(e):
        return st.one_of(
            st.tuples(e, st.sampled_from(OPERATORS), e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["-", "~", "not "]), e).map(lambda t: f"({t[0]}{t[1]})"),
            st.tuples(st.sampled_from(FUNCTIONS), st.lists(e, min_size=1, max_size=3))
              .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(e, st.sampled_from(METHODS), st.lists(e, max_size=2))
              .map(lambda t: f"{t[0]}.{t[1]}({', '.join(t[2])})"),
            st.tuples(e, st.sampled_from(["T", "shape", "dtype", "size"])).map(lambda t: f"{t[0]}.{t[1]}"),
            st.tuples(e, e).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(e, e, e).map(lambda t: f"{t[0]}[{t[1]}:{t[2]}, ...]"),
            st.tuples(e, e, e).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            e.map(lambda t: f"(r := {t})"),
            st.tuples(e, e).map(lambda t: f"np.sum({t[0]}, axis={t[1]}, dtype={t[1]})"),
            st.tuples(e, e, e).map(lambda t: f"[{t[0]} for r in {t[1]} if {t[2]}]"),
            st.tuples(e, e).map(lambda t: f"sum({t[0]} for r in range({t[1]}))"),
            st.tuples(e, e).map(lambda t: f"(lambda r: {t[0]})({t[1]})"),
        )
    return st.recursive(leaf, grow, max_leaves=10)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(_expressions())
@example("(r := np.pad(x, x, x))")   # an array as np.pad's mode once escaped as numpy's ValueError
@example("np.einsum('i,i,i,i,i->', x, x, x, x, x, optimize=x)")
def test_any_expression_is_an_answer_or_a_check_expr_error(text):
    """Whatever a line holds, the language answers or refuses: never another exception, never a hang."""
    try:
        evaluate(parse(text), ENV)
    except CheckExprError:
        pass
