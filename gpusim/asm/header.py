"""The launch header: ``; gpusim-launch/arg/check`` comment lines and CLI overrides.

Grammar (see DESIGN.md, "Input: real assembly plus a launch header")::

    ; gpusim-launch: grid=X,Y,Z block=X,Y,Z
    ; gpusim-arg: NAME buffer DTYPE[SHAPE] [init=...] [seed=N] [out]
      SHAPE: sizes, or expressions of integer scalar arguments: f32[n], f16[m*k], u8[(n+3)//4]
    ; gpusim-arg: NAME DTYPE VALUE
    ; gpusim-check: EXPR ~= EXPR [rtol=.. atol=..]
    ; gpusim-check: EXPR == EXPR

EXPR is the safe expression language of :mod:`gpusim.check_expr`; a check
line outside it is refused here, when the file is read. Every mistake is a
:class:`HeaderError` pointing at the offending text.
"""
from __future__ import annotations

import ast
import dataclasses
import keyword
import math
import re
from typing import Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from gpusim.asm.ir import NUMPY_DTYPES, ArgSpec, AsmModule, CheckSpec, LaunchSpec
from gpusim.asm.lexer import HeaderLine
from gpusim.asm.shape_expr import ShapeSyntaxError, eval_shape, names_in, parse_shape
from gpusim.check_expr import CheckExprError
from gpusim.check_expr import validate as validate_check_expr
from gpusim.errors import HeaderError, SourceLoc, did_you_mean

DTYPES = tuple(NUMPY_DTYPES)
INT_RANGES = {
    "i8": (-(1 << 7), (1 << 7) - 1), "u8": (0, (1 << 8) - 1),
    "i16": (-(1 << 15), (1 << 15) - 1), "u16": (0, (1 << 16) - 1),
    "i32": (-(1 << 31), (1 << 31) - 1), "u32": (0, (1 << 32) - 1),
    "i64": (-(1 << 63), (1 << 63) - 1), "u64": (0, (1 << 64) - 1),
}
FLOAT_MAX = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38,
             "f64": 1.7976931348623157e308}
# initialiser name -> number of parameters
INITS = {"zeros": 0, "ones": 0, "arange": 0, "perm": 0, "cycle": 0, "cycle_offsets": 0,
         "uniform": 2, "normal": 2, "randint": 2, "value": 1}
KEYWORDS = ("launch", "arg", "check")
MAX_BLOCK = 1024
_MAX_DIM = (1 << 31) - 1
_MAX_GRID_ITEMS = (1 << 32) - 1   # an HSA dispatch packet's grid_size_x/y/z are 32-bit work-item counts
ITEM_BYTES = {name: np.dtype(t).itemsize for name, t in NUMPY_DTYPES.items()}
MAX_BUFFER_BYTES = 16 << 30   # all buffers of a launch together: what a host can hold, not a toy limit
MAX_KERNARG_BYTES = 1 << 20   # a kernarg segment a descriptor or metadata may ask for (far above any real one)

_KEYWORD_RE = re.compile(r"gpusim-([\w-]*)[ \t]*(:?)")
_KV_RE = re.compile(r"([A-Za-z_]\w*)[ \t]*=[ \t]*((?:[^\s,=]+)(?:[ \t]*,[ \t]*[^\s,=]+)*)")
_NAME_RE = re.compile(r"[A-Za-z_]\w*$")
_BUFFER_TYPE_RE = re.compile(r"([A-Za-z_]\w*)\[(.*)\]$", re.S)
_INIT_RE = re.compile(r"([A-Za-z_]\w*)(?:\((.*)\))?$", re.S)
_INT_RE = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0|[1-9][0-9]*)$")
_OPTION_RE = re.compile(r"[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*(\S+)[ \t]*$")
MAX_LINE = 4096


def _int_value(text: str) -> int:
    """_int_value converts a literal that matched _INT_RE; absurdly long ones become too large to use."""
    if len(text) > 64:
        return 1 << 256 if not text.startswith("-") else -(1 << 256)
    return int(text, 0)


