"""The Python API: load a kernel, load an architecture, simulate.

    import gpusim
    k = gpusim.load_kernel("workloads/saxpy.s")
    r = gpusim.simulate(k, "cdna3", check=True)
    print(r.counters["SQ_INSTS_VALU"], r.checks_passed)

The CLI is a thin layer over these functions.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

import numpy as np

from gpusim.arch import Arch, Occupancy, descriptor_occupancy, load_arch
from gpusim.arch.occupancy import KernelDoesNotFit
from gpusim.asm import sems
from gpusim.asm.encoder import encode_module
from gpusim.asm.header import apply_overrides
from gpusim.asm.ir import AsmModule, KernelSource
from gpusim.asm.parser import parse_file, parse_text
from gpusim.asm.program import K_VREG, KIND, VAL, WIDTH, Program
from gpusim.asm.target_id import processor_of
from gpusim.errors import AsmError, HeaderError, UsageError, did_you_mean
from gpusim.exec.check import CheckResult, run_checks
from gpusim.engine.launch import kernel_times
from gpusim.exec.launch import DEFAULT_LIMIT, DEFAULT_WAVE_LIMIT, Dispatch
from gpusim.report.counters import instruction_counters as _instruction_counters

__all__ = ["Kernel", "Result", "load_arch", "load_kernel", "kernel_from_text", "simulate", "kernel_occupancy"]

TARGETS = {"gfx942": "gfx942", "gfx940": "gfx942", "gfx941": "gfx942", "gfx90a": "gfx90a"}


@dataclass
class Kernel:
    """Kernel is an assembled kernel with its launch header, ready to simulate."""

    path: str
    module: AsmModule
    source: KernelSource
    program: Program
    target: str

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def descriptor(self) -> dict:
        return self.source.descriptor

    @property
    def prints(self) -> bool:
        """prints tells whether the kernel can print: through gpusim's own device printf (a HIP file's printf,
        gpusim.exec.device_printf) or through a hostcall buffer (ROCm's printf: Triton's tl.device_print,
        gpusim.exec.hostcall). A run reads what it printed only when it computes every value."""
        from gpusim.exec.device_printf import buffer_offset
        from gpusim.exec.launch import calls_host
        return buffer_offset(self.program.static_data) is not None or calls_host(self.module, self.name)


def _first_executed(program: Program, entry: int, counts: np.ndarray, sem: int) -> Optional[str]:
    """_first_executed describes the first instruction of semantic ``sem`` the kernel executed, as
    ``pc 0x10 's_memtime s[4:5]'``, or None. The report names two kinds that read 0 where the hardware reads a
    state gpusim's values do not have: the clocks (s_memtime, s_memrealtime: HIP's clock64() and wall_clock64();
    gpusim computes a kernel's values apart from its timing) and the hardware registers (s_getreg_b32: the
    wave's placement, HW_ID and XCC_ID, its MODE and status bits), so a kernel reading them is told so."""
    rows = np.flatnonzero(counts[:len(program.sem)] > 0)
    rows = rows[program.sem[rows] == sem]
    if not len(rows):
        return None
    i = int(rows[0])
    return f"pc {program.pc_text(i, entry)} '{program.describe(i)}'"


def _target_of(module: AsmModule) -> str:
    """_target_of reads the processor from ``.amdgcn_target "amdgcn-amd-amdhsa--gfx942[:features]"`` (or
    Triton's spelling, gpusim.asm.target_id).

    A file without the directive (hand-written code) is taken as gfx942.
    """
    text = module.target or ""
    if not text:
        return "gfx942"
    processor = processor_of(text)
    if processor is None:
        raise AsmError(f"target '{text}' is not a target id LLVM writes (expected "
                       "'amdgcn-amd-amdhsa--gfx942', or Triton's 'amdgpu9.42-amd-amdhsa-unknown-gfx942')", None)
    if processor not in TARGETS:
        raise AsmError(f"target '{text}' is not supported (gpusim runs gfx90a and gfx942 code)", None)
    return TARGETS[processor]


