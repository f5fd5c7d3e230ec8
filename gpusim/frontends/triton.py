"""The Triton front end compiles a ``@triton.jit`` kernel with Triton's own compiler and builds its launch.

Triton compiles for a gfx processor without a GPU (``GPUTarget("hip", "gfx942", 64)``). Its
``amdgcn`` text is what gpusim runs, untouched; this module writes the launch header that Triton's
launcher would otherwise supply: the grid in programs, ``block`` = num_warps x 64 work-items, the
dynamic LDS (``metadata.shared``) as ``lds=`` and the two scratch pointers Triton appends. Buffer
arguments carry the caller's arrays as their initial contents (ArgSpec ``init`` "data").

Nothing here runs unless the caller imports Triton and hands over a kernel object: gpusim never
executes code found in a ``.s``, YAML or header file.
"""
from __future__ import annotations

import dataclasses
import inspect
import warnings
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import numpy as np

from gpusim.errors import SourceLoc, UsageError

WAVE = 64

# numpy dtype name -> Triton pointer element type; ml_dtypes' names included so that its arrays work when
# the caller has it (gpusim does not depend on it)
_NUMPY_TO_TRITON = {
    "float16": "fp16", "float32": "fp32", "float64": "fp64", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "i1",
    "bfloat16": "bf16", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16", "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
}
_TORCH_TO_TRITON = {
    "torch.float16": "fp16", "torch.float32": "fp32", "torch.float64": "fp64", "torch.bfloat16": "bf16",
    "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64", "torch.uint8": "u8",
    "torch.bool": "i1", "torch.float8_e4m3fnuz": "fp8e4b8", "torch.float8_e5m2fnuz": "fp8e5b16",
    "torch.float8_e4m3fn": "fp8e4nv", "torch.float8_e5m2": "fp8e5",
}
# Triton element type -> the gpusim buffer dtype that stores it (fp8 and i1 as their bytes)
_TRITON_TO_GPUSIM = {
    "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64", "i8": "i8", "i16": "i16", "i32": "i32",
    "i64": "i64", "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "i1": "u8", "fp8e4b8": "u8",
    "fp8e5b16": "u8", "fp8e4nv": "u8", "fp8e5": "u8",
}
_SCALAR_TO_GPUSIM = {"i1": "i8", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "u8": "u8", "u16": "u16",
                     "u32": "u32", "u64": "u64", "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64"}
SCRATCH_ARGS = ("triton_global_scratch", "triton_profile_scratch")


def import_triton():
    """import_triton returns the ``triton`` module, or raises UsageError saying how to install it."""
    try:
        import triton
        from triton.backends.compiler import GPUTarget  # noqa: F401  (Triton 3.x)
    except ImportError as err:
        raise UsageError(f"the Triton front end needs Triton 3.x ({err}); install it with "
                         "pip install -e '.[triton]'") from None
    return triton


@dataclass
class Argument:
    """Argument is one runtime argument of the kernel: its name, Triton type, and the caller's value.

    ``host`` is the caller's array or tensor (written back after the run), ``bits`` the numpy array whose
    bytes the buffer starts with; a scalar has ``value``.
    """

    name: str
    triton_type: str
    host: object = None
    bits: Optional[np.ndarray] = None
    value: object = None

    @property
    def is_buffer(self) -> bool:
        return self.triton_type.startswith("*")


@dataclass
class Compiled:
    """Compiled is a kernel Triton compiled: its assembly, name and the launch facts of its metadata."""

    asm: str
    name: str
    shared: int
    global_scratch: int
    profile_scratch: int
    num_warps: int


def runtime_params(kernel) -> list:
    """runtime_params lists the kernel's parameters that are not constexprs, in order."""
    params = getattr(kernel, "params", None)
    if params is None:
        raise UsageError(f"{kernel!r} is not a @triton.jit kernel")
    return [p for p in params if not p.is_constexpr]


