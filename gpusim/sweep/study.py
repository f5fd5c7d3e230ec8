"""Study files: what a sweep varies, on which workload, and what it measures.

A study is a YAML file::

    name: lds-and-tiles
    arch: cdna3                      # the base architecture: a shipped name or a YAML file
    vary:                            # every combination of these values is one point
      arch.cu.lds.size_bytes: [65536, 131072]     # arch.<key path>: an architecture key
      arch.hbm.channels: [96, 128, 192]
      gen.gemm.tile: [64x64x32, 128x128x32]        # gen.<template>.<parameter>
    workload: {gen: gemm, m: 4096, n: 4096, k: 4096, dtype: f16}
    metrics: [time_us, tflops, MFMA_Util, L2_Hit_Rate]
    sample: auto                     # optional: auto (default), on or off, as gpusim run --sample
    sample_interval: 1               # optional, with sample auto or on: as gpusim run --sample-interval

Each point is timed as ``gpusim run`` times a kernel, sampled under ``sample: auto`` (the default) by the grid method
when its dispatch is estimated above gpusim.engine.sampling.SAMPLE_ABOVE_WAVE_INSTRUCTIONS wave-instructions in
enough rounds of workgroups (``on`` adds the experimental loop method, at any size); every row records
whether it was (``sampled``, ``sample_method``, ``sample_error_pct``: SamplingOutcome.error_pct, the
error estimate on cycles in percent: sampling noise and the method's measured error). ``sample: off``
times every point in full.

A Triton kernel is a workload too (``workload: {triton: FILE.py:KERNEL, grid:, args:}``, vary keys
``triton.<CONSTEXPR>``, ``triton.num_warps``, ...): see gpusim.sweep.triton_study.

``workload`` is a template and its fixed parameters (as ``gpusim gen`` takes them) or one
kernel file; ``workloads: [a.s, b.s]`` instead runs every point on each file (the column
``workload``). ``load_study`` checks everything a point needs before anything runs: key
paths, each value against the architecture's validation or the template's parameter type,
every combination of architecture values, the metric names, and a non-empty grid. Each
mistake raises StudyError naming the study file's line and the key.

A program study runs an application program (gpusim.system) at every point::

    name: tp-mlp-links
    workload: {program: ../workloads/tp_mlp_8gpu.yaml}   # relative to the study file
    vary:
      system.link.bandwidth_gbps: [32, 64, 128]           # any dotted key the program loader's overrides take:
      params.algorithm: [ring, direct]                    # system.*, params.<name>, streams.0.gpu, ...
    metrics: [total_us, hidden_fraction, busbw_gbps]      # gpusim.sweep.metrics.PROGRAM_METRICS

Its points are ``simulate_program(program, overrides=<the point's values>)``. It has no ``arch``
(the program's ``system`` names its GPUs' architectures: vary ``system.gpus.arch``), no ``arch.*``
or ``gen.*`` keys, no ``warm_up`` or ``max_instructions``; ``sample`` and ``sample_interval`` apply to each of
its launches (simulate_program's ``sample``), and its rows' SAMPLE_COLUMNS say whether any launch was
sampled and the program's error estimate (ProgramResult.sampling's ``error_pct``); kernel metrics are
refused, as program metrics are in a kernel study. The program is loaded before anything runs (its own mistakes keep
their file:line), then once with each varied value alone, so a key the program cannot have (with a
did-you-mean) or a value it refuses is named at the study's line; with up to
``PROGRAM_COMBINATIONS_CHECKED`` points every combination is loaded too. Files named in values
(``system.gpus.arch: my.yaml``) are relative to the program file, as in it.

A study file is untrusted input: every field that names something (``name``, ``arch``, the
template, the kernel or program files, the metrics) must be text; ``name`` becomes the results folder
``results/<name>`` and must be a plain folder name (no path separators, ``..`` or NUL); and the
grid is counted from the lengths of the ``vary`` lists before anything is expanded or validated
value by value, so a study past ``max_points`` (``--max-points``) is refused at once.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from gpusim.engine.sampling_policy import DEFAULT_SAMPLE_MODE
from gpusim.errors import ArchError, GpusimError, SourceLoc, did_you_mean
from gpusim.located_yaml import Located, quote, read_located
from gpusim.sweep.metrics import check_metric, DEFAULT_METRICS, DEFAULT_PROGRAM_METRICS

TOP_KEYS = ("name", "arch", "vary", "workload", "workloads", "metrics", "max_instructions", "warm_up", "sample",
            "sample_interval")
KERNEL_ONLY_KEYS = ("arch", "max_instructions", "warm_up")   # not in a program study
PROGRAM_COMBINATIONS_CHECKED = 64   # a program study of at most this many points loads every point up front
WORKLOAD_COLUMN = "workload"
DEFAULT_MAX_POINTS = 10_000
MAX_NAME = 128


class StudyError(GpusimError):
    """StudyError is a mistake in a study file or sweep request (exit code 2)."""


@dataclass(frozen=True)
class Point:
    """Point is one simulation of a study: its index in the grid and the value of every varied key."""

    index: int
    params: dict

    @property
    def key(self) -> str:
        """key identifies the point across runs of the same study (resume matches on it)."""
        return json.dumps(self.params, sort_keys=True, default=str)


@dataclass(frozen=True)
class Study:
    """Study is a validated study: the base architecture, the workload, what varies and what is measured.

    ``arch`` is the base architecture reference (a shipped name or an absolute path); ``gen`` the
    template family with its fixed parameters (``gen_family`` None for kernel files); ``files`` the
    kernel files (absolute paths); ``program`` the program file of a program study (absolute; ``arch``
    is then ''); ``vary`` maps each varied key to its values, in file order; ``points`` the explicit
    points (the grid of ``vary``, or a list given by ``gpusim tune``).
    """

    name: str
    arch: str
    vary: dict
    metrics: tuple
    gen_family: Optional[str] = None
    gen: dict = field(default_factory=dict)
    files: tuple = ()
    max_instructions: int = 2_000_000_000
    warm_up: bool = False   # time each point after one warm-up launch of its kernel (gpusim run --warm-up)
    sample: str = DEFAULT_SAMPLE_MODE    # sampled timing of each point (gpusim run --sample; gpusim.engine.sampling)
    sample_interval: Optional[float] = None   # the grid method's interval, percent (gpusim run --sample-interval)
    source: str = ""
    explicit_points: Optional[tuple] = None
    program: Optional[str] = None
    triton: Optional[dict] = None   # a Triton study's workload (gpusim.sweep.triton_study), plain data

    @property
    def columns(self) -> tuple:
        """columns are the varied keys, in the order results show them."""
        keys = list(self.vary)
        if self.files and WORKLOAD_COLUMN not in keys:
            keys.insert(0, WORKLOAD_COLUMN)
        return tuple(keys)

    def points(self) -> list:
        """points lists every point: the explicit ones, else the Cartesian product of ``vary`` (x files)."""
        if self.explicit_points is not None:
            return [Point(i, dict(p)) for i, p in enumerate(self.explicit_points)]
        axes = dict(self.vary)
        if self.files and WORKLOAD_COLUMN not in axes:
            axes = {WORKLOAD_COLUMN: [Path(f).name for f in self.files], **axes}
        names = list(axes)
        return [Point(i, dict(zip(names, combo))) for i, combo in enumerate(itertools.product(*axes.values()))]

    def to_dict(self) -> dict:
        """to_dict is the study as plain data: what a worker needs to run any of its points."""
        return {"name": self.name, "arch": self.arch, "vary": self.vary, "metrics": list(self.metrics),
                "gen_family": self.gen_family, "gen": self.gen, "files": list(self.files),
                "max_instructions": self.max_instructions, "warm_up": self.warm_up, "program": self.program,
                "triton": self.triton, "sample": self.sample, "sample_interval": self.sample_interval}

    def hash(self) -> str:
        """hash identifies the study's content (not its file name): a results folder belongs to one hash."""
        data = self.to_dict()
        data["points"] = [p.params for p in self.points()]
        data.pop("name")
        if data["sample"] == "off":   # what every point was before sampling: earlier results folders still match
            data.pop("sample")
        if data["sample_interval"] is None:   # likewise before the interval could be set
            data.pop("sample_interval")
        if data["program"] and data.get("sample", "off") != "off":   # program launches were timed in full before
            data["program_launches_sampled"] = True
        text = json.dumps(data, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def folder_name_problem(name: str) -> str:
    """folder_name_problem says why ``name`` is not a plain folder name (one path component), else ''."""
    if not name:
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if "\0" in name or not name.isprintable():
        return "holds a NUL or another unprintable character"
    if "/" in name or "\\" in name:
        return "holds a path separator; a study name is one plain folder name"
    if name in (".", "..") or name.strip() != name:
        return "is not a plain folder name"
    if Path(name).is_absolute() or ":" in name:
        return "is not a plain folder name (no drive or absolute path)"
    return ""


def _shown(value: Any) -> str:
    kind = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a mapping",
            type(None): "empty"}.get(type(value), type(value).__name__)
    return f"{kind} ({value!r})" if not isinstance(value, (list, dict)) else kind


