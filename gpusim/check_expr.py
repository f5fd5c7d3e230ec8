"""The safe expression language of ``gpusim-check`` lines: data, not code.

A check expression is parsed with :mod:`ast` (``mode="eval"``) and run by the
small interpreter below; Python's ``eval``, ``exec`` and ``compile`` are never
called on it, and it sees no builtins. What an expression may contain:

* names: the header's buffer and scalar arguments, ``np``/``numpy`` (only as
  ``np.<name>``), the dtype names (i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32
  f64), and names the expression binds itself with ``:=``;
* literals: numbers, ``True``/``False``/``None``, ``...``, short strings (as
  function arguments such as ``mode='edge'``), tuples and lists;
* operators: ``+ - * / // % ** @``, ``& | ^ ~ << >>``, comparisons
  (``== != < <= > >=``), ``and``/``or``/``not``, ``A if C else B``;
* subscripts and slices (with ``...``, ``None``/``np.newaxis`` and index arrays);
* calls of the ``np.`` functions in :data:`NP_FUNCTIONS` and the numpy types in
  :data:`NP_TYPES`, and of the array methods in :data:`ARRAY_METHODS`, with
  positional and keyword arguments; attributes are the array properties in
  :data:`ARRAY_PROPERTIES` and the constants in :data:`NP_CONSTANTS`.

* list comprehensions ``[e for v in it if c for w in it2 ...]``, with nested
  ``for``s, ``if`` filters and tuple targets (``for i, r in enumerate(x)``); their
  variables are seen only inside them. ``it`` is an array (its first axis), a tuple
  or list, or ``range(...)``/``enumerate(...)``/``zip(...)``, which exist only there;
* generator expressions, only as the first argument of ``sum min max any all``
  and of :data:`NP_GENERATOR_TAKERS` (``np.stack(f(r) for r in x)``); they are
  made into a list first;
* the builtins ``sum min max any all len`` (no keywords; ``min``/``max`` of
  numbers, not of arrays);
* lambdas with plain parameters, called where they are written
  (``(lambda v: v * 2)(x)``) or bound with ``:=`` at the top and called by that
  name (``(f := lambda v: ..., f(x) - f(y))[-1]``).

What keeps these safe: a lambda is a :class:`_Lambda` record, not a Python
function, and :meth:`_Interpreter.apply` refuses to hand one (or a list holding
one) to numpy or an operator, so only the interpreter ever calls it. A lambda
has no defaults, ``*``/``**`` or keyword-only parameters; a lambda's body calls
no name bound by ``:=`` and no parameter, and a comprehension's variable is never
called, so no lambda can reach itself (recursion is impossible; call depth is
still capped at :data:`MAX_CALL_DEPTH`). ``:=`` is refused inside lambdas and
comprehensions, so nothing leaks out of them. Iterations and lambda calls count
against :data:`MAX_ITERATIONS` for the whole evaluation: when the header is read
for ``range`` of literal numbers, else before each loop starts (its length is
known first); a comprehension makes at most :data:`MAX_SEQUENCE` items holding at
most the element limit, and the arrays made inside comprehensions at most
:data:`LOOP_WORK_FACTOR` times the element limit in all.

Everything else (other names and attributes, names with ``_``, lambdas used as
values, set and dict comprehensions, other builtins, f-strings, ``*``/``**``
arguments, string arithmetic, object arrays, ``out=``) is refused with
"check expressions may not contain X".
The cost is capped: integer results stay under :data:`MAX_INT_BITS` bits,
every array a step makes (checked *before* numpy allocates it, for the
functions that make arrays from sizes) under the element limit of
:func:`element_limit`, and matrix products and ``einsum`` under
:data:`MAX_WORK` multiply-adds.

:func:`parse` and :func:`validate` run when the header is read (so a bad
line is refused before anything is simulated); :func:`evaluate` runs the
expression over the buffers and re-validates it first. All of them raise
:class:`CheckExprError` with the column of the offending part.
"""
from __future__ import annotations

import ast
import math
import operator
import warnings
from typing import Any, Iterable, Mapping, Optional

import numpy as np

from gpusim.asm.ir import NUMPY_DTYPES
from gpusim.errors import did_you_mean

DTYPE_NAMES = tuple(NUMPY_DTYPES)
MODULE_NAMES = ("np", "numpy")

NP_FUNCTIONS = frozenset("""
    abs absolute add all allclose amax amin any arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh
    argmax argmin argsort argwhere around array array_equal asarray bincount bitwise_and bitwise_not
    bitwise_or bitwise_xor broadcast_to cbrt ceil clip concatenate copysign cos cosh count_nonzero cumprod
    cumsum diag diagonal diff divide dot einsum equal exp exp2 expand_dims expm1 eye flatnonzero flip fliplr
    flipud float_power floor floor_divide fmax fmin fmod full full_like greater greater_equal hstack hypot
    identity invert isclose isfinite isinf isnan kron left_shift less less_equal linspace log log10 log1p
    log2 logical_and logical_not logical_or logical_xor matmul max maximum mean median min minimum mod
    moveaxis multiply nan_to_num nanmax nanmean nanmin nansum negative nonzero not_equal ones ones_like
    outer pad positive power prod ravel reciprocal remainder repeat reshape right_shift rint roll rot90
    round searchsorted sign signbit sin sinh sort sqrt square squeeze stack std subtract sum swapaxes take
    take_along_axis tan tanh tile trace transpose tril triu true_divide trunc unique var vstack where
    zeros zeros_like
""".split())
NP_TYPES = frozenset("""
    bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 complex128
""".split())
NP_CONSTANTS = {"newaxis": None, "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}
ARRAY_METHODS = frozenset("""
    all any argmax argmin argsort astype clip conj copy cumprod cumsum diagonal dot flatten max mean min
    nonzero prod ravel repeat reshape round squeeze std sum swapaxes take trace transpose var view
""".split())
ARRAY_PROPERTIES = frozenset("T dtype imag itemsize nbytes ndim real shape size".split())
# keyword arguments that would write into the buffers or hand numpy an object to dispatch to
REFUSED_KEYWORDS = {"out": "the out= keyword (it writes into an array)",
                    "like": "the like= keyword"}
# string arguments that are never dtypes: einsum's subscripts and these keywords' words
_WORD_KEYWORDS = frozenset({"mode", "order", "kind", "side", "casting", "optimize", "method", "subscripts"})

MAX_INT_BITS = 4096          # a Python integer result: 9**9**9 is refused, 2**64 is fine
MAX_SEQUENCE = 4096          # elements of a tuple or list the expression builds
MAX_STRING = 256             # characters of a string literal
MAX_DEPTH = 64               # nesting of the expression tree
MAX_ELEMENTS = 1 << 28       # elements of any array a step makes, whatever the buffers
MIN_ELEMENT_LIMIT = 1 << 24  # ... and at least this many, however small the buffers
BUFFER_FACTOR = 64           # ... else this many times the largest buffer
MAX_WORK = 1 << 38           # multiply-adds of one matmul, dot or einsum
MAX_ITERATIONS = 1 << 16     # comprehension iterations and lambda calls of one evaluation, all together
LOOP_WORK_FACTOR = 16        # array elements made inside comprehensions: this many times the element limit
MAX_CALL_DEPTH = 32          # lambdas calling lambdas (a lambda can never call itself; this is a backstop)

# builtins a check may call by name (unless an argument or a ':=' name shadows them)
BUILTINS = frozenset({"sum", "min", "max", "any", "all", "len"})
ITERATORS = frozenset({"range", "enumerate", "zip"})  # only as the iterable of a comprehension's 'for'
# callees that take a generator expression as their first argument (it is made into a list first)
GENERATOR_TAKERS = frozenset({"sum", "min", "max", "any", "all"})
NP_GENERATOR_TAKERS = frozenset("stack concatenate hstack vstack array asarray sum prod max min mean all any"
                                .split())

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.MatMult: operator.matmul, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
           ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert, ast.Not: operator.not_}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}
