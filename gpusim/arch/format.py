"""Rendering a resolved architecture as readable YAML, each value's source file noted.

The text loads back (``load_arch_text``) to an equal Arch with the same hash,
so ``gpusim arch show x.yaml > full.yaml`` gives a self-contained file.
"""
from __future__ import annotations

import typing
from collections import Counter
from dataclasses import is_dataclass
from typing import Any, Optional

import yaml

from .loader import OVERRIDE_SOURCE
from .schema import Arch, yaml_fields

_COMMENT_COLUMN = 44


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    elif text.endswith("..."):
        text = text[:-3].rstrip()
    return text


def _printable(text: str) -> str:
    """_printable keeps a comment on its line whatever a file name contains."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _line(indent: int, body: str, comment: str) -> str:
    text = "  " * indent + body
    if comment:
        text = text.ljust(_COMMENT_COLUMN - 1) + " # " + _printable(comment)
    return text


def _main_source(arch: Arch, prefix: str, inherited: Optional[str] = None) -> Optional[str]:
    """_main_source is the file most values below ``prefix`` come from (ties keep ``inherited``)."""
    files = Counter(f for path, f in arch.provenance.items()
                    if not prefix or path.startswith(prefix + "."))
    if not files:
        return None
    top = max(files.values())
    if inherited is not None and files.get(inherited) == top:
        return inherited
    return next(f for f, n in files.items() if n == top)


def _describe(source: str) -> str:
    return "override" if source == OVERRIDE_SOURCE else f"from {source}"


def _ordered_fields(cls) -> list:
    """_ordered_fields puts ``description`` right after ``name`` for reading."""
    fs = yaml_fields(cls)
    names = [f.name for f in fs]
    if "name" in names and "description" in names:
        desc = fs.pop(names.index("description"))
        fs.insert([f.name for f in fs].index("name") + 1, desc)
    return fs


def format_arch(arch: Arch, *, docs: bool = False) -> str:
    """format_arch renders every key of ``arch`` as YAML with provenance comments.

    A section line names the file most of its values come from; a value from
    another file (an ``extends`` child or an override) names its own. With
    ``docs`` each key also carries its one-line description from the schema.
    """
    out = [f"# {_printable(arch.name)}: fully resolved architecture",
           f"# resolved from: {_printable(' <- '.join(arch.sources)) or 'overrides'}",
           f"# sha256: {arch.hash()}"]
    root_source = _main_source(arch, "")
    if root_source:
        out.append(f"# values {_printable(_describe(root_source))} unless a comment names "
                   f"another source")
    _emit(arch, arch, "", 0, root_source, docs, out)
    return "\n".join(out) + "\n"


def _emit(arch: Arch, obj: Any, prefix: str, indent: int, section_source: Optional[str],
          docs: bool, out: list) -> None:
    hints = typing.get_type_hints(type(obj))
    for f in _ordered_fields(type(obj)):
        path = f"{prefix}{f.name}"
        value = getattr(obj, f.name)
        note = [f.metadata.get("doc", "")] if docs else []
        if is_dataclass(hints[f.name]):
            source = _main_source(arch, path, section_source)
            if source and source != section_source:
                note.append(_describe(source))
            if not prefix:
                out.append("")
            out.append(_line(indent, f"{f.name}:", "; ".join(note)))
            _emit(arch, value, path + ".", indent + 1, source or section_source, docs, out)
            continue
        source = arch.provenance.get(path)
        if source and source != section_source:
            note.append(_describe(source))
        out.append(_line(indent, f"{f.name}: {_scalar(value)}", "; ".join(note)))
