"""Triton studies: a ``@triton.jit`` kernel as a sweep's workload, its constexprs and compile options varied.

A Triton study names a kernel in a Python file, the launch grid and the runtime arguments::

    name: vadd-blocks
    arch: cdna3
    workload:
      triton: kernels.py:add_kernel          # FILE.py:KERNEL, relative to the study file
      grid: "(n + BLOCK - 1) // BLOCK"       # or [X, Y, Z]: integers or expressions
      args: {x_ptr: "f32[65536]:uniform(-1,1)", y_ptr: "f32[65536]:uniform(-1,1)", out_ptr: "f32[65536]", n: 65536}
      constexprs: {BLOCK: 256}               # fixed constexprs (optional)
      num_warps: 4                           # fixed compile options (optional): num_warps, num_stages, waves_per_eu
    vary:
      triton.BLOCK: [128, 256, 512]          # triton.<CONSTEXPR>
      triton.num_warps: [2, 4, 8]            # triton.num_warps / triton.num_stages / triton.waves_per_eu
      arch.hbm.channels: [64, 128]           # arch.<key path>, as in any kernel study
    metrics: [time_us, hbm_tbs]

``args`` are written as ``gpusim triton --arg`` takes them (``NAME: DTYPE[SHAPE]:INIT[:seed=N]`` for a
buffer, a number for a scalar), and every runtime argument needs one. ``grid`` is one to three program
counts, each an integer or an expression in gpusim.asm.shape_expr's grammar (integers, ``+ - * //``,
parentheses) over the integer scalar arguments and the integer constexprs, fixed or varied: it is
evaluated at every point, so ``(n + BLOCK - 1) // BLOCK`` follows ``triton.BLOCK``. Each point compiles
the kernel with Triton's own compiler for the point's architecture's gfx target (in the worker process)
and simulates it; a configuration Triton refuses is an ``invalid`` row.

Importing the Python file runs it. gpusim does so only because the study names the file explicitly,
as ``gpusim triton FILE.py:KERNEL`` does: once when the study is loaded (to read the kernel's parameters
and check the study against them) and once in each worker process. Do not run a study whose Python file
you would not run yourself. Everything else in a study file stays data.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from gpusim.errors import GpusimError, did_you_mean

OPTIONS = ("num_warps", "num_stages", "waves_per_eu")
WORKLOAD_KEYS = ("triton", "grid", "args", "constexprs") + OPTIONS
MAX_NUM_WARPS = 16   # block = num_warps x 64 work-items <= 1024


def option_problem(name: str, value: Any) -> str:
    """option_problem says why ``value`` is not a valid compile option ``name``, else ''."""
    if not isinstance(value, int) or isinstance(value, bool):
        return f"{name} is an integer, got {value!r}"
    if name == "num_warps" and (value < 1 or value > MAX_NUM_WARPS or value & (value - 1)):
        return f"num_warps is a power of two from 1 to {MAX_NUM_WARPS} (a workgroup of at most 1024), got {value}"
    if name == "num_stages" and value < 1:
        return f"num_stages is at least 1, got {value}"
    if name == "waves_per_eu" and not 0 <= value <= 8:
        return f"waves_per_eu is 0 (no hint) to 8, got {value}"
    return ""


def constexpr_problem(value: Any) -> str:
    if isinstance(value, (bool, int, float)):
        return ""
    return f"a constexpr is a number or true/false, got {value!r}"


@lru_cache(maxsize=8)
def load_kernel(path: str, name: str):
    """load_kernel imports ``path`` (the study names it) and returns its kernel ``name`` (cached per process)."""
    from gpusim.frontends.triton import load_kernel_from_file
    return load_kernel_from_file(f"{path}:{name}")


def constexpr_names(kernel) -> list:
    return [p.name for p in kernel.params if p.is_constexpr]


def required_constexprs(kernel) -> list:
    import inspect
    return [p.name for p in kernel.params if p.is_constexpr and p.default is inspect.Parameter.empty]


def arg_values(kernel, args: dict) -> tuple:
    """arg_values turns the study's ``args`` mapping into the kernel's runtime arguments (gpusim triton --arg)."""
    from gpusim.frontends.triton import command_line_values
    return command_line_values(kernel, [f"{k}={v}" for k, v in args.items()])


def integer_scalars(args: dict) -> dict:
    """integer_scalars are the integer scalar arguments of ``args`` (those a grid expression may read)."""
    return {k: v for k, v in args.items() if isinstance(v, int) and not isinstance(v, bool)}


def eval_grid(grid: list, values: dict) -> tuple:
    """eval_grid computes the program counts of ``grid`` (ints or expressions) with ``values``; raises
    GpusimError for an expression that reads a missing or non-integer name or gives a count below 1."""
    from gpusim.asm.shape_expr import ShapeSyntaxError, eval_shape, names_in, parse_shape
    out = []
    for dim in grid:
        if isinstance(dim, int):
            count = dim
        else:
            node = parse_shape(dim)
            for name, _ in names_in(node):
                v = values.get(name)
                if not isinstance(v, int) or isinstance(v, bool):
                    raise GpusimError(f"grid '{dim}': '{name}' has no integer value here")
            count = eval_shape(node, values, lambda m, o: ShapeSyntaxError(m, o))
        if count < 1:
            raise GpusimError(f"grid '{dim}' gives {count} programs; a grid dimension is at least 1")
        out.append(count)
    return tuple(out)


def point_setup(spec: dict, params: dict) -> tuple:
    """point_setup is (constexprs, options, grid) of one point: the workload's fixed values under the varied ones."""
    constexprs = dict(spec["constexprs"])
    options = {k: spec[k] for k in OPTIONS if spec.get(k) is not None}
    for key, value in params.items():
        if key.startswith("triton."):
            name = key[len("triton."):]
            (options if name in OPTIONS else constexprs)[name] = value
    values = {**integer_scalars(spec["args"]),
              **{k: v for k, v in constexprs.items() if isinstance(v, int) and not isinstance(v, bool)}}
    return constexprs, options, eval_grid(spec["grid"], values)


