"""The program file loader: a YAML application program -> a validated :class:`gpusim.system.program.Program`.

``load_program(path, overrides)`` reads a file, ``program_from_dict(data, ...)`` the same structure held in
Python (its locations are None). Every mistake is one :class:`gpusim.errors.ProgramError` line,
``file:line:col: error: message (did you mean X?)``; a kernel file that does not assemble raises the
assembler's own error, which names the ``.s`` file and line.

The file format::

    params:                   # optional named values: "${name}" in any scalar string below is replaced
      n: 1048576              # ("${name}" alone takes the value's type: a number stays a number); a
                              # param's value is a number, text or list, and does not name other params
    system:                   # optional; default one cdna3 GPU
      gpus: {arch: cdna3, count: 8}         # or a list [{arch: cdna3}, {arch: my.yaml}, ...] (or names);
                                            # arch: a built-in name or a YAML file (relative to this file)
      topology: mesh                        # mesh | ring | switch                            (default mesh)
      link: {bandwidth_gbps: 64, efficiency: 0.75, latency_us: 1.5}   # each GPU-GPU link, per direction
      host_link: {bandwidth_gbps: 64, efficiency: 0.8, latency_us: 2}  # each GPU's link to the host
      copy_engines: 2                       # copies one GPU runs at once                      (default 2)
    buffers:                  # name -> buffer; a name is a Python identifier (checks use it), not a dtype
      x:  {type: "f32[1048576] uniform(-1,1) seed=1", gpu: 0}
      w:  {type: "f16[4096,1024] normal(0,0.02) seed=2", gpus: all}     # gpus: all | [0, 1, ...]
      hx: {type: "f32[1048576] zeros", host: true}
      y:  "f32[1048576]"      # a bare type: on GPU 0
    streams:
      - name: compute         # default stream<k>; names are unique
        gpu: 0                # or gpus: all | [list]: one stream per GPU, named compute@3, ...
        ops: [...]            # see below; "${gpu}" in them is the GPU the stream runs on
    checks:                   # gpusim-check expressions over buffer names (a per-GPU buffer is stacked
      - "y ~= 2.0 * x + y"    # over its GPUs, shape (len(gpus), *shape)); rtol=/atol= as in a header

Buffers: ``type`` is the ``gpusim-arg`` buffer grammar after the word ``buffer``, ``DTYPE[SHAPE] [INIT]
[seed=S] [out]``, where INIT is ``init=uniform(-1,1)`` or just ``uniform(-1,1)``; SHAPE is sizes (use
``${param}`` for a named one). A buffer lives on ``gpu: N`` (default 0), on the host (``host: true``) or,
one copy per GPU, on ``gpus`` (``per_gpu: true`` is then implied; copy k's seed is seed + k). ``gpu: N``
with ``per_gpu: true`` is a per-GPU buffer on one GPU.

Buffer references in operations: ``name`` is the buffer (for a per-GPU buffer: the running GPU's copy),
``name@N`` GPU N's copy of a per-GPU buffer. A kernel's buffers must be on the GPU that runs it.

Operations (each a mapping; ``kernel`` takes its options beside it, the others inside)::

    - kernel: path/to/k.s               # relative to this file; or "template:NAME" with params: {...}
      params: {m: 256}                  # template parameters (gpusim gen NAME's)
      grid: [4096, 1, 1]                # optional, default the header's; 1 to 3 sizes
      block: [256, 1, 1]
      args: {x: x, y: y@0, a: 2.0, n: 1048576}   # header buffer args -> buffer refs, scalars -> numbers;
                                        # unbound args keep the header's; a buffer's dtype and shape
                                        # (after scalar overrides) must equal the kernel argument's
      name: saxpy1                      # optional label
    - memcpy: {src: hx, dst: x, nbytes: 4MiB, src_offset: 0, dst_offset: 0}
                                        # kind h2d/d2h/d2d/peer inferred; without nbytes both sides
                                        # (after their offsets) must be the same size; not host to host
    - memset: {dst: y, value: 0, offset: 0, nbytes: 1024}   # value a byte 0..255; a GPU buffer
    - record: done                      # event names are text ("done@${gpu}" in a replicated stream)
    - wait: done                        # an event that no stream records is refused here
    - host_delay: 5.0                   # microseconds
    - all_reduce: {send: g, recv: g2, group: all, algorithm: ring, chunk_bytes: 1MiB, channels: 16, op: sum}
                                        # also all_gather, reduce_scatter, all_to_all, broadcast (root: N);
                                        # algorithm ring | direct | tree; op sum | max | min | prod;
                                        # group all | [GPUs] (default all) holding the stream's GPU;
                                        # send/recv per-GPU buffers on every group GPU, same dtype;
                                        # recv: all_gather n x send, reduce_scatter send / n, others = send;
                                        # no recv: in place (all_gather/reduce_scatter/all_to_all: the
                                        # buffer holds all n parts, so its size divides by n)
    - repeat:
        var: k                          # optional: "${k}" in the body is each value in turn
        values: [2, 4, 8]               # exactly one of values | range: [start, stop, step] | count: N
                                        #   | doubling: [from, to] (from, 2 from, ... <= to)
                                        #   | halving: [from, to] (from, from // 2, ... >= to)
        ops: [...]                      # unrolled into the stream (repeats nest)

Sizes (nbytes, offsets, chunk_bytes) are integers or text with a unit: ``4MiB``, ``64KiB``, ``1GB``.
``count: N`` gives the variable 0 .. N-1. A program unrolls to at most MAX_OPS operations. Every GPU of
a group issues as many collectives over that group as the others (else one would wait forever).

Overrides (``gpusim sweep``) are dotted keys set on the YAML tree before anything is read:
``system.link.bandwidth_gbps``, ``system.gpus.count``, ``params.chunk``, ``buffers.x.type``,
``streams.0.gpu``. A key the format knows may be added (``system.link`` in a file without one); a
parameter, buffer or list item must exist. Errors in an overridden value are located at ``<override>``.

Kernels are loaded once per (file or template and parameters) and their launch and scalar arguments
applied once per distinct ``kernel_key(op)``; ``Program.kernels`` maps that key to the loaded
``gpusim.api.Kernel`` for the runtime.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from gpusim.arch import Arch, load_arch
from gpusim.asm.header import apply_overrides as apply_kernel_overrides
from gpusim.asm.header import MAX_BUFFER_BYTES, parse_header_lines, parse_scalar
from gpusim.asm.ir import ArgSpec, NUMPY_DTYPES
from gpusim.asm.lexer import HeaderLine
from gpusim.errors import ArchError, GpusimError, HeaderError, ProgramError, SourceLoc, did_you_mean
from gpusim.located_yaml import Located, read_located
from gpusim.system.program import (ALGORITHMS, COLLECTIVES, HOST, TOPOLOGIES, BufferRef, BufferSpec, CollectiveOp,
                                   EventRecordOp, EventWaitOp, HostDelayOp, KernelOp, LinkSpec, MemcpyOp,
                                   MemsetOp, Program, StreamSpec, SystemSpec)
from gpusim.system.program_tree import KEYS, apply_overrides, from_plain, substitute, unresolved
from gpusim.system.topology import default_links

__all__ = ["load_program", "program_from_dict", "kernel_key", "MAX_OPS", "MAX_GPUS"]

MAX_OPS = 1_000_000          # operations of a whole program after repeats are unrolled
MAX_GPUS = 1024
# a link slower than 1 MB/s or faster than 1 PB/s, a latency or host delay over an hour, is a typo, not a what-if
MIN_LINK_GBPS, MAX_LINK_GBPS = 1e-3, 1e6
MAX_PROGRAM_US = 3.6e9
MAX_PROGRAM_BUFFER_BYTES = MAX_BUFFER_BYTES   # every copy of every buffer together: the one kernel launch's limit
# (gpusim.asm.header), what a host can hold; the runtime also keeps each buffer's initial values for checks
REDUCE_OPS = ("sum", "max", "min", "prod")
TEMPLATE_PREFIX = "template:"
_RESERVED = frozenset(NUMPY_DTYPES) | {"np", "numpy", "gpu"}
_NAME_RE = re.compile(r"[A-Za-z_]\w*$")
_REF_RE = re.compile(r"([A-Za-z_]\w*)(?:@(\d+))?$")
_SIZE_RE = re.compile(r"(\d+)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$")
_UNITS = {None: 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
_INT_TEXT_RE = re.compile(r"[+-]?\d+$")


REPEAT_FORMS = ("values", "range", "count", "halving", "doubling")


def _integer_arithmetic(text: str, fallback):
    """_integer_arithmetic computes integer text such as ``"1048576 // 512"`` (what ``${n} // 512`` becomes
    once substituted) with gpusim.asm.shape_expr's grammar (integers, + - * //, parentheses: no names, no
    eval); returns ``fallback`` when the text is not such an expression."""
    from gpusim.asm.shape_expr import ShapeSyntaxError, eval_shape, names_in, parse_shape
    try:
        tree = parse_shape(text)
        if names_in(tree):
            return fallback
        return eval_shape(tree, {}, lambda message, offset: ShapeSyntaxError(message, offset))
    except ShapeSyntaxError:
        return fallback


def _powers_of_two_walk(first: int, last: int, doubling: bool) -> list:
    """_powers_of_two_walk is first, first*2, ... up to last (doubling) or first, first//2, ... down to last
    (halving): the stage sizes and distances of a bitonic sort or a tree reduction."""
    out, v = [], first
    while (v <= last) if doubling else (v >= last):
        out.append(v)
        v = v * 2 if doubling else v // 2
        if len(out) > 64 or v == 0:
            break
    return out


def _shapes_fit(argument: tuple, buffer: tuple) -> bool:
    """_shapes_fit tells whether a buffer of shape ``buffer`` may be bound to a kernel argument of shape
    ``argument``: the same shape, or a 1-D argument of the same number of elements (a kernel written for a
    flat array, such as an elementwise one, sees any buffer's elements in order). A 2-D argument takes only
    its own shape, so a transposed buffer ([n, m] for [m, n]) is refused."""
    if argument == buffer:
        return True
    return len(argument) == 1 and math.prod(buffer) == argument[0]


def kernel_key(op: KernelOp) -> tuple:
    """kernel_key is what a launch's loaded Kernel depends on: the kernel, its template parameters, the
    launch and the scalar arguments (buffer bindings do not change the code). ``Program.kernels`` is keyed
    by it."""
    scalars = tuple(sorted((n, v) for n, v in op.args if not isinstance(v, BufferRef)))
    return op.kernel, op.params, op.grid, op.block, scalars


def load_program(path: Union[str, os.PathLike], overrides: Optional[Mapping[str, object]] = None) -> Program:
    """load_program reads and validates a program file; ``overrides`` maps dotted keys
    (``system.link.bandwidth_gbps``, ``params.chunk``) to values set before validation.

    Raises ProgramError (or the assembler's or arch loader's error for a bad kernel or arch file) at the
    offending place. Reads the kernel and architecture files the program names; writes nothing.
    """
    display = os.fspath(path)
    try:
        text = Path(display).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProgramError(f"no program file '{display}'") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ProgramError(f"cannot read program file '{display}': {err}") from None
    root = read_located(text, display, ProgramError, "program file")
    return _Builder(display, str(Path(display).resolve().parent)).build(root, overrides)


def program_from_dict(data: Mapping, name: str = "<dict>", base_dir: str = ".",
                      overrides: Optional[Mapping[str, object]] = None) -> Program:
    """program_from_dict validates a program held as plain dicts and lists (the file format's structure);
    ``name`` is what the Program and its errors call it, ``base_dir`` where relative paths start.
    Its errors carry no line (there is none)."""
    if not isinstance(data, Mapping):
        raise ProgramError(f"a program is a mapping of sections, got {type(data).__name__}")
    return _Builder(name, base_dir).build(from_plain(data), overrides)


# ---------------------------------------------------------------- small readers
def _err(node: Optional[Located], message: str, hint: str = "", key: bool = False) -> ProgramError:
    loc = None
    if node is not None:
        loc = (node.key_loc or node.loc) if key else node.loc
    return ProgramError(message, loc, hint)


def _mapping(node: Located, what: str, keys: tuple) -> dict:
    if not node.is_mapping:
        raise _err(node, f"{what} is a mapping with keys {', '.join(keys)}, got {_shown(node.value)}")
    for k, v in node.value.items():
        if k not in keys:
            raise _err(v, f"unknown key '{k}' in {what}", did_you_mean(k, keys) or f"keys: {', '.join(keys)}",
                       key=True)
    return node.value


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}" if not isinstance(value, bool) else f"{str(value).lower()}"


class _Builder:
    """_Builder turns one program tree into a Program, caching archs and kernels as it goes."""

    def __init__(self, display: str, base_dir: str):
        self.display = display
        self.base_dir = base_dir
        self.names: set[str] = set()        # params and repeat variables seen, for did-you-mean
        self.archs: dict[str, Arch] = {}
        self.sources: dict[tuple, Any] = {}  # (kernel, params) -> base Kernel
        self.kernels: dict[tuple, Any] = {}  # kernel_key -> Kernel with launch and scalars applied
        self.op_count = 0
        self.repeats: list[Located] = []

    # ---- scalars
    def text(self, node: Located, what: str) -> str:
        if not isinstance(node.value, str):
            raise _err(node, f"{what} is text, got {_shown(node.value)}")
        self.resolved(node, node.value)
        return node.value

    def resolved(self, node: Located, text: str) -> None:
        name = unresolved(text)
        if name is not None:
            raise _err(node, f"unknown parameter '${{{name}}}'" if name else "malformed '${...}'",
                       did_you_mean(name, self.names) if name else "write ${name}")

    def integer(self, node: Located, what: str, minimum: Optional[int] = 1, maximum: Optional[int] = None) -> int:
        value = node.value
        if isinstance(value, str):
            self.resolved(node, value)
            if _INT_TEXT_RE.match(value.strip()):
                value = int(value.strip())
            else:
                value = _integer_arithmetic(value, value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _err(node, f"{what} is an integer, got {_shown(node.value)}")
        if minimum is not None and value < minimum:
            raise _err(node, f"{what} must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise _err(node, f"{what} must be at most {maximum}, got {value}")
        return value

    def number(self, node: Located, what: str, minimum: float = 0.0, positive: bool = False,
               maximum: Optional[float] = None) -> float:
        value = node.value
        if isinstance(value, str):
            self.resolved(node, value)
            try:
                value = float(value)
            except ValueError:
                value = _integer_arithmetic(value, value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _err(node, f"{what} is a number, got {_shown(node.value)}")
        if positive and value <= 0:
            raise _err(node, f"{what} must be positive, got {value}")
        if value < minimum:
            raise _err(node, f"{what} must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise _err(node, f"{what} must be at most {maximum}, got {value}")
        return float(value)

    def size(self, node: Located, what: str, minimum: int = 1) -> int:
        value = node.value
        if isinstance(value, str):
            self.resolved(node, value)
            m = _SIZE_RE.match(value.strip())
            if m is None:
                raise _err(node, f"{what} is a size in bytes (1048576, 4MiB, 64KiB, 1GB), got '{value}'")
            value = int(m.group(1)) * _UNITS[m.group(2)]
        return self.integer(Located(value, node.loc, node.key_loc), what, minimum)

    def flag(self, node: Located, what: str) -> bool:
        if not isinstance(node.value, bool):
            raise _err(node, f"{what} is true or false, got {_shown(node.value)}")
        return node.value

    def gpu_index(self, node: Located, what: str) -> int:
        g = self.integer(node, what, minimum=0)
        if g >= self.gpu_count:
            raise _err(node, f"{what}: no GPU {g}; the system has {self.gpu_count} "
                             f"(GPUs 0..{self.gpu_count - 1})")
        return g

    def gpu_set(self, node: Located, what: str) -> tuple[int, ...]:
        """gpu_set reads ``all`` or a list of distinct GPU indices."""
        if node.value == "all":
            return tuple(range(self.gpu_count))
        if not isinstance(node.value, list) or not node.value:
            raise _err(node, f"{what} is 'all' or a list of GPU indices, got {_shown(node.value)}")
        seen: dict[int, Located] = {}
        for item in node.value:
            g = self.gpu_index(item, what)
            if g in seen:
                first = seen[g].loc
                where = f" (first at column {first.col})" if first is not None else ""
                raise _err(item, f"{what} names GPU {g} twice{where}")
            seen[g] = item
        return tuple(seen)

    # ---- the program
    def build(self, root: Located, overrides: Optional[Mapping[str, object]]) -> Program:
        if overrides:
            root = apply_overrides(root, overrides)
        top = _mapping(root, "the program", KEYS["top"])
        params = self.params(top.get("params"))
        self.names |= set(params)
        tree = {k: (substitute(v, params) if k != "params" else v) for k, v in top.items()}
        system = self.system(tree.get("system"))
        self.gpu_count = system.gpu_count
        self.system_spec = system
        self.buffers = self.buffer_specs(tree.get("buffers"))
        streams = self.streams(tree.get("streams"))
        self.events_recorded(streams)
        self.collectives_matched(streams)
        checks = self.checks(tree.get("checks"))
        return Program(system=system, buffers=tuple(self.buffers.values()), streams=streams, checks=checks,
                       path=self.display, base_dir=self.base_dir, params=tuple(params.items()),
                       kernels=dict(self.kernels))

    def params(self, node: Optional[Located]) -> dict:
        if node is None:
            return {}
        if not node.is_mapping:
            raise _err(node, f"params is a mapping of name: value, got {_shown(node.value)}")
        out = {}
        for name, value in node.value.items():
            if not _NAME_RE.match(name) or name == "gpu":
                raise _err(value, f"invalid parameter name '{name}'",
                           "'gpu' is the running GPU's index" if name == "gpu" else "a name is letters, digits, _",
                           key=True)
            if isinstance(value.value, dict) or value.value is None:
                raise _err(value, f"parameter '{name}' is a number, text or a list, got {_shown(value.value)}")
            for part in (value.value if isinstance(value.value, list) else [value]):
                named = unresolved(part.value) if isinstance(part.value, str) else None
                if named == "":
                    raise _err(part, f"parameter '{name}' holds a malformed '${{...}}'", "write ${name}")
                if named is not None:
                    raise _err(part, f"parameter '{name}' names another parameter ('${{{named}}}'): a parameter's "
                                     "value is written out, not substituted")
            out[name] = value.plain()
        return out

    # ---- system
    def system(self, node: Optional[Located]) -> SystemSpec:
        if node is None:
            node = Located({}, None)
        m = _mapping(node, "system", KEYS["system"])
        archs = self.gpus(m.get("gpus"))
        link, host_link, default_engines = default_links(archs[0])   # the first GPU's arch file says
        topology = "mesh"
        if "topology" in m:
            topology = self.text(m["topology"], "topology")
            if topology not in TOPOLOGIES:
                raise _err(m["topology"], f"unknown topology '{topology}'",
                           did_you_mean(topology, TOPOLOGIES) or f"topologies: {', '.join(TOPOLOGIES)}")
        if "link" in m:
            link = self.link(m["link"], "link", link)
        if "host_link" in m:
            host_link = self.link(m["host_link"], "host_link", host_link)
        copy_engines = (self.integer(m["copy_engines"], "copy_engines", 1, 64) if "copy_engines" in m
                        else default_engines)
        return SystemSpec(archs=archs, topology=topology, link=link, host_link=host_link,
                          copy_engines=copy_engines, loc=node.loc)

    def gpus(self, node: Optional[Located]) -> tuple[Arch, ...]:
        if node is None:
            return (self.arch(Located("cdna3", None)),)
        if node.is_mapping:
            m = _mapping(node, "system.gpus", KEYS["gpus"])
            count = self.integer(m["count"], "system.gpus.count", 1, MAX_GPUS) if "count" in m else 1
            arch = self.arch(m.get("arch", Located("cdna3", None)))
            return (arch,) * count
        if not isinstance(node.value, list) or not node.value:
            raise _err(node, "system.gpus is {arch: NAME, count: N} or a list of {arch: NAME}, "
                             f"got {_shown(node.value)}")
        if len(node.value) > MAX_GPUS:
            raise _err(node, f"system.gpus lists {len(node.value)} GPUs; at most {MAX_GPUS}")
        archs = []
        for item in node.value:
            if item.is_mapping:
                m = _mapping(item, "a GPU of system.gpus", KEYS["gpu"])
                archs.append(self.arch(m.get("arch", Located("cdna3", None))))
            else:
                archs.append(self.arch(item))
        return tuple(archs)

    def arch(self, node: Located) -> Arch:
        name = self.text(node, "arch")
        if name not in self.archs:
            beside = os.path.join(self.base_dir, name)
            ref = beside if os.path.isfile(beside) else name
            try:
                self.archs[name] = load_arch(ref)
            except ArchError as err:
                if err.loc is not None:
                    raise
                raise ProgramError(err.message, node.loc, err.hint) from None
        return self.archs[name]

    def link(self, node: Located, what: str, default: LinkSpec) -> LinkSpec:
        m = _mapping(node, what, KEYS["link"])
        bw = self.number(m["bandwidth_gbps"], f"{what}.bandwidth_gbps", minimum=MIN_LINK_GBPS, maximum=MAX_LINK_GBPS) \
            if "bandwidth_gbps" in m else default.bandwidth_gbps
        eff = self.number(m["efficiency"], f"{what}.efficiency", positive=True, maximum=1.0) \
            if "efficiency" in m else default.efficiency
        lat = (self.number(m["latency_us"], f"{what}.latency_us", maximum=MAX_PROGRAM_US) if "latency_us" in m
               else default.latency_us)
        return LinkSpec(bw, eff, lat, loc=node.loc)

    # ---- buffers
    def buffer_specs(self, node: Optional[Located]) -> dict[str, BufferSpec]:
        out: dict[str, BufferSpec] = {}
        if node is None:
            return out
        if not node.is_mapping:
            raise _err(node, f"buffers is a mapping of name: buffer, got {_shown(node.value)}")
        total = 0
        for name, value in node.value.items():
            if not _NAME_RE.match(name) or name in _RESERVED or name in ("True", "False", "None"):
                raise _err(value, f"invalid buffer name '{name}'",
                           "a name is letters, digits and _, not a dtype, np or gpu", key=True)
            spec = self.buffer(name, value)
            total += spec.nbytes * (len(spec.gpus) if spec.per_gpu else 1)
            if total > MAX_PROGRAM_BUFFER_BYTES:
                raise _err(value, f"the buffers need {total:,} bytes with '{name}', over gpusim's limit of "
                                  f"{MAX_PROGRAM_BUFFER_BYTES:,}")
            out[name] = spec
        return out

    def buffer(self, name: str, node: Located) -> BufferSpec:
        if isinstance(node.value, str):
            node = Located({"type": node}, node.loc, node.key_loc)
        m = _mapping(node, f"buffer '{name}'", KEYS["buffer"])
        if "type" not in m:
            raise _err(node, f"buffer '{name}' needs a type: \"DTYPE[SHAPE] [INIT] [seed=S]\"", key=True)
        places = [k for k in ("gpu", "gpus", "host") if k in m]
        if len(places) > 1:
            raise _err(m[places[1]], f"buffer '{name}' has both '{places[0]}' and '{places[1]}'; give one",
                       key=True)
        per_gpu = self.flag(m["per_gpu"], "per_gpu") if "per_gpu" in m else None
        if "host" in m and self.flag(m["host"], "host"):
            if per_gpu:
                raise _err(m["per_gpu"], f"host buffer '{name}' cannot be per_gpu", key=True)
            gpus, per_gpu = (HOST,), False
        elif "gpus" in m:
            gpus = self.gpu_set(m["gpus"], f"buffer '{name}' gpus")
            if per_gpu is False:
                raise _err(m["per_gpu"], f"buffer '{name}' on several GPUs is one copy per GPU: per_gpu must "
                                         "be true (or use gpu: N)", key=True)
            per_gpu = True
        else:
            gpus = (self.gpu_index(m["gpu"], f"buffer '{name}' gpu"),) if "gpu" in m else (0,)
            per_gpu = bool(per_gpu)
        arg = self.buffer_type(name, m["type"])
        return BufferSpec(name=name, arg=arg, gpus=gpus, per_gpu=per_gpu, loc=node.key_loc or node.loc)

    def buffer_type(self, name: str, node: Located) -> ArgSpec:
        """buffer_type parses the header's buffer grammar; errors point inside the YAML string."""
        text = self.text(node, f"buffer '{name}' type")
        rewritten, inserts = _with_init_keys(text)
        prefix = f"gpusim-arg: {name} buffer "
        line = HeaderLine(self.display, node.loc.line if node.loc else 0, 0, prefix + rewritten,
                          node.loc.text if node.loc else "")
        try:
            _, args, _ = parse_header_lines([line])
        except HeaderError as err:
            hint = err.hint
            if "declares no integer" in hint:
                hint = "a program buffer's shape is sizes; write ${param} for a named one"
            loc = None
            if node.loc is not None and err.loc is not None:
                offset = _original_offset(max(0, err.loc.col - len(prefix)), inserts)
                loc = SourceLoc(node.loc.file, node.loc.line, _content_col(node.loc) + offset, node.loc.text)
            raise ProgramError(f"buffer '{name}': {err.message}", loc, hint) from None
        return args[0]

    # ---- buffer references
    def ref(self, node: Located, gpu: int, what: str) -> tuple[BufferRef, BufferSpec, int]:
        """ref reads ``name`` or ``name@N``; returns the BufferRef, its buffer and where the bytes live
        (a GPU index or HOST)."""
        text = self.text(node, what)
        m = _REF_RE.match(text.strip())
        if m is None:
            raise _err(node, f"{what} is a buffer name or name@GPU, got '{text}'")
        name, at = m.group(1), m.group(2)
        spec = self.buffers.get(name)
        if spec is None:
            raise _err(node, f"unknown buffer '{name}'",
                       did_you_mean(name, self.buffers) or f"buffers: {', '.join(self.buffers) or 'none'}")
        if at is not None:
            n = int(at)
            if n >= self.gpu_count:
                raise _err(node, f"{what} '{text}': no GPU {n}; the system has {self.gpu_count}")
            if not spec.per_gpu:
                raise _err(node, f"{what} '{text}': buffer '{name}' is not per-GPU; '@{n}' picks a copy of a "
                                 f"per-GPU buffer", f"write '{name}'")
            if n not in spec.gpus:
                raise _err(node, f"{what} '{text}': per-GPU buffer '{name}' has no copy on GPU {n} "
                                 f"(it is on GPUs {_gpus_text(spec.gpus)})")
            return BufferRef(name, gpu=n, loc=node.loc), spec, n
        if spec.per_gpu:
            if gpu not in spec.gpus:
                raise _err(node, f"{what} '{name}': per-GPU buffer '{name}' has no copy on GPU {gpu}, which runs "
                                 f"this stream (it is on GPUs {_gpus_text(spec.gpus)})",
                           f"name a copy: {name}@{spec.gpus[0]}")
            return BufferRef(name, loc=node.loc), spec, gpu
        return BufferRef(name, loc=node.loc), spec, spec.gpus[0]

    # ---- streams
    def streams(self, node: Optional[Located]) -> tuple[StreamSpec, ...]:
        if node is None:
            return ()
        if not isinstance(node.value, list):
            raise _err(node, f"streams is a list of streams, got {_shown(node.value)}")
        out: list[StreamSpec] = []
        seen: dict[str, Located] = {}
        for k, item in enumerate(node.value):
            m = _mapping(item, "a stream", KEYS["stream"])
            name = self.text(m["name"], "stream name") if "name" in m else f"stream{k}"
            if "gpu" in m and "gpus" in m:
                raise _err(m["gpus"], f"stream '{name}' has both 'gpu' and 'gpus'; give one", key=True)
            replicated = "gpus" in m
            gpus = self.gpu_set(m["gpus"], f"stream '{name}' gpus") if replicated else \
                (self.gpu_index(m["gpu"], f"stream '{name}' gpu") if "gpu" in m else 0,)
            ops_node = m.get("ops", Located([], item.loc))
            for g in gpus:
                full = f"{name}@{g}" if replicated else name
                if full in seen:
                    raise _err(m.get("name", item), f"duplicate stream name '{full}'")
                seen[full] = item
                ops = self.ops(substitute(ops_node, {"gpu": g}), g, f"stream '{full}' ops")
                out.append(StreamSpec(name=full, gpu=g, ops=tuple(ops), loc=item.loc))
        return tuple(out)

    def ops(self, node: Located, gpu: int, what: str) -> list:
        if not isinstance(node.value, list):
            raise _err(node, f"{what} is a list of operations, got {_shown(node.value)}")
        out: list = []
        for item in node.value:
            if not item.is_mapping or not item.value:
                raise _err(item, f"an operation is a mapping such as '- kernel: k.s' or '- memcpy: {{...}}', "
                                 f"got {_shown(item.value)}")
            kind = next(iter(item.value))
            if kind == "repeat":
                out.extend(self.repeat(item, gpu))
                continue
            self.op_count += 1
            if self.op_count > MAX_OPS:
                at = self.repeats[0] if self.repeats else item
                raise _err(at, f"the program unrolls to more than {MAX_OPS:,} operations")
            out.append(self.op(kind, item, gpu))
        return out

    def op(self, kind: str, item: Located, gpu: int):
        m = item.value
        if kind == "kernel":
            _mapping(item, "a kernel operation", KEYS["kernel"])
            return self.kernel_op(item, gpu)
        known = ("kernel", "memcpy", "memset", "record", "wait", "host_delay", "repeat") + COLLECTIVES
        if kind not in known:
            raise _err(m[kind], f"unknown operation '{kind}'", did_you_mean(kind, known)
                       or f"operations: {', '.join(known)}", key=True)
        if len(m) > 1:
            extra = list(m)[1]
            raise _err(m[extra], f"unexpected key '{extra}' beside '{kind}'; an operation is one key "
                                 f"(its options go inside it: {kind}: {{...}})", key=True)
        body = m[kind]
        if kind == "memcpy":
            return self.memcpy(body, gpu, item.loc)
        if kind == "memset":
            return self.memset(body, gpu, item.loc)
        if kind in ("record", "wait"):
            event = self.text(body, f"{kind} event")
            if not event.strip():
                raise _err(body, f"{kind} needs an event name")
            return (EventRecordOp if kind == "record" else EventWaitOp)(event, loc=item.loc)
        if kind == "host_delay":
            return HostDelayOp(self.number(body, "host_delay (microseconds)", maximum=MAX_PROGRAM_US), loc=item.loc)
        return self.collective(kind, body, gpu, item.loc)

    def repeat(self, item: Located, gpu: int) -> list:
        m = item.value
        if len(m) > 1:
            extra = list(m)[1]
            raise _err(m[extra], f"unexpected key '{extra}' beside 'repeat'", key=True)
        node = m["repeat"]
        r = _mapping(node, "repeat", KEYS["repeat"])
        given = [k for k in REPEAT_FORMS if k in r]
        if len(given) != 1:
            raise _err(node, f"repeat needs exactly one of {', '.join(REPEAT_FORMS)}"
                       + (f", got {' and '.join(given)}" if given else ""))
        how = r[given[0]]
        if given[0] in ("halving", "doubling"):
            if not isinstance(how.value, list) or len(how.value) != 2:
                raise _err(how, f"repeat {given[0]} is [from, to]")
            first, last = (self.integer(v, f"repeat {given[0]}", 1) for v in how.value)
            values = _powers_of_two_walk(first, last, given[0] == "doubling")
        elif given[0] == "count":
            values: Any = range(self.integer(how, "repeat count", 0))
        elif given[0] == "range":
            if not isinstance(how.value, list) or not 1 <= len(how.value) <= 3:
                raise _err(how, "repeat range is [stop], [start, stop] or [start, stop, step]")
            bounds = [self.integer(v, "repeat range", None) for v in how.value]
            if len(bounds) == 3 and bounds[2] == 0:
                raise _err(how.value[2], "repeat range step must not be 0")
            values = range(*bounds)
        else:
            if not isinstance(how.value, list):
                raise _err(how, f"repeat values is a list, got {_shown(how.value)}")
            values = [v.plain() for v in how.value]
        if len(values) > MAX_OPS:
            raise _err(how, f"repeat of {len(values):,} iterations; a program unrolls to at most {MAX_OPS:,} "
                            "operations")
        var = None
        if "var" in r:
            var = self.text(r["var"], "repeat var")
            if not _NAME_RE.match(var) or var == "gpu":
                raise _err(r["var"], f"invalid repeat variable '{var}'")
            self.names.add(var)
        if "ops" not in r:
            raise _err(node, "repeat needs ops: [...]", key=True)
        self.repeats.append(item)
        out: list = []
        try:
            for value in values:
                body = substitute(r["ops"], {var: value}) if var is not None else r["ops"]
                out.extend(self.ops(body, gpu, "repeat ops"))
        finally:
            self.repeats.pop()
        return out

    # ---- copies
    def memcpy(self, node: Located, gpu: int, loc) -> MemcpyOp:
        m = _mapping(node, "memcpy", KEYS["memcpy"])
        for key in ("src", "dst"):
            if key not in m:
                raise _err(node, f"memcpy needs '{key}'")
        src, sspec, swhere = self.ref(m["src"], gpu, "memcpy src")
        dst, dspec, dwhere = self.ref(m["dst"], gpu, "memcpy dst")
        if swhere == HOST and dwhere == HOST:
            raise _err(node, f"memcpy from host buffer '{src.name}' to host buffer '{dst.name}'; a copy needs a "
                             "GPU side")
        kind = "h2d" if swhere == HOST else "d2h" if dwhere == HOST else "d2d" if swhere == dwhere else "peer"
        soff = self.size(m["src_offset"], "memcpy src_offset", 0) if "src_offset" in m else 0
        doff = self.size(m["dst_offset"], "memcpy dst_offset", 0) if "dst_offset" in m else 0
        for off, spec, key in ((soff, sspec, "src_offset"), (doff, dspec, "dst_offset")):
            if off >= spec.nbytes:
                raise _err(m[key], f"memcpy {key} {off:,} is past the end of '{spec.name}' ({spec.nbytes:,} "
                                   "bytes)")
        if "nbytes" in m:
            nbytes = self.size(m["nbytes"], "memcpy nbytes")
            for off, spec, side in ((soff, sspec, "src"), (doff, dspec, "dst")):
                if off + nbytes > spec.nbytes:
                    at = f" from offset {off:,}" if off else ""
                    raise _err(m["nbytes"], f"memcpy nbytes {nbytes:,} is more than {side} '{spec.name}' "
                                            f"holds{at} ({spec.nbytes - off:,} bytes)")
        else:
            nbytes = None
            if sspec.nbytes - soff != dspec.nbytes - doff:
                raise _err(node, f"memcpy src '{sspec.name}' is {sspec.nbytes - soff:,} bytes and dst "
                                 f"'{dspec.name}' {dspec.nbytes - doff:,}; give nbytes to copy part of one")
        src = dataclasses.replace(src, offset=soff)
        dst = dataclasses.replace(dst, offset=doff)
        return MemcpyOp(kind=kind, src=src, dst=dst, nbytes=nbytes, loc=loc)

    def memset(self, node: Located, gpu: int, loc) -> MemsetOp:
        m = _mapping(node, "memset", KEYS["memset"])
        if "dst" not in m:
            raise _err(node, "memset needs 'dst'")
        dst, spec, where = self.ref(m["dst"], gpu, "memset dst")
        if where == HOST:
            raise _err(m["dst"], f"memset of host buffer '{spec.name}'; memset sets GPU memory")
        value = self.integer(m["value"], "memset value", 0, 255) if "value" in m else 0
        offset = self.size(m["offset"], "memset offset", 0) if "offset" in m else 0
        nbytes = self.size(m["nbytes"], "memset nbytes") if "nbytes" in m else None
        if offset + (nbytes or 1) > spec.nbytes:
            at = m["nbytes"] if "nbytes" in m else m["offset"]
            raise _err(at, f"memset of {nbytes or 1:,} bytes at offset {offset:,} is past the end of "
                           f"'{spec.name}' ({spec.nbytes:,} bytes)")
        return MemsetOp(dst=dataclasses.replace(dst, offset=offset, nbytes=nbytes), value=value, loc=loc)

    # ---- collectives
    def collective(self, kind: str, node: Located, gpu: int, loc) -> CollectiveOp:
        m = _mapping(node, kind, KEYS["collective"])
        if "send" not in m:
            raise _err(node, f"{kind} needs 'send'")
        group = self.gpu_set(m["group"], f"{kind} group") if "group" in m else tuple(range(self.gpu_count))
        if gpu not in group:
            raise _err(m.get("group", node), f"{kind} is issued by a stream on GPU {gpu}, which is not in its "
                                             f"group (GPUs {_gpus_text(group)})")
        n = len(group)
        send = self.collective_buffer(m["send"], kind, "send", group)
        recv = self.collective_buffer(m["recv"], kind, "recv", group) if "recv" in m else None
        s = self.buffers[send.name]
        elements = s.nbytes // _itemsize(s)
        if recv is not None:
            r = self.buffers[recv.name]
            if r.arg.dtype != s.arg.dtype:
                raise _err(m["recv"], f"{kind} recv '{r.name}' is {r.arg.dtype} but send '{s.name}' is "
                                      f"{s.arg.dtype}")
            want = {"all_gather": s.nbytes * n, "reduce_scatter": s.nbytes / n}.get(kind, s.nbytes)
            if kind == "reduce_scatter" and elements % n:
                raise _err(m["send"], f"reduce_scatter over {n} GPUs: send '{s.name}' has {elements:,} "
                                      f"elements, which do not divide by {n}")
            if r.nbytes != want:
                rule = {"all_gather": f"{n} x send", "reduce_scatter": f"send / {n}"}.get(kind, "the size of send")
                raise _err(m["recv"], f"{kind} over {n} GPUs: recv '{r.name}' is {r.nbytes:,} bytes but must be "
                                      f"{rule} = {int(want):,} bytes ('{s.name}' is {s.nbytes:,})")
        if kind in ("all_gather", "reduce_scatter", "all_to_all") and (recv is None or kind == "all_to_all") \
                and elements % n:
            place = "in place, the buffer holds all parts" if recv is None else "each GPU sends a part to each"
            raise _err(m["send"], f"{kind} over {n} GPUs ({place}): '{s.name}' has {elements:,} elements, "
                                  f"which do not divide by {n}")
        algorithm = self.choice(m, "algorithm", ALGORITHMS, "ring", kind)
        op = self.choice(m, "op", REDUCE_OPS, "sum", kind)
        chunk = self.size(m["chunk_bytes"], f"{kind} chunk_bytes") if "chunk_bytes" in m else 1 << 20
        channels = self.integer(m["channels"], f"{kind} channels", 1, 1024) if "channels" in m else 16
        root = group[0]
        if "root" in m:
            if kind != "broadcast":
                raise _err(m["root"], f"'root' is a broadcast's; {kind} has none", key=True)
            root = self.gpu_index(m["root"], "broadcast root")
            if root not in group:
                raise _err(m["root"], f"broadcast root GPU {root} is not in the group (GPUs {_gpus_text(group)})")
        return CollectiveOp(kind=kind, send=send, group=group, recv=recv, algorithm=algorithm, chunk_bytes=chunk,
                            channels=channels, root=root, op=op, loc=loc)

    def choice(self, m: dict, key: str, choices: tuple, default: str, kind: str) -> str:
        if key not in m:
            return default
        value = self.text(m[key], f"{kind} {key}")
        if value not in choices:
            raise _err(m[key], f"unknown {kind} {key} '{value}'",
                       did_you_mean(value, choices) or f"{key}s: {', '.join(choices)}")
        return value

    def collective_buffer(self, node: Located, kind: str, role: str, group: tuple) -> BufferRef:
        text = self.text(node, f"{kind} {role}")
        name = text.strip()
        if "@" in name:
            raise _err(node, f"{kind} {role} '{text}' names one GPU's copy; a collective takes the per-GPU "
                             f"buffer by name", f"write '{name.split('@')[0]}'")
        spec = self.buffers.get(name)
        if spec is None:
            raise _err(node, f"unknown buffer '{name}'",
                       did_you_mean(name, self.buffers) or f"buffers: {', '.join(self.buffers) or 'none'}")
        if not spec.per_gpu:
            where = "the host" if spec.gpus == (HOST,) else f"GPU {spec.gpus[0]}"
            raise _err(node, f"{kind} {role} '{name}' is one buffer on {where}; a collective needs a per-GPU "
                             "buffer (gpus: ...) on every GPU of its group")
        missing = [g for g in group if g not in spec.gpus]
        if missing:
            raise _err(node, f"{kind} {role} '{name}' has no copy on GPU {_gpus_text(missing)} of the group "
                             f"(it is on GPUs {_gpus_text(spec.gpus)})")
        return BufferRef(name, loc=node.loc)

    # ---- kernels
    def kernel_op(self, item: Located, gpu: int) -> KernelOp:
        m = item.value
        knode = m["kernel"]
        kernel = self.text(knode, "kernel").strip()
        params: tuple = ()
        if "params" in m:
            if not m["params"].is_mapping:
                raise _err(m["params"], f"kernel params is a mapping, got {_shown(m['params'].value)}")
            if not kernel.startswith(TEMPLATE_PREFIX):
                raise _err(m["params"], "params are a template's; this kernel is a file", key=True)
            params = tuple((k, self.template_value(v)) for k, v in m["params"].value.items())
        grid = self.dims(m["grid"], "grid") if "grid" in m else None
        block = self.dims(m["block"], "block") if "block" in m else None
        name = self.text(m["name"], "kernel name") if "name" in m else None
        source = self.source(knode, kernel, params, gpu)
        declared = {a.name: a for a in source.module.args}
        args: list = []
        if "args" in m:
            anode = m["args"]
            if not anode.is_mapping:
                raise _err(anode, f"kernel args is a mapping of argument: buffer or number, got {_shown(anode.value)}")
            for arg, value in anode.value.items():
                spec = declared.get(arg)
                if spec is None:
                    raise _err(value, f"kernel '{kernel}' declares no argument '{arg}'",
                               did_you_mean(arg, declared) or f"arguments: {', '.join(declared) or 'none'}", key=True)
                if spec.kind == "buffer":
                    if not isinstance(value.value, str):
                        raise _err(value, f"argument '{arg}' is a buffer; bind it to a buffer name, not "
                                          f"{_shown(value.value)}")
                    args.append((arg, value))
                else:
                    if isinstance(value.value, str) and _REF_RE.match(value.value.strip()) \
                            and value.value.strip().split("@")[0] in self.buffers:
                        raise _err(value, f"argument '{arg}' is a {spec.dtype} scalar; bind it to a number, not "
                                          f"buffer '{value.value}'")
                    number = self.number(value, f"argument '{arg}'", minimum=-math.inf)
                    if isinstance(value.value, (int, str)) and number.is_integer() and spec.dtype[0] in "iu":
                        number = int(number)
                    text = repr(number) if isinstance(number, float) else str(number)
                    args.append((arg, parse_scalar(spec.dtype, text,
                                                   lambda msg: ProgramError(f"argument '{arg}': {msg}", value.loc))))
        scalars = {a: v for a, v in args if not isinstance(v, Located)}
        op = KernelOp(kernel=kernel, args=(), grid=grid, block=block, params=params, name=name, loc=item.loc)
        key = kernel_key(dataclasses.replace(op, args=tuple(scalars.items())))
        if key not in self.kernels:
            try:
                module = apply_kernel_overrides(source.module, grid=grid, block=block, args=scalars or None)
            except HeaderError as err:
                raise ProgramError(f"kernel '{kernel}': {err.message}", item.loc, err.hint) from None
            if module.launch is None:
                raise _err(item, f"kernel '{kernel}' has no gpusim-launch line; give grid and block")
            self.kernels[key] = dataclasses.replace(source, module=module)
        loaded = self.kernels[key]
        shapes = {a.name: a for a in loaded.module.args}
        bound: list = []
        for arg, value in args:
            if isinstance(value, Located):
                ref, spec, where = self.ref(value, gpu, f"argument '{arg}'")
                if where == HOST:
                    raise _err(value, f"argument '{arg}': '{spec.name}' is a host buffer; a kernel takes buffers "
                                      f"on its GPU (copy it over with memcpy)")
                if where != gpu:
                    raise _err(value, f"argument '{arg}': buffer '{value.value}' is on GPU {where} but the kernel "
                                      f"runs on GPU {gpu}")
                want = shapes[arg]
                if want.dtype != spec.arg.dtype or not _shapes_fit(tuple(want.shape), tuple(spec.arg.shape)):
                    hint = ""
                    if want.shape_exprs:
                        hint = f"the kernel's shape is [{','.join(want.shape_exprs)}]: set its scalars in args"
                    raise _err(value, f"argument '{arg}' of kernel '{kernel}' is "
                                      f"{_type_text(want)} but buffer '{spec.name}' is {_type_text(spec.arg)}", hint)
                bound.append((arg, ref))
            else:
                bound.append((arg, value))
        return dataclasses.replace(op, args=tuple(bound))

    def template_value(self, node: Located) -> Any:
        if isinstance(node.value, (dict, list)) or node.value is None:
            raise _err(node, f"a template parameter is a number, text or true/false, got {_shown(node.value)}")
        if isinstance(node.value, str):
            self.resolved(node, node.value)
            return _integer_arithmetic(node.value, node.value)   # "14336 // ${tp}" once substituted
        return node.value

    def dims(self, node: Located, what: str) -> tuple[int, int, int]:
        items = node.value if isinstance(node.value, list) else [node]
        if not 1 <= len(items) <= 3:
            raise _err(node, f"{what} is 1 to 3 sizes, got {len(items)}")
        dims = [self.integer(v, what, 1, (1 << 31) - 1) for v in items]
        dims += [1] * (3 - len(dims))
        return dims[0], dims[1], dims[2]

    def source(self, node: Located, kernel: str, params: tuple, gpu: int):
        """source loads a kernel file or generates a template once per (kernel, params)."""
        key = (kernel, params)
        if key in self.sources:
            return self.sources[key]
        from gpusim.api import kernel_from_text, load_kernel
        if kernel.startswith(TEMPLATE_PREFIX):
            from gpusim.templates import generate
            family = kernel[len(TEMPLATE_PREFIX):]
            try:
                text = generate(family, self.system_spec.archs[gpu], **dict(params))
            except GpusimError as err:
                raise ProgramError(f"kernel '{kernel}': {err.message}", node.loc, err.hint) from None
            loaded = kernel_from_text(text, f"<template {family}>")
        else:
            path = Path(self.base_dir) / kernel
            if not kernel or not path.is_file():
                raise _err(node, f"no kernel file '{kernel}'", f"looked for {path}" if kernel else "")
            loaded = load_kernel(path)
        self.sources[key] = loaded
        return loaded

    # ---- whole-program checks
    def events_recorded(self, streams: tuple) -> None:
        recorded = {op.event for s in streams for op in s.ops if isinstance(op, EventRecordOp)}
        for s in streams:
            for op in s.ops:
                if isinstance(op, EventWaitOp) and op.event not in recorded:
                    raise ProgramError(f"stream '{s.name}' waits on event '{op.event}', which no stream records: "
                                       "it would wait forever", op.loc,
                                       did_you_mean(op.event, recorded))

    def collectives_matched(self, streams: tuple) -> None:
        """collectives_matched refuses a group whose members issue different numbers of collectives: the
        k-th collective over a group runs when every member reaches it, so an unmatched one never runs."""
        issued: dict[tuple, dict[int, list]] = {}
        for s in streams:
            for op in s.ops:
                if isinstance(op, CollectiveOp):
                    issued.setdefault(op.group, {}).setdefault(s.gpu, []).append(op)
        for group, by_gpu in issued.items():
            counts = {g: len(by_gpu.get(g, ())) for g in group}
            fewest = min(counts, key=lambda g: (counts[g], g))
            most = max(counts, key=lambda g: (counts[g], -g))
            if counts[most] != counts[fewest]:
                op = by_gpu[most][counts[fewest]]
                raise ProgramError(f"GPU {most} issues {counts[most]} collectives over group "
                                   f"[{_gpus_text(group)}] but GPU {fewest} issues {counts[fewest]}: this "
                                   f"{op.kind} (number {counts[fewest] + 1} on GPU {most}) would wait forever",
                                   op.loc)

    def checks(self, node: Optional[Located]) -> tuple:
        if node is None:
            return ()
        if not isinstance(node.value, list):
            raise _err(node, f"checks is a list of check expressions, got {_shown(node.value)}")
        prefix = "gpusim-check: "
        names = [HeaderLine(self.display, 0, 0, f"gpusim-arg: {b} buffer u8[1]", "") for b in self.buffers]
        out = []
        for item in node.value:
            text = self.text(item, "a check")
            loc = item.loc
            line = HeaderLine(self.display, loc.line if loc else 0, (_content_col(loc) if loc else 1) - len(prefix),
                              prefix + text, loc.text if loc else "")
            try:
                _, _, checks = parse_header_lines(names + [line])
            except HeaderError as err:
                where = None
                if loc is not None and err.loc is not None:   # a whole-line error points before the text
                    where = dataclasses.replace(err.loc, col=max(err.loc.col, _content_col(loc)))
                raise ProgramError(err.message, where, err.hint) from None
            out.append(checks[0] if loc else dataclasses.replace(checks[0], loc=None))
        return tuple(out)


# ---------------------------------------------------------------- helpers
def _with_init_keys(text: str) -> tuple[str, list]:
    """_with_init_keys writes ``init=`` before a bare initialiser (``uniform(-1,1)``) so the header grammar
    reads it; returns the text and the original offsets where ``init=`` went in."""
    inserts = []
    depth, start, first = 0, None, True
    for k, ch in enumerate(text + " "):
        if ch in " \t" and depth == 0:
            if start is not None:
                word = text[start:k]
                if not first and "=" not in word and word != "out":
                    inserts.append(start)
                first, start = False, None
            continue
        if start is None:
            start = k
        depth += ch in "(["
        depth -= ch in ")]"
    rebuilt = text
    for off in reversed(inserts):
        rebuilt = rebuilt[:off] + "init=" + rebuilt[off:]
    return rebuilt, inserts


def _original_offset(offset: int, inserts: list) -> int:
    """_original_offset maps an offset in the rewritten type text back to the text as written."""
    for i, at in enumerate(inserts):
        start = at + 5 * i
        if offset < start:
            return offset - 5 * i
        if offset < start + 5:
            return at
    return offset - 5 * len(inserts)


def _content_col(loc: SourceLoc) -> int:
    """_content_col is the column of a scalar's first character (after an opening quote)."""
    text = loc.text
    return loc.col + 1 if 0 < loc.col <= len(text) and text[loc.col - 1] in "\"'" else loc.col


def _itemsize(spec: BufferSpec) -> int:
    import numpy as np
    return np.dtype(NUMPY_DTYPES[spec.arg.dtype]).itemsize


def _type_text(arg: ArgSpec) -> str:
    return f"{arg.dtype}[{','.join(map(str, arg.shape))}]"


def _gpus_text(gpus) -> str:
    return ", ".join("host" if g == HOST else str(g) for g in gpus)
