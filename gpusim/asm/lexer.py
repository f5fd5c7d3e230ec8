"""The lexer turns assembly text into comment-free lines and lines into tokens.

Two stages, both regex-driven so a 20k-line file lexes in a few tens of ms:

* :func:`preprocess` splits a file into lines, blanks out comments (``;`` and
  ``//`` to end of line, ``/* ... */`` across lines, ``#`` at line start, as
  llvm-mc does for amdgcn) while keeping every column where it was, sets the
  ``; gpusim-*`` header comments aside, and captures the raw text of each
  ``.amdgpu_metadata`` block.
* :func:`tokenize` splits one line (from a column on) into tokens.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from gpusim.errors import AsmError, SourceLoc


class Line(NamedTuple):
    """Line is one non-blank statement line after comment removal.

    ``code`` keeps the original columns (comments are blanked, not cut out,
    except a trailing one); ``text`` is what an error message shows.
    """

    file: str
    lineno: int
    code: str
    text: str


class HeaderLine(NamedTuple):
    """HeaderLine is a ``; gpusim-...`` comment: ``body`` starts at ``gpusim-``, at column ``col``."""

    file: str
    lineno: int
    col: int
    body: str
    text: str


@dataclass
class Preprocessed:
    """Preprocessed is a file split into statement lines, header comments and metadata blocks."""

    lines: list[Line] = field(default_factory=list)
    headers: list[HeaderLine] = field(default_factory=list)
    metadata: dict[int, str] = field(default_factory=dict)  # line of .amdgpu_metadata -> raw YAML


_SPECIAL = re.compile(r'[;"#/]')
_SCAN = re.compile(r'[;"#]|//|/\*')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_HEADER = re.compile(r"[ \t]*gpusim-")
_METADATA_BEGIN = re.compile(r"[ \t]*\.amdgpu_metadata[ \t]*$", re.I)
_METADATA_END = re.compile(r"[ \t]*\.end_amdgpu_metadata[ \t]*(?:;.*)?$", re.I)


def preprocess(text: str, path: str) -> Preprocessed:
    """preprocess splits ``text`` into comment-free statement lines; it mutates nothing.

    Raises AsmError for an unterminated ``/*``, string or ``.amdgpu_metadata`` block.
    """
    out = Preprocessed()
    raw_lines = text.split("\n")
    in_block: Optional[tuple[int, int]] = None  # (line, col) of the open /*
    n = len(raw_lines)
    idx = 0
    lines_append = out.lines.append
    while idx < n:
        raw = raw_lines[idx]
        if raw.endswith("\r"):
            raw = raw[:-1]
        lineno = idx + 1
        idx += 1
        if in_block is None and _SPECIAL.search(raw) is None:
            if raw and not raw.isspace():
                if _METADATA_BEGIN.match(raw):
                    idx = _take_metadata(raw_lines, idx, lineno, raw, path, out)
                lines_append(Line(path, lineno, raw, raw))
            continue
        code = raw
        pos = 0
        if in_block is not None:
            end = raw.find("*/")
            if end < 0:
                continue
            code = " " * (end + 2) + raw[end + 2:]
            pos = end + 2
            in_block = None
        while True:
            m = _SCAN.search(code, pos)
            if m is None:
                break
            tok = m.group()
            start = m.start()
            if tok == ";":
                body = code[start + 1:]
                if _HEADER.match(body):
                    col = start + 2 + (len(body) - len(body.lstrip(" \t")))
                    out.headers.append(HeaderLine(path, lineno, col, body.strip(), raw))
                code = code[:start]
                break
            if tok == "//":
                code = code[:start]
                break
            if tok == "#":
                if code[:start].strip():
                    pos = start + 1  # a stray '#' is an error the tokenizer reports
                    continue
                code = code[:start]
                break
            if tok == '"':
                sm = _STRING.match(code, start)
                if sm is None:
                    raise AsmError("unterminated string", SourceLoc(path, lineno, start + 1, raw))
                pos = sm.end()
                continue
            end = code.find("*/", start + 2)  # "/*"
            if end < 0:
                in_block = (lineno, start + 1)
                code = code[:start]
                break
            code = code[:start] + " " * (end + 2 - start) + code[end + 2:]
            pos = end + 2
        if code and not code.isspace():
            if _METADATA_BEGIN.match(code):
                idx = _take_metadata(raw_lines, idx, lineno, raw, path, out)
            lines_append(Line(path, lineno, code, raw))
    if in_block is not None:
        bline, bcol = in_block
        raise AsmError("unterminated '/*' comment", SourceLoc(path, bline, bcol, raw_lines[bline - 1]))
    return out


def _take_metadata(raw_lines: list[str], idx: int, lineno: int, raw: str, path: str,
                   out: Preprocessed) -> int:
    """_take_metadata stores the raw YAML after ``.amdgpu_metadata`` and returns the next line index."""
    body = []
    for j in range(idx, len(raw_lines)):
        r = raw_lines[j].rstrip("\r")
        if _METADATA_END.match(r):
            out.metadata[lineno] = "\n".join(body) + ("\n" if body else "")
            return j + 1
        body.append(r)
    col = raw.find(".") + 1
    raise AsmError("'.amdgpu_metadata' without '.end_amdgpu_metadata'",
                   SourceLoc(path, lineno, col, raw))


# Token kinds: 'int' 'flt' 'id' 'str' 'chr' 'op' 'bad' (a malformed number or
# a local label reference such as 1b / 1f).
class Tok(NamedTuple):
    """Tok is one token: its kind, text, [start, end) columns (0-based) and whether space precedes it."""

    kind: str
    text: str
    start: int
    end: int
    spaced: bool


_TOKEN = re.compile(
    r"[ \t\f\v]*(?:"
    r"(?P<flt>(?:0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+"
    r"|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|[0-9]+[eE][+-]?[0-9]+)(?![\w.$]))"
    r"|(?P<int>(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)(?![\w.$]))"
    r"|(?P<bad>[0-9][\w.$]*|\.[0-9][\w.$]*)"
    r"|(?P<id>[A-Za-z_.$][\w.$]*(?:@[A-Za-z_]\w*)*)"
    r"|(?P<op><<|>>|<=|>=|==|!=|<>|&&|\|\||[-+*/%&|^~!<>()\[\]:,=])"
    r'|(?P<str>"(?:[^"\\]|\\.)*")'
    r"|(?P<chr>'(?:[^'\\]|\\.)')"
    r"|(?P<err>\S))")


_new_tuple = tuple.__new__


def tokenize(code: str, pos: int, file: str, lineno: int, text: str) -> list[Tok]:
    """tokenize splits ``code[pos:]`` into tokens; an unknown character is an AsmError."""
    toks: list[Tok] = []
    append = toks.append
    prev = pos
    # Trailing blanks are cut off first: the scanner would retry them from every position.
    for m in _TOKEN.finditer(code, pos, len(code.rstrip())):
        kind = m.lastgroup
        if kind is None:
            break
        start = m.start(kind)
        end = m.end()
        if kind == "err":
            ch = m.group(kind)
            if ch in "\"'":
                msg = "unterminated string" if ch == '"' else "malformed character literal"
            else:
                msg = f"unexpected character {ch!r}"
            raise AsmError(msg, SourceLoc(file, lineno, start + 1, text))
        append(_new_tuple(Tok, (kind, m.group(kind), start, end, start > prev)))
        prev = end
    return toks