def load_kernel(path: Union[str, Path], *, kernel: Optional[str] = None, grid: Union[str, Sequence[int], None] = None,
                block: Union[str, Sequence[int], None] = None, args: Optional[Mapping[str, str]] = None,
                target: Optional[str] = None, header: Union[str, Path, None] = None,
                include_dirs: Sequence[Union[str, Path]] = (), device_libs: Union[str, Path, None] = None) -> Kernel:
    """load_kernel parses, validates and encodes one kernel of an assembly file, a HIP source file (.hip) or
    a code object (.hsaco, .co, .o, an offload bundle; unknown suffixes by their magic bytes).

    ``kernel`` picks one of several kernels (a HIP kernel by its plain or its mangled name); ``grid``,
    ``block`` and ``args`` override the launch header; ``header`` names a file of ``; gpusim-*`` lines
    that replaces the file's own (a code object has none); ``target`` is the gfx processor a HIP file is
    compiled for and a bundle's entry is picked for (default gfx942); ``include_dirs`` are searched for a HIP
    file's headers, and ``device_libs`` names a directory of ROCm's device libraries whose math library (ocml)
    a HIP file's double-precision exp, sin, pow, ... and tanf, atan2f, lgammaf, ... then come from
    (gpusim.frontends.device_libs). Raises a GpusimError subclass naming file:line for any problem in the input.
    """
    from gpusim import frontends
    path = str(path)
    kind = frontends.kind_of(path)
    if device_libs is not None and kind != "hip":
        raise UsageError(f"--device-libs links ROCm's math library into a HIP compile; '{path}' is not a .hip file")
    if kind == "hip":
        module, kernel = _hip_module(path, target or "gfx942", kernel, [str(d) for d in include_dirs],
                                     None if device_libs is None else str(device_libs))
    elif kind == "code_object":
        from gpusim.frontends import code_object
        text, kernel = code_object.assembly_of(path, target or "gfx942", kernel)
        module = parse_text(text, f"{path} (disassembly)")
    else:
        module = parse_file(path)
    if header is not None:
        module = _with_header(module, _header_file(str(header)), str(header))
    return _kernel_of(module, path, kernel, grid, block, args)


def _hip_module(path: str, target: str, kernel: Optional[str],
                include_dirs: Sequence[str], device_libs: Optional[str]) -> tuple[AsmModule, Optional[str]]:
    """_hip_module compiles a .hip file and takes its launch header from its ``// gpusim-*`` comments."""
    from gpusim.frontends import hip, kernel_names
    module = parse_text(hip.assembly_of(path, target, include_dirs, device_libs), f"{path} (device assembly)",
                        source_lines=True, library_dirs=(str(hip.INCLUDE),))
    if kernel is not None:
        kernel = kernel_names.resolve(kernel, [k.name for k in module.kernels], path)
    elif len(module.kernels) > 1:
        kernel = kernel_names.pick(None, [k.name for k in module.kernels], path)
    module = _with_header(module, hip.header_text(_read_text(path)), path)
    return module, kernel


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read '{path}': {e.strerror or e}") from None


def _header_file(path: str) -> str:
    """_header_file reads a ``--header`` file (a launch header is a few lines: larger than 1 MiB is refused)."""
    if os.path.isfile(path) and os.path.getsize(path) > (1 << 20):
        raise HeaderError(f"{path}: a header file larger than 1 MiB")
    return _read_text(path)


def _with_header(module: AsmModule, text: str, path: str) -> AsmModule:
    """_with_header replaces a module's launch, arguments and checks with the ``; gpusim-*`` lines of ``text``."""
    from gpusim.asm.header import parse_header_lines
    from gpusim.asm.lexer import preprocess
    launch, args, checks = parse_header_lines(preprocess(text, path).headers)
    return dataclasses.replace(module, launch=launch, args=args, checks=checks)


def kernel_from_text(text: str, name: str = "<text>", *, kernel: Optional[str] = None, source_lines: bool = False,
                     library_dirs: tuple[str, ...] = ()) -> Kernel:
    """kernel_from_text is load_kernel for assembly held in a string (``gpusim.templates.generate``'s output,
    Triton's); ``name`` is what error locations call it. ``source_lines`` and ``library_dirs`` are
    gpusim.asm.parser.parse_text's: for a compiler's output, faults name the lines its ``.loc`` gives."""
    module = parse_text(text, name, source_lines=source_lines, library_dirs=library_dirs)
    return _kernel_of(module, name, kernel, None, None, None)