class _Ctx:
    """_Ctx locates offsets of one header line's body for error messages."""

    def __init__(self, hl: HeaderLine):
        self.hl = hl

    def loc(self, offset: int = 0) -> SourceLoc:
        hl = self.hl
        return SourceLoc(hl.file, hl.lineno, hl.col + offset, hl.text)

    def error(self, msg: str, offset: int = 0, hint: str = "") -> HeaderError:
        return HeaderError(msg, self.loc(offset), hint)


def parse_header_lines(lines: Iterable[HeaderLine]) -> tuple[Optional[LaunchSpec], list[ArgSpec], list[CheckSpec]]:
    """parse_header_lines reads every ``; gpusim-*`` line into a launch, args and checks.

    Raises HeaderError for a malformed line, a duplicate launch line or a
    duplicate argument name, and for a check expression outside the safe
    language of :mod:`gpusim.check_expr` (unknown names included).
    """
    launch: Optional[LaunchSpec] = None
    args: list[ArgSpec] = []
    checks: list[tuple[CheckSpec, _Ctx, int, int, ast.AST, ast.AST]] = []
    seen: dict[str, ArgSpec] = {}
    shapes: dict[str, list] = {}   # buffer name -> [(dimension, parsed expression, offset)] of named shapes
    for hl in lines:
        ctx = _Ctx(hl)
        if len(hl.body) > MAX_LINE:
            raise ctx.error(f"header line is longer than {MAX_LINE} characters")
        m = _KEYWORD_RE.match(hl.body)
        if m is None:  # pragma: no cover - the lexer only hands over gpusim- lines
            raise ctx.error("malformed gpusim header line")
        key = m.group(1)
        if key not in KEYWORDS:
            raise ctx.error(f"unknown header keyword 'gpusim-{key}'", 0,
                            did_you_mean(key, KEYWORDS).replace("'", "'gpusim-", 1))
        if not m.group(2):
            raise ctx.error(f"expected ':' after 'gpusim-{key}'", m.end())
        start = m.end()
        rest = hl.body[start:]
        if key == "launch":
            if launch is not None:
                raise ctx.error(f"duplicate gpusim-launch line (first at line {launch.loc.line})")
            launch = _parse_launch(rest, start, ctx)
        elif key == "arg":
            spec = _parse_arg(rest, start, ctx, shapes)
            if spec.name in seen:
                raise ctx.error(f"duplicate argument '{spec.name}' (first at line {seen[spec.name].loc.line})",
                                start + (len(rest) - len(rest.lstrip())))
            seen[spec.name] = spec
            args.append(spec)
        else:
            checks.append(_parse_check(rest, start, ctx))
    args = _resolve_shapes(args, shapes)
    check_buffer_memory(args, lambda msg, spec: HeaderError(msg, spec.loc))
    names = frozenset(seen)
    for spec, ctx, lhs_off, rhs_off, lhs_tree, rhs_tree in checks:
        _check_names(lhs_tree, lhs_off, names, ctx)
        _check_names(rhs_tree, rhs_off, names, ctx)
    return launch, args, [c[0] for c in checks]


# -- launch ---------------------------------------------------------------
def _parse_launch(rest: str, base: int, ctx: _Ctx) -> LaunchSpec:
    found: dict[str, tuple[int, int, int]] = {}
    pos = 0
    n = len(rest)
    while True:
        while pos < n and rest[pos] in " \t":
            pos += 1
        if pos >= n:
            break
        m = _KV_RE.match(rest, pos)
        if m is None:
            raise ctx.error(f"expected grid=X,Y,Z or block=X,Y,Z, found '{rest[pos:].split()[0]}'", base + pos)
        key = m.group(1)
        if key not in ("grid", "block", "lds"):
            raise ctx.error(f"unknown launch parameter '{key}'", base + pos,
                            did_you_mean(key, ("grid", "block", "lds")))
        if key in found:
            raise ctx.error(f"duplicate '{key}='", base + pos)
        err = lambda msg, off=base + m.start(2): ctx.error(msg, off)   # noqa: E731
        found[key] = _parse_lds(m.group(2), err) if key == "lds" else _parse_dims3(m.group(2), key, err)
        pos = m.end()
    for key in ("grid", "block"):
        if key not in found:
            raise ctx.error(f"gpusim-launch needs '{key}=X,Y,Z'", base)
    _check_block(found["block"], lambda msg: ctx.error(msg, base))
    _check_grid_size(found["grid"], found["block"], lambda msg: ctx.error(msg, base))
    return LaunchSpec(grid=found["grid"], block=found["block"], loc=ctx.loc(), lds=found.get("lds", 0))


