"""Buffer sizes written in terms of scalar arguments: ``x buffer f32[n]``, ``a buffer f16[m*k]``.

A shape expression is integers (decimal or 0x hex), names of integer scalar arguments, ``+ - * //``,
unary minus and parentheses. :func:`parse_shape` reads one into a small tree of tuples and
:func:`eval_shape` computes it for given argument values. Nothing here uses Python's ``eval``:
the grammar is this module's own, every value is a bounded integer, and nesting is bounded, so a
header line can neither run code nor make the evaluation slow.

Grammar::

    expr   := term (('+' | '-') term)*
    term   := unary (('*' | '//') unary)*
    unary  := '-' unary | atom
    atom   := INTEGER | NAME | '(' expr ')'
"""
from __future__ import annotations

import re
from typing import Callable, Mapping, Union

Node = Union[tuple, int, str]   # ('num', v) | ('name', text, offset) | ('neg', node) | (op, left, right)

MAX_DEPTH = 32                  # parentheses and unary minus nested at most this deep
MAX_MAGNITUDE = 1 << 62         # an intermediate value beyond this is refused as too large

_TOKEN_RE = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)|([A-Za-z_]\w*)|(//|[-+*()]))")


class ShapeSyntaxError(Exception):
    """ShapeSyntaxError is a malformed or out-of-range shape expression; ``offset`` is where, in its text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


def _tokens(text: str) -> list:
    """_tokens splits ``text`` into (kind, value, offset) with kind 'num', 'name' or 'op'."""
    out = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            bad = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise ShapeSyntaxError(f"unexpected '{text[bad]}' in shape '{text}' (sizes are integers, integer "
                                   "arguments, + - * // and parentheses)", bad)
        start = m.start(m.lastindex)
        if m.group(1):
            digits = m.group(1)
            if m.end() < len(text) and (text[m.end()].isalnum() or text[m.end()] == "_"):
                word = re.match(r"\w+", text[start:]).group(0)
                raise ShapeSyntaxError(f"malformed size '{word}' in shape '{text}'", start)
            if len(digits) > 20:
                raise ShapeSyntaxError(f"size '{digits}' is too large", start)
            out.append(("num", int(digits, 16 if digits[1:2] in "xX" else 10), start))
        elif m.group(2):
            out.append(("name", m.group(2), start))
        else:
            out.append(("op", m.group(3), start))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("end", None, len(self.text))

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def expr(self, depth: int) -> Node:
        node = self.term(depth)
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            op = self.take()[1]
            node = (op, node, self.term(depth))
        return node

    def term(self, depth: int) -> Node:
        node = self.unary(depth)
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "//"):
            op = self.take()[1]
            node = (op, node, self.unary(depth))
        return node

    def unary(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise ShapeSyntaxError(f"shape nested more than {MAX_DEPTH} deep", self.peek()[2])
        kind, value, off = self.peek()
        if kind == "op" and value == "-":
            self.take()
            return ("neg", self.unary(depth + 1))
        return self.atom(depth)

    def atom(self, depth: int) -> Node:
        kind, value, off = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "name":
            return ("name", value, off)
        if kind == "op" and value == "(":
            node = self.expr(depth + 1)
            kind, value, off2 = self.take()
            if (kind, value) != ("op", ")"):
                raise ShapeSyntaxError(f"missing ')' in shape '{self.text}'", off2)
            return node
        what = "the end" if kind == "end" else f"'{value}'"
        raise ShapeSyntaxError(f"expected a size or an argument name, found {what} in shape '{self.text}'", off)


def parse_shape(text: str) -> Node:
    """parse_shape reads one dimension's expression; raises ShapeSyntaxError naming the offset."""
    if not text.strip():
        raise ShapeSyntaxError("empty size", 0)
    reader = _Reader(text)
    node = reader.expr(0)
    kind, value, off = reader.peek()
    if kind != "end":
        raise ShapeSyntaxError(f"unexpected '{value}' in shape '{text}'", off)
    return node


def names_in(node: Node) -> list:
    """names_in lists the (name, offset) pairs an expression reads, in order."""
    if node[0] == "num":
        return []
    if node[0] == "name":
        return [(node[1], node[2])]
    return [pair for child in node[1:] for pair in names_in(child)]


def eval_shape(node: Node, values: Mapping[str, int], fail: Callable[[str, int], Exception]) -> int:
    """eval_shape computes ``node`` with the integer argument ``values``.

    ``fail(message, offset)`` builds the exception raised for a division by zero or a value beyond
    MAX_MAGNITUDE; every name must be in ``values`` (parse-time checks see to that).
    """
    kind = node[0]
    if kind == "num":
        result = node[1]
    elif kind == "name":
        result = int(values[node[1]])
    elif kind == "neg":
        result = -eval_shape(node[1], values, fail)
    else:
        left = eval_shape(node[1], values, fail)
        right = eval_shape(node[2], values, fail)
        if kind == "+":
            result = left + right
        elif kind == "-":
            result = left - right
        elif kind == "*":
            result = left * right
        else:
            if right == 0:
                raise fail("division by zero in shape", 0)
            result = left // right
    if abs(result) > MAX_MAGNITUDE:
        raise fail("shape value is too large", 0)
    return result