def _kernel_of(module: AsmModule, path: str, kernel: Optional[str], grid, block, args) -> Kernel:
    if grid is not None or block is not None or args:
        module = apply_overrides(module, grid=grid, block=block, args=dict(args or {}))
    if not module.kernels:
        raise AsmError(f"{path}: no kernel found (no .amdhsa_kernel block)", None)
    if kernel is None:
        if len(module.kernels) > 1:
            names = ", ".join(k.name for k in module.kernels)
            raise UsageError(f"{path} holds several kernels ({names}); pick one with --kernel")
        source = module.kernels[0]
    else:
        found = [k for k in module.kernels if k.name == kernel]
        if not found:
            raise UsageError(f"no kernel '{kernel}' in {path}", hint=did_you_mean(kernel, [k.name for k in module.kernels]))
        source = found[0]
    if module.launch is not None and module.launch.lds:
        desc = dict(source.descriptor)   # the workgroup's LDS is the static size plus the launch's dynamic bytes
        desc["group_segment_fixed_size"] = int(desc.get("group_segment_fixed_size", 0)) + module.launch.lds
        source = dataclasses.replace(source, descriptor=desc)
    target = _target_of(module)
    accum = int(source.descriptor.get("accum_offset", source.descriptor.get("next_free_vgpr", 0)))
    program = encode_module(module, target, accum)
    _check_register_budget(program, source, _code_end(module, source))
    return Kernel(str(path), module, source, program, target)


def _code_end(module: AsmModule, source: KernelSource) -> int:
    """_code_end is the index after a kernel's last instruction: where the next kernel's code starts, in a file
    of several (clang's output of a HIP file with several kernels), else the end."""
    later = [k.entry for k in module.kernels if k.entry > source.entry]
    return min(later) if later else len(module.instructions)


def _check_register_budget(program: Program, source: KernelSource, end: Optional[int] = None) -> None:
    """_check_register_budget rejects a kernel whose code (from its entry to ``end``) uses VGPRs beyond
    ``.amdhsa_next_free_vgpr``; another kernel's code in the same file has its own budget."""
    declared = int(source.descriptor.get("next_free_vgpr", 0))
    if len(program) == 0:
        return
    ops = program.ops[source.entry:end]
    if len(ops) == 0:
        return
    is_v = ops[:, :, KIND] == K_VREG
    top = np.where(is_v, ops[:, :, VAL] + ops[:, :, WIDTH], 0)
    worst = int(top.max())
    if worst > declared:
        i = source.entry + int(np.argwhere(top == worst)[0][0])
        raise AsmError(f"instruction uses vector register {worst - 1} (unified numbering) but "
                       f".amdhsa_next_free_vgpr is {declared}", program.locs[i])


def kernel_occupancy(kernel: Kernel, arch: Union[str, Arch] = "cdna3") -> Occupancy:
    """kernel_occupancy computes waves per SIMD and the limiter for a kernel on an architecture (an Arch, or a
    name or file load_arch takes, as simulate's ``arch``).

    Raises KernelDoesNotFit, located at the ``.amdhsa_*`` line (or the launch line) whose value is at
    fault, when the kernel's registers, LDS or workgroup exceed what one CU of ``arch`` holds.
    """
    arch = load_arch(arch) if not isinstance(arch, Arch) else arch
    launch = kernel.module.launch
    try:
        return descriptor_occupancy(arch, kernel.descriptor, int(np.prod(launch.block)) if launch else 64)
    except KernelDoesNotFit as err:
        if err.loc is not None:
            raise
        source = kernel.source
        if err.directive == "block":
            loc = launch.loc if launch is not None and launch.loc is not None else source.loc
            message = err.message
        else:
            loc = source.field_locs.get(err.directive, source.loc)
            value = source.descriptor.get(err.directive)
            prefix = f".amdhsa_{err.directive} {value}: " if value is not None else ""
            message = err.message if err.message.startswith(".amdhsa_") else prefix + err.message
        located = KernelDoesNotFit(message, err.directive)
        located.loc = loc
        raise located from None