def load_study(path, max_points: int = DEFAULT_MAX_POINTS) -> Study:
    """load_study reads and validates a study file; raises StudyError at the first mistake.

    A grid of more than ``max_points`` points is refused (naming each axis and its size) before
    any of it is expanded.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise StudyError(f"cannot read study file {path}: {err.strerror or err}") from None
    tree = read_located(text, str(path), StudyError, "study file")
    if not tree.is_mapping:
        raise StudyError("a study file is a mapping (name:, arch:, vary:, workload:, metrics:)", tree.loc)
    return _Builder(tree, path, max_points).build(text)


def study_from_parts(name: str, arch: str, gen_family: str, gen: dict, points: Sequence[dict],
                     metrics: Sequence[str] = DEFAULT_METRICS, sample: str = DEFAULT_SAMPLE_MODE,
                     sample_interval: Optional[float] = None) -> Study:
    """study_from_parts builds a study of explicit points on one template (what ``gpusim tune`` runs).

    Each point maps ``gen.<family>.<param>`` keys to values; they are not re-validated here. ``sample`` is
    the sampling mode of every point (gpusim.engine.sampling.SAMPLE_MODES) and ``sample_interval`` its grid
    method's interval in percent (None: the default; a study file's ``sample_interval:``).
    """
    keys: list = []
    for p in points:
        keys.extend(k for k in p if k not in keys)
    vary = {k: sorted({p.get(k) for p in points}, key=str) for k in keys}
    return Study(name=name, arch=arch, vary=vary, metrics=tuple(metrics), gen_family=gen_family, gen=dict(gen),
                 explicit_points=tuple(dict(p) for p in points), sample=sample, sample_interval=sample_interval)


class _Builder:
    """_Builder turns a located study tree into a Study, checking each part where it was written."""

    def __init__(self, tree: Located, path: Path, max_points: int = DEFAULT_MAX_POINTS):
        self.tree = tree
        self.path = path
        self.base_dir = path.resolve().parent
        self.max_points = max_points

    def build(self, text: str) -> Study:
        top = self.tree.value
        for key, node in top.items():
            if key not in TOP_KEYS:
                raise StudyError(f"unknown study key '{key}'", node.key_loc,
                                 did_you_mean(key, TOP_KEYS) or f"known: {', '.join(TOP_KEYS)}")
        name = self._name(top.get("name"))
        program = self._program(top)
        self.triton = None
        if program is None:
            arch_ref, base = self._arch(top.get("arch"))
            self.triton = self._triton(top)
            family, gen, files = (None, {}, ()) if self.triton else self._workload(top)
        else:
            arch_ref, base, family, gen, files = "", None, None, {}, ()
        vary_node = top.get("vary")
        vary: dict = {}
        value_locs: dict = {}
        if vary_node is not None:
            if not vary_node.is_mapping:
                raise StudyError("'vary' maps keys (arch.<path>, gen.<template>.<param>) to lists of values",
                                 vary_node.where)
            self._count_points(vary_node, files)
            for key, node in vary_node.value.items():
                vary[key], value_locs[key] = self._values(key, node, base, family, program)
        if program is None:
            self._check_arch_combinations(vary, value_locs, base)
            if self.triton:
                self._check_triton_points(vary, value_locs)
        else:
            self._check_program_combinations(vary, value_locs, program)
        metrics = self._metrics(top.get("metrics"), program is not None)
        max_inst = top["max_instructions"].value if "max_instructions" in top else 2_000_000_000
        if not isinstance(max_inst, int) or isinstance(max_inst, bool) or max_inst <= 0:
            raise StudyError("'max_instructions' must be a positive integer", top["max_instructions"].loc)
        warm_up = top["warm_up"].value if "warm_up" in top else False
        if not isinstance(warm_up, bool):
            raise StudyError("'warm_up' must be true or false", top["warm_up"].loc)
        sample = self._sample(top.get("sample"))
        interval = self._sample_interval(top.get("sample_interval"), sample)
        study = Study(name=name, arch=arch_ref, vary=vary, metrics=metrics, gen_family=family, gen=gen,
                      files=files, max_instructions=max_inst, warm_up=warm_up, source=text, program=program,
                      triton=self.triton, sample=sample, sample_interval=interval)
        return study

    @staticmethod
    def _sample(node: Optional[Located]) -> str:
        """_sample is the study's ``sample:`` mode (default DEFAULT_SAMPLE_MODE), one of gpusim.engine.sampling.SAMPLE_MODES."""
        from gpusim.engine.sampling_policy import SAMPLE_MODES
        if node is None:
            return DEFAULT_SAMPLE_MODE
        value = node.value
        if isinstance(value, bool):   # YAML reads a bare on / off as a boolean
            value = "on" if value else "off"
        if value not in SAMPLE_MODES:
            got = repr(value) if isinstance(value, str) else _shown(value)
            raise StudyError(f"'sample' is one of {', '.join(SAMPLE_MODES)} (sampled timing of each point, as "
                             f"gpusim run --sample), got {got}", node.loc,
                             did_you_mean(value, SAMPLE_MODES) if isinstance(value, str) else "")
        return value

    @staticmethod
    def _sample_interval(node: Optional[Located], sample: str) -> Optional[float]:
        """_sample_interval is the study's ``sample_interval:`` (None when absent): a percentage above 0 and at
        most 100, given only with ``sample: auto`` (the default) or ``on`` (gpusim run --sample-interval)."""
        if node is None:
            return None
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 100:
            raise StudyError("'sample_interval' is a percentage above 0 and at most 100 (the grid method's widest "
                             f"95% interval on cycles, as gpusim run --sample-interval), got {_shown(value)}",
                             node.loc)
        if sample == "off":
            raise StudyError("'sample_interval' applies with 'sample: auto' or 'sample: on'", node.loc)
        return float(value)

    def _program(self, top: dict) -> Optional[str]:
        """_program is the program file of ``workload: {program: FILE}`` (absolute, loaded once), else None."""
        one = top.get("workload")
        if one is None or not one.is_mapping or "program" not in one.value:
            return None
        if "workloads" in top:
            raise StudyError("say what runs: 'workload: {program: FILE.yaml}' or 'workloads: [A.s, B.s]', not both",
                             top["workloads"].key_loc or top["workloads"].where)
        for key, node in one.value.items():
            if key != "program":
                raise StudyError(f"workload: a program workload has only 'program: FILE.yaml', not '{key}' (vary "
                                 "the program's own keys as system.<key>, params.<name>)", node.key_loc or node.loc)
        for key in KERNEL_ONLY_KEYS:
            if key in top:
                why = ("the program's system names its GPUs' architectures (vary system.gpus.arch)" if key == "arch"
                       else "it applies to a kernel study")
                raise StudyError(f"'{key}' is not a key of a program study: {why}", top[key].key_loc or top[key].loc)
        node = one.value["program"]
        ref = node.value
        if not isinstance(ref, str) or not ref.endswith((".yaml", ".yml")) or "\0" in ref:
            raise StudyError(f"workload: 'program' is a program file (.yaml), got {_shown(ref)}", node.loc)
        path = self.base_dir / ref
        if not path.is_file():
            path = Path.cwd() / ref
        if not path.is_file():
            raise StudyError(f"program file {ref} not found (relative paths start at the study file's folder)",
                             node.loc)
        from gpusim.system.loader import load_program
        load_program(str(path.resolve()))   # a bad program is refused with its own file:line
        return str(path.resolve())

    def _triton(self, top: dict) -> Optional[dict]:
        """_triton is the plain-data workload of ``workload: {triton: FILE.py:KERNEL, ...}``, else None.

        It imports the Python file (the study names it) to check the study against the kernel's parameters.
        """
        from gpusim.sweep import triton_study as ts
        one = top.get("workload")
        if one is None or not one.is_mapping or "triton" not in one.value:
            return None
        if "workloads" in top:
            raise StudyError("say what runs: 'workload: {triton: FILE.py:KERNEL, ...}' or 'workloads: [A.s, B.s]', "
                             "not both", top["workloads"].key_loc or top["workloads"].where)
        fields = one.value
        for key, node in fields.items():
            if key not in ts.WORKLOAD_KEYS:
                raise StudyError(f"workload: a Triton workload has no key '{key}'", node.key_loc or node.loc,
                                 did_you_mean(key, ts.WORKLOAD_KEYS) or f"its keys: {', '.join(ts.WORKLOAD_KEYS)}")
        node = fields["triton"]
        ref = node.value
        path_text, sep, name = ref.rpartition(":") if isinstance(ref, str) else ("", "", "")
        if not sep or not path_text.endswith(".py") or not name or "\0" in ref:
            raise StudyError(f"workload: 'triton' is FILE.py:KERNEL, got {_shown(ref)}", node.loc)
        path = ts.resolve_file(path_text, self.base_dir)
        if path is None:
            raise StudyError(f"Triton file {path_text} not found (relative paths start at the study file's folder)",
                             node.loc)
        try:
            kernel = ts.load_kernel(str(path), name)
        except GpusimError as err:
            raise StudyError(f"workload: {err.message}", node.loc, err.hint) from None
        spec = {"path": str(path), "kernel": name}
        spec["args"] = self._triton_args(fields.get("args"), kernel, one)
        spec["constexprs"] = self._triton_constexprs(fields.get("constexprs"), kernel)
        for option in ts.OPTIONS:
            opt = fields.get(option)
            spec[option] = None if opt is None else opt.value
            problem = "" if opt is None else ts.option_problem(option, opt.value)
            if problem:
                raise StudyError(f"workload: {problem}", opt.loc)
        spec["grid"] = self._triton_grid(fields.get("grid"), kernel, one)
        self.triton_kernel = kernel
        return spec

    @staticmethod
    def _triton_args(node: Optional[Located], kernel, workload: Located) -> dict:
        from gpusim.frontends.triton import runtime_params
        from gpusim.sweep import triton_study as ts
        names = [p.name for p in runtime_params(kernel)]
        if node is None:
            if names:
                raise StudyError(f"workload: kernel '{kernel.__name__}' needs 'args:' for {', '.join(names)} "
                                 "(as gpusim triton --arg writes them: x_ptr: \"f32[4096]:uniform(-1,1)\", n: 4096)",
                                 workload.where)
            return {}
        if not node.is_mapping:
            raise StudyError("workload: 'args' maps each runtime argument to DTYPE[SHAPE]:INIT or a number",
                             node.where)
        args = {}
        for key, item in node.value.items():
            if key not in names:
                raise StudyError(f"workload.args: kernel '{kernel.__name__}' has no runtime argument '{key}' "
                                 f"(it takes {', '.join(names)})", item.key_loc or item.loc, did_you_mean(key, names))
            if isinstance(item.value, bool) or not isinstance(item.value, (str, int, float)):
                raise StudyError(f"workload.args.{key}: give DTYPE[SHAPE]:INIT or a number, got {_shown(item.value)}",
                                 item.loc)
            args[key] = item.value
            try:
                ts.arg_values(kernel, {**{n: 0 for n in names}, key: item.value})
            except GpusimError as err:
                raise StudyError(f"workload.args.{key}: {err.message}", item.loc, err.hint) from None
        missing = [n for n in names if n not in args]
        if missing:
            raise StudyError(f"workload.args: kernel '{kernel.__name__}' needs a value for {', '.join(missing)}",
                             node.where)
        return args

    @staticmethod
    def _triton_constexprs(node: Optional[Located], kernel) -> dict:
        from gpusim.sweep import triton_study as ts
        if node is None:
            return {}
        if not node.is_mapping:
            raise StudyError("workload: 'constexprs' maps constexpr names to numbers", node.where)
        names = ts.constexpr_names(kernel)
        out = {}
        for key, item in node.value.items():
            if key not in names:
                raise StudyError(f"workload.constexprs: kernel '{kernel.__name__}' has no constexpr '{key}'",
                                 item.key_loc or item.loc, did_you_mean(key, names) or f"its constexprs: "
                                 f"{', '.join(names) or 'none'}")
            problem = ts.constexpr_problem(item.value)
            if problem:
                raise StudyError(f"workload.constexprs.{key}: {problem}", item.loc)
            out[key] = item.value
        return out

    @staticmethod
    def _triton_grid(node: Optional[Located], kernel, workload: Located) -> list:
        from gpusim.asm.shape_expr import ShapeSyntaxError, names_in, parse_shape
        from gpusim.frontends.triton import runtime_params
        from gpusim.sweep import triton_study as ts
        if node is None:
            raise StudyError("workload: a Triton workload needs 'grid:' (program counts: an integer, an expression "
                             "such as \"n // BLOCK\", or a list of one to three)", workload.where)
        items = node.value if isinstance(node.value, list) else [node]
        if not 1 <= len(items) <= 3:
            raise StudyError("workload.grid: give one to three program counts", node.where)
        readable = [p.name for p in runtime_params(kernel)] + ts.constexpr_names(kernel)
        grid = []
        for item in items:
            v = item.value
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                raise StudyError(f"workload.grid: a program count is an integer or an expression, got {_shown(v)}",
                                 item.loc)
            if isinstance(v, str):
                try:
                    parsed = parse_shape(v)
                except ShapeSyntaxError as err:
                    raise StudyError(f"workload.grid: {err.message}", item.loc) from None
                for name, _ in names_in(parsed):
                    if name not in readable:
                        raise StudyError(f"workload.grid: '{name}' in '{v}' is neither a scalar argument nor a "
                                         f"constexpr of '{kernel.__name__}'", item.loc, did_you_mean(name, readable))
            elif v < 1:
                raise StudyError(f"workload.grid: a program count is at least 1, got {v}", item.loc)
            grid.append(v)
        return grid

    def _triton_value(self, key: str, item: Located):
        from gpusim.sweep import triton_study as ts
        if not self.triton:
            raise StudyError(f"vary.{key}: triton.* keys vary a Triton kernel, but the workload is not one "
                             "(workload: {triton: FILE.py:KERNEL, ...})", item.loc)
        problem = ts.key_problem(key, self.triton_kernel)
        if problem:
            raise StudyError(f"vary.{key}: {problem[0]}", item.loc, problem[1])
        name = key[len("triton."):]
        message = ts.option_problem(name, item.value) if name in ts.OPTIONS else ts.constexpr_problem(item.value)
        if message:
            raise StudyError(f"vary.{key}: {message}", item.loc)
        return item.value

    def _check_triton_points(self, vary: dict, locs: dict) -> None:
        """Every point's grid must evaluate to program counts and its constexprs be complete."""
        from gpusim.sweep import triton_study as ts
        keys = [k for k in vary if k.startswith("triton.")]
        where = locs[keys[0]][0] if keys else self.tree.value["workload"].where

        def fail(message):
            raise StudyError(f"vary: {message}" if keys else f"workload: {message}", where)
        ts.check_points(self.triton, vary, fail)

    def _name(self, node: Optional[Located]) -> str:
        if node is None:
            return self.path.stem
        if not isinstance(node.value, str):
            raise StudyError(f"'name' is text (the results folder's name), got {_shown(node.value)}", node.where)
        problem = folder_name_problem(node.value)
        if problem:
            raise StudyError(f"'name' {quote(node.value)} {problem} (it names the folder results/<name>)",
                             node.loc)
        return node.value

    def _count_points(self, vary_node: Located, files: tuple) -> None:
        """_count_points refuses a grid over max_points from the lengths of its lists, expanding nothing."""
        axes = [(f"vary.{key}", len(node.value) if isinstance(node.value, list) else 1)
                for key, node in vary_node.value.items()]
        if len(files) > 1:
            axes.insert(0, ("workloads", len(files)))
        total = 1
        for _, size in axes:
            total *= size
        if total > self.max_points:
            sizes = " x ".join(f"{key}: {size}" for key, size in axes)
            raise StudyError(f"the study has {total} points ({sizes}), more than --max-points "
                             f"{self.max_points}; narrow the grid or raise --max-points", vary_node.where)

    def _arch(self, node: Optional[Located]):
        from gpusim.arch import load_arch
        ref = "cdna3" if node is None else node.value
        if not isinstance(ref, str) or not ref or "\0" in ref:
            raise StudyError("'arch' names a shipped architecture (cdna3) or a YAML file"
                             + ("" if isinstance(ref, str) else f", got {_shown(ref)}"), node.where)
        candidate = self.base_dir / ref
        if candidate.suffix in (".yaml", ".yml") or candidate.is_file():
            ref = str(candidate.resolve())
        try:
            base = load_arch(ref)
        except ArchError as err:
            raise StudyError(f"arch: {err.message}", err.loc or (node.loc if node else None), err.hint) from None
        return ref, base

    def _workload(self, top: dict):
        one, many = top.get("workload"), top.get("workloads")
        if (one is None) == (many is None):
            where = (one or many).where if (one or many) else SourceLoc(str(self.path), 1)
            raise StudyError("say what runs: 'workload: {gen: TEMPLATE, ...}' or 'workload: FILE.s', or "
                             "'workloads: [A.s, B.s]' (exactly one of them)", where)
        if many is not None:
            if not isinstance(many.value, list) or not many.value:
                raise StudyError("'workloads' is a non-empty list of kernel files", many.where)
            return None, {}, tuple(self._file(item) for item in many.value)
        if isinstance(one.value, str):
            return None, {}, (self._file(one),)
        if not one.is_mapping or "gen" not in one.value:
            raise StudyError("'workload' is a kernel file or a mapping with 'gen: TEMPLATE' and its parameters",
                             one.where)
        from gpusim.templates.registry import TemplateError, template
        family_node = one.value["gen"]
        if not isinstance(family_node.value, str):
            raise StudyError(f"'gen' names a template, got {_shown(family_node.value)}", family_node.where)
        try:
            t = template(str(family_node.value))
        except TemplateError as err:
            raise StudyError(f"workload: {err.message}", family_node.loc, err.hint) from None
        gen = {}
        for key, node in one.value.items():
            if key == "gen":
                continue
            gen[key] = self._template_value(t, key, node.value, node.loc, f"workload.{key}")
        return t.name, gen, ()

    def _file(self, node: Located) -> str:
        if not isinstance(node.value, str) or not node.value.endswith(".s") or "\0" in node.value:
            program = isinstance(node.value, str) and node.value.endswith((".yaml", ".yml"))
            raise StudyError(f"a workload file is a path to a .s kernel, got {node.value!r}", node.loc,
                             f"a program is written workload: {{program: {node.value}}}" if program else "")
        path = (self.base_dir / node.value)
        if not path.is_file():
            path = Path.cwd() / node.value
        if not path.is_file():
            raise StudyError(f"workload file {node.value} not found (relative paths start at the study "
                             "file's folder)", node.loc)
        return str(path.resolve())

    @staticmethod
    def _template_value(t, name: str, value: Any, loc, shown: str):
        from gpusim.templates.registry import TemplateError
        names = [p.name for p in t.params]
        canonical = name.replace("_", "-")
        if canonical not in names:
            raise StudyError(f"{shown}: template '{t.name}' has no parameter '{name}'", loc,
                             did_you_mean(canonical, names) or f"its parameters: {', '.join(names)}")
        param = next(p for p in t.params if p.name == canonical)
        try:
            return param.parse(value)
        except TemplateError as err:
            raise StudyError(f"{shown}: {err.message}", loc) from None

    def _values(self, key: str, node: Located, base, family: Optional[str], program: Optional[str] = None):
        items = node.value if isinstance(node.value, list) else None
        if not items:
            raise StudyError(f"vary.{key}: give a non-empty list of values", node.where)
        values, locs = [], []
        for item in items:
            if isinstance(item.value, (dict, list)):
                raise StudyError(f"vary.{key}: each value is a single number or word", item.loc)
            values.append(self._program_value(key, item, program) if program
                          else self._one_value(key, item, base, family))
            locs.append(item.loc)
        if len(set(map(str, values))) != len(values):
            raise StudyError(f"vary.{key}: a value is listed twice", node.where)
        return values, locs

    def _one_value(self, key: str, item: Located, base, family: Optional[str]):
        if key.startswith("arch."):
            from gpusim.arch.loader import arch_overrides
            try:
                arch_overrides(base, {key[5:]: item.value})
            except ArchError as err:
                raise StudyError(f"vary.{key}: {err.message}", item.loc, err.hint) from None
            return item.value
        if key.startswith("triton."):
            return self._triton_value(key, item)
        if self.triton:
            raise StudyError(f"vary: unknown key '{key}' in a Triton study: say triton.<CONSTEXPR>, "
                             f"triton.num_warps, triton.num_stages, triton.waves_per_eu or arch.<key path>",
                             item.loc)
        if key.startswith("gen."):
            parts = key.split(".")
            if family is None:
                raise StudyError(f"vary.{key}: gen.* keys vary a template, but the workload is a kernel file",
                                 item.loc)
            if len(parts) != 3 or parts[1] != family:
                raise StudyError(f"vary.{key}: a template parameter is written gen.{family}.<parameter> "
                                 f"(the workload's template is '{family}')", item.loc)
            from gpusim.templates.registry import template
            return self._template_value(template(family), parts[2], item.value, item.loc, f"vary.{key}")
        raise StudyError(f"vary: unknown key '{key}': say arch.<key path> (an architecture key) or "
                         "gen.<template>.<parameter> (or triton.<CONSTEXPR> with a Triton workload)",
                         item.loc if item.loc else None)

    @staticmethod
    def _program_value(key: str, item: Located, program: str):
        """_program_value checks one varied value of a program study by loading the program with it alone."""
        if key.startswith("arch."):
            raise StudyError(f"vary.{key}: a program study's GPUs take their architectures from the program's "
                             "system: vary system.gpus.arch (a shipped name or an arch file) instead", item.loc)
        if key.startswith("gen."):
            raise StudyError(f"vary.{key}: gen.* keys vary a template, but the workload is a program: vary its "
                             "params.<name> (its 'params:') instead", item.loc)
        from gpusim.system.loader import load_program
        try:
            load_program(program, {key: item.value})
        except GpusimError as err:
            message, hint = _program_problem(err, key)
            raise StudyError(f"vary.{key}: {message}", item.loc, hint) from None
        return item.value

    @staticmethod
    def _check_program_combinations(vary: dict, locs: dict, program: str) -> None:
        """Every point of a small program study must load: values valid alone may not be together."""
        from gpusim.system.loader import load_program
        keys = list(vary)
        total = 1
        for values in vary.values():
            total *= len(values)
        if len(keys) < 2 or total > PROGRAM_COMBINATIONS_CHECKED:
            return
        for combo in itertools.product(*(vary[k] for k in keys)):
            try:
                load_program(program, dict(zip(keys, combo)))
            except GpusimError as err:
                shown = ", ".join(f"{k}={v}" for k, v in zip(keys, combo))
                message, hint = _program_problem(err, "")
                raise StudyError(f"vary: the combination {shown} is not a valid program: {message}",
                                 locs[keys[0]][0], hint) from None

    def _check_arch_combinations(self, vary: dict, locs: dict, base) -> None:
        """Every combination of architecture values must pass the architecture's own validation."""
        from gpusim.arch.loader import arch_overrides
        keys = [k for k in vary if k.startswith("arch.")]
        if len(keys) < 2:
            return
        for combo in itertools.product(*(vary[k] for k in keys)):
            try:
                arch_overrides(base, {k[5:]: v for k, v in zip(keys, combo)})
            except ArchError as err:
                shown = ", ".join(f"{k}={v}" for k, v in zip(keys, combo))
                raise StudyError(f"vary: the combination {shown} is not a valid architecture: {err.message}",
                                 locs[keys[0]][0]) from None

    def _metrics(self, node: Optional[Located], program: bool = False) -> tuple:
        if node is None:
            return tuple(DEFAULT_PROGRAM_METRICS if program else DEFAULT_METRICS)
        if not isinstance(node.value, list) or not node.value:
            raise StudyError("'metrics' is a non-empty list of metric or counter names", node.where)
        out = []
        for item in node.value:
            problem = check_metric(item.value, program)
            if problem:
                raise StudyError(f"metrics: {problem[0]}", item.loc, problem[1])
            out.append(str(item.value))
        return tuple(out)


def _program_problem(err: GpusimError, key: str) -> tuple:
    """_program_problem is (message, hint) of a program refused with an override: an error in the overridden
    value speaks of it alone (the study names its line); one that a value caused elsewhere (a ``${param}``
    used in the program, a kernel) says where, in its file."""
    message = err.message
    prefix = f"override {key}: "
    if key and message.startswith(prefix):
        message = message[len(prefix):]
    if err.loc is not None and err.loc.file != "<override>":
        message += f", at {err.loc}"
    return message, err.hint