def bind_arguments(kernel, args: Sequence, constexprs: Mapping[str, object],
                   types: Optional[Mapping[str, str]] = None) -> list[Argument]:
    """bind_arguments pairs the kernel's runtime parameters with ``args`` and infers their Triton types.

    ``types`` overrides an inferred type by parameter name (``{"a_ptr": "*fp8e4b8"}`` for an fp8 matrix
    held as uint8 bits).
    """
    params = runtime_params(kernel)
    names = [p.name for p in params]
    constexpr_names = [p.name for p in kernel.params if p.is_constexpr]
    missing = [p.name for p in kernel.params
               if p.is_constexpr and p.name not in constexprs and p.default is inspect.Parameter.empty]
    if missing:
        raise UsageError(f"kernel '{kernel.__name__}' needs constexprs {', '.join(missing)}")
    unknown = [n for n in constexprs if n not in constexpr_names]
    if unknown:
        raise UsageError(f"'{unknown[0]}' is not a constexpr of kernel '{kernel.__name__}' "
                         f"(its constexprs: {', '.join(constexpr_names) or 'none'})")
    if len(args) != len(names):
        raise UsageError(f"kernel '{kernel.__name__}' takes {len(names)} runtime arguments "
                         f"({', '.join(names)}), got {len(args)}")
    types = dict(types or {})
    bad = [n for n in types if n not in names]
    if bad:
        raise UsageError(f"types names '{bad[0]}', which is not a runtime argument of '{kernel.__name__}'")
    return [_argument(name, value, types.get(name)) for name, value in zip(names, args)]


def _argument(name: str, value, forced: Optional[str]) -> Argument:
    if type(value).__module__.startswith("torch") and hasattr(value, "data_ptr"):
        host = value
        bits = _torch_bits(value)
        ttype = "*" + _TORCH_TO_TRITON.get(str(value.dtype), "")
        if ttype == "*":
            raise UsageError(f"argument '{name}': torch dtype {value.dtype} has no Triton pointer type here")
    elif isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise UsageError(f"argument '{name}': the array must be C-contiguous (np.ascontiguousarray), as a "
                             "pointer to its first element is what the kernel gets")
        host = value
        elem = _NUMPY_TO_TRITON.get(value.dtype.name)
        if elem is None and forced is None:
            raise UsageError(f"argument '{name}': numpy dtype {value.dtype} has no Triton pointer type; "
                             "name one with types={'" + name + "': '*fp16'}")
        ttype = "*" + (elem or "")
        bits = value
    else:
        if isinstance(value, (bool, np.bool_)):
            ttype = "i1"
        elif isinstance(value, (int, np.integer)):
            v = int(value)
            ttype = ("i32" if -2**31 <= v < 2**31 else "i64") if not isinstance(value, np.integer) \
                else _NUMPY_TO_TRITON[np.dtype(type(value)).name]
        elif isinstance(value, (float, np.floating)):
            ttype = "fp32" if not isinstance(value, np.floating) else _NUMPY_TO_TRITON[np.dtype(type(value)).name]
        else:
            raise UsageError(f"argument '{name}': {type(value).__name__} is neither an array nor a number")
        if forced is not None:
            ttype = forced
        if ttype not in _SCALAR_TO_GPUSIM:
            raise UsageError(f"argument '{name}': scalar type '{ttype}' is not supported")
        return Argument(name, ttype, value=value)
    if forced is not None:
        if not forced.startswith("*") or forced[1:] not in _TRITON_TO_GPUSIM:
            raise UsageError(f"types['{name}'] = '{forced}': expected a pointer type such as "
                             f"{', '.join('*' + t for t in _TRITON_TO_GPUSIM)}")
        want = np.dtype(_storage(forced[1:])).itemsize
        if bits.dtype.itemsize != want:
            raise UsageError(f"argument '{name}': '{forced}' elements are {want} bytes, the array's "
                             f"{bits.dtype.itemsize}")
        ttype = forced
    if ttype[1:] not in _TRITON_TO_GPUSIM:
        raise UsageError(f"argument '{name}': Triton type '{ttype}' has no gpusim buffer type")
    if bits.size == 0:
        raise UsageError(f"argument '{name}' is an empty array")
    return Argument(name, ttype, host=host, bits=bits)


def _storage(elem: str):
    from gpusim.asm.ir import NUMPY_DTYPES
    return NUMPY_DTYPES[_TRITON_TO_GPUSIM[elem]]


def _torch_bits(t) -> np.ndarray:
    """_torch_bits is a CPU tensor's contents as a numpy array of the same bytes (bf16, fp8, bool as bits)."""
    import torch
    if t.device.type != "cpu" or not t.is_contiguous():
        raise UsageError("gpusim runs on contiguous CPU tensors (tensor.contiguous().cpu())")
    t = t.detach()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16).copy()
    if "float8" in str(t.dtype) or t.dtype == torch.bool:
        return t.view(torch.uint8).numpy().copy()
    return t.numpy().copy()