@dataclass
class Result:
    """Result is the outcome of one simulation: counters, check results and outputs.

    ``counters`` maps AMD profiler counter names to values: kernel-wide
    counters, and a memory counter summed over its hardware instances as
    ``NAME_sum`` (``TCC_HIT_sum``). ``instances`` holds the per-instance
    values of a timed run, ``instances["TCC_HIT"][i]`` being rocprof's
    ``TCC_HIT[i]`` (what an instance is: gpusim.memory.hierarchy.MemoryLevels.counters).
    ``outputs`` holds every buffer's final contents (None for a timed run
    made with ``outputs=False``); ``checks`` one CheckResult per check line.
    """

    kernel: str
    target: str
    arch: Arch
    grid: tuple
    block: tuple
    counters: dict
    outputs: Optional[dict]
    checks: list = field(default_factory=list)
    occupancy: Optional[Occupancy] = None
    cycles: Optional[int] = None  # shader-clock cycles on the timing model, first workgroup dispatch to the
    # end of the end-of-kernel release (gpusim.engine.launch); None for a functional run
    instances: dict = field(default_factory=dict)  # counter name -> per-instance values (timed runs)
    trace: Optional[object] = None  # gpusim.engine.timing.TraceEvents of a run made with ``trace=``
    uninit_first: Optional[str] = None  # the first read of a register nothing wrote (GPUSIM_UNINIT_READS)
    clock_read: Optional[str] = None  # the first s_memtime / s_memrealtime the kernel ran (_first_executed)
    hwreg_read: Optional[str] = None  # the first s_getreg_b32 the kernel ran (_first_executed)
    printed: Optional[object] = None  # gpusim.exec.device_printf.Printed: the kernel's device printf output
    warm_up: bool = False  # the timed dispatch ran after a warm-up dispatch of the same kernel
    sampling: Optional[object] = None  # gpusim.engine.sampling.SamplingOutcome of a timed run

    @property
    def metrics(self) -> dict:
        """metrics are the derived metrics (gpusim.report.metrics) whose input counters this run has.

        A functional run has instruction counts but no cycles, so it gets
        the FLOP counts and none of the rates, utilisations or hit rates.
        """
        from gpusim.report.metrics import derived_metrics
        return derived_metrics(self.counters, self.arch)

    @property
    def time_us(self) -> Optional[float]:
        """time_us is ``cycles`` in microseconds at the architecture's shader clock (dispatch to release)."""
        return None if self.cycles is None else self.cycles / self.arch.clocks.shader_mhz

    @property
    def kernel_time_us(self) -> Optional[float]:
        """kernel_time_us is the kernel's time as a profiler's kernel trace measures it (rocprof's duration:
        the kernel-start cache invalidate plus ``cycles``; gpusim.engine.launch). None for a functional run."""
        return None if self.cycles is None else kernel_times(self.cycles, self.arch).kernel_time_us

    @property
    def event_time_us(self) -> Optional[float]:
        """event_time_us is the kernel's time as host-side hipEvent timing around the launch measures it:
        kernel_time_us plus the command processor's launch latency and the completion signal
        (gpusim.engine.launch). None for a functional run."""
        return None if self.cycles is None else kernel_times(self.cycles, self.arch).event_time_us

    @property
    def checks_passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def to_dict(self) -> dict:
        """to_dict returns a JSON-ready summary (counters, checks, the resolved architecture)."""
        return {
            "kernel": self.kernel, "target": self.target, "arch": self.arch.name, "arch_hash": self.arch.hash(),
            "grid": list(self.grid), "block": list(self.block), "cycles": self.cycles, "time_us": self.time_us,
            "kernel_time_us": self.kernel_time_us, "event_time_us": self.event_time_us, "warm_up": self.warm_up,
            "counters": dict(self.counters), "counters_per_instance": {k: list(v) for k, v in self.instances.items()},
            "metrics": self.metrics,
            "occupancy": None if self.occupancy is None else {
                "waves_per_simd": self.occupancy.waves_per_simd, "limiter": self.occupancy.limiter},
            "checks": [{"check": f"{c.spec.lhs} {c.spec.op} {c.spec.rhs}", "passed": c.passed,
                        "elements": c.elements, "mismatches": c.mismatches,
                        "worst_rel_error": c.worst_rel_error} for c in self.checks],
            "printed": None if self.printed is None else {"texts": list(self.printed.lines),
                                                          "dropped": self.printed.dropped},
            "clock_read": self.clock_read,
            "hwreg_read": self.hwreg_read,
            "resolved_arch": self.arch.to_dict(),
        }

    def to_frame(self):
        """to_frame returns counters, per-instance counters and metrics as one long pandas DataFrame.

        Columns: ``kind`` ("counter" or "metric"), ``name``, ``instance``
        (the hardware instance of a per-instance counter, <NA> otherwise),
        ``value`` and ``unit`` (metrics only), the rows of ``gpusim run --csv``.
        Needs pandas.
        """
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("Result.to_frame() needs pandas: pip install pandas") from exc
        from gpusim.report.table import COLUMNS, long_rows
        rows = long_rows(self)
        frame = pd.DataFrame(rows, columns=COLUMNS)
        frame["instance"] = pd.array([r["instance"] for r in rows], dtype="Int64")
        return frame


