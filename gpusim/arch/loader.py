"""Loading architecture YAML files into validated :class:`~gpusim.arch.schema.Arch` objects.

A file is read with ``yaml.compose`` so every key and value keeps its exact
line and column; ``extends: <name or path>`` merges the file over its parent
section by section (mappings merge key by key, any other value replaces the
parent's); the merged tree is then checked against the schema. Every problem
raises :class:`~gpusim.errors.ArchError` naming the key path and the
``file:line:col`` where the offending key (or value) was written.
"""
from __future__ import annotations

import functools
import math
import os
import types
import typing
from dataclasses import MISSING, is_dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from gpusim.errors import ArchError, SourceLoc, did_you_mean
from gpusim.located_yaml import Located as _Src, load_plain, one_line as _one_line, quote as _q, read_located
from gpusim.resources import data_dir

from .schema import Arch, yaml_fields

_SUFFIXES = (".yaml", ".yml")
OVERRIDE_SOURCE = "<override>"


def builtin_arch_names() -> list:
    """builtin_arch_names lists the shipped architectures, e.g. ['cdna2', 'cdna3', 'examples/...']."""
    names = []
    try:
        root = data_dir("archs")
    except FileNotFoundError:
        return names
    for path in sorted(root.rglob("*")):
        if path.suffix in _SUFFIXES and path.is_file():
            names.append(path.relative_to(root).with_suffix("").as_posix())
    return sorted(names, key=lambda n: (n.count("/"), n))


def _builtin_path(name: str) -> Optional[Path]:
    """_builtin_path finds a shipped file by name ('cdna3', 'examples/x' or just 'x')."""
    names = builtin_arch_names()
    if name in names:
        chosen = name
    else:
        by_stem = [n for n in names if n.rsplit("/", 1)[-1] == name]
        if len(by_stem) != 1:
            return None
        chosen = by_stem[0]
    root = data_dir("archs")
    for suffix in _SUFFIXES:
        candidate = root / (chosen + suffix)
        if candidate.is_file():
            return candidate
    return None


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.endswith(_SUFFIXES)


def _unknown_arch(ref: str, loc: Optional[SourceLoc], what: str) -> ArchError:
    names = builtin_arch_names()
    stems = names + [n.rsplit("/", 1)[-1] for n in names]
    return ArchError(f"{what} {_q(ref)}; built-in architectures: {', '.join(names) or 'none'}",
                     loc, did_you_mean(ref, stems))