def _parse_lds(text: str, err) -> int:
    """_parse_lds reads ``lds=BYTES``: the dynamic LDS a launch asks for beside the kernel's static
    ``.amdhsa_group_segment_fixed_size`` (hipLaunchKernel's sharedMemBytes; Triton's ``metadata.shared``)."""
    if not _INT_RE.match(text.strip()):
        raise err(f"lds= takes a byte count, not '{text}'")
    value = _int_value(text.strip())
    if value < 0 or value > 1 << 20:
        raise err(f"lds={text} is out of range (0 to 1 MiB)")
    return value


def _parse_dims3(text: str, what: str, err) -> tuple[int, int, int]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > 3:
        raise err(f"'{what}' takes at most three sizes, got {len(parts)}")
    dims = [_parse_size(p, what, err) for p in parts]
    while len(dims) < 3:
        dims.append(1)
    return dims[0], dims[1], dims[2]


def _parse_size(text: str, what: str, err) -> int:
    """_parse_size reads a positive integer or a product of them (``4096*4096``)."""
    if not text:
        raise err(f"empty size in '{what}'")
    value = 1
    for factor in text.split("*"):
        factor = factor.strip()
        if not _INT_RE.match(factor):
            raise err(f"malformed size '{text}' in '{what}'")
        v = _int_value(factor)
        if v <= 0:
            raise err(f"size in '{what}' must be positive, got '{text}'")
        value *= v
        if value > _MAX_DIM:
            raise err(f"size '{text}' in '{what}' is too large")
    return value


def _check_block(block: tuple[int, int, int], err) -> None:
    total = block[0] * block[1] * block[2]
    if total > MAX_BLOCK:
        raise err(f"block of {total} work-items exceeds the maximum of {MAX_BLOCK}")


def _check_grid_size(grid: tuple[int, int, int], block: tuple[int, int, int], err) -> None:
    """_check_grid_size refuses a launch whose grid, in work-items, does not fit the dispatch packet's
    32-bit sizes (grid x block per dimension, as HSA counts it)."""
    for axis, g, b in zip("xyz", grid, block):
        if g * b > _MAX_GRID_ITEMS:
            raise err(f"grid {axis}: {g} workgroups x {b} work-items = {g * b:,} work-items, over the "
                      f"{_MAX_GRID_ITEMS:,} a dispatch can address")


# -- args -----------------------------------------------------------------
def _split_words(text: str, base: int, ctx: _Ctx) -> list[tuple[str, int]]:
    """_split_words splits on whitespace outside () and []; returns (word, offset) pairs."""
    words: list[tuple[str, int]] = []
    depth = 0
    start = None
    opener = []
    for k, ch in enumerate(text):
        if ch in " \t" and depth == 0:
            if start is not None:
                words.append((text[start:k], base + start))
                start = None
            continue
        if start is None:
            start = k
        if ch in "([":
            depth += 1
            opener.append(k)
        elif ch in ")]":
            if depth == 0:
                raise ctx.error(f"unbalanced '{ch}'", base + k)
            depth -= 1
            opener.pop()
    if depth:
        raise ctx.error("unbalanced bracket: missing ')' or ']'", base + opener[-1])
    if start is not None:
        words.append((text[start:], base + start))
    return words


def _check_arg_name(name: str, off: int, ctx: _Ctx) -> None:
    if not _NAME_RE.match(name):
        raise ctx.error(f"invalid argument name '{name}'", off)
    if name in DTYPES or name in ("np", "numpy") or keyword.iskeyword(name):
        raise ctx.error(f"argument name '{name}' is reserved (a dtype, np or a Python keyword)", off)


def _dtype_error(word: str, off: int, ctx: _Ctx, extra: Sequence[str] = ()) -> HeaderError:
    hint = did_you_mean(word, tuple(DTYPES) + tuple(extra)) or f"dtypes are {' '.join(DTYPES)}"
    return ctx.error(f"unknown dtype '{word}'", off, hint)