def simulate(kernel: Kernel, arch: Union[str, Arch] = "cdna3", *, check: bool = False,
             timing: bool = False, outputs: bool = True, max_instructions: int = DEFAULT_LIMIT,
             trace=None, max_wave_instructions: int = DEFAULT_WAVE_LIMIT,
             timeout: Optional[float] = None, warm_up: bool = False, sample=None, progress=None) -> Result:
    """simulate runs ``kernel`` on ``arch`` and returns its Result.

    Every wave of the grid runs, on the functional executor alone or, with
    ``timing``, on the timing model (gpusim.engine), which executes the same
    instructions and adds ``cycles``, ``time_us`` and the cache/LDS/stall
    counters; with ``check`` the outputs are compared with the header's
    ``gpusim-check`` expressions. ``outputs=False`` (timed runs without
    ``check``) skips the arithmetic and data movement that no address, branch
    or EXEC mask depends on (gpusim.asm.value_slice): cycles, counters and
    faults are the same, ``Result.outputs`` is None. ``trace`` (a
    gpusim.engine.timing.TraceWindow, timed runs only) records the wave events of
    the CUs and cycles it selects in ``Result.trace`` (gpusim.report.trace draws
    them). ``max_instructions`` bounds the wave-instructions of the whole dispatch and
    ``max_wave_instructions`` those of each wave: past either the run stops with a
    runaway-kernel KernelFault, as when the run is still going ``timeout`` host seconds after
    it started. ``warm_up`` (timed runs only) first runs the kernel once without changing any buffer and
    times the dispatch after it, so the MALL holds what that run left, as hardware timings taken after a
    warm-up run (gpusim.engine.timing.time_kernel); cycles and counters are the timed dispatch's.
    ``sample`` (timed runs only; a mode name of gpusim.engine.sampling.SAMPLE_MODES or a SamplingPolicy;
    None: ``off``) lets a big dispatch be timed from a representative part (gpusim.engine.sampling):
    ``Result.sampling`` says what was done and how sure the projection is. Outputs and checks stay exact:
    with ``check`` or ``outputs`` every workgroup also runs functionally; so do the timed run's instruction
    counts, unless ``Result.sampling.counts_estimated`` (a grid whose workgroups differ by their data).
    ``progress`` (timed runs only; a gpusim.engine.progress.ProgressWatch such as
    gpusim.report.progress_bar.TerminalProgress) watches the timed dispatches while they run.
    Raises KernelFault if the kernel faults and HeaderError if it has no launch line.
    """
    arch = load_arch(arch) if not isinstance(arch, Arch) else arch
    module = kernel.module
    if module.launch is None:
        raise HeaderError(f"{kernel.path} has no '; gpusim-launch: grid=X,Y,Z block=X,Y,Z' line "
                          "(or pass --grid and --block)", None)
    # registers, LDS and workgroup size must fit a CU in every mode, not only where the timing model needs
    # the occupancy: a functional run would otherwise allocate and run what no GPU could launch
    occ = kernel_occupancy(kernel, arch)
    if warm_up and not timing:
        raise UsageError("a warm-up run only matters to the timing model: pass timing=True with warm_up=True")
    timed = None
    if timing:  # the timing model executes every instruction too: one run gives outputs, counts and cycles
        from gpusim.engine.timing import time_kernel
        timed = time_kernel(kernel, arch, max_instructions=max_instructions,
                            max_wave_instructions=max_wave_instructions, values=outputs or check, trace=trace,
                            timeout=timeout, warm_up=warm_up, sample=sample, progress=progress)
        run = timed.functional
    else:
        dispatch = Dispatch(module, kernel.source, kernel.program, module.launch, module.args)
        run = dispatch.run(limit=max_instructions, wave_limit=max_wave_instructions, timeout=timeout)
    counters = _instruction_counters(kernel.program, run.counts)
    counters["SQ_WAVES"] = run.waves
    counters["SQ_WORKGROUPS"] = run.workgroups
    counters["GPUSIM_UNINIT_READS"] = run.uninit_reads
    checks: list[CheckResult] = []
    if check:
        if not module.checks:
            raise HeaderError(f"{kernel.path} has no '; gpusim-check:' line to verify", None)
        checks = run_checks(module.checks, run.final, run.initial, run.scalars)
    cycles = None
    instances: dict = {}
    if timed is not None:
        cycles = timed.cycles
        counters.update(timed.counters)
        instances = timed.instances
    return Result(kernel=kernel.name, target=kernel.target, arch=arch, grid=module.launch.grid,
                  block=module.launch.block, counters=counters, outputs=run.final, checks=checks, occupancy=occ,
                  cycles=cycles, instances=instances, trace=None if timed is None else timed.trace,
                  uninit_first=run.uninit_first, printed=run.printed, warm_up=warm_up,
                  clock_read=_first_executed(kernel.program, kernel.source.entry, run.counts, sems.S_MEMTIME),
                  hwreg_read=_first_executed(kernel.program, kernel.source.entry, run.counts, sems.S_GETREG_B32),
                  sampling=None if timed is None else timed.sampling)
