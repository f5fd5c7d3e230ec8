"""Reading YAML so that every key and value remembers where it was written.

Architecture files and study files report a mistake as ``file:line:col`` of the
offending key or value. ``read_located`` composes the YAML (no Python objects
are built from tags) and converts it into a tree of :class:`Located` values.

Every YAML gpusim reads is untrusted, so before anything is composed
:func:`screen` walks the parser's events once and refuses aliases (``*name``:
a "billion laughs" file expands a few lines of aliases into billions of
nodes), documents over :data:`MAX_BYTES`, more than :data:`MAX_NODES` nodes
or nesting deeper than :data:`MAX_DEPTH`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Type

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from gpusim.errors import GpusimError, SourceLoc

_MERGE_TAG = "tag:yaml.org,2002:merge"
MAX_BYTES = 4 << 20      # an architecture or study file is a few kilobytes
MAX_NODES = 200_000      # scalars, sequences and mappings in one document
MAX_DEPTH = 64           # sequences and mappings inside each other


@dataclass
class Located:
    """Located is one YAML value with where it was written.

    ``value`` is a dict of name -> Located for a mapping, a list of Located for a
    sequence, or a plain Python scalar. ``loc`` is where the value starts and
    ``key_loc`` where the key naming it was written (None for the document).
    """

    value: Any
    loc: Optional[SourceLoc]
    key_loc: Optional[SourceLoc] = None

    @property
    def is_mapping(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def where(self) -> Optional[SourceLoc]:
        return self.key_loc or self.loc

    def plain(self) -> Any:
        """plain returns the value as ordinary Python dicts, lists and scalars, without locations."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value


def quote(text: str) -> str:
    """quote quotes user text for a one-line message, escaping what is not printable."""
    return f"'{text}'" if text.isprintable() and "'" not in text else repr(text)


def one_line(text: Any) -> str:
    """one_line collapses a (YAML library) message onto one line."""
    return " ".join(str(text).split())


def read_located(text: str, display: str, error: Type[GpusimError], what: str = "file") -> Located:
    """read_located parses YAML ``text`` (shown as ``display`` in messages) into a Located tree.

    Raises ``error`` with a location for malformed YAML, an empty document (named ``what``),
    YAML merge keys, aliases, documents past the size limits (see :func:`screen`), non-scalar or
    duplicate keys, and values that cannot be read.
    """
    return _Reader(text, display, error).read(what)


def screen(text: str, display: str, error: Type[GpusimError], first_line: int = 1) -> None:
    """screen refuses YAML aliases, oversized documents and deep nesting before anything is composed.

    ``first_line`` is the file line of the text's first line (for YAML embedded in a kernel file).
    Raises ``error`` at the offending place; malformed YAML raises yaml's own MarkedYAMLError.
    """
    def where(mark) -> SourceLoc:
        lines = text.splitlines()
        row = mark.line if mark is not None else 0
        return SourceLoc(display, row + first_line, (mark.column + 1) if mark is not None else 1,
                         lines[row] if 0 <= row < len(lines) else "")

    if len(text) > MAX_BYTES:
        raise error(f"YAML document of {len(text)} characters (the limit is {MAX_BYTES})",
                    SourceLoc(display, first_line))
    nodes = depth = 0
    previous = None
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            if isinstance(previous, yaml.ScalarEvent) and previous.value == "<<" and previous.implicit[0]:
                raise error("YAML merge keys ('<<') are not supported; use 'extends'", where(previous.start_mark))
            raise error(f"YAML aliases (*{event.anchor}) are not supported; write the value out",
                        where(event.start_mark))
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            nodes += 1
            if nodes > MAX_NODES:
                raise error(f"YAML document with more than {MAX_NODES} values", where(event.start_mark))
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise error(f"YAML nested more than {MAX_DEPTH} levels deep", where(event.start_mark))
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
        previous = event


def load_plain(text: str, display: str, error: Type[GpusimError], what: str = "value") -> Any:
    """load_plain is ``yaml.safe_load`` for untrusted text: screened, then plain dicts, lists and scalars.

    Raises ``error`` with a location as read_located does; an empty document is None.
    """
    if not text.strip():
        return None
    return read_located(text, display, error, what).plain()


class _Reader:
    def __init__(self, text: str, display: str, error: Type[GpusimError]):
        self.display = display
        self.lines = text.splitlines()
        self.text = text
        self.error = error
        self.constructor = SafeConstructor()

    def loc(self, mark) -> SourceLoc:
        line = mark.line
        text = self.lines[line] if 0 <= line < len(self.lines) else ""
        return SourceLoc(self.display, line + 1, mark.column + 1, text)

    def read(self, what: str) -> Located:
        try:
            screen(self.text, self.display, self.error)
            node = yaml.compose(self.text, Loader=yaml.SafeLoader)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            problem = err.problem or err.context or "malformed YAML"
            if err.problem and err.context and err.context_mark is not None:
                problem += f" ({err.context} started at line {err.context_mark.line + 1})"
            raise self.error(f"invalid YAML: {one_line(problem)}", self.loc(mark) if mark else None) from None
        except yaml.YAMLError as err:
            raise self.error(f"invalid YAML: {one_line(err)}", SourceLoc(self.display, 1)) from None
        if node is None:
            raise self.error(f"the {what} is empty", SourceLoc(self.display, 1))
        return self.convert(node)

    def convert(self, node, key_loc: Optional[SourceLoc] = None) -> Located:
        loc = self.loc(node.start_mark)
        if isinstance(node, MappingNode):
            out: dict = {}
            for key_node, value_node in node.value:
                kloc = self.loc(key_node.start_mark)
                if key_node.tag == _MERGE_TAG:
                    raise self.error("YAML merge keys ('<<') are not supported; use 'extends'", kloc)
                if not isinstance(key_node, ScalarNode):
                    raise self.error("a key must be a plain name", kloc)
                key = key_node.value
                if key in out:
                    first = out[key].key_loc
                    raise self.error(f"duplicate key {quote(key)} (first written at line {first.line})", kloc)
                out[key] = self.convert(value_node, kloc)
            return Located(out, loc, key_loc)
        if isinstance(node, SequenceNode):
            return Located([self.convert(item) for item in node.value], loc, key_loc)
        try:
            value = self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as err:
            problem = getattr(err, "problem", None) or str(err)
            raise self.error(f"cannot read value: {one_line(problem)}", loc) from None
        return Located(value, loc, key_loc)