def _parse_arg(rest: str, base: int, ctx: _Ctx, shapes: dict) -> ArgSpec:
    words = _split_words(rest, base, ctx)
    if len(words) < 2:
        raise ctx.error("gpusim-arg needs 'NAME buffer DTYPE[SHAPE] ...' or 'NAME DTYPE VALUE'",
                        words[0][1] if words else base)
    name, noff = words[0]
    _check_arg_name(name, noff, ctx)
    kind, koff = words[1]
    if kind == "buffer":
        return _parse_buffer(name, words[2:], koff, noff, ctx, shapes)
    if kind not in DTYPES:
        m = _BUFFER_TYPE_RE.match(kind)
        if m and m.group(1) in DTYPES:
            raise ctx.error(f"missing 'buffer' before '{kind}'", koff)
        raise _dtype_error(kind, koff, ctx, ("buffer",))
    if len(words) < 3:
        raise ctx.error(f"scalar argument '{name}' needs a value", koff + len(kind))
    if len(words) > 3:
        raise ctx.error(f"unexpected '{words[3][0]}' after the value of scalar argument '{name}'", words[3][1])
    text, voff = words[2]
    value = parse_scalar(kind, text, lambda msg: ctx.error(msg, voff))
    return ArgSpec(name=name, kind="scalar", dtype=kind, value=value, loc=ctx.loc(noff))


def _parse_buffer(name: str, words: list[tuple[str, int]], koff: int, noff: int, ctx: _Ctx,
                  shapes: dict) -> ArgSpec:
    if not words:
        raise ctx.error(f"buffer '{name}' needs DTYPE[SHAPE]", koff + len("buffer"))
    tword, toff = words[0]
    m = _BUFFER_TYPE_RE.match(tword)
    if m is None:
        if tword in DTYPES:
            raise ctx.error(f"buffer '{name}' needs a shape: {tword}[N] or {tword}[N,M]", toff + len(tword))
        raise ctx.error(f"expected DTYPE[SHAPE] for buffer '{name}', found '{tword}'", toff)
    dtype = m.group(1)
    if dtype not in DTYPES:
        raise _dtype_error(dtype, toff, ctx)
    shape_text = m.group(2)
    soff = toff + len(dtype) + 1
    if not shape_text.strip():
        raise ctx.error(f"empty shape for buffer '{name}'", soff)
    shape = []
    exprs = []
    off = soff
    for dim, part in enumerate(shape_text.split(",")):
        text = part.strip()
        lead = off + len(part) - len(part.lstrip())
        if _is_literal_size(text):
            shape.append(_parse_size(text, "shape", lambda msg, o=off: ctx.error(msg, o)))
        else:   # names scalar arguments: computed once every argument is known (_resolve_shapes)
            try:
                node = parse_shape(text)
            except ShapeSyntaxError as e:
                raise ctx.error(e.message, lead + e.offset) from None
            shapes.setdefault(name, []).append((dim, node, lead, ctx))
            shape.append(0)
        exprs.append(text)
        off += len(part) + 1
    init, params, seed, out = "zeros", (), 0, False
    seen: set[str] = set()
    for word, woff in words[1:]:
        if word == "out":
            key = "out"
        else:
            key, eq, value = word.partition("=")
            if not eq:
                raise ctx.error(f"unknown buffer option '{word}'", woff, did_you_mean(word, ("init", "seed", "out")))
            if key not in ("init", "seed"):
                raise ctx.error(f"unknown buffer option '{key}'", woff, did_you_mean(key, ("init", "seed", "out")))
        if key in seen:
            raise ctx.error(f"duplicate option '{key}'", woff)
        seen.add(key)
        if key == "out":
            out = True
        elif key == "seed":
            vtext = value.strip()
            if not _INT_RE.match(vtext) or _int_value(vtext) < 0:
                raise ctx.error(f"seed must be a non-negative integer, got '{vtext}'", woff + 5)
            seed = _int_value(vtext)
            if seed >= 1 << 64:
                raise ctx.error(f"seed '{vtext}' is too large", woff + 5)
        else:
            init, params = _parse_init(value.strip(), woff + 5, ctx)
            if init == "randint":
                _check_randint_fits(params, dtype, woff + 5, ctx)
            if init == "cycle_offsets" and dtype not in INT_RANGES:
                raise ctx.error(f"init 'cycle_offsets' holds byte offsets: it needs an integer buffer, not {dtype}",
                                woff + 5)
    return ArgSpec(name=name, kind="buffer", dtype=dtype, shape=tuple(shape), init=init,
                   init_params=params, seed=seed, out=out, loc=ctx.loc(noff),
                   shape_exprs=tuple(exprs) if name in shapes else ())


