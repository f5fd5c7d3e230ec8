"""gpusim.triton runs a ``@triton.jit`` kernel on gpusim, as a Triton user launches it on a GPU.

    import numpy as np
    import gpusim.triton as gt
    x, y = np.random.rand(4096).astype(np.float32), np.random.rand(4096).astype(np.float32)
    out = np.empty_like(x)
    r = gt.simulate(add_kernel, grid=(16,), args=(x, y, out, 4096), constexprs={"BLOCK": 256},
                    check=lambda: np.allclose(out, x + y))
    print(r.cycles, r.checks_passed)

Triton (3.x, ``pip install -e '.[triton]'``) compiles the kernel for the architecture's gfx target
without a GPU; gpusim runs the assembly it emits.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence, Union

import numpy as np

from gpusim.engine.sampling_policy import DEFAULT_SAMPLE_MODE
from gpusim.api import Kernel, Result, kernel_from_text, simulate as simulate_kernel
from gpusim.arch import Arch, load_arch
from gpusim.errors import UsageError
from gpusim.exec.check import CheckResult
from gpusim.asm.ir import CheckSpec
from gpusim.frontends.triton import (bind_arguments, compile_kernel, launch_header, with_contents,
                                     write_back)

__all__ = ["simulate", "compile", "autotune", "TunedConfig", "CALLABLE_CHECK"]


def _triton_dirs() -> tuple[str, ...]:
    """_triton_dirs are the installed Triton package's directories: the library whose lines a kernel's compiled
    code inlines (tl.sum's, libdevice's), which a fault does not name as the kernel's own."""
    import importlib.util
    spec = importlib.util.find_spec("triton")
    return tuple(spec.submodule_search_locations or ()) if spec is not None else ()

CALLABLE_CHECK = "check()"   # how a callable check reads in Result.checks


def compile(kernel, *, grid: Sequence[int], args: Sequence, constexprs: Optional[Mapping[str, object]] = None,
            num_warps: int = 4, arch: Union[str, Arch] = "cdna3", types: Optional[Mapping[str, str]] = None,
            options: Optional[Mapping[str, object]] = None, checks: Sequence[str] = ()) -> Kernel:
    """compile compiles ``kernel`` for ``arch``'s gfx target and returns the gpusim Kernel that launches it
    on ``args`` (their current contents become the buffers' initial contents).

    ``types`` overrides the Triton type inferred for an argument (``{"a_ptr": "*fp8e4b8"}`` for uint8 bits);
    ``options`` go to Triton's compiler (``num_stages``, ``waves_per_eu``, ``kpack``, ...). The Kernel's
    module text (``Kernel.module``) is Triton's assembly under a generated launch header. ``checks`` are
    ``gpusim-check`` expressions over the argument names (``"out ~= x + y"``), checked by gpusim.simulate's
    ``check=True``.
    """
    return _build(kernel, grid, args, constexprs, num_warps, arch, types, options, checks)[0]


def _build(kernel, grid, args, constexprs, num_warps, arch, types, options, checks=()) -> tuple[Kernel, list]:
    arch = load_arch(arch) if not isinstance(arch, Arch) else arch
    constexprs = dict(constexprs or {})
    arguments = bind_arguments(kernel, args, constexprs, types)
    compiled = compile_kernel(kernel, arguments, constexprs, arch.gfx_target, num_warps, options)
    header = launch_header(compiled, arguments, grid) + "".join(f"; gpusim-check: {c}\n" for c in checks)
    k = kernel_from_text(header + compiled.asm, f"<triton {compiled.name}>", source_lines=True,
                         library_dirs=_triton_dirs())
    k.module.args = with_contents(k.module.args, arguments)
    return k, arguments