_CONSTRUCTS = {ast.SetComp: "set comprehensions (write a list comprehension)",
               ast.DictComp: "dict comprehensions",
               ast.JoinedStr: "f-strings", ast.FormattedValue: "f-strings", ast.Starred: "starred arguments (*x)",
               ast.Dict: "dict literals", ast.Set: "set literals", ast.Await: "await", ast.Yield: "yield",
               ast.YieldFrom: "yield", ast.Is: "'is' comparisons", ast.IsNot: "'is' comparisons",
               ast.In: "'in' comparisons", ast.NotIn: "'in' comparisons"}
_NP_VALUES = {name: getattr(np, name) for name in NP_FUNCTIONS | NP_TYPES if hasattr(np, name)}
_SAFE_SCALARS = (bool, int, float, complex, str, type(None), type(Ellipsis), slice, np.generic, np.dtype)


class CheckExprError(Exception):
    """CheckExprError is a refused or failing check expression; ``col`` is the 0-based column in its text."""

    def __init__(self, message: str, col: int = 0, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.col = col
        self.hint = hint


def element_limit(buffers: Iterable[np.ndarray]) -> int:
    """element_limit is the most elements one step of a check may make, given the kernel's buffers."""
    largest = max((int(np.size(b)) for b in buffers), default=0)
    return min(MAX_ELEMENTS, max(MIN_ELEMENT_LIMIT, BUFFER_FACTOR * largest))


def parse(text: str) -> ast.Expression:
    """parse reads one side of a check line into an AST; raises CheckExprError for a syntax error."""
    try:
        return ast.parse(text, mode="eval")
    except SyntaxError as e:
        col = e.offset - 1 if e.offset and e.lineno == 1 and 0 < e.offset <= len(text) else 0
        raise CheckExprError(f"invalid check expression '{text}': {e.msg}", col) from None
    except (ValueError, RecursionError, MemoryError, OverflowError):
        raise CheckExprError(f"invalid check expression '{text}'", 0) from None


def validate(tree: ast.Expression, names: Iterable[str]) -> None:
    """validate refuses anything outside the language; ``names`` are the header's argument names.

    Raises CheckExprError for a refused construct ("check expressions may not contain X") or an
    unknown name (with a did-you-mean).
    """
    _Validator(frozenset(names)).run(tree)


def evaluate(tree: ast.Expression, env: Mapping[str, Any], limit: int = MIN_ELEMENT_LIMIT) -> Any:
    """evaluate runs a parsed expression over ``env`` (argument name -> array or scalar).

    Arrays are handed over read-only. ``limit`` caps the elements of every array a step makes.
    Raises CheckExprError for a refused construct or value, a cost over the caps, or numpy's own
    error (named by its type and message).
    """
    validate(tree, env)
    return _Interpreter(env, limit).run(tree)


def _col(node: ast.AST) -> int:
    return node.col_offset if getattr(node, "lineno", 1) == 1 else 0


def _refuse(what: str, node: Optional[ast.AST] = None, hint: str = "") -> CheckExprError:
    return CheckExprError(f"check expressions may not contain {what}", _col(node) if node is not None else 0, hint)


def _constant_arithmetic(node: ast.AST) -> bool:
    """_constant_arithmetic: ``node`` is numbers joined by unary and binary operators, nothing else."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _constant_arithmetic(node.operand)
    if isinstance(node, ast.BinOp):
        return _constant_arithmetic(node.left) and _constant_arithmetic(node.right)
    return False


def _private(name: str) -> bool:
    return name.startswith("_")


class _Validator:
    """_Validator walks an expression once, refusing what the language does not have."""

    def __init__(self, args: frozenset):
        self.args = args
        self.bound: set = set()
        self.known = args | frozenset(DTYPE_NAMES) | frozenset(MODULE_NAMES)
        self.scopes: list = []   # names a lambda or a comprehension binds, innermost last
        self.lambdas = 0         # lambda bodies the walk is inside
        self.loops = 0           # comprehensions the walk is inside
        self.iterations = 1      # the iterations the enclosing comprehensions are known to make

    def local(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes)

    def builtin(self, name: str) -> bool:
        """builtin: ``name`` is a builtin the language calls (no argument, ':=' name or variable shadows it)."""
        return (name in BUILTINS or name in ITERATORS) and name not in self.known and name not in self.bound \
            and not self.local(name)

    def run(self, tree: ast.AST) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                self.bound.add(node.target.id)
        self.visit(tree.body if isinstance(tree, ast.Expression) else tree, 0, called=False)

    def visit(self, node: ast.AST, depth: int, called: bool) -> None:
        if depth > MAX_DEPTH:
            raise _refuse(f"more than {MAX_DEPTH} levels of nesting", node)
        kind = type(node)
        if kind in _CONSTRUCTS:
            raise _refuse(_CONSTRUCTS[kind], node)
        d = depth + 1
        if kind is ast.Constant:
            self.constant(node)
        elif kind is ast.Name:
            self.name(node)
        elif kind is ast.Attribute:
            self.attribute(node, d, called)
        elif kind is ast.Call:
            self.call(node, d)
        elif kind is ast.NamedExpr:
            target = node.target
            if _private(target.id) or target.id in self.known or self.local(target.id):
                raise _refuse(f"':=' rebinding '{target.id}' (bind a new name)", node)
            if self.lambdas or self.loops:
                raise _refuse("':=' inside a lambda or a comprehension", node)
            if isinstance(node.value, ast.Lambda):
                self.lambda_(node.value, d)
            else:
                self.visit(node.value, d, False)
        elif kind is ast.ListComp:
            self.comprehension(node, d)
        elif kind is ast.Lambda:
            raise _refuse("a lambda as a value (call it, as in (lambda v: v * 2)(x), or bind it with "
                          "'f := lambda ...' and call f)", node)
        elif kind is ast.GeneratorExp:
            raise _refuse("generator expressions except as the argument of sum, min, max, any, all or "
                          "np." + "/".join(sorted(NP_GENERATOR_TAKERS)) + " (write a list comprehension)", node)
        elif kind in (ast.Tuple, ast.List):
            for elt in node.elts:
                self.visit(elt, d, False)
        elif kind is ast.UnaryOp:
            self.visit(node.operand, d, False)
        elif kind is ast.BinOp:
            if any(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in (node.left, node.right)):
                raise _refuse("arithmetic or formatting on strings", node)
            self.visit(node.left, d, False)
            self.visit(node.right, d, False)
            if _constant_arithmetic(node):
                # literal-only arithmetic is worked out now, under the run's caps, so 9**9**9 is refused
                # when the header is read rather than after the kernel ran
                _Interpreter({}, MIN_ELEMENT_LIMIT).run(ast.Expression(node))
        elif kind is ast.BoolOp:
            for v in node.values:
                self.visit(v, d, False)
        elif kind is ast.Compare:
            for op in node.ops:
                if type(op) in _CONSTRUCTS:
                    raise _refuse(_CONSTRUCTS[type(op)], node)
            for v in [node.left, *node.comparators]:
                self.visit(v, d, False)
        elif kind is ast.IfExp:
            for v in (node.test, node.body, node.orelse):
                self.visit(v, d, False)
        elif kind is ast.Subscript:
            self.visit(node.value, d, False)
            self.visit(node.slice, d, False)
        elif kind is ast.Slice:
            for v in (node.lower, node.upper, node.step):
                if v is not None:
                    self.visit(v, d, False)
        else:
            raise _refuse(f"'{ast.unparse(node)[:40]}' ({kind.__name__.lower()})", node)

    def constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, bytes):
            raise _refuse("bytes literals", node)
        if isinstance(v, str) and len(v) > MAX_STRING:
            raise _refuse(f"strings longer than {MAX_STRING} characters", node)
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > MAX_INT_BITS:
            raise _refuse(f"integers over {MAX_INT_BITS} bits", node)

    def name(self, node: ast.Name) -> None:
        name = node.id
        if _private(name):
            raise _refuse(f"the name '{name}' (names starting with '_')", node)
        if self.local(name):
            return
        if name in BUILTINS or name in ITERATORS:
            if name not in self.known and name not in self.bound:
                raise _refuse(f"the builtin '{name}' as a value (call it)", node)
        if name in MODULE_NAMES:
            raise _refuse(f"'{name}' on its own (write {name}.<function>(...))", node)
        if name not in self.known and name not in self.bound:
            raise CheckExprError(f"unknown name '{name}' in check expression", _col(node),
                                 did_you_mean(name, sorted(self.args) + list(DTYPE_NAMES) + ["np"]))

    def attribute(self, node: ast.Attribute, depth: int, called: bool) -> None:
        attr = node.attr
        base = node.value
        if not (isinstance(base, ast.Name) and base.id in MODULE_NAMES):
            self.visit(base, depth, False)  # the innermost refused part is the one to name
        if _private(attr):
            raise _refuse(f"the attribute '.{attr}' (names starting with '_')", node)
        if isinstance(base, ast.Name) and base.id in MODULE_NAMES:
            if attr not in NP_FUNCTIONS and attr not in NP_TYPES and attr not in NP_CONSTANTS:
                raise _refuse(f"'{base.id}.{attr}' (not one of the allowed numpy functions)", node,
                              did_you_mean(attr, sorted(NP_FUNCTIONS | NP_TYPES | set(NP_CONSTANTS))))
            if attr in NP_FUNCTIONS and not called:
                raise _refuse(f"'{base.id}.{attr}' as a value (call it)", node)
            if attr in NP_CONSTANTS and called:
                raise _refuse(f"a call of '{base.id}.{attr}'", node)
            return
        if attr in ARRAY_METHODS:
            if not called:
                raise _refuse(f"the method '.{attr}' as a value (call it)", node)
        elif attr in ARRAY_PROPERTIES:
            if called:
                raise _refuse(f"a call of the property '.{attr}'", node)
        else:
            raise _refuse(f"the attribute '.{attr}' (not one of the allowed array methods and properties)",
                          node, did_you_mean(attr, sorted(ARRAY_METHODS | ARRAY_PROPERTIES)))

    def call(self, node: ast.Call, depth: int, iterable: bool = False) -> None:
        func = node.func
        takes_generator = False
        if isinstance(func, ast.Lambda):
            self.lambda_(func, depth)
            self.function_arguments(node, "a lambda", depth)
            return
        if isinstance(func, ast.Name) and not _private(func.id):
            name = func.id
            if self.local(name):
                raise _refuse(f"a call of '{name}' (a lambda's parameter or a comprehension's variable is not "
                              "called: lambdas cannot call themselves)", node)
            if self.builtin(name):
                if name in ITERATORS and not iterable:
                    raise _refuse(f"'{name}(...)' outside a comprehension's 'for ... in'", node)
                if node.keywords:
                    raise _refuse(f"keyword arguments to '{name}'", node.keywords[0].value)
                if name in ITERATORS:
                    for a in node.args:
                        self.iterable(a, depth)
                    return
                takes_generator = name in GENERATOR_TAKERS
            elif name in self.bound and name not in self.known:
                if self.lambdas:
                    raise _refuse(f"a call of '{name}' inside a lambda (lambdas cannot call themselves or "
                                  "each other)", node)
                self.function_arguments(node, f"'{name}'", depth)
                return
            else:
                raise _refuse(f"a call of '{name}' (only np.<function>(...), array methods, lambdas and "
                              f"{', '.join(sorted(BUILTINS))} are called)", node)
        else:
            if not isinstance(func, (ast.Attribute, ast.Name)) or _private(getattr(func, "id", "")):
                self.visit(func, depth, False)  # '__import__' is refused as what it is
            if not isinstance(func, ast.Attribute):
                raise _refuse(f"a call of '{ast.unparse(func)[:40]}' (only np.<function>(...) and array "
                              "methods are called)", node)
            self.visit(func, depth, True)
            takes_generator = isinstance(func.value, ast.Name) and func.value.id in MODULE_NAMES \
                and func.attr in NP_GENERATOR_TAKERS
        for i, a in enumerate(node.args):
            if i == 0 and takes_generator and isinstance(a, ast.GeneratorExp):
                self.comprehension(a, depth)
            else:
                self.visit(a, depth, False)
        for kw in node.keywords:
            if kw.arg is None:
                raise _refuse("'**' arguments", kw.value)
            if _private(kw.arg):
                raise _refuse(f"the keyword '{kw.arg}' (names starting with '_')", kw.value)
            if kw.arg in REFUSED_KEYWORDS:
                raise _refuse(REFUSED_KEYWORDS[kw.arg], kw.value)
            self.visit(kw.value, depth, False)


    def function_arguments(self, node: ast.Call, what: str, depth: int) -> None:
        if node.keywords:
            raise _refuse(f"keyword arguments to {what} (pass them in order)", node.keywords[0].value)
        for a in node.args:
            self.visit(a, depth, False)

    def lambda_(self, node: ast.Lambda, depth: int) -> None:
        """lambda_ checks ``lambda a, b: body``: plain parameters only, and a body in the language."""
        a = node.args
        if a.defaults or a.kw_defaults:
            raise _refuse("lambda default values", node)
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise _refuse("'*', '**', '/' or keyword-only lambda parameters", node)
        params = set()
        for arg in a.args:
            self.parameter(arg.arg, arg, params)
        self.scopes.append(params)
        self.lambdas += 1
        try:
            self.visit(node.body, depth + 1, False)
        finally:
            self.lambdas -= 1
            self.scopes.pop()

    def parameter(self, name: str, node: ast.AST, names: set) -> None:
        if _private(name):
            raise _refuse(f"the name '{name}' (names starting with '_')", node)
        if name in MODULE_NAMES or name in BUILTINS or name in ITERATORS:
            raise _refuse(f"'{name}' as a lambda parameter or comprehension variable", node)
        names.add(name)

    def target(self, node: ast.AST, names: set) -> None:
        if isinstance(node, ast.Name):
            self.parameter(node.id, node, names)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                self.target(elt, names)
        else:
            raise _refuse(f"'{ast.unparse(node)[:40]}' as a comprehension variable (use names)", node)

    def iterable(self, node: ast.AST, depth: int) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ITERATORS \
                and self.builtin(node.func.id):
            self.call(node, depth, iterable=True)
        else:
            self.visit(node, depth, False)

    def comprehension(self, node: ast.AST, depth: int) -> None:
        """comprehension checks ``[elt for t in it if c ...]`` (or a generator expression) with its
        variables in a scope of their own; iterations known from constant ranges are capped here."""
        d = depth + 1
        names: set = set()
        self.scopes.append(names)
        outer = self.iterations
        try:
            known = 1
            for i, gen in enumerate(node.generators):
                if gen.is_async:
                    raise _refuse("async comprehensions", node)
                if i == 0:  # the first iterable is read outside the comprehension, as in Python
                    self.scopes.pop()
                    try:
                        self.iterable(gen.iter, d)
                    finally:
                        self.scopes.append(names)
                else:
                    self.iterable(gen.iter, d)
                self.target(gen.target, names)
                for cond in gen.ifs:
                    self.visit(cond, d, False)
                known *= _static_length(gen.iter)
            self.iterations = outer * known
            if self.iterations > MAX_ITERATIONS:
                shown = self.iterations if self.iterations < 10**15 else f"at least 2**{self.iterations.bit_length() - 1}"
                raise _refuse(f"comprehensions of {shown} iterations (the limit is {MAX_ITERATIONS})", node)
            if known > MAX_SEQUENCE and not any(gen.ifs for gen in node.generators):
                raise _refuse(f"tuples or lists of more than {MAX_SEQUENCE} items ({known})", node)
            self.loops += 1
            try:
                self.visit(node.elt, d, False)
            finally:
                self.loops -= 1
        finally:
            self.iterations = outer
            self.scopes.pop()


def _static_length(node: ast.AST) -> int:
    """_static_length is the length of ``range(...)`` of literal numbers, else 1 (not known before running)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and not node.keywords and 1 <= len(node.args) <= 3
            and all(_constant_arithmetic(a) for a in node.args)):
        return 1
    try:
        values = [_Interpreter({}, MIN_ELEMENT_LIMIT).run(ast.Expression(a)) for a in node.args]
    except CheckExprError:
        return 1
    if not all(_is_int(v) for v in values):
        return 1
    return max(1, _range_length(*values))