def _is_literal_size(text: str) -> bool:
    """_is_literal_size says whether a dimension is a plain size or a product of sizes (``4096*4096``)."""
    return bool(text) and all(_INT_RE.match(f.strip()) for f in text.split("*"))


def _integer_scalars(args: Sequence[ArgSpec]) -> dict:
    """_integer_scalars maps each integer scalar argument's name to its value (what a shape may name)."""
    return {a.name: a.value for a in args if a.kind == "scalar" and a.dtype in INT_RANGES}


def _shape_value(node, values: Mapping[str, int], text: str, buffer: str, err) -> int:
    """_shape_value computes one dimension and checks it is a usable size; ``err(msg, offset)`` builds errors."""
    value = eval_shape(node, values, err)
    if not 0 < value <= _MAX_DIM:
        named = ", ".join(f"{n}={values[n]}" for n in dict.fromkeys(n for n, _ in names_in(node)))
        raise err(f"shape '{text}' of buffer '{buffer}' is {value} with {named}; a size must be 1.."
                  f"{_MAX_DIM}", 0)
    return value


def _resolve_shapes(args: list, shapes: dict) -> list:
    """_resolve_shapes fills in the dimensions that name scalar arguments, at parse time (errors located)."""
    if not shapes:
        return args
    values = _integer_scalars(args)
    others = {a.name: a for a in args if a.name not in values}
    out = []
    for spec in args:
        if spec.name not in shapes:
            out.append(spec)
            continue
        shape = list(spec.shape)
        for dim, node, off, ctx in shapes[spec.name]:
            for name, noff in names_in(node):
                if name in values:
                    continue
                if name in others:
                    what = "a buffer" if others[name].kind == "buffer" else f"a {others[name].dtype} argument"
                    raise ctx.error(f"shape names '{name}', {what}; a shape takes integer scalar arguments",
                                    off + noff)
                raise ctx.error(f"unknown name '{name}' in the shape of buffer '{spec.name}'", off + noff,
                                did_you_mean(name, values) or _known_integers(values))
            shape[dim] = _shape_value(node, values, spec.shape_exprs[dim], spec.name,
                                      lambda msg, o, c=ctx, base=off: c.error(msg, base + o))
        out.append(dataclasses.replace(spec, shape=tuple(shape)))
    return out


def _known_integers(values: Mapping[str, int]) -> str:
    names = list(values)
    return f"integer arguments: {', '.join(names)}" if names else "the header declares no integer arguments"


def check_buffer_memory(args: Sequence[ArgSpec], err) -> None:
    """check_buffer_memory refuses buffers that need more than MAX_BUFFER_BYTES together.

    ``err(message, spec)`` builds the exception, ``spec`` being the largest buffer.
    """
    buffers = [a for a in args if a.kind == "buffer"]
    sizes = [math.prod(a.shape) * ITEM_BYTES[a.dtype] for a in buffers]
    total = sum(sizes)
    if total > MAX_BUFFER_BYTES:
        largest = buffers[sizes.index(max(sizes))]
        raise err(f"the buffers need {total:,} bytes together, over gpusim's limit of {MAX_BUFFER_BYTES:,} "
                  f"({MAX_BUFFER_BYTES >> 30} GiB); the largest is '{largest.name}' {largest.dtype}"
                  f"[{','.join(map(str, largest.shape))}] ({max(sizes):,} bytes)", largest)