def _display(path: Path) -> str:
    """_display names a file relative to the working directory when it lies below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@functools.lru_cache(maxsize=32)
def _read_tree(text: str, display: str) -> _Src:
    """_read_tree reads one architecture file's YAML into a located tree whose root is a mapping.

    Memoised on the text and its display name: parsing the located YAML of cdna3.yaml takes about 0.1 s,
    which every ``simulate(kernel, "cdna3")`` paid again (7% of a timed 8M-element saxpy). A cached tree is
    shared, so nothing may mutate it: ``_merge`` builds new mappings, and only those are written to.
    """
    tree = read_located(text, display, ArchError, "architecture file")
    if not tree.is_mapping:
        raise ArchError("an architecture file must be a mapping of sections "
                        "(name: ..., gpu: ..., cu: ...)", tree.loc)
    return tree


def _read_file(path: Path) -> _Src:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ArchError(f"{_display(path)} is not UTF-8 text ({err.reason})",
                        SourceLoc(_display(path), 1)) from None
    except OSError as err:
        raise ArchError(f"cannot read {_display(path)}: {err.strerror or err}") from None
    return _read_tree(text, _display(path))


def _merge(parent: _Src, child: _Src) -> _Src:
    """_merge lays child over parent: mappings key by key, anything else replaces."""
    if not (parent.is_mapping and child.is_mapping):
        return child
    merged = dict(parent.value)
    for key, value in child.value.items():
        merged[key] = _merge(parent.value[key], value) if key in parent.value else value
    return _Src(merged, child.loc, child.key_loc or parent.key_loc)


def _resolve_tree(tree: _Src, path: Optional[Path], base_dir: Path, chain: tuple) -> tuple:
    """_resolve_tree applies ``extends`` recursively; returns (tree, files child-first)."""
    here = (_display(path),) if path else ()
    extends = tree.value.get("extends")
    if extends is None:
        return tree, here
    own = {k: v for k, v in tree.value.items() if k != "extends"}
    tree = _Src(own, tree.loc, tree.key_loc)
    if not isinstance(extends.value, str) or not extends.value.strip():
        raise ArchError("extends: expected the name or path of an architecture file",
                        extends.loc)
    ref = extends.value.strip()
    if _looks_like_path(ref):
        parent_path = (base_dir / ref).resolve()
        if not parent_path.is_file():
            raise _unknown_arch(ref, extends.loc, f"extends: no file {_display(parent_path)} for")
    else:
        found = _builtin_path(ref)
        if found is None:
            error = _unknown_arch(ref, extends.loc, "extends: unknown architecture")
            if any((base_dir / (ref + suffix)).is_file() for suffix in _SUFFIXES):
                error.hint = f"a bare name is a built-in; for the file beside this one " \
                             f"write 'extends: ./{ref}.yaml'"
            raise error
        parent_path = found.resolve()
    if parent_path in chain:
        cycle = " -> ".join(_display(p) for p in chain + (parent_path,))
        raise ArchError(f"extends: cycle {cycle}", extends.loc)
    parent_tree, parent_files = _resolve_tree(_read_file(parent_path), parent_path,
                                              parent_path.parent, chain + (parent_path,))
    merged = _merge(parent_tree, tree)
    if "name" not in own and path is not None:
        merged.value["name"] = _Src(path.stem, tree.loc, tree.loc)
    return merged, here + parent_files


def _suggest(word: str, choices) -> str:
    """_suggest is did_you_mean, falling back to a key that extends or shortens ``word``."""
    choices = list(choices)
    hint = did_you_mean(word, choices)
    if hint or not word:
        return hint
    near = [c for c in choices if c.startswith(word) or word.startswith(c)]
    return f"did you mean '{near[0]}'?" if len(near) == 1 else ""


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"{_q(value)} (text)"
    return f"{value!r} ({type(value).__name__})"


def _fail(path: str, message: str, where: Optional[SourceLoc], hint: str = "") -> ArchError:
    return ArchError(f"{path}: {message}" if path else message, where, hint)


def _convert_leaf(ftype: Any, meta: Mapping, src: _Src, path: str) -> Any:
    value = src.value
    where = src.loc
    choices = meta.get("choices")
    if ftype is bool:
        if not isinstance(value, bool):
            raise _fail(path, f"expected true or false, got {_type_name(value)}", where)
        return value
    if ftype is int:
        minimum, maximum = meta.get("min"), meta.get("max")
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and math.isfinite(value) and value.is_integer() \
                    and (maximum is None or abs(value) <= maximum):
                raise _fail(path, f"expected an integer, got {value!r}; write "
                                  f"{int(value)}", where)
            raise _fail(path, f"expected an integer, got {_type_name(value)}", where)
        if choices is not None and value not in choices:
            raise _fail(path, f"{value} is not one of {', '.join(map(str, choices))}", where)
        if minimum is not None and value < minimum:
            raise _fail(path, f"must be >= {minimum}, got {value}", where)
        if maximum is not None and value > maximum:
            shown = value if len(str(value)) <= 24 else f"a {len(str(value))}-digit number"
            raise _fail(path, f"must be <= {maximum:_}, got {shown}", where)
        if meta.get("pow2") and value & (value - 1):
            raise _fail(path, f"must be a power of two, got {value}", where)
        return value
    if ftype is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise _fail(path, f"expected a number, got {_type_name(value)}", where)
        minimum, maximum = meta.get("min"), meta.get("max")
        if minimum is not None and value < minimum:
            raise _fail(path, f"must be >= {minimum}, got {value}", where)
        if maximum is not None and value > maximum:
            raise _fail(path, f"must be <= {maximum}, got {value}", where)
        return float(value)
    if ftype is str:
        if not isinstance(value, str):
            raise _fail(path, f"expected text, got {_type_name(value)}", where)
        if choices is not None and value not in choices:
            raise _fail(path, f"{_q(value)} is not one of {', '.join(choices)}", where,
                        did_you_mean(value, choices))
        return value
    if ftype is tuple:
        if not isinstance(value, list):
            raise _fail(path, f"expected a list like [{', '.join(choices or ())}], got "
                              f"{_type_name(value)}", where)
        items = []
        for i, item in enumerate(value):
            if not isinstance(item.value, str):
                raise _fail(f"{path}[{i}]", f"expected a name, got {_type_name(item.value)}",
                            item.loc)
            if choices is not None and item.value not in choices:
                raise _fail(f"{path}[{i}]", f"{_q(item.value)} is not one of "
                                            f"{', '.join(choices)}", item.loc,
                            did_you_mean(item.value, choices))
            items.append(item.value)
        return tuple(items)
    raise TypeError(f"schema field {path} has unsupported type {ftype!r}")


def _locate(src: _Src, rel: str) -> Optional[SourceLoc]:
    """_locate finds where the key ``rel`` (dotted, relative to src) was written."""
    node = src
    for part in rel.split("."):
        if not node.is_mapping or part not in node.value:
            break
        node = node.value[part]
    return node.where


def _build(cls, src: _Src, path: str, provenance: dict) -> Any:
    """_build checks src against the dataclass cls and constructs it; path is cls's key path."""
    if not src.is_mapping:
        raise _fail(path, f"expected a section of keys, got {_type_name(src.value)}", src.loc)
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in yaml_fields(cls)}
    for key, child in src.value.items():
        if key not in known:
            where = f"in {path}" if path else "at the top level"
            raise ArchError(f"unknown key {_q(key)} {where}", child.key_loc,
                            _suggest(key, known))
    kwargs = {}
    for name, f in known.items():
        sub = f"{path}.{name}" if path else name
        if name not in src.value:
            if f.default is not MISSING:
                continue
            raise ArchError(f"missing key '{sub}' ({f.metadata['doc']})", src.where)
        child = src.value[name]
        ftype = hints[name]
        if is_dataclass(ftype):
            kwargs[name] = _build(ftype, child, sub, provenance)
        else:
            kwargs[name] = _convert_leaf(ftype, f.metadata, child, sub)
            where = child.where
            provenance[sub] = where.file if where else OVERRIDE_SOURCE
    obj = cls(**kwargs)
    for key, message in obj.problems():
        full = f"{path}.{key}" if path else key
        raise ArchError(f"{full}: {message}", _locate(src, key) or src.where)
    return obj