def _range_length(*args: int) -> int:
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
    if step == 0:
        return 0
    if step > 0:
        return max(0, (stop - start + step - 1) // step)
    return max(0, (start - stop - step - 1) // -step)


def _size(shape) -> int:
    """_size is the element count of a shape written as an int or a sequence of ints (else -1: unknown)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return int(shape)
    if isinstance(shape, (tuple, list)) and all(isinstance(s, (int, np.integer)) for s in shape):
        return math.prod(int(s) for s in shape)
    return -1


def _shape(value) -> Optional[tuple]:
    if isinstance(value, (np.ndarray, np.generic)):
        return value.shape
    return None


def _matmul_cost(a, b) -> tuple:
    """_matmul_cost is (output elements, multiply-adds) of a @ b, or (-1, -1) when the shapes do not say."""
    sa, sb = np.shape(a), np.shape(b)
    if not sa or not sb:
        return -1, -1
    a2 = (1,) + sa if len(sa) == 1 else sa
    b2 = sb + (1,) if len(sb) == 1 else sb
    try:
        batch = np.broadcast_shapes(a2[:-2], b2[:-2])
    except ValueError:
        return -1, -1
    out = math.prod(batch) * a2[-2] * b2[-1]
    return out, out * a2[-1]


def _dot_cost(a, b) -> tuple:
    sa, sb = np.shape(a), np.shape(b)
    if len(sa) <= 2 and len(sb) <= 2:
        return _matmul_cost(a, b)
    if not sa or not sb:
        return -1, -1
    out = math.prod(sa[:-1]) * math.prod(sb[:-2]) * sb[-1]
    return out, out * sa[-1]


def _einsum_cost(args) -> tuple:
    if not args or not isinstance(args[0], str):
        return -1, -1
    spec = args[0].replace(" ", "")
    ins, _, out = spec.partition("->")
    terms = ins.split(",")
    operands = args[1:]
    if len(terms) != len(operands):
        return -1, -1
    sizes: dict = {}
    ellipsis = 1
    for term, op in zip(terms, operands):
        shape = np.shape(op)
        letters = term.replace("...", "")
        if "..." in term:
            extra = len(shape) - len(letters)
            ellipsis = max(ellipsis, math.prod(shape[:max(extra, 0)]) if extra > 0 else 1)
            head, _, tail = term.partition("...")
            dims = list(zip(head, shape)) + list(zip(tail, shape[len(shape) - len(tail):]))
        else:
            dims = list(zip(term, shape))
        for letter, n in dims:
            sizes[letter] = max(sizes.get(letter, 1), int(n))
    if "->" not in spec:
        out = "".join(sorted(c for c in sizes if ins.count(c) == 1))
    out_letters = out.replace("...", "")
    elements = math.prod(sizes.get(c, 1) for c in out_letters) * ellipsis
    return elements, math.prod(sizes.values()) * ellipsis


def _arange_length(args, kwargs) -> int:
    values = list(args[:3])
    for i, key in enumerate(("start", "stop", "step")):
        if key in kwargs:
            while len(values) <= i:
                values.append(None)
            values[i] = kwargs[key]
    if not values:
        return -1
    if len(values) == 1:
        start, stop, step = 0, values[0], 1
    else:
        start, stop = values[0], values[1]
        step = values[2] if len(values) > 2 and values[2] is not None else 1
    nums = (start, stop, step)
    if not all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in nums):
        return -1
    if step == 0 or not all(math.isfinite(float(v)) for v in nums):
        return -1
    return max(0, math.ceil((float(stop) - float(start)) / float(step)))


def _positional_or(args, kwargs, index: int, key: str, default=None):
    if key in kwargs:
        return kwargs[key]
    return args[index] if len(args) > index else default


def _call_cost(name: str, args: list, kwargs: dict, method_of=None) -> tuple:
    """_call_cost is (largest array elements, multiply-adds) a call would make, before it is made (-1: unknown)."""
    if method_of is not None:
        args = [method_of] + list(args)
    work = -1
    if name in ("zeros", "ones", "full"):
        elements = _size(_positional_or(args, kwargs, 0, "shape"))
    elif name in ("zeros_like", "ones_like", "full_like") and "shape" in kwargs:
        elements = _size(kwargs["shape"])
    elif name == "arange":
        elements = _arange_length(args, kwargs)
    elif name == "linspace":
        num = _positional_or(args, kwargs, 2, "num", 50)
        elements = int(num) if isinstance(num, (int, np.integer)) else -1
    elif name in ("eye", "identity"):
        n = _positional_or(args, kwargs, 0, "N")
        m = _positional_or(args, kwargs, 1, "M") if name == "eye" else None
        m = n if m is None else m
        elements = int(n) * int(m) if all(isinstance(v, (int, np.integer)) for v in (n, m)) else -1
    elif name == "broadcast_to":
        elements = _size(_positional_or(args, kwargs, 1, "shape"))
    elif name == "tile":
        reps = _positional_or(args, kwargs, 1, "reps")
        elements = np.size(args[0]) * _size(reps) if args and _size(reps) >= 0 else -1
    elif name == "repeat":
        reps = _positional_or(args, kwargs, 1, "repeats")
        most = int(np.max(reps)) if np.size(reps) and np.asarray(reps).dtype.kind in "iub" else -1
        elements = np.size(args[0]) * most if args and most >= 0 else -1
    elif name == "pad":
        width = _positional_or(args, kwargs, 1, "pad_width")
        widest = int(np.max(width)) if np.size(width) and np.asarray(width).dtype.kind in "iu" else -1
        elements = math.prod(int(n) + 2 * widest for n in np.shape(args[0])) if args and widest >= 0 else -1
    elif name == "bincount":
        x = args[0] if args else kwargs.get("x")
        minlength = kwargs.get("minlength", args[2] if len(args) > 2 else 0)
        top = int(np.max(x)) + 1 if np.size(x) and np.asarray(x).dtype.kind in "iu" else 0
        elements = max(top, int(minlength) if isinstance(minlength, (int, np.integer)) else 0)
    elif name in ("outer", "kron"):
        elements = np.size(args[0]) * np.size(args[1]) if len(args) >= 2 else -1
    elif name == "diag":
        v = args[0] if args else None
        k = abs(int(_positional_or(args, kwargs, 1, "k", 0) or 0))
        elements = (np.size(v) + k) ** 2 if np.ndim(v) == 1 else np.size(v)
    elif name in ("matmul", "dot"):
        elements, work = (_matmul_cost if name == "matmul" else _dot_cost)(*args[:2]) if len(args) >= 2 else (-1, -1)
    elif name == "einsum":
        elements, work = _einsum_cost(args)
    elif name in ("concatenate", "stack", "hstack", "vstack"):
        seq = args[0] if args else ()
        elements = sum(int(np.size(a)) for a in seq) if isinstance(seq, (list, tuple)) else -1
    else:
        shapes = [np.shape(a) for a in list(args) + list(kwargs.values())
                  if isinstance(a, (np.ndarray, np.generic))]
        try:
            elements = math.prod(np.broadcast_shapes(*shapes)) if shapes else -1
        except ValueError:
            elements = -1
    return elements, work


def _check_dtype(value, node) -> None:
    """_check_dtype refuses a dtype that is not a plain number (object, void, string, sub-array, record)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            dt = np.dtype(value)
        except Exception:
            return  # not a dtype: a word such as mode='edge' or a shape such as (3, 4)
    if dt.kind not in "biufc" or dt.subdtype is not None or dt.fields is not None or dt.itemsize > 16:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise _refuse(f"the dtype {shown} (only number dtypes)", node)


class _Interpreter:
    """_Interpreter evaluates a validated expression tree node by node over its environment."""

    def __init__(self, env: Mapping[str, Any], limit: int):
        self.env = {name: _read_only(v) for name, v in env.items()}
        self.env.update({name: np.dtype(t) for name, t in NUMPY_DTYPES.items()})
        self.locals: dict = {}
        self.limit = limit
        self.counts: dict = {}  # id of a tuple or list -> (it, the elements it holds, nested ones included)
        self.scopes: list = []  # lambda parameters and comprehension variables, innermost last
        self.steps = 0          # comprehension iterations and lambda calls so far
        self.loops = 0          # comprehensions being evaluated
        self.loop_work = 0      # elements of the arrays made inside comprehensions so far
        self.depth = 0          # lambda calls in progress

    def run(self, tree: ast.Expression) -> Any:
        with np.errstate(all="ignore"):
            value = self.ev(tree.body)
        if _holds_lambda(value):
            raise _refuse("a lambda as the value of a check (call it)", tree.body)
        return value

    def ev(self, node: ast.AST) -> Any:
        kind = type(node)
        if kind is ast.Constant:
            return node.value
        if kind is ast.Name:
            for scope in reversed(self.scopes):
                if node.id in scope:
                    return scope[node.id]
            if node.id in self.locals:
                return self.locals[node.id]
            if node.id not in self.env:
                raise CheckExprError(f"the name '{node.id}' is used before ':=' binds it", _col(node))
            return self.env[node.id]
        if kind is ast.NamedExpr:
            value = self.ev(node.value)
            self.locals[node.target.id] = value
            return value
        if kind is ast.Tuple:
            return self.checked(tuple(self.ev(e) for e in node.elts), node)
        if kind is ast.List:
            return self.checked([self.ev(e) for e in node.elts], node)
        if kind is ast.UnaryOp:
            return self.checked(self.apply(_UNARY[type(node.op)], node, self.ev(node.operand)), node)
        if kind is ast.BinOp:
            return self.binop(node)
        if kind is ast.BoolOp:
            value = None
            for part in node.values:
                value = self.ev(part)
                if isinstance(node.op, ast.And) != bool(self.truth(value, part)):
                    return value
            return value
        if kind is ast.Compare:
            return self.compare(node)
        if kind is ast.IfExp:
            return self.ev(node.body) if self.truth(self.ev(node.test), node.test) else self.ev(node.orelse)
        if kind is ast.Subscript:
            return self.subscript(node)
        if kind is ast.Slice:
            parts = [None if p is None else self.ev(p) for p in (node.lower, node.upper, node.step)]
            return slice(*parts)
        if kind is ast.Attribute:
            return self.attribute(node)
        if kind is ast.Call:
            return self.call(node)
        if kind is ast.ListComp:
            return self.comprehension(node)
        if kind is ast.Lambda:
            captured: dict = {}
            for scope in self.scopes:
                captured.update(scope)
            return _Lambda(node, captured)
        raise _refuse(kind.__name__.lower(), node)  # pragma: no cover - the validator refused it already

    # -- values ----------------------------------------------------------
    def checked(self, value: Any, node: ast.AST) -> Any:
        """checked refuses a value the language does not have or one over the caps, else returns it."""
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject or value.dtype.kind == "V":
                raise _refuse("object or record arrays", node)
            if value.size > self.limit:
                raise self.too_big(value.size, node)
            if self.loops:
                self.loop_work += value.size
                if self.loop_work > LOOP_WORK_FACTOR * self.limit:
                    raise _refuse(f"comprehensions making arrays of more than {LOOP_WORK_FACTOR * self.limit} "
                                  "elements in all", node)
            return value
        if isinstance(value, _Lambda):
            raise _refuse("a lambda as a value (call it)", node)
        if isinstance(value, (tuple, list)):
            if len(value) > MAX_SEQUENCE:
                raise _refuse(f"tuples or lists of more than {MAX_SEQUENCE} items", node)
            total = self.elements(value, node)
            if total > self.limit:
                raise _refuse(f"tuples or lists holding {total} elements (the limit is {self.limit})", node)
            return value
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
            raise _refuse(f"integers over {MAX_INT_BITS} bits", node)
        if isinstance(value, str) and len(value) > MAX_STRING:
            raise _refuse(f"strings longer than {MAX_STRING} characters", node)
        if isinstance(value, np.generic) and value.dtype.hasobject:
            raise _refuse("object values", node)
        if isinstance(value, _SAFE_SCALARS) or (isinstance(value, type) and issubclass(value, np.generic)):
            return value
        raise _refuse(f"a value of type '{type(value).__name__}'", node)

    def elements(self, value: Any, node: ast.AST) -> int:
        """elements checks a (nested) tuple or list and counts what it would become as an array.

        Each distinct sequence is walked once (a list repeated by ``*`` holds one object many times).
        """
        if isinstance(value, _Lambda):
            return 1  # (f := lambda ..., f(x))[-1]: a tuple may hold a lambda; no call is given one
        if not isinstance(value, (tuple, list)):
            self.checked(value, node)
            return int(value.size) if isinstance(value, np.ndarray) else 1
        key = id(value)
        if key not in self.counts:  # the entry keeps the sequence alive, so its id stays its own
            if len(value) > MAX_SEQUENCE:
                raise _refuse(f"tuples or lists of more than {MAX_SEQUENCE} items", node)
            self.counts[key] = (value, sum(self.elements(v, node) for v in value))
        return self.counts[key][1]

    def too_big(self, elements: int, node: ast.AST) -> CheckExprError:
        return _refuse(f"an array of {elements} elements (the limit is {self.limit})", node)

    def guard(self, elements: int, work: int, node: ast.AST) -> None:
        if elements > self.limit:
            raise self.too_big(elements, node)
        if work > MAX_WORK:
            raise _refuse(f"a product of {work} multiply-adds (the limit is {MAX_WORK})", node)

    def truth(self, value: Any, node: ast.AST) -> bool:
        return bool(self.apply(bool, node, value))

    def apply(self, fn, node: ast.AST, *args, **kwargs) -> Any:
        """apply calls numpy or an operator, turning its exceptions into CheckExprError at ``node``.

        No value it hands over is or holds a lambda: nothing outside the interpreter ever calls one.
        """
        if any(_holds_lambda(v) for v in args) or any(_holds_lambda(v) for v in kwargs.values()):
            raise _refuse("a lambda as an argument or operand (call it)", node)
        try:
            return fn(*args, **kwargs)
        except CheckExprError:
            raise
        except (Exception, RecursionError) as exc:  # the user's expression failed: say how, never a traceback
            raise CheckExprError(f"{type(exc).__name__}: {exc}", _col(node)) from None

    # -- operators -------------------------------------------------------
    def binop(self, node: ast.BinOp) -> Any:
        return self.binary(type(node.op), self.ev(node.left), self.ev(node.right), node)

    def binary(self, op, left: Any, right: Any, node: ast.AST) -> Any:
        if isinstance(left, str) or isinstance(right, str):
            raise _refuse("arithmetic or formatting on strings", node)
        seqs = (tuple, list)
        if isinstance(left, seqs) or isinstance(right, seqs):
            return self.sequence_op(op, left, right, node)
        if _is_int(left) and _is_int(right):
            self.int_guard(op, left, right, node)
        elif op is ast.MatMult:
            self.guard(*_matmul_cost(left, right), node)
        else:
            self.broadcast_guard([left, right], node)
        return self.checked(self.apply(_BINARY[op], node, left, right), node)

    def int_guard(self, op, left: int, right: int, node: ast.AST) -> None:
        """int_guard refuses a Python integer operation whose result would pass MAX_INT_BITS."""
        bits_l, bits_r = max(1, left.bit_length()), max(1, right.bit_length())
        if op is ast.Pow and right > 0 and abs(left) > 1 and right * math.log2(abs(left)) > MAX_INT_BITS:
            raise _refuse(f"an integer power over {MAX_INT_BITS} bits ({left}**{right})", node)
        if op is ast.LShift and right > 0 and left and bits_l + right > MAX_INT_BITS:
            raise _refuse(f"an integer shift over {MAX_INT_BITS} bits ({left} << {right})", node)
        if op is ast.Mult and bits_l + bits_r > MAX_INT_BITS + 1:
            raise _refuse(f"an integer product over {MAX_INT_BITS} bits", node)

    def broadcast_guard(self, values: list, node: ast.AST) -> None:
        shapes = [s for s in (_shape(v) for v in values) if s is not None]
        if len(shapes) > 1:
            try:
                shape = np.broadcast_shapes(*shapes)
            except ValueError:
                return  # numpy says why when the operation runs
            self.guard(math.prod(shape), -1, node)

    def sequence_op(self, op, left, right, node: ast.AST) -> Any:
        if op is ast.Add and type(left) is type(right):
            length = len(left) + len(right)
        elif op is ast.Mult and (_is_int(left) or _is_int(right)):
            seq, times = (left, right) if _is_int(right) else (right, left)
            length = len(seq) * max(0, int(times))
        else:
            raise _refuse("this operation on tuples or lists (only + and * by an integer)", node)
        if length > MAX_SEQUENCE:
            raise _refuse(f"tuples or lists of more than {MAX_SEQUENCE} items", node)
        return self.checked(self.apply(_BINARY[op], node, left, right), node)

    def compare(self, node: ast.Compare) -> Any:
        left = self.ev(node.left)
        result: Any = True
        for i, (op, right_node) in enumerate(zip(node.ops, node.comparators)):
            right = self.ev(right_node)
            self.broadcast_guard([left, right], node)
            result = self.checked(self.apply(_COMPARE[type(op)], node, left, right), node)
            if i < len(node.ops) - 1 and not self.truth(result, node):
                return result
            left = right
        return result

    def subscript(self, node: ast.Subscript) -> Any:
        value = self.ev(node.value)
        index = self.ev(node.slice)
        if not isinstance(value, (np.ndarray, np.generic, tuple, list, str)):
            raise _refuse(f"a subscript of a value of type '{type(value).__name__}'", node)
        if isinstance(value, np.ndarray):
            self.guard(_indexed_size(value.shape, index), -1, node)
        if isinstance(value, (tuple, list)) and isinstance(index, (int, slice)) and not _holds_lambda(index):
            # (f := lambda v: v * 2, f(x))[-1]: picking from a tuple hands no lambda to anything
            try:
                return self.checked(value[index], node)
            except (IndexError, TypeError) as exc:
                raise CheckExprError(f"{type(exc).__name__}: {exc}", _col(node)) from None
        return self.checked(self.apply(operator.getitem, node, value, index), node)

    # -- attributes and calls --------------------------------------------
    def attribute(self, node: ast.Attribute) -> Any:
        base = node.value
        if isinstance(base, ast.Name) and base.id in MODULE_NAMES:
            if node.attr in NP_CONSTANTS:
                return NP_CONSTANTS[node.attr]
            return self.np_value(node)
        obj = self.ev(base)
        if not isinstance(obj, (np.ndarray, np.generic)):
            raise _refuse(f"the attribute '.{node.attr}' of a value of type '{type(obj).__name__}' "
                          "(attributes are read from arrays)", node)
        return self.checked(self.apply(getattr, node, obj, node.attr), node)

    def np_value(self, node: ast.Attribute) -> Any:
        value = _NP_VALUES.get(node.attr)
        if value is None:
            raise _refuse(f"'np.{node.attr}' (this numpy has no such name)", node)
        return value

    def call(self, node: ast.Call) -> Any:
        func = node.func
        method_of = None
        if isinstance(func, ast.Lambda):
            return self.invoke(self.ev(func), [self.ev(a) for a in node.args], node)
        if isinstance(func, ast.Name):
            if self.is_builtin(func.id):
                return self.builtin(func.id, node)
            fn = self.ev(func)
            if not isinstance(fn, _Lambda):
                raise _refuse(f"a call of '{func.id}', a value of type '{type(fn).__name__}' (only lambdas are "
                              "called by name)", node)
            return self.invoke(fn, [self.ev(a) for a in node.args], node)
        if isinstance(func.value, ast.Name) and func.value.id in MODULE_NAMES:
            target = self.np_value(func)
        else:
            method_of = self.ev(func.value)
            if not isinstance(method_of, (np.ndarray, np.generic)):
                raise _refuse(f"a call of '.{func.attr}' on a value of type '{type(method_of).__name__}' "
                              "(methods are called on arrays)", node)
            target = getattr(method_of, func.attr)
        args = [self.comprehension(a) if isinstance(a, ast.GeneratorExp) else self.ev(a) for a in node.args]
        kwargs = {kw.arg: self.ev(kw.value) for kw in node.keywords}
        self.check_arguments(func.attr, args, kwargs, node)
        self.guard(*_call_cost(func.attr, args, kwargs, method_of), node)
        return self.checked(self.apply(target, node, *args, **kwargs), node)

    # -- lambdas, builtins and comprehensions ----------------------------
    def is_builtin(self, name: str) -> bool:
        return (name in BUILTINS or name in ITERATORS) and name not in self.env and name not in self.locals \
            and not any(name in scope for scope in self.scopes)

    def spend(self, steps: int, node: ast.AST) -> None:
        """spend counts iterations or calls against MAX_ITERATIONS before they are made."""
        self.steps += steps
        if self.steps > MAX_ITERATIONS:
            raise _refuse(f"comprehensions or calls of more than {MAX_ITERATIONS} iterations in all", node)

    def invoke(self, fn: "_Lambda", args: list, node: ast.Call) -> Any:
        params = [a.arg for a in fn.node.args.args]
        if len(args) != len(params):
            raise CheckExprError(f"TypeError: the lambda takes {len(params)} argument"
                                 f"{'' if len(params) == 1 else 's'}, {len(args)} given", _col(node))
        if self.depth >= MAX_CALL_DEPTH:  # pragma: no cover - the validator lets no lambda call itself
            raise _refuse(f"lambda calls nested more than {MAX_CALL_DEPTH} deep", node)
        self.spend(1, node)
        saved, self.scopes = self.scopes, [dict(fn.captured), dict(zip(params, args))]
        self.depth += 1
        try:
            return self.ev(fn.node.body)
        finally:
            self.depth -= 1
            self.scopes = saved

    def builtin(self, name: str, node: ast.Call) -> Any:
        args = [self.comprehension(a) if isinstance(a, ast.GeneratorExp) else self.ev(a) for a in node.args]
        if name == "len":
            return self.checked(self.apply(len, node, *args), node)
        items = args[0] if len(args) == 1 else args
        if not isinstance(items, (tuple, list, np.ndarray)):
            raise CheckExprError(f"TypeError: {name}() of a value of type '{type(items).__name__}'", _col(node))
        length = len(items) if not isinstance(items, np.ndarray) else (items.shape[0] if items.ndim else 0)
        self.spend(length, node)
        if name == "sum":
            total = 0 if len(args) == 1 else args[1]
            if len(args) > 2:
                raise CheckExprError(f"TypeError: sum() takes at most 2 arguments ({len(args)} given)", _col(node))
            items = args[0]
            if isinstance(items, np.ndarray) and items.ndim == 0:
                raise CheckExprError("TypeError: iteration over a 0-d array", _col(node))
            for item in items:
                total = self.binary(ast.Add, total, item, node)
            return total
        if name in ("min", "max") and any(isinstance(v, np.ndarray) and v.size != 1 for v in
                                           (items if not isinstance(items, np.ndarray) else ())):
            raise _refuse(f"{name}() of arrays (use np.{name}imum elementwise, or np.{name} for the "
                          f"{'largest' if name == 'max' else 'smallest'} element)", node)
        fn = {"min": min, "max": max, "any": any, "all": all}[name]
        return self.checked(self.apply(fn, node, items), node)

    def comprehension(self, node: ast.AST) -> list:
        """comprehension evaluates a list comprehension or generator expression into a checked list."""
        out: list = []
        held = [0]
        outer = self.scopes
        self.loops += 1
        try:
            self.generate(node, 0, out, held, {})
        finally:
            self.loops -= 1
            self.scopes = outer
        return self.checked(out, node)

    def generate(self, node: ast.AST, i: int, out: list, held: list, scope: dict) -> None:
        if i == len(node.generators):
            value = self.ev(node.elt)
            out.append(value)
            if len(out) > MAX_SEQUENCE:
                raise _refuse(f"tuples or lists of more than {MAX_SEQUENCE} items", node)
            held[0] += self.elements(value, node.elt)
            if held[0] > self.limit:
                raise _refuse(f"tuples or lists holding {held[0]} elements (the limit is {self.limit})", node)
            return
        gen = node.generators[i]
        if i == 0:
            length, items = self.iterable(gen.iter)  # read outside the comprehension's scope, as in Python
            self.scopes = self.scopes + [scope]
        else:
            length, items = self.iterable(gen.iter)
        self.spend(length, gen.iter)
        for item in items:
            self.bind(gen.target, item, scope)
            if all(self.truth(self.ev(cond), cond) for cond in gen.ifs):
                self.generate(node, i + 1, out, held, scope)

    def bind(self, target: ast.AST, value: Any, scope: dict) -> None:
        if isinstance(target, ast.Name):
            scope[target.id] = value
            return
        n = len(target.elts)
        if not isinstance(value, (tuple, list, np.ndarray)) or (isinstance(value, np.ndarray) and value.ndim == 0) \
                or len(value) != n:
            raise CheckExprError(f"ValueError: cannot unpack a value of type '{type(value).__name__}' into "
                                 f"{n} names", _col(target))
        for elt, item in zip(target.elts, value):
            self.bind(elt, item, scope)

    def iterable(self, node: ast.AST) -> tuple:
        """iterable is (length, iterator) of what a comprehension's 'for' reads, the length known first."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ITERATORS \
                and self.is_builtin(node.func.id):
            name = node.func.id
            if name == "range":
                args = [self.ev(a) for a in node.args]
                r = self.apply(range, node, *args)
                return _range_length(r.start, r.stop, r.step), r
            if name == "enumerate":
                if not 1 <= len(node.args) <= 2:
                    raise CheckExprError("TypeError: enumerate() takes 1 or 2 arguments", _col(node))
                length, items = self.iterable(node.args[0])
                start = self.ev(node.args[1]) if len(node.args) > 1 else 0
                return length, self.apply(enumerate, node, items, start)
            parts = [self.iterable(a) for a in node.args]
            return min((p[0] for p in parts), default=0), zip(*(p[1] for p in parts))
        value = self.ev(node)
        if isinstance(value, np.ndarray) and value.ndim > 0:
            return value.shape[0], iter(value)
        if isinstance(value, (tuple, list)):
            return len(value), iter(list(value))
        raise _refuse(f"iterating over a value of type '{type(value).__name__}'"
                      + (" with no axes" if isinstance(value, (np.ndarray, np.generic)) else "")
                      + " (iterate over arrays, tuples, lists, range, enumerate and zip)", node)

    def check_arguments(self, name: str, args: list, kwargs: dict, node: ast.Call) -> None:
        """check_arguments refuses dtypes that are not plain numbers, wherever an argument could be one,
        and the arguments that make numpy loop in Python for as long as they say."""
        _refuse_python_loops(name, args, kwargs, node)
        candidates = [] if name == "einsum" else list(args)
        candidates += [v for k, v in kwargs.items() if k not in _WORD_KEYWORDS]
        for value in candidates:
            if isinstance(value, (str, np.dtype, tuple, list)):  # ('f8', (10**4, 10**4)) is a dtype too
                _check_dtype(value, node)


def _refuse_python_loops(name: str, args: list, kwargs: dict, node: ast.Call) -> None:
    """_refuse_python_loops refuses numpy calls whose Python-level loops run as long as an argument says.

    ``np.diff`` loops ``n`` times, ``np.pad`` in the reflect, symmetric and wrap modes once per array
    length of padding, and ``np.einsum`` searches paths over its operands (factorially when
    optimize='optimal').
    """
    if name == "diff":
        n = _positional_or(args, kwargs, 1, "n", 1)
        longest = max(np.shape(args[0]) or (1,)) if args else 1
        if isinstance(n, (int, np.integer)) and n > longest:
            raise _refuse(f"np.diff with n={n}, more than the array's length {longest}", node)
    elif name == "pad":
        mode = _positional_or(args, kwargs, 2, "mode", "constant")
        width = _positional_or(args, kwargs, 1, "pad_width")
        if isinstance(mode, str) and mode in ("reflect", "symmetric", "wrap") and args and np.size(width) and \
                np.asarray(width).dtype.kind in "iu":
            shortest = max(1, min(np.shape(args[0]) or (1,)))
            if int(np.max(width)) > 64 * shortest:
                raise _refuse(f"np.pad mode='{mode}' wider than 64 times the array ({int(np.max(width))} "
                              f"for length {shortest})", node)
    elif name == "einsum":
        operands = max(0, len(args) - 1)
        optimize = kwargs.get("optimize", False)
        cheap = isinstance(optimize, (bool, str)) and optimize in (False, True, "greedy")
        if operands > 8 or (operands > 4 and not cheap):
            raise _refuse(f"np.einsum over {operands} operands with optimize={optimize!r}", node)


class _Lambda:
    """_Lambda is a lambda of the expression: its tree and the variables it closed over.

    It is not a Python function: nothing but the interpreter can call it, and it has no attributes.
    """

    __slots__ = ("node", "captured")

    def __init__(self, node: ast.Lambda, captured: dict):
        self.node = node
        self.captured = captured


def _holds_lambda(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _Lambda):
        return True
    if isinstance(value, (tuple, list)):
        return depth >= MAX_DEPTH or any(_holds_lambda(v, depth + 1) for v in value)
    return False


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _indexed_size(shape: tuple, index: Any) -> int:
    """_indexed_size bounds the elements of ``array[index]`` when it has index arrays (else 0).

    Index arrays broadcast together; an axis a slice or nothing indexes keeps (at most) its size.
    """
    items = index if isinstance(index, tuple) else (index,)
    arrays = []
    consumed = 0
    for item in items:
        if item is None or item is Ellipsis or isinstance(item, slice):
            continue
        if isinstance(item, (np.ndarray, list)):
            arr = np.asarray(item)
            arrays.append(arr.shape if arr.dtype.kind != "b" else (int(arr.size),))
            consumed += arr.ndim if arr.dtype.kind == "b" else 1
        else:
            consumed += 1
    if not arrays:
        return 0
    try:
        picked = math.prod(np.broadcast_shapes(*arrays))
    except ValueError:
        return 0
    return picked * max(1, math.prod(shape)) // max(1, math.prod(shape[:consumed]))


def _read_only(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        view = value.view()
        view.flags.writeable = False
        return view
    return value
