"""Integer expressions of the assembler: number literals, parsing and evaluation.

Semantics follow llvm-mc (GNU as flavour): 64-bit two's-complement values;
precedence, lowest first, ``||``; ``&&``; comparisons (``== != <> < <= > >=``,
true is -1); ``+ -``; ``| & ^ !`` (binary ``!`` is or-not); ``* / % << >>``.
``/`` and ``%`` truncate toward zero, ``>>`` is a logical shift, shift counts
wrap modulo 64. Functions: ``max(...)``, ``min(...)``, ``or(...)``,
``alignto(x, a)``, ``totalnumvgprs(agprs, vgprs)``.

An expression is parsed into a small tuple tree and evaluated separately so
that ``.set`` symbols whose operands are not yet defined can be evaluated
later.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

from gpusim.errors import AsmError, SourceLoc, did_you_mean
from gpusim.asm.lexer import Tok

MASK64 = (1 << 64) - 1
_SIGN64 = 1 << 63
MAX_DEPTH = 64
MAX_OPERATORS = 256

# AST nodes (plain tuples, cheap to build):
#   ('n', value)                 integer constant
#   ('s', name, col)             symbol / label reference (name may carry @reloc)
#   ('u', op, node, col)         unary - + ~ !
#   ('b', op, lhs, rhs, col)     binary
#   ('f', name, args, col)       function call
Node = tuple

_BINARY_PREC = {
    "||": 1, "&&": 2,
    "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
    "+": 4, "-": 4,
    "|": 5, "&": 5, "^": 5, "!": 5,
    "*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6,
}
FUNCTIONS = ("max", "min", "or", "alignto", "totalnumvgprs")


def wrap64(x: int) -> int:
    """wrap64 returns ``x`` reduced to a signed 64-bit value."""
    x &= MASK64
    return x - (1 << 64) if x & _SIGN64 else x


def parse_int_literal(text: str) -> Optional[int]:
    """parse_int_literal returns the value of a decimal, 0x hex, 0b binary or 0-octal literal, or None."""
    try:
        if len(text) > 1 and text[0] == "0":
            c = text[1]
            if c in "xX":
                v = int(text[2:], 16)
            elif c in "bB":
                v = int(text[2:], 2)
            else:
                v = int(text, 8)
        else:
            if len(text) > 40:
                return MASK64 + 1  # far too large; the caller reports the size
            v = int(text, 10)
    except ValueError:
        return None
    return v


def parse_float_literal(text: str) -> Optional[float]:
    """parse_float_literal returns the value of ``1.5``, ``.5``, ``1e-3`` or ``0x1p3``, or None."""
    try:
        if text[:2] in ("0x", "0X"):
            return float.fromhex(text)
        return float(text)
    except (ValueError, OverflowError):
        return None


_CHAR_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34}


class Undefined(Exception):
    """Undefined is raised while evaluating when a symbol has no value (yet)."""

    def __init__(self, name: str, col: int):
        super().__init__(name)
        self.name = name
        self.col = col


class ExprParser:
    """ExprParser is a cursor over one line's tokens that parses integer expressions.

    ``toks`` is the token list, ``i`` the current index; ``file``, ``lineno``
    and ``text`` locate errors. Subclasses (the operand parser) reuse the cursor.
    """

    __slots__ = ("toks", "i", "n", "file", "lineno", "text", "depth", "ops")

    def __init__(self, toks: Sequence[Tok], file: str, lineno: int, text: str, i: int = 0):
        self.toks = toks
        self.i = i
        self.n = len(toks)
        self.file = file
        self.lineno = lineno
        self.text = text
        self.depth = 0
        self.ops = 0

    # -- error helpers ------------------------------------------------------
    def loc(self, col0: Optional[int] = None) -> SourceLoc:
        """loc returns the SourceLoc of 0-based column ``col0`` (default: the current token)."""
        if col0 is None:
            col0 = self.toks[self.i].start if self.i < self.n else len(self.text.rstrip())
        return SourceLoc(self.file, self.lineno, col0 + 1, self.text)

    def error(self, msg: str, col0: Optional[int] = None, hint: str = "") -> AsmError:
        """error builds an AsmError at ``col0`` (default: the current token)."""
        return AsmError(msg, self.loc(col0), hint)

    def describe(self) -> str:
        """describe names the current token for an error message."""
        if self.i >= self.n:
            return "end of line"
        return f"'{self.toks[self.i].text}'"

    def expect(self, text: str) -> Tok:
        """expect consumes the operator token ``text`` or raises 'expected X'."""
        if self.i < self.n:
            t = self.toks[self.i]
            if t.kind == "op" and t.text == text:
                self.i += 1
                return t
        raise self.error(f"expected '{text}' but found {self.describe()}")

    def at_op(self, text: str) -> bool:
        """at_op is True when the current token is the operator ``text``."""
        if self.i < self.n:
            t = self.toks[self.i]
            return t.kind == "op" and t.text == text
        return False

    # -- parsing ------------------------------------------------------------
    def parse_expr(self, min_prec: int = 1, no_pipe: bool = False) -> Node:
        """parse_expr parses a binary expression whose operators bind at least ``min_prec``.

        With ``no_pipe`` a ``|`` ends the expression (it closes ``|v1|`` instead).
        """
        lhs = self.parse_unary(no_pipe)
        toks = self.toks
        while self.i < self.n:
            t = toks[self.i]
            if t.kind != "op":
                break
            prec = _BINARY_PREC.get(t.text)
            if prec is None or prec < min_prec or (no_pipe and t.text == "|"):
                break
            self.i += 1
            self.ops += 1
            if self.ops > MAX_OPERATORS:
                raise self.error("expression has too many operators", t.start)
            rhs = self.parse_expr(prec + 1, no_pipe)
            if lhs[0] == "n" and rhs[0] == "n" and not (t.text in ("/", "%") and rhs[1] == 0):
                lhs = ("n", _binary(t.text, lhs[1], rhs[1]))
            else:
                lhs = ("b", t.text, lhs, rhs, t.start)
        return lhs

    def parse_unary(self, no_pipe: bool = False) -> Node:
        """parse_unary parses a primary expression with optional leading ``- + ~ !``."""
        if self.i >= self.n:
            raise self.error("expected an expression but found end of line")
        t = self.toks[self.i]
        if t.kind == "op" and t.text in ("-", "+", "~", "!"):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error("expression is nested too deeply")
            self.i += 1
            node = self.parse_unary(no_pipe)
            self.depth -= 1
            if t.text == "+":
                return node
            if node[0] == "n":
                return ("n", _unary(t.text, node[1]))
            return ("u", t.text, node, t.start)
        return self.parse_primary()

    def parse_primary(self) -> Node:
        """parse_primary parses a number, symbol, ``(expr)`` or ``fn(args)``."""
        t = self.toks[self.i]
        kind = t.kind
        if kind == "int":
            v = parse_int_literal(t.text)
            if v is None:
                raise self.error(f"malformed number '{t.text}'", t.start)
            if v > MASK64:
                raise self.error(f"integer literal '{t.text}' does not fit in 64 bits", t.start)
            self.i += 1
            return ("n", wrap64(v))
        if kind == "id":
            self.i += 1
            if self.i < self.n and self.toks[self.i].text == "(" and self.toks[self.i].kind == "op":
                name = t.text.lower()
                if name not in FUNCTIONS:
                    hint = did_you_mean(name, FUNCTIONS)
                    raise self.error(f"unknown function '{t.text}' in expression", t.start, hint)
                return self._parse_call(name, t.start)
            return ("s", t.text, t.start)
        if kind == "op" and t.text == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error("expression is nested too deeply")
            self.i += 1
            node = self.parse_expr()
            if not self.at_op(")"):
                raise self.error(f"unbalanced '(': expected ')' but found {self.describe()}")
            self.i += 1
            self.depth -= 1
            return node
        if kind == "chr":
            self.i += 1
            return ("n", _char_value(t.text, self, t.start))
        if kind == "flt":
            raise self.error(f"floating-point literal '{t.text}' is not allowed in an integer expression",
                             t.start)
        if kind == "bad":
            raise self.error(f"malformed number '{t.text}'", t.start)
        if kind == "str":
            raise self.error("a string is not allowed in an expression", t.start)
        raise self.error(f"expected an expression but found '{t.text}'", t.start)

    def _parse_call(self, name: str, col: int) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error("expression is nested too deeply")
        self.i += 1  # '('
        args = []
        if not self.at_op(")"):
            while True:
                args.append(self.parse_expr())
                if self.at_op(","):
                    self.i += 1
                    continue
                break
        if not self.at_op(")"):
            raise self.error(f"unbalanced '(': expected ')' but found {self.describe()}")
        self.i += 1
        self.depth -= 1
        if not args:
            raise self.error(f"'{name}' needs at least one argument", col)
        if name == "alignto" and len(args) != 2:
            raise self.error("'alignto' takes 2 arguments (value, alignment)", col)
        if name == "totalnumvgprs" and len(args) != 2:
            raise self.error("'totalnumvgprs' takes 2 arguments (agprs, vgprs)", col)
        return ("f", name, tuple(args), col)


def _char_value(text: str, p: ExprParser, col: int) -> int:
    body = text[1:-1]
    if len(body) == 1:
        return ord(body)
    if len(body) == 2 and body[0] == "\\" and body[1] in _CHAR_ESCAPES:
        return _CHAR_ESCAPES[body[1]]
    raise p.error(f"malformed character literal {text}", col)


def _unary(op: str, v: int) -> int:
    if op == "-":
        return wrap64(-v)
    if op == "~":
        return wrap64(~v)
    return 1 if v == 0 else 0  # '!'


def _binary(op: str, a: int, b: int) -> int:
    if op == "+":
        return wrap64(a + b)
    if op == "-":
        return wrap64(a - b)
    if op == "*":
        return wrap64(a * b)
    if op in ("/", "%"):
        if b == 0:
            raise ZeroDivisionError
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q
        return wrap64(q) if op == "/" else wrap64(a - q * b)
    if op == "<<":
        return wrap64(a << (b & 63))
    if op == ">>":
        return wrap64((a & MASK64) >> (b & 63))
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "!":
        return wrap64(a | ~b)
    if op == "==":
        return -1 if a == b else 0
    if op in ("!=", "<>"):
        return -1 if a != b else 0
    if op == "<":
        return -1 if a < b else 0
    if op == "<=":
        return -1 if a <= b else 0
    if op == ">":
        return -1 if a > b else 0
    if op == ">=":
        return -1 if a >= b else 0
    if op == "&&":
        return 1 if (a and b) else 0
    return 1 if (a or b) else 0  # '||'


def _align(x: int, a: int) -> int:
    return wrap64(((x + a - 1) // a) * a)


def evaluate(node: Node, resolve: Callable[[str, int], int],
             error: Callable[[str, int], AsmError]) -> int:
    """evaluate returns the integer value of ``node``.

    ``resolve(name, col)`` gives a symbol's value or raises :class:`Undefined`;
    ``error(msg, col)`` builds the AsmError for a division by zero or a bad
    function argument.
    """
    tag = node[0]
    if tag == "n":
        return node[1]
    if tag == "s":
        return resolve(node[1], node[2])
    if tag == "u":
        return _unary(node[1], evaluate(node[2], resolve, error))
    if tag == "b":
        op = node[1]
        a = evaluate(node[2], resolve, error)
        b = evaluate(node[3], resolve, error)
        try:
            return _binary(op, a, b)
        except ZeroDivisionError:
            raise error("division by zero in expression", node[4]) from None
    # function call
    name, args, col = node[1], node[2], node[3]
    vals = [evaluate(a, resolve, error) for a in args]
    if name == "max":
        return max(vals)
    if name == "min":
        return min(vals)
    if name == "or":
        r = 0
        for v in vals:
            r |= v
        return r
    if name == "alignto":
        if vals[1] <= 0:
            raise error("alignto: alignment must be positive", col)
        return _align(vals[0], vals[1])
    agprs, vgprs = vals  # totalnumvgprs, as LLVM computes it for gfx90a+
    return _align(vgprs, 4) + agprs if agprs > 0 else vgprs


def symbols_in(node: Node) -> list[tuple[str, int]]:
    """symbols_in lists the (name, col) of every symbol reference in ``node``."""
    out: list[tuple[str, int]] = []
    stack = [node]
    while stack:
        nd = stack.pop()
        tag = nd[0]
        if tag == "s":
            out.append((nd[1], nd[2]))
        elif tag == "u":
            stack.append(nd[2])
        elif tag == "b":
            stack.append(nd[2])
            stack.append(nd[3])
        elif tag == "f":
            stack.extend(nd[2])
    return out


def label_form(node: Node) -> Optional[tuple[str, Node]]:
    """label_form matches ``sym``, ``sym + e``, ``e + sym`` or ``sym - e``.

    It returns (symbol name, addend expression) or None.
    """
    tag = node[0]
    if tag == "s":
        return node[1], ("n", 0)
    if tag == "b" and node[1] in ("+", "-"):
        lhs, rhs = node[2], node[3]
        if lhs[0] == "s" and not symbols_in(rhs):
            if node[1] == "+":
                return lhs[1], rhs
            return lhs[1], ("u", "-", rhs, node[4])
        if node[1] == "+" and rhs[0] == "s" and not symbols_in(lhs):
            return rhs[1], lhs
    return None