def _parse_init(text: str, off: int, ctx: _Ctx) -> tuple[str, tuple[float, ...]]:
    m = _INIT_RE.match(text)
    if m is None:
        raise ctx.error(f"malformed init '{text}'; expected e.g. uniform(-1,1)", off)
    name, body = m.group(1), m.group(2)
    if name not in INITS:
        raise ctx.error(f"unknown init '{name}'", off, did_you_mean(name, INITS))
    want = INITS[name]
    if body is None:
        if want:
            plural = "s" if want > 1 else ""
            raise ctx.error(f"init '{name}' needs {want} parameter{plural}: {name}({_example(name)})", off)
        return name, ()
    parts = [p.strip() for p in body.split(",")] if body.strip() else []
    if len(parts) != want:
        raise ctx.error(f"init '{name}' takes {want} parameter{'s' if want != 1 else ''}, got {len(parts)}", off)
    vals = []
    for p in parts:
        v = _parse_float(p)
        if v is None or math.isnan(v):
            raise ctx.error(f"malformed number '{p}' in init '{name}'", off)
        vals.append(v)
    if name == "randint":
        if not all(float(v).is_integer() for v in vals):
            raise ctx.error("init randint(lo,hi) needs integer bounds", off)
        # exact bounds: a float would round 64-bit ones (18446744073709551615 reads as 2**64)
        vals = [_int_value(p) if _INT_RE.match(p) else int(v) for p, v in zip(parts, vals)]
    if name in ("uniform", "randint") and not vals[0] < vals[1]:
        raise ctx.error(f"init {name}(lo,hi) needs lo < hi", off)
    if name == "uniform" and not all(math.isfinite(v) for v in (*vals, vals[1] - vals[0])):
        raise ctx.error(f"init uniform({body.strip()}) needs finite bounds a finite distance apart", off)
    if name == "normal" and not all(math.isfinite(v) for v in vals):
        raise ctx.error(f"init normal({body.strip()}) needs a finite mu and sigma", off)
    if name == "normal" and vals[1] < 0:
        raise ctx.error("init normal(mu,sigma) needs sigma >= 0", off)
    return name, tuple(vals)


def _check_randint_fits(bounds: tuple, dtype: str, off: int, ctx: _Ctx) -> None:
    """_check_randint_fits refuses randint(lo,hi) bounds whose draws, lo..hi-1, a ``dtype`` element cannot hold (or
    that leave the 64-bit integers the draw is made in), rather than letting them wrap or overflow."""
    lo, hi = bounds
    if dtype in INT_RANGES:
        least, most = INT_RANGES[dtype]
    else:   # drawn as 64-bit integers, then converted
        least, most = max(-(1 << 63), -int(FLOAT_MAX[dtype])), min((1 << 63) - 1, int(FLOAT_MAX[dtype]))
    if lo < least or hi - 1 > most:
        raise ctx.error(f"init randint({lo},{hi}) draws {lo}..{hi - 1}, which {dtype} cannot hold: its draws must "
                        f"lie in {least}..{most}", off)


def _example(name: str) -> str:
    return {"uniform": "lo,hi", "normal": "mu,sigma", "randint": "lo,hi", "value": "x"}.get(name, "")


def _parse_float(text: str) -> Optional[float]:
    if not text or "_" in text:
        return None
    if _INT_RE.match(text):
        try:
            return float(_int_value(text))
        except OverflowError:
            return None
    try:
        return float(text)
    except ValueError:
        return None


def parse_scalar(dtype: str, text: str, err) -> Union[int, float]:
    """parse_scalar reads ``text`` as a value of ``dtype`` (ints: decimal, hex, binary, negative).

    ``err(msg)`` builds the exception raised for a malformed or out-of-range value.
    """
    text = text.strip()
    if dtype in INT_RANGES:
        if not _INT_RE.match(text):
            raise err(f"malformed {dtype} value '{text}'")
        v = _int_value(text)
        lo, hi = INT_RANGES[dtype]
        if not lo <= v <= hi:
            raise err(f"value {text} is out of range for {dtype} [{lo}, {hi}]")
        return v
    f = _parse_float(text)
    if f is None:
        raise err(f"malformed {dtype} value '{text}'")
    overflowed = not math.isfinite(f) and "inf" not in text.lower() and "nan" not in text.lower()
    if overflowed or (math.isfinite(f) and abs(f) > FLOAT_MAX[dtype]):
        raise err(f"value {text} is out of range for {dtype}")
    return f