def simulate(kernel, *, grid: Sequence[int], args: Sequence, constexprs: Optional[Mapping[str, object]] = None,
             num_warps: int = 4, arch: Union[str, Arch] = "cdna3", check: Optional[Callable[[], object]] = None,
             timing: bool = True, types: Optional[Mapping[str, str]] = None,
             options: Optional[Mapping[str, object]] = None, checks: Sequence[str] = (),
             **simulate_options) -> Result:
    """simulate compiles ``kernel`` (gpusim.triton.compile), runs it on ``arch`` and returns the Result.

    ``grid`` counts programs (one to three dimensions); each program is a workgroup of ``num_warps`` waves.
    ``args`` are the kernel's runtime arguments in order: numpy arrays (or CPU torch tensors) become
    buffers, Python numbers scalars (int: i32, or i64 past its range; float: fp32). After the run every
    array holds what the kernel left in it. ``check``, a callable taking no arguments, is then called: it
    passes when it returns a true value, fails when it returns a false one, and its exception propagates;
    its outcome is the last of ``Result.checks``, after those of ``checks`` (gpusim-check expressions, as
    in compile). ``timing`` False runs the functional executor alone (no
    cycles, faster). Other keywords go to gpusim.simulate (``max_instructions``, ``warm_up``, ...).
    """
    arch = load_arch(arch) if not isinstance(arch, Arch) else arch
    k, arguments = _build(kernel, grid, args, constexprs, num_warps, arch, types, options, checks)
    if not simulate_options.get("outputs", True):
        raise UsageError("gpusim.triton.simulate writes the outputs back into the arrays: outputs=False "
                         "does not apply")
    result = simulate_kernel(k, arch, timing=timing, check=bool(checks), **simulate_options)
    write_back(result.outputs, arguments)
    if check is not None:
        passed = bool(check())
        result.checks.append(CheckResult(CheckSpec(CALLABLE_CHECK, "==", "True"), passed, 1, int(not passed),
                                         0.0, []))
    return result


@dataclass
class TunedConfig:
    """TunedConfig is one autotuner config timed on gpusim: its constexprs and compile options, and its
    cycles and microseconds (None, with ``error`` saying why, when Triton refused to compile it);
    ``sampling`` is the run's Result.sampling (gpusim.engine.sampling.SamplingOutcome, or None)."""

    kwargs: dict
    num_warps: int
    num_stages: int
    cycles: Optional[int] = None
    time_us: Optional[float] = None
    error: str = ""
    sampling: Optional[object] = None

    def __str__(self) -> str:
        what = ", ".join(f"{k}={v}" for k, v in self.kwargs.items())
        where = f"num_warps={self.num_warps}, num_stages={self.num_stages}"
        got = f"{self.time_us:.2f} us ({self.cycles:,} cycles)" if self.cycles is not None else self.error
        return f"{what}, {where}: {got}"


def autotune(kernel, *, grid, args: Sequence, arch: Union[str, Arch] = "cdna3", configs: Optional[Sequence] = None,
             constexprs: Optional[Mapping[str, object]] = None, types: Optional[Mapping[str, str]] = None,
             options: Optional[Mapping[str, object]] = None, sample: str = DEFAULT_SAMPLE_MODE) -> list:
    """autotune times every config of a Triton autotuner on ``arch`` and returns them fastest first.

    ``kernel`` is a ``@triton.autotune``-decorated kernel (its ``configs`` are used) or a ``@triton.jit`` one
    with ``configs`` (``triton.Config`` objects) given. ``grid`` is a tuple of program counts or, as Triton
    takes it, a callable of the config's meta-parameters (``lambda meta: (n // meta["BLOCK"],)``). Each
    config runs on copies of the numpy ``args``, so the caller's arrays are left as they were; ``constexprs``
    fixes the meta-parameters no config sets. This is how a Triton autotuner's configs are judged on a
    hypothetical architecture (``arch`` a YAML file) without the GPU. A config Triton refuses to compile
    is kept, last, with its error. ``sample`` is each config's sampling mode, as gpusim.simulate takes it
    (default auto, as ``gpusim tune``: a big dispatch is timed by the grid method from a sample; ``off``
    times every config in full).
    """
    fn = getattr(kernel, "fn", kernel)
    configs = list(configs if configs is not None else getattr(kernel, "configs", ()) or ())
    if not configs:
        raise UsageError("autotune needs configs: an @triton.autotune kernel, or configs=[triton.Config(...)]")
    arch = load_arch(arch) if not isinstance(arch, Arch) else arch
    out = []
    for config in configs:
        meta = {**dict(constexprs or {}), **dict(config.kwargs)}
        tuned = TunedConfig(dict(config.kwargs), int(config.num_warps), int(config.num_stages))
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        run_options = {**dict(options or {}), "num_stages": tuned.num_stages}
        try:
            result = simulate(fn, grid=tuple(grid(meta)) if callable(grid) else grid, args=copies,
                              constexprs=meta, num_warps=tuned.num_warps, arch=arch, types=types,
                              options=run_options, sample=sample)
            tuned.cycles, tuned.time_us, tuned.sampling = result.cycles, result.time_us, result.sampling
        except UsageError as err:
            tuned.error = err.message
        out.append(tuned)
    return sorted(out, key=lambda t: (t.cycles is None, t.cycles or 0))