def _finish(tree: _Src, files: tuple) -> Arch:
    provenance: dict = {}
    arch = _build(Arch, tree, "", provenance)
    return _with_bookkeeping(arch, files, provenance)


def _with_bookkeeping(arch: Arch, files: tuple, provenance: Mapping[str, str]) -> Arch:
    """_with_bookkeeping fills a freshly built Arch's non-compared bookkeeping fields.

    Only called on an Arch no one else holds yet, so bypassing frozenness is safe.
    """
    object.__setattr__(arch, "sources", tuple(files))
    object.__setattr__(arch, "provenance", types.MappingProxyType(dict(provenance)))
    return arch


def load_arch(name_or_path: Union[str, os.PathLike, Arch]) -> Arch:
    """load_arch reads, merges and validates an architecture; raises ArchError on any problem.

    ``name_or_path`` is a shipped name ('cdna3', 'cdna2', 'examples/cdna3_2x_lds'
    or just 'cdna3_2x_lds'), a path to a YAML file, or an Arch (returned as is).
    An existing file wins over a shipped name of the same spelling.
    """
    if isinstance(name_or_path, Arch):
        return name_or_path
    if not isinstance(name_or_path, (str, os.PathLike)) \
            or not isinstance(os.fspath(name_or_path), str):
        raise ArchError(f"an architecture is named by text or a path, got {name_or_path!r}")
    ref = os.fspath(name_or_path)
    as_path = Path(ref)
    found = None if isinstance(name_or_path, os.PathLike) else _builtin_path(ref)
    if as_path.is_file():
        path = as_path.resolve()
    elif found is not None:
        path = found.resolve()
    elif isinstance(name_or_path, os.PathLike) or _looks_like_path(ref):
        raise _unknown_arch(ref, None, "no architecture file")
    else:
        raise _unknown_arch(ref, None, "unknown architecture")
    tree, files = _resolve_tree(_read_file(path), path, path.parent, (path,))
    return _finish(tree, files)