# -- check ----------------------------------------------------------------
def _scan_depths(text: str) -> list[int]:
    """_scan_depths returns, per character, the bracket depth (-1 inside a string literal)."""
    depths = []
    depth = 0
    quote = ""
    k = 0
    n = len(text)
    while k < n:
        ch = text[k]
        if quote:
            depths.append(-1)
            if ch == "\\" and k + 1 < n:
                depths.append(-1)
                k += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            depths.append(-1)
        else:
            if ch in ")]}":
                depth = max(0, depth - 1)
            depths.append(depth)
            if ch in "([{":
                depth += 1
        k += 1
    return depths


def _parse_check(rest: str, base: int, ctx: _Ctx):
    depths = _scan_depths(rest)
    ops = []
    k = 0
    n = len(rest)
    while k < n - 1:
        if depths[k] == 0 and depths[k + 1] == 0:
            two = rest[k:k + 2]
            if two == "~=" or (two == "==" and (k == 0 or rest[k - 1] not in "=<>!") and
                               (k + 2 >= n or rest[k + 2] != "=")):
                ops.append((k, two))
                k += 2
                continue
        k += 1
    if not ops:
        raise ctx.error("gpusim-check needs 'EXPR ~= EXPR' or 'EXPR == EXPR'", base)
    if len(ops) > 1:
        raise ctx.error(f"more than one top-level comparison ('{ops[1][1]}')", base + ops[1][0])
    opk, op = ops[0]
    lhs_text = rest[:opk]
    rhs_text = rest[opk + 2:]
    options: dict[str, float] = {}
    while True:
        m = _OPTION_RE.search(rhs_text)
        if m is None:
            break
        key, value = m.group(1), m.group(2)
        if depths[opk + 2 + m.start(1)] != 0:
            break
        koff = base + opk + 2 + m.start(1)
        if key not in ("rtol", "atol"):
            raise ctx.error(f"unknown check option '{key}'", koff, did_you_mean(key, ("rtol", "atol")))
        if key in options:
            raise ctx.error(f"duplicate check option '{key}'", koff)
        v = _parse_float(value)
        if v is None or not math.isfinite(v) or v < 0:
            raise ctx.error(f"{key} must be a non-negative number, got '{value}'", koff)
        options[key] = v
        rhs_text = rhs_text[:m.start()]
    if options and op == "==":
        raise ctx.error("rtol/atol only apply to '~=' checks", base + opk)
    lhs_off = base + (len(lhs_text) - len(lhs_text.lstrip()))
    rhs_off = base + opk + 2 + (len(rhs_text) - len(rhs_text.lstrip()))
    lhs = lhs_text.strip()
    rhs = rhs_text.strip()
    if not lhs:
        raise ctx.error(f"missing expression before '{op}'", base + opk)
    if not rhs:
        raise ctx.error(f"missing expression after '{op}'", base + opk + 2)
    lhs_tree = _parse_python(lhs, lhs_off, ctx)
    rhs_tree = _parse_python(rhs, rhs_off, ctx)
    spec = CheckSpec(lhs=lhs, op=op, rhs=rhs, rtol=options.get("rtol", 1e-5),
                     atol=options.get("atol", 1e-8), loc=ctx.loc(lhs_off))
    return spec, ctx, lhs_off, rhs_off, lhs_tree, rhs_tree


def _parse_python(text: str, off: int, ctx: _Ctx) -> ast.AST:
    try:
        return ast.parse(text, mode="eval")
    except SyntaxError as e:
        col = off + (e.offset - 1 if e.offset and e.lineno == 1 and 0 < e.offset <= len(text) else 0)
        raise ctx.error(f"invalid check expression '{text}': {e.msg}", col) from None
    except (ValueError, RecursionError, MemoryError, OverflowError):
        raise ctx.error(f"invalid check expression '{text}'", off) from None


def _check_names(tree: ast.AST, off: int, args: frozenset, ctx: _Ctx) -> None:
    """_check_names refuses what the check-expression language (gpusim.check_expr) does not have.

    Names are the arguments, the dtype names, ``np`` and the expression's own ``:=`` names.
    """
    try:
        validate_check_expr(tree, args)
    except CheckExprError as err:
        raise ctx.error(err.message, off + err.col, err.hint) from None


