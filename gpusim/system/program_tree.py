"""The program file's YAML tree before it is validated: its keys, ``${name}`` substitution and overrides.

A program file is read into a :class:`gpusim.located_yaml.Located` tree. This module knows which keys
each kind of mapping may hold (``KEYS``), replaces ``${name}`` in scalar strings (:func:`substitute`) and
applies the dotted-key overrides of ``gpusim sweep`` (:func:`apply_overrides`). Nothing here builds the
program's dataclasses (``gpusim.system.loader`` does); every function returns a new tree and mutates
nothing it is given.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from gpusim.errors import ProgramError, SourceLoc, did_you_mean
from gpusim.located_yaml import Located

COLLECTIVE_KEYS = ("send", "recv", "group", "algorithm", "chunk_bytes", "channels", "op", "root")
KEYS = {
    "top": ("params", "system", "buffers", "streams", "checks"),
    "system": ("gpus", "topology", "link", "host_link", "copy_engines"),
    "gpus": ("arch", "count"),
    "gpu": ("arch",),
    "link": ("bandwidth_gbps", "efficiency", "latency_us"),
    "buffer": ("type", "gpu", "gpus", "per_gpu", "host"),
    "stream": ("name", "gpu", "gpus", "ops"),
    "kernel": ("kernel", "grid", "block", "args", "params", "name"),
    "memcpy": ("src", "dst", "nbytes", "src_offset", "dst_offset"),
    "memset": ("dst", "value", "nbytes", "offset"),
    "repeat": ("var", "values", "range", "count", "halving", "doubling", "ops"),
    "collective": COLLECTIVE_KEYS,
}

_PARAM_RE = re.compile(r"\$\{([A-Za-z_]\w*)\}")
_WHOLE_PARAM_RE = re.compile(r"\$\{([A-Za-z_]\w*)\}$")
_INDEX_RE = re.compile(r"\d+$")


def from_plain(value: Any, loc: Optional[SourceLoc] = None, key_loc: Optional[SourceLoc] = None) -> Located:
    """from_plain wraps plain dicts, lists and scalars as a Located tree whose every node is at ``loc``."""
    if isinstance(value, Mapping):
        return Located({str(k): from_plain(v, loc, loc) for k, v in value.items()}, loc, key_loc)
    if isinstance(value, (list, tuple)):
        return Located([from_plain(v, loc) for v in value], loc, key_loc)
    return Located(value, loc, key_loc)


def substitute(node: Located, env: Mapping[str, Any]) -> Located:
    """substitute replaces ``${name}`` for every name of ``env`` in the scalar strings of ``node``.

    A string that is exactly ``${name}`` becomes the value itself (a number stays a number, a list a
    list); inside a longer string the value is written as text. Names ``env`` lacks are left for the
    caller to report.
    """
    value = node.value
    if isinstance(value, dict):
        return Located({k: substitute(v, env) for k, v in value.items()}, node.loc, node.key_loc)
    if isinstance(value, list):
        return Located([substitute(v, env) for v in value], node.loc, node.key_loc)
    if not isinstance(value, str) or "${" not in value:
        return node
    whole = _WHOLE_PARAM_RE.match(value)
    if whole and whole.group(1) in env:
        return from_plain(env[whole.group(1)], node.loc, node.key_loc)

    def text(m: re.Match) -> str:
        if m.group(1) not in env:
            return m.group(0)
        v = env[m.group(1)]
        return repr(v) if isinstance(v, float) else str(v)

    return Located(_PARAM_RE.sub(text, value), node.loc, node.key_loc)


def unresolved(text: str) -> Optional[str]:
    """unresolved returns the first ``${name}`` left in ``text`` (its name), or None."""
    m = _PARAM_RE.search(text)
    return m.group(1) if m else ("" if "${" in text else None)


def _kind_of_child(kind: Optional[str], key: str, node: Optional[Located]) -> Optional[str]:
    """_kind_of_child says which KEYS table the value under ``key`` of a ``kind`` mapping follows."""
    if kind == "top":
        return {"system": "system", "params": "params", "buffers": "buffers", "streams": "streams"}.get(key)
    if kind == "system":
        if key == "gpus":
            return "gpus" if node is None or node.is_mapping else "gpu_list"
        return "link" if key in ("link", "host_link") else None
    if kind == "gpu_list":
        return "gpu"
    if kind == "buffers":
        return "buffer"
    if kind == "streams":
        return "stream"
    return None


def apply_overrides(root: Located, overrides: Mapping[str, Any]) -> Located:
    """apply_overrides returns ``root`` with each dotted key of ``overrides`` set to its value.

    ``system.link.bandwidth_gbps``, ``params.chunk``, ``system.gpus.count``, ``streams.0.gpu``: a
    missing key may be added where the file format knows it (``system.link`` of a file that has none);
    params, buffers and list items must exist. A key the program cannot have raises ProgramError with a
    did-you-mean; the error names the override, whose value sits at a ``<override>`` location.
    """
    for dotted, value in overrides.items():
        # the override as `--set KEY=VALUE` spells it (an empty VALUE is None)
        loc = SourceLoc("<override>", 1, 1, f"{dotted}={'' if value is None else value}")
        parts = str(dotted).split(".")
        if not dotted or any(not p for p in parts):
            raise ProgramError(f"override key {dotted!r} is not a dotted key such as system.link.bandwidth_gbps",
                               loc)
        root = _set(root, "top", parts, 0, from_plain(value, loc, loc), dotted, loc)
    return root


def _set(node: Located, kind: Optional[str], parts: list, k: int, value: Located, dotted: str,
         loc: SourceLoc) -> Located:
    key = parts[k]
    shown = ".".join(parts[:k + 1])
    last = k == len(parts) - 1
    if isinstance(node.value, list):
        if not _INDEX_RE.match(key) or int(key) >= len(node.value):
            raise ProgramError(f"override {dotted}: '{'.'.join(parts[:k]) or 'the program'}' is a list of "
                               f"{len(node.value)}; '{key}' is not an index of it", loc)
        items = list(node.value)
        child = items[int(key)]
        items[int(key)] = value if last else _set(child, _kind_of_child(kind, key, child), parts, k + 1, value,
                                                  dotted, loc)
        return Located(items, node.loc, node.key_loc)
    if not isinstance(node.value, dict):
        raise ProgramError(f"override {dotted}: '{'.'.join(parts[:k])}' is a value, not a mapping with keys",
                           loc)
    present = node.value
    allowed = KEYS.get(kind, ()) if kind not in ("params", "buffers", "streams") else ()
    if key not in present and key not in allowed:
        choices = list(present) + [a for a in allowed if a not in present]
        what, name = ("parameter", key) if kind == "params" else ("key", shown)
        raise ProgramError(f"override {dotted}: the program has no {what} '{name}'", loc,
                           did_you_mean(key, choices) or (f"known: {', '.join(choices)}" if choices else ""))
    items = dict(present)
    if last:
        items[key] = Located(value.value, value.loc, loc)
    else:
        child = present.get(key) or Located({}, loc, loc)
        items[key] = _set(child, _kind_of_child(kind, key, present.get(key)), parts, k + 1, value, dotted, loc)
    return Located(items, node.loc, node.key_loc)