def check_points(spec: dict, vary: dict, fail) -> None:
    """check_points evaluates every point's grid and checks its constexprs are complete; ``fail(message)``
    raises for the first that is not."""
    kernel = load_kernel(spec["path"], spec["kernel"])
    need = required_constexprs(kernel)
    keys = [k for k in vary if k.startswith("triton.")]
    for combo in itertools.product(*(vary[k] for k in keys)):
        params = dict(zip(keys, combo))
        given = set(spec["constexprs"]) | {k[len("triton."):] for k in params}
        missing = [n for n in need if n not in given]
        if missing:
            fail(f"kernel '{spec['kernel']}' needs constexprs {', '.join(missing)}: give them in the workload's "
                 "'constexprs:' or vary them as triton.<NAME>")
        _setup_or_fail(spec, params, fail)


def _setup_or_fail(spec, params, fail):
    from gpusim.asm.shape_expr import ShapeSyntaxError
    try:
        return point_setup(spec, params)
    except (GpusimError, ShapeSyntaxError) as err:
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        fail(f"{getattr(err, 'message', err)}" + (f" (at {shown})" if shown else ""))


def simulate_into(row: dict, study: dict, params: dict) -> None:
    """simulate_into compiles the study's Triton kernel for one point and simulates it (in the worker)."""
    import gpusim.triton as gt
    from gpusim.sweep.point import point_arch, split_params, time_kernel_into

    spec = study["triton"]
    overrides, _, _ = split_params(params)
    arch = point_arch(study["arch"], overrides)
    row["arch_hash"] = arch.hash()[:16]
    kernel = load_kernel(spec["path"], spec["kernel"])
    constexprs, options, grid = point_setup(spec, params)
    args, types = arg_values(kernel, spec["args"])
    num_warps = options.pop("num_warps", 4)
    compiled = gt.compile(kernel, grid=grid, args=args, constexprs=constexprs, num_warps=num_warps, arch=arch,
                          types=types, options=options)
    time_kernel_into(row, study, arch, compiled)


def resolve_file(ref: str, base_dir: Path) -> Optional[Path]:
    for path in (base_dir / ref, Path.cwd() / ref):
        if path.is_file():
            return path.resolve()
    return None


def known_keys(kernel) -> list:
    return [f"triton.{n}" for n in constexpr_names(kernel) + list(OPTIONS)]


def key_problem(key: str, kernel) -> tuple:
    """key_problem is (problem, hint) for a ``triton.<NAME>`` vary key the kernel cannot take, else None."""
    name = key[len("triton."):]
    if name in OPTIONS or name in constexpr_names(kernel):
        return None
    known = known_keys(kernel)
    return (f"kernel '{kernel.__name__}' has no constexpr '{name}' (a triton.* key is a constexpr or one of "
            f"{', '.join(OPTIONS)})", did_you_mean(key, known) or f"known: {', '.join(known)}")