# -- CLI overrides ---------------------------------------------------------
def apply_overrides(module: AsmModule, grid: Union[str, Sequence[int], None] = None,
                    block: Union[str, Sequence[int], None] = None,
                    args: Optional[Mapping[str, Union[str, int, float]]] = None) -> AsmModule:
    """apply_overrides returns a copy of ``module`` with the launch and scalar args replaced.

    ``grid``/``block`` are ``"8,8,1"`` strings (fewer sizes pad with 1) or
    int sequences; ``args`` maps a scalar argument name to its new value
    (a string parsed like the header, or a number). ``module`` itself is not
    mutated. Raises HeaderError for an unknown argument (with a did-you-mean),
    a buffer argument, or a malformed value.
    """
    launch = module.launch
    if grid is not None or block is not None:
        new_grid = _override_dims(grid, "--grid") if grid is not None else None
        new_block = _override_dims(block, "--block") if block is not None else None
        if new_block is not None:
            _check_block(new_block, lambda msg: HeaderError(f"--block: {msg}"))
        if launch is None:
            if new_grid is None or new_block is None:
                raise HeaderError("the file has no '; gpusim-launch:' line, so both --grid and --block are needed")
            launch = LaunchSpec(grid=new_grid, block=new_block)
        else:
            launch = dataclasses.replace(launch, grid=new_grid or launch.grid, block=new_block or launch.block)
        flags = " ".join(f for f, v in (("--grid", grid), ("--block", block)) if v is not None)
        _check_grid_size(launch.grid, launch.block, lambda msg: HeaderError(f"{flags}: {msg}", launch.loc))
    new_args = list(module.args)
    if args:
        index = {a.name: k for k, a in enumerate(new_args)}
        for name, value in args.items():
            if name not in index:
                raise HeaderError(f"--arg: unknown argument '{name}'", None,
                                  did_you_mean(name, index) or _known(index))
            spec = new_args[index[name]]
            if spec.kind == "buffer":
                raise HeaderError(f"--arg: argument '{name}' is a buffer; only scalar arguments can be overridden",
                                  spec.loc)
            text = str(value) if not isinstance(value, str) else value
            parsed = parse_scalar(spec.dtype, text, lambda msg, n=name: HeaderError(f"--arg {n}: {msg}"))
            new_args[index[name]] = dataclasses.replace(spec, value=parsed)
        new_args = _reshape_after_override(new_args, args)
    return dataclasses.replace(module, launch=launch, args=new_args)


def _reshape_after_override(args: list, overridden: Mapping) -> list:
    """_reshape_after_override computes again the shapes that name scalar arguments (``f32[n]`` after
    ``--arg n=16384``) and checks the buffers' memory; errors name the flag and the buffer's line."""
    values = _integer_scalars(args)
    flags = " ".join(f"--arg {k}={v}" for k, v in overridden.items())
    out = []
    for spec in args:
        if spec.kind != "buffer" or not spec.shape_exprs:
            out.append(spec)
            continue
        shape = list(spec.shape)
        for dim, text in enumerate(spec.shape_exprs):
            if not _is_literal_size(text):
                shape[dim] = _shape_value(parse_shape(text), values, text, spec.name,
                                          lambda msg, o, s=spec: HeaderError(f"{flags}: {msg}", s.loc))
        out.append(dataclasses.replace(spec, shape=tuple(shape)))
    check_buffer_memory(out, lambda msg, spec: HeaderError(f"{flags}: {msg}", spec.loc))
    return out


def _known(names: Iterable[str]) -> str:
    names = list(names)
    return f"known arguments: {', '.join(names)}" if names else "the file declares no arguments"


def _override_dims(value: Union[str, Sequence[int]], flag: str) -> tuple[int, int, int]:
    def err(msg: str) -> HeaderError:
        return HeaderError(f"{flag}: {msg}")

    if isinstance(value, str):
        return _parse_dims3(value.strip(), flag.lstrip("-"), err)
    try:
        items = [int(v) for v in value]
    except (TypeError, ValueError, OverflowError):
        raise err(f"expected up to three positive integers, got {value!r}") from None
    if not 1 <= len(items) <= 3:
        raise err(f"expected one to three sizes, got {len(items)}")
    if any(v <= 0 or v > _MAX_DIM for v in items):
        raise err(f"sizes must be positive, got {items}")
    items += [1] * (3 - len(items))
    return items[0], items[1], items[2]