def compile_kernel(kernel, arguments: Sequence[Argument], constexprs: Mapping[str, object], gfx: str,
                   num_warps: int = 4, options: Optional[Mapping[str, object]] = None) -> Compiled:
    """compile_kernel compiles ``kernel`` for ``gfx`` with Triton's compiler and returns its assembly."""
    triton = import_triton()
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    signature = {a.name: a.triton_type for a in arguments}
    signature.update({p.name: "constexpr" for p in kernel.params if p.is_constexpr})
    opts = {"num_warps": int(num_warps), **dict(options or {})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # Triton's notices about its own defaults
        try:
            compiled = triton.compile(ASTSource(kernel, signature=signature, constexprs=dict(constexprs)),
                                      target=GPUTarget("hip", gfx, WAVE), options=opts)
        except Exception as err:   # a CompilationError points into the user's kernel: pass it on as one line
            raise _compile_error(err, kernel, gfx) from None
    md = compiled.metadata
    return Compiled(compiled.asm["amdgcn"], md.name, int(md.shared), int(getattr(md, "global_scratch_size", 0)),
                    int(getattr(md, "profile_scratch_size", 0)), int(md.num_warps))


def _compile_error(err: Exception, kernel, gfx: str) -> UsageError:
    """_compile_error is Triton's compile error ``err`` as one line: at the file, line and column of the kernel's
    source it names (Triton's CompilationError counts lines from the kernel's ``def``, and prints an excerpt
    over several lines), else at the kernel's ``def``."""
    node = getattr(err, "node", None)
    detail = getattr(err, "error_message", None) if node is not None else None
    detail = " ".join(str(detail or f"{type(err).__name__}: {err}").split())
    file = getattr(kernel, "file_name", None)
    first = getattr(kernel, "def_file_line_number", None)
    loc = None
    if isinstance(file, str) and isinstance(first, int):
        line, col = first, 1
        own = getattr(err, "src", None) is not None and getattr(err, "src", None) == getattr(kernel, "src", None)
        if own and isinstance(getattr(node, "lineno", None), int):   # the error lies in the kernel itself
            line = first + node.lineno - 1
            col = getattr(node, "col_offset", 0) + getattr(kernel, "def_file_col_number", 1)   # 1-based
        try:   # the source lines Triton read the kernel from, decorators included
            text = kernel.raw_src[line - kernel.starting_line_number]
        except (TypeError, IndexError, AttributeError):
            text = ""
        loc = SourceLoc(file, line, col, text)
    return UsageError(f"Triton could not compile '{kernel.__name__}' for {gfx}: {detail}", loc)


def launch_header(compiled: Compiled, arguments: Sequence[Argument], grid: Sequence[int]) -> str:
    """launch_header writes the ``; gpusim-launch/arg`` lines that launch ``compiled`` as Triton's launcher does."""
    g = tuple(int(x) for x in grid) + (1,) * (3 - len(grid))
    if len(g) != 3 or any(x < 1 for x in g):
        raise UsageError(f"grid {tuple(grid)}: give one to three positive program counts")
    lines = [f"; gpusim-launch: grid={g[0]},{g[1]},{g[2]} block={compiled.num_warps * WAVE},1,1 "
             f"lds={compiled.shared}"]
    for a in arguments:
        if a.is_buffer:
            shape = ",".join(str(n) for n in (a.bits.shape or (1,)))
            lines.append(f"; gpusim-arg: {a.name} buffer {_TRITON_TO_GPUSIM[a.triton_type[1:]]}[{shape}] out")
        else:
            lines.append(f"; gpusim-arg: {a.name} {_SCALAR_TO_GPUSIM[a.triton_type]} {_scalar_text(a)}")
    programs = g[0] * g[1] * g[2]
    for name, size in zip(SCRATCH_ARGS, (compiled.global_scratch, compiled.profile_scratch)):
        lines.append(f"; gpusim-arg: {name} buffer u8[{max(size * programs, 1)}]")
    return "\n".join(lines) + "\n"


def _scalar_text(a: Argument) -> str:
    if a.triton_type.startswith(("fp", "bf")):
        return repr(float(a.value))
    return str(int(a.value))


def with_contents(args: list, arguments: Sequence[Argument]) -> list:
    """with_contents gives each buffer ArgSpec of ``args`` the bytes of its caller's array."""
    bits = {a.name: a.bits for a in arguments if a.is_buffer}
    return [dataclasses.replace(s, init="data", data=np.ascontiguousarray(bits[s.name]).tobytes())
            if s.name in bits else s for s in args]


def write_back(outputs: Mapping[str, np.ndarray], arguments: Sequence[Argument]) -> None:
    """write_back copies each buffer's final contents into the caller's array or tensor."""
    for a in arguments:
        if not a.is_buffer or a.name not in outputs:
            continue
        final = np.asarray(outputs[a.name]).reshape(-1).view(np.uint8)
        if isinstance(a.host, np.ndarray):
            a.host.reshape(-1).view(np.uint8)[:] = final
        else:
            import torch
            a.host.view(-1).view(torch.uint8).copy_(torch.from_numpy(final.copy()))


def load_kernel_from_file(spec: str):
    """load_kernel_from_file imports the Python file of ``FILE.py:KERNEL`` and returns its kernel object.

    This runs the user's own Python file, which they named on the command line; nothing else in gpusim
    executes code found in a file.
    """
    import importlib.util
    from pathlib import Path
    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py") or not name:
        raise UsageError(f"'{spec}': expected FILE.py:KERNEL")
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    import_triton()
    module_spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as err:
        raise UsageError(f"{path}: importing it raised {type(err).__name__}: {err}") from None
    kernel = getattr(module, name, None)
    if kernel is None or getattr(kernel, "params", None) is None:
        from gpusim.errors import did_you_mean
        found = [k for k, v in vars(module).items() if getattr(v, "params", None) is not None and hasattr(v, "fn")]
        raise UsageError(f"{path} has no @triton.jit kernel '{name}'", hint=did_you_mean(name, found))
    return kernel


def command_line_values(kernel, flags: Sequence[str]) -> tuple[list, dict]:
    """command_line_values turns ``--arg NAME=...`` flags into the kernel's runtime arguments, in order.

    A buffer is ``NAME=DTYPE[SHAPE][:INIT][:seed=N]`` with the gpusim-arg grammar's dtypes, shapes and
    initialisers (``x=f32[4096]:uniform(-1,1)``); a scalar is ``NAME=NUMBER`` (an integer is i32, or i64
    past its range; anything else fp32). Returns the values and the Triton types the buffers need
    (bf16 buffers hold bits, so they are named ``*bf16``).
    """
    from gpusim.asm.parser import parse_text
    from gpusim.exec.buffers import make_buffer
    names = [p.name for p in runtime_params(kernel)]
    given: dict = {}
    for flag in flags:
        name, eq, text = flag.partition("=")
        name = name.strip()
        if not eq or not name:
            raise UsageError(f"--arg '{flag}': expected NAME=VALUE or NAME=DTYPE[SHAPE]:INIT")
        if name not in names:
            from gpusim.errors import did_you_mean
            raise UsageError(f"--arg {name}: kernel '{kernel.__name__}' has no runtime argument '{name}' "
                             f"(it takes {', '.join(names)})", hint=did_you_mean(name, names))
        given[name] = text.strip()
    missing = [n for n in names if n not in given]
    if missing:
        raise UsageError(f"kernel '{kernel.__name__}' needs --arg for {', '.join(missing)}")
    values, types = [], {}
    for name in names:
        text = given[name]
        if "[" not in text:
            values.append(_number(name, text))
            continue
        head, _, rest = text.partition("]")
        words = [w for w in rest.lstrip(":").split(":") if w]
        extra = " ".join(w if w.startswith("seed=") else f"init={w}" for w in words)
        module = parse_text(f"; gpusim-arg: {name} buffer {head}] {extra}\n", f"--arg {name}")
        spec = module.args[0]
        values.append(make_buffer(spec))
        if spec.dtype == "bf16":
            types[name] = "*bf16"
    return values, types


def _number(name: str, text: str):
    try:
        return int(text, 0)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise UsageError(f"--arg {name}={text}: a scalar is a number; a buffer is DTYPE[SHAPE]:INIT") from None


def command_line_constexprs(flags: Sequence[str]) -> dict:
    """command_line_constexprs reads ``--constexpr NAME=VALUE`` flags (integers, floats, True/False)."""
    out: dict = {}
    for flag in flags:
        name, eq, text = flag.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"--constexpr '{flag}': expected NAME=VALUE")
        text = text.strip()
        out[name.strip()] = {"True": True, "False": False}.get(text) if text in ("True", "False") \
            else _number(name.strip(), text)
    return out