def load_arch_text(text: str, filename: str = "<text>",
                   base_dir: Union[str, os.PathLike, None] = None) -> Arch:
    """load_arch_text is load_arch for YAML held in a string.

    ``filename`` is what error locations name; a relative ``extends`` path is
    resolved against ``base_dir`` (default: the working directory).
    """
    tree = _read_tree(text, filename)
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    tree, files = _resolve_tree(tree, None, base, ())
    return _finish(tree, (filename,) + files)


def _from_python(value: Any) -> _Src:
    """_from_python wraps a plain Python value as an unlocated _Src tree."""
    if isinstance(value, Mapping):
        return _Src({str(k): _from_python(v) for k, v in value.items()}, None)
    if isinstance(value, (list, tuple)):
        return _Src([_from_python(v) for v in value], None)
    return _Src(value, None)


def _leaf_paths(value: Any, prefix: str) -> list:
    """_leaf_paths lists the dotted key paths a (possibly nested) override value sets."""
    if isinstance(value, Mapping) and value:
        return [p for k, v in value.items() for p in _leaf_paths(v, f"{prefix}.{k}")]
    return [prefix]


def arch_overrides(arch: Arch, overrides: Mapping[str, Any]) -> Arch:
    """arch_overrides returns a new validated Arch with some keys replaced; ``arch`` is unchanged.

    Keys are dotted paths (``{"cu.lds.size_bytes": 131072}``); a section path
    with a dict value merges into that section. A text value for a key that
    is not text is read as YAML (``"131072"`` -> 131072), so CLI strings can
    be passed straight through. Unknown paths and invalid values raise ArchError.
    """
    if not isinstance(overrides, Mapping):
        raise ArchError(f"overrides must be a mapping of key path -> value, got "
                        f"{_type_name(overrides)}")
    tree = _from_python(arch.to_dict())
    provenance = dict(arch.provenance)
    for key, value in overrides.items():
        if not isinstance(key, str) or not key:
            raise ArchError(f"override key must be a dotted key path like "
                            f"'cu.lds.size_bytes', got {key!r}")
        node = tree
        parts = key.split(".")
        for depth, part in enumerate(parts):
            if not node.is_mapping or part not in node.value:
                where = ".".join(parts[:depth]) or "the top level"
                choices = node.value.keys() if node.is_mapping else ()
                raise ArchError(f"override {_q(key)}: unknown key {_q(part)} in {where}", None,
                                _suggest(part, choices))
            if depth < len(parts) - 1:
                node = node.value[part]
        old = node.value[parts[-1]]
        if isinstance(value, str) and not isinstance(old.value, str):
            try:
                value = load_plain(value, "override", ArchError)
            except ArchError as err:
                raise ArchError(f"override {_q(key)}: cannot read {value!r} as a YAML value "
                                f"({_one_line(err.message)})") from None
        new = _from_python(value)
        node.value[parts[-1]] = _merge(old, new) if old.is_mapping else new
        for path in _leaf_paths(value, key):
            provenance[path] = OVERRIDE_SOURCE
    built: dict = {}
    result = _build(Arch, tree, "", built)
    merged = {path: provenance.get(path, OVERRIDE_SOURCE) for path in built}
    return _with_bookkeeping(result, arch.sources, merged)
