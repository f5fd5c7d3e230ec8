"""The template registry: each kernel family, its parameters and how they are checked.

A :class:`Template` names a family (``gemm``, ``stream``, ...), lists its :class:`Param` s (what
``gpusim gen FAMILY --help`` prints) and holds two functions: ``problems(values, arch)`` lists
every reason a combination cannot be generated (tile not divisible by the wave tile, LDS over the
architecture's capacity, more than 512 registers, ...), and ``build(values)`` returns a
:class:`~gpusim.templates.writer.KernelWriter`. :func:`generate` runs both, so nothing is written
for an invalid combination.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from gpusim.errors import GpusimError


class TemplateError(GpusimError):
    """TemplateError is a template parameter or combination that cannot be generated (exit code 2)."""


MAX_INT = 2**31 - 1   # every integer parameter ends up in an i32 kernel argument or a 32-bit immediate


def parse_dims(text: str, count: int) -> tuple:
    """parse_dims reads ``128x128x32`` (``count`` positive integers joined by x) into a tuple."""
    parts = str(text).lower().split("x")
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        dims = ()
    if len(dims) != count or min(dims) <= 0:
        shape = "x".join(["N"] * count)
        raise TemplateError(f"{text!r} is not {shape} ({count} positive integers joined by 'x')")
    return dims


@dataclass(frozen=True)
class Param:
    """Param is one template parameter: its name (``--name`` on the command line), kind and help.

    ``kind`` is ``int``, ``float``, ``bool`` (a flag), ``str`` (one of ``choices``) or ``dims:N`` (N integers
    joined by x, such as a tile 128x128x32). ``choices`` lists the valid values where they are few.
    An ``int`` lies in ``minimum..MAX_INT`` (a size, count or step is at least 1 unless the template
    says 0 means "none"); a ``float`` is finite.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: Optional[Sequence] = None
    minimum: int = 1

    def parse(self, value: Any) -> Any:
        """parse turns a command-line or API value into the parameter's type, or raises TemplateError."""
        if self.kind == "bool":
            if isinstance(value, str):
                return value.lower() in ("1", "true", "yes", "on")
            return bool(value)
        if self.kind == "int":
            try:
                v = int(value)
            except (TypeError, ValueError, OverflowError):
                raise TemplateError(f"--{self.name}: {value!r} is not an integer") from None
            if isinstance(value, float) and value != v:
                raise TemplateError(f"--{self.name}: {value!r} is not an integer")
            if not self.minimum <= v <= MAX_INT:
                raise TemplateError(f"--{self.name} {v} must be at least {self.minimum} and at most {MAX_INT}")
        elif self.kind == "float":
            try:
                v = float(value)
            except (TypeError, ValueError, OverflowError):
                raise TemplateError(f"--{self.name}: {value!r} is not a number") from None
            if not math.isfinite(v):
                raise TemplateError(f"--{self.name}: {value!r} is not a finite number")
        elif self.kind.startswith("dims:"):
            v = parse_dims(value, int(self.kind[5:])) if not isinstance(value, tuple) else value
            v = "x".join(str(d) for d in v)
        else:
            v = str(value)
        if self.choices is not None and v not in self.choices:
            raise TemplateError(f"--{self.name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        return v


@dataclass(frozen=True)
class Template:
    """Template is one kernel family: its parameters, its validity rules and its generator."""

    name: str
    summary: str
    params: tuple
    build: Callable
    problems: Callable
    about: str = ""
    examples: tuple = field(default_factory=tuple)

    def values(self, given: dict) -> dict:
        """values fills defaults and parses ``given`` (parameter name -> value; '-' and '_' alike)."""
        by_name = {p.name: p for p in self.params}
        out = {p.name: p.parse(p.default) if p.default is not None else None for p in self.params}
        for key, value in given.items():
            name = key.replace("_", "-")
            if name not in by_name:
                from gpusim.errors import did_you_mean
                raise TemplateError(f"{self.name} has no parameter --{name}", hint=did_you_mean(name, by_name))
            out[name] = by_name[name].parse(value)
        return out


_REGISTRY: dict = {}


def register(template: Template) -> Template:
    """register adds a family to the registry (each template module calls it once)."""
    _REGISTRY[template.name] = template
    return template


def templates() -> dict:
    """templates returns every registered family by name, in registration order."""
    from gpusim.templates import families  # noqa: F401 - importing registers them
    return dict(_REGISTRY)


def template(name: str) -> Template:
    """template returns the family ``name`` or raises TemplateError naming the known ones."""
    known = templates()
    if name not in known:
        from gpusim.errors import did_you_mean
        raise TemplateError(f"no kernel template {name!r}; known: {', '.join(known)}", hint=did_you_mean(name, known))
    return known[name]


def generate(name: str, arch=None, **given) -> str:
    """generate returns the ``.s`` text of family ``name`` with parameters ``given``.

    ``arch`` (an Arch or a name, default cdna3) bounds LDS and registers. Raises TemplateError listing
    every problem of an invalid combination; nothing is generated then.
    """
    from gpusim.arch import load_arch

    t = template(name)
    values = t.values(given)
    arch = load_arch(arch or "cdna3")
    problems = list(t.problems(values, arch))
    if problems:
        raise TemplateError(f"gpusim gen {name}: " + "; ".join(problems))
    return t.build(values).text()
