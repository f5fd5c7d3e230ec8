"""Setting up and running a dispatch functionally.

:class:`Dispatch` lays the kernel's buffers and kernarg segment out in a
device address space, computes the AMDHSA initial register state from the
kernel descriptor, runs every workgroup with the numba interpreter and turns
a fault record into a :class:`KernelFault` a user can act on.
"""
from __future__ import annotations

import dataclasses
import functools
import struct
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Mapping, Optional

import numpy as np

from gpusim import jitcache
from gpusim.asm.header import MAX_KERNARG_BYTES
from gpusim.asm.ir import ArgSpec, AsmModule, KernelSource, LaunchSpec
from gpusim.asm.fields import ADDR_SCRATCH, TRAP_LLVM_TRAP
from gpusim.asm.program import M_ADDR, Program, SREG_FILE, SRC_SHARED_BASE, SRC_SHARED_LIMIT, SRC_PRIVATE_BASE
from gpusim.asm.static_data import CODE_BASE, STATIC_DATA_BASE, StaticData
from gpusim.errors import AsmError, HeaderError, KernelFault
from gpusim.engine.scoreboard import RegisterLists, register_lists
from gpusim.exec import hostcall
from gpusim.exec.absent_services import ABSENT_SERVICES, service_address, service_at
from gpusim.exec.buffers import make_buffer, to_bf16_bits, zero_buffer
from gpusim.exec.device_printf import Printed, merged, read_printed
from gpusim.exec.kernels.buffer_resource import private_segment_resource
from gpusim.exec.kernels import interpreter as itp
from gpusim.exec.kernels import memory as memk
from gpusim.exec.kernels.mfma import SCRATCH_ROWS_NEEDED
from gpusim.exec.kernels.valu_fast import SCRATCH_ROWS
from gpusim.exec.runaway import endless_instructions, loop_around
from gpusim.exec.uninit import abi_written, first_uninit_read, launch_set_registers
from gpusim.located_yaml import load_plain

ARENA_BASE = STATIC_DATA_BASE   # the arena's first bytes hold a module's static data, where its code expects it
SHARED_APERTURE = 0x1000_0000_0000  # flat addresses [base, base + 4 GiB) reach LDS
GUARD_BYTES = 4096
ALIGN = 256
DEFAULT_LIMIT = 2_000_000_000   # wave-instructions of the whole dispatch
# wave-instructions of one wave: the biggest shipped workloads run a few thousand per wave (a 65536-step
# pointer chase a third of a million), and at the timing model's ~20 M/s a wave looping past this budget
# is stopped within a second or two (a workgroup of 4 such waves in a few seconds)
DEFAULT_WAVE_LIMIT = 10_000_000

# A kernel with a dynamic stack (.amdhsa_uses_dynamic_stack: recursion, calls through pointers) gets this much
# private memory a lane beyond its fixed size: one unit of HIP's stack limit (hipDeviceSetLimit's
# hipLimitStackSize counts in units of 256 dwords), a model assumption where the runtime's default is not given.
DYNAMIC_STACK_BYTES = 1024
# the most device memory a dispatch's scratch may take (every wave of the grid has its own)
MAX_SCRATCH_BYTES = 1 << 31

_SCALAR_FORMATS = {"i8": "<b", "u8": "<B", "i16": "<h", "u16": "<H", "i32": "<i", "u32": "<I", "i64": "<q",
                   "u64": "<Q", "f16": "<e", "f32": "<f", "f64": "<d"}
_FAULT_TEXT = {
    memk.FAULT_MEMORY: "memory access outside every buffer",
    memk.FAULT_LDS: "LDS access outside the workgroup's allocation",
    memk.FAULT_BARRIER: "barrier deadlock: waves wait at s_barrier that can never complete",
    memk.FAULT_LIMIT: "runaway kernel: instruction limit reached",
    memk.FAULT_UNSUPPORTED: "unsupported operation",
    memk.FAULT_BAD_JUMP: "jump to an address that is not an instruction",
    memk.FAULT_SCRATCH: "scratch access outside the lane's private segment",
    memk.FAULT_SWIZZLED_WIDTH: "access across a 4-byte element of a swizzled buffer",
    memk.FAULT_REG_INDEX: "M0-relative register past the wave's registers",
}   # the past-the-end, timeout, wave-budget and endless-loop faults are described by fault_error itself


@functools.lru_cache(maxsize=64)
def _parsed_metadata(text: str) -> object:
    """_parsed_metadata is the ``.amdgpu_metadata`` block ``text`` parsed (None if it does not parse), once per
    text: a program launches one kernel many times. Callers only read it."""
    try:  # the parser refused aliases and oversized blocks at their line; this is a second guard
        return load_plain(text, "<.amdgpu_metadata>", AsmError)
    except AsmError:
        return None


def kernel_metadata(module: AsmModule, name: str) -> Optional[dict]:
    """kernel_metadata is kernel ``name``'s entry of the module's ``.amdgpu_metadata`` (a mapping), or None."""
    if not module.metadata:
        return None
    doc = _parsed_metadata(module.metadata)
    kernels = doc.get("amdhsa.kernels") if isinstance(doc, dict) else None
    for k in kernels if isinstance(kernels, list) else []:
        if isinstance(k, dict) and k.get(".name") == name:
            return k
    return None


def calls_host(module: AsmModule, name: str) -> bool:
    """calls_host tells whether kernel ``name`` takes a hostcall buffer (gpusim.exec.hostcall): its printf is
    ROCm's, whose output a run reads from that buffer."""
    meta = kernel_metadata(module, name)
    args = meta.get(".args") if meta is not None else None
    return isinstance(args, list) and any(isinstance(a, dict) and a.get(".value_kind") == "hidden_hostcall_buffer"
                                          for a in args)


def align_up(x: int, a: int = ALIGN) -> int:
    """align_up is ``x`` rounded up to a multiple of ``a`` (the device layout's alignment by default)."""
    return (x + a - 1) // a * a


def after_static_data(static: Optional[StaticData]) -> int:
    """after_static_data is the arena offset where a space's kernarg segment starts: 0, or past ``static``'s
    image (at offset 0, where its code expects it) and a guard gap. A single kernel's space and a program's
    share it, so that one kernel gets the same addresses in either."""
    return 0 if static is None else align_up(len(static.image) + GUARD_BYTES)


@dataclass
class Buffer:
    """Buffer is one buffer argument: its host array and device address."""

    spec: ArgSpec
    initial: np.ndarray
    address: int = 0
    offset: int = 0  # arena offset


def scratch_need(module: AsmModule, kernel: KernelSource, program: Program, launch: LaunchSpec) -> tuple[int, int]:
    """scratch_need is (the bytes of one lane's private segment, the bytes of the dispatch's whole scratch) for
    ``kernel`` launched as ``launch``; (0, 0) when it reaches no scratch.

    A lane's segment is the descriptor's fixed size plus DYNAMIC_STACK_BYTES for a dynamic stack, in whole
    dwords, when the kernel can reach it: scratch_* instructions, or on gfx90a, which has no architected flat
    scratch, any private segment (reached through the private segment buffer or flat scratch init). Every wave
    of the grid has 64 of them. Raises HeaderError past MAX_SCRATCH_BYTES, at the launch line.
    """
    desc = kernel.descriptor
    size = int(desc.get("private_segment_fixed_size", 0))
    dynamic = bool(desc.get("uses_dynamic_stack"))
    through_resource = "gfx90a" in module.target and (size > 0 or dynamic)
    if not through_resource and not np.any(program.mods[:, M_ADDR] & ADDR_SCRATCH):
        return 0, 0
    lane = align_up(max(size + (DYNAMIC_STACK_BYTES if dynamic else 0), 4), 4)
    g, b = launch.grid, launch.block
    waves = g[0] * g[1] * g[2] * ((b[0] * b[1] * b[2] + 63) // 64)
    total = waves * 64 * lane
    if total > MAX_SCRATCH_BYTES:
        where = module.launch.loc if module.launch else kernel.loc
        raise HeaderError(f"kernel '{kernel.name}' needs {total:,} bytes of scratch memory ({lane} bytes a lane for "
                          f"every lane of the grid), more than gpusim gives a dispatch ({MAX_SCRATCH_BYTES:,}): launch "
                          "fewer workgroups", where)
    return lane, total


@dataclass(frozen=True)
class BoundMemory:
    """BoundMemory is a longer-lived device address space a dispatch runs in, in place, instead of an image
    of its own (gpusim.system.device.DeviceMemory builds one per launch).

    ``arena`` holds the bytes from ARENA_BASE on; ``buffers`` maps each buffer argument to its array (a view
    of ``arena``, so what the kernel writes is there afterwards) and that array's arena offset;
    ``allocations`` lists every (name, offset, nbytes) the space holds, all of them memory the kernel may
    touch, as any mapped allocation is on hardware. The launch's kernarg segment (at most
    ``kernarg_capacity`` bytes) goes at ``kernarg_offset`` and its dispatch packet at ``packet_offset``.
    ``static_data`` is the static data image the space holds from offset 0 (gpusim.asm.static_data; None:
    none), which only a program with that same image may run in. A dispatch with scratch memory takes its
    private segments from the space's ``scratch_bytes`` at ``scratch_offset`` (see scratch_need).
    """

    arena: np.ndarray
    buffers: Mapping[str, tuple[np.ndarray, int]]
    allocations: tuple[tuple[str, int, int], ...]
    kernarg_offset: int
    kernarg_capacity: int
    packet_offset: int
    static_data: Optional[StaticData] = None
    scratch_offset: int = 0
    scratch_bytes: int = 0

    def copy(self) -> "BoundMemory":
        """copy returns the same space over a copy of the arena: a run in it changes nothing here."""
        arena = self.arena.copy()
        buffers = {name: (arena[off:off + arr.nbytes].view(arr.dtype).reshape(arr.shape), off)
                   for name, (arr, off) in self.buffers.items()}
        return dataclasses.replace(self, arena=arena, buffers=buffers)


@dataclass
class FunctionalRun:
    """FunctionalRun is what a functional dispatch produced.

    ``final`` maps each buffer name to its contents after the kernel (None
    when a timing-only run skipped the values, gpusim.asm.value_slice);
    ``counts[i]`` is how many waves executed instruction ``i``; ``uninit_reads`` how many
    wave-instructions read a register nothing wrote (gpusim.exec.uninit), ``uninit_first`` the first
    of them (None when there are none).
    """

    final: Optional[dict]
    initial: dict
    scalars: dict
    counts: np.ndarray
    waves: int
    workgroups: int
    uninit_reads: int = 0
    uninit_first: Optional[str] = None
    printed: Optional[Printed] = None   # what the kernel's device printf calls wrote (gpusim.exec.device_printf)


def _scratch_pointers(md_args: list, declared: int) -> int:
    """_scratch_pointers counts the trailing arguments a launch leaves null: Triton 3.x appends two nameless
    global pointers (global and profile scratch) that its launcher passes as null when the kernel asks for
    no scratch, so a header that declares the kernel's own arguments need not declare them."""
    extra = len(md_args) - declared
    if extra not in (1, 2):
        return 0
    tail = md_args[declared:]
    if all(isinstance(a, dict) and a.get(".value_kind") == "global_buffer" and ".name" not in a for a in tail):
        return extra
    return 0


def _metadata_args(meta: dict, kernel: KernelSource) -> tuple[list[dict], int]:
    """_metadata_args returns a kernel's ``.amdgpu_metadata`` arguments (``.args``, each a mapping whose
    ``.offset`` is an integer in [0, MAX_KERNARG_BYTES)) and its ``.kernarg_segment_size`` (-1 when absent).

    The metadata is untrusted text (a .s file's block, a code object's note): anything else is a HeaderError
    at the kernel, naming the argument."""
    def refuse(what: str) -> HeaderError:
        return HeaderError(f"kernel '{kernel.name}': its .amdgpu_metadata {what}", kernel.loc)

    args = meta.get(".args", [])
    if not isinstance(args, list):
        raise refuse(f".args is a list of arguments, got {type(args).__name__}")
    for n, a in enumerate(args):
        if not isinstance(a, dict):
            raise refuse(f"argument {n} is a mapping, got {type(a).__name__}")
        off = a.get(".offset")
        if isinstance(off, bool) or not isinstance(off, int) or not 0 <= off < MAX_KERNARG_BYTES:
            raise refuse(f"argument {n} needs an .offset from 0 to {MAX_KERNARG_BYTES - 1}, got {off!r}")
    size = meta.get(".kernarg_segment_size", -1)
    if isinstance(size, bool) or not isinstance(size, int) or not -1 <= size <= MAX_KERNARG_BYTES:
        raise refuse(f".kernarg_segment_size must be from 0 to {MAX_KERNARG_BYTES}, got {size!r}")
    return args, size


def _arg_bytes(spec: ArgSpec) -> int:
    """_arg_bytes is the bytes an argument takes in the kernarg segment: a buffer's 64-bit address, or the
    scalar's own size."""
    return 8 if spec.kind == "buffer" else struct.calcsize(_SCALAR_FORMATS.get(spec.dtype, "<H"))


class Dispatch:
    """Dispatch is one kernel launch: memory image, ABI state and run loop."""

    def __init__(self, module: AsmModule, kernel: KernelSource, program: Program, launch: LaunchSpec,
                 args: list[ArgSpec], contents: bool = True, bound: Optional[BoundMemory] = None):
        """``contents`` False gives every buffer zeros instead of its header initialiser, without touching
        their memory: for a timing-only run whose address and control slice reads no buffer
        (gpusim.asm.value_slice.reads_buffers), where contents change nothing.

        ``bound`` runs the dispatch in place in a device address space (BoundMemory): every buffer argument
        is the bound array at its fixed address (``contents`` is then moot: the arrays hold what they
        hold), the run writes the kernarg segment and packet into the space and the kernel's stores land in
        the bound arrays; FunctionalRun.initial then holds those same arrays, not copies."""
        self.bound = bound
        self.contents = contents if bound is None else True
        self.module = module
        self.kernel = kernel
        self.program = program
        self.launch = launch
        self.args = args
        self.desc = kernel.descriptor
        self.buffers: dict[str, Buffer] = {}
        self.scalars: dict[str, object] = {}
        self.scratch_lane_bytes, self.scratch_need = scratch_need(module, kernel, program, launch)
        self.scratch_offset = 0
        self.scratch_bytes = 0   # the scratch the dispatch got: every wave's 64 interleaved private segments
        self.hostcall_offset = 0   # the arena offset of the hostcall buffer's region (0: none)
        self.hostcall_packets = 0
        self._layout()

    # ------------------------------------------------------------ memory image
    def _kernarg_offsets(self) -> tuple[dict[str, int], dict[str, int], int]:
        """_kernarg_offsets returns explicit-arg offsets, hidden-arg offsets and the segment size."""
        explicit: dict[str, int] = {}
        hidden: dict[str, int] = {}
        meta = self._metadata()
        if meta is not None:
            all_args, size = _metadata_args(meta, self.kernel)
            md_args = [a for a in all_args if not str(a.get(".value_kind", "")).startswith("hidden")]
            md_args = md_args[:len(md_args) - _scratch_pointers(md_args, len(self.args))]
            if len(md_args) != len(self.args):
                raise HeaderError(
                    f"kernel '{self.kernel.name}' takes {len(md_args)} arguments but the header declares "
                    f"{len(self.args)}", self.args[0].loc if self.args else self.kernel.loc)
            for spec, md in zip(self.args, md_args):
                explicit[spec.name] = md[".offset"]
            for md in all_args:
                kind = str(md.get(".value_kind", ""))
                if kind.startswith("hidden"):
                    hidden[kind] = md[".offset"]
            if size < 0:
                size = int(self.desc.get("kernarg_size", 0))
            for spec in self.args:
                if explicit[spec.name] + _arg_bytes(spec) > align_up(max(size, 8), 64):
                    raise HeaderError(f"kernel '{self.kernel.name}': argument '{spec.name}' at .offset "
                                      f"{explicit[spec.name]} lies past its {size}-byte kernarg segment "
                                      "(.amdgpu_metadata)", spec.loc or self.kernel.loc)
            return explicit, hidden, size
        off = 0
        for spec in self.args:
            size = _arg_bytes(spec)
            off = align_up(off, size)
            explicit[spec.name] = off
            off += size
        return explicit, hidden, max(off, int(self.desc.get("kernarg_size", 0)))

    def _metadata(self) -> Optional[dict]:
        return kernel_metadata(self.module, self.kernel.name)

    def _layout(self) -> None:
        explicit, hidden, ksize = self._kernarg_offsets()
        # a kernel that calls the host gets a hostcall buffer (gpusim.exec.hostcall); in a program's device
        # space it stays an absent service (gpusim.exec.absent_services)
        g = self.launch.grid
        waves = self.waves_per_workgroup * g[0] * g[1] * g[2]
        self.hostcall_packets = (hostcall.packet_count(waves)
                                 if self.bound is None and calls_host(self.module, self.kernel.name) else 0)
        kernarg_size = align_up(max(ksize, 8), 64)
        if self.bound is not None:
            self._bound_layout(kernarg_size)
        else:
            self._own_layout(kernarg_size)
        self._write_kernarg(explicit, hidden, kernarg_size)

    def _own_layout(self, kernarg_size: int) -> None:
        """_own_layout places the program's static data (if its code refers to any) at arena offset 0, where
        the code expects it (gpusim.asm.static_data), then the kernarg segment, the packet and the
        header-initialised buffers, in argument order, with guard gaps between them."""
        static = self.program.static_data
        regions = [] if static is None else [(0, len(static.image))]
        cursor = after_static_data(static)
        self.kernarg_offset = cursor
        regions.append((cursor, cursor + kernarg_size))
        cursor = align_up(cursor + kernarg_size + GUARD_BYTES)
        self.packet_offset = cursor
        regions.append((cursor, cursor + 64))
        cursor = align_up(cursor + 64 + GUARD_BYTES)
        for spec in self.args:
            if spec.kind != "buffer":
                self.scalars[spec.name] = spec.value
                continue
            arr = make_buffer(spec) if self.contents else zero_buffer(spec)
            buf = Buffer(spec, arr, address=ARENA_BASE + cursor, offset=cursor)
            self.buffers[spec.name] = buf
            regions.append((cursor, cursor + arr.nbytes))
            cursor = align_up(cursor + max(arr.nbytes, 1) + GUARD_BYTES)
        if self.scratch_need:   # every wave of the grid its own 64 interleaved private segments
            self.scratch_offset = cursor
            self.scratch_bytes = self.scratch_need
            regions.append((cursor, cursor + self.scratch_need))
            cursor = align_up(cursor + self.scratch_need + GUARD_BYTES)
        if self.hostcall_packets:
            self.hostcall_offset = align_up(cursor, 4096)
            size = hostcall.region_bytes(self.hostcall_packets)
            regions.append((self.hostcall_offset, self.hostcall_offset + size))
            cursor = align_up(self.hostcall_offset + size + GUARD_BYTES)
        self.arena_size = cursor
        self.regions = np.array(regions, dtype=np.int64)

    def _bound_layout(self, kernarg_size: int) -> None:
        """_bound_layout takes the buffers' places from ``bound``; the regions a kernel may touch are the
        kernarg segment, the packet, its argument buffers first (the fault check scans them in order), then
        every other allocation of the space and the static data it holds (which must be the program's), and the
        space's scratch, which holds the dispatch's (the device reserved scratch_need's bytes for it)."""
        b = self.bound
        if self.scratch_need > b.scratch_bytes:
            raise HeaderError(f"kernel '{self.kernel.name}' needs {self.scratch_need:,} bytes of scratch memory; the "
                              f"device reserved {b.scratch_bytes:,}", self.kernel.loc)
        static = self.program.static_data
        if static is not None and static != b.static_data:
            raise HeaderError(f"kernel '{self.kernel.name}' has static data (.data, .rodata or .bss) other than "
                              "what the device space holds: a program's kernels may share one file's static "
                              "data, no more", self.kernel.loc)
        if kernarg_size > b.kernarg_capacity:
            raise HeaderError(f"kernel '{self.kernel.name}' needs a {kernarg_size}-byte kernarg segment; the "
                              f"device reserved {b.kernarg_capacity}", self.kernel.loc)
        self.kernarg_offset = b.kernarg_offset
        self.packet_offset = b.packet_offset
        regions = [(self.kernarg_offset, self.kernarg_offset + kernarg_size), (self.packet_offset, self.packet_offset + 64)]
        for spec in self.args:
            if spec.kind != "buffer":
                self.scalars[spec.name] = spec.value
                continue
            if spec.name not in b.buffers:
                raise HeaderError(f"buffer argument '{spec.name}' of kernel '{self.kernel.name}' is bound to no "
                                  "device buffer", spec.loc)
            arr, off = b.buffers[spec.name]
            self.buffers[spec.name] = Buffer(spec, arr, address=ARENA_BASE + off, offset=off)
            regions.append((off, off + arr.nbytes))
        mine = {r[0] for r in regions[2:]}
        regions += [(off, off + n) for _, off, n in b.allocations if off not in mine]
        if static is not None:
            regions.append((0, len(static.image)))
        if self.scratch_need:
            self.scratch_offset, self.scratch_bytes = b.scratch_offset, self.scratch_need
            regions.append((b.scratch_offset, b.scratch_offset + self.scratch_need))
        self.arena_size = len(b.arena)
        self.regions = np.array(regions, dtype=np.int64)

    def _write_kernarg(self, explicit: dict[str, int], hidden: dict[str, int], kernarg_size: int) -> None:
        self.kernarg = bytearray(kernarg_size)
        for spec in self.args:
            off = explicit[spec.name]
            if spec.kind == "buffer":
                struct.pack_into("<Q", self.kernarg, off, self.buffers[spec.name].address)
            elif spec.dtype == "bf16":
                struct.pack_into("<H", self.kernarg, off, int(to_bf16_bits(np.array([spec.value]))[0]))
            else:
                struct.pack_into(_SCALAR_FORMATS[spec.dtype], self.kernarg, off, spec.value)
        g, b = self.launch.grid, self.launch.block
        values = {
            "hidden_block_count_x": ("<I", g[0]), "hidden_block_count_y": ("<I", g[1]),
            "hidden_block_count_z": ("<I", g[2]), "hidden_group_size_x": ("<H", b[0]),
            "hidden_group_size_y": ("<H", b[1]), "hidden_group_size_z": ("<H", b[2]),
            "hidden_grid_dims": ("<H", 3 if g[2] * b[2] > 1 else 2 if g[1] * b[1] > 1 else 1),
            "hidden_dynamic_lds_size": ("<I", self.launch.lds),
        }
        values.update({kind: ("<Q", service_address(kind)) for kind in ABSENT_SERVICES})
        if self.hostcall_offset:
            values["hidden_hostcall_buffer"] = ("<Q", ARENA_BASE + self.hostcall_offset)
        for kind, off in hidden.items():
            if kind in values and off + struct.calcsize(values[kind][0]) <= len(self.kernarg):
                struct.pack_into(values[kind][0], self.kernarg, off, values[kind][1])

    def _memory_image(self) -> np.ndarray:
        """_memory_image returns the bytes the dispatch runs on: a fresh image holding the kernarg segment,
        the packet and the buffers, or with ``bound`` the bound arena itself, the kernarg segment and packet
        written into it."""
        mem = np.zeros(self.arena_size, dtype=np.uint8) if self.bound is None else self.bound.arena
        static = self.program.static_data
        if static is not None and self.bound is None:   # with or without contents: the code may read it
            mem[:len(static.image)] = np.frombuffer(static.image, np.uint8)
        mem[self.kernarg_offset:self.kernarg_offset + len(self.kernarg)] = np.frombuffer(bytes(self.kernarg), np.uint8)
        g, b = self.launch.grid, self.launch.block
        packet = bytearray(64)
        struct.pack_into("<HHHH", packet, 0, 0, 3, b[0], b[1])
        struct.pack_into("<H", packet, 8, b[2])
        struct.pack_into("<III", packet, 12, g[0] * b[0], g[1] * b[1], g[2] * b[2])
        struct.pack_into("<II", packet, 24, self.desc.get("private_segment_fixed_size", 0),
                         self.desc.get("group_segment_fixed_size", 0))
        struct.pack_into("<Q", packet, 40, ARENA_BASE + self.kernarg_offset)
        mem[self.packet_offset:self.packet_offset + 64] = np.frombuffer(bytes(packet), np.uint8)
        if self.hostcall_offset:   # runtime state, with or without the buffers' contents
            region = hostcall.initial_region(ARENA_BASE + self.hostcall_offset, self.hostcall_packets)
            mem[self.hostcall_offset:self.hostcall_offset + region.size] = region
        bufs = self.buffers.values() if self.contents and self.bound is None else ()   # bound: already there
        for buf in bufs:   # without contents the arena's zeros stay
            raw = buf.initial.reshape(-1).view(np.uint8)
            mem[buf.offset:buf.offset + raw.size] = raw
        return mem

    # ------------------------------------------------------------ ABI
    def user_sgprs(self) -> np.ndarray:
        """user_sgprs lists (sgpr, value) pairs of the AMDHSA user SGPRs, in ABI order: at most 31, since the
        assembler held the descriptor to llvm-mc's rules (gpusim.asm.descriptor_rules: the enabled fields and the
        preloaded kernarg dwords within a count of 0..31), so the interpreter's init_wave may write them unchecked."""
        d = self.desc
        pairs: list[tuple[int, int]] = []
        nxt = 0

        def put64(value: int) -> None:
            nonlocal nxt
            pairs.append((nxt, value & 0xFFFFFFFF))
            pairs.append((nxt + 1, value >> 32))
            nxt += 2

        scratch_base = ARENA_BASE + self.scratch_offset if self.scratch_bytes else 0
        if d.get("user_sgpr_private_segment_buffer"):
            # a swizzled V# over the whole scratch, as the runtime's covers the queue's (gpusim.exec.kernels.
            # buffer_resource); the kernel adds its wave's offset (the private segment wavefront offset SGPR)
            for word in private_segment_resource(scratch_base, self.scratch_bytes):
                pairs.append((nxt, word))
                nxt += 1
        if d.get("user_sgpr_dispatch_ptr"):
            put64(ARENA_BASE + self.packet_offset)
        if d.get("user_sgpr_queue_ptr"):
            put64(0)
        if d.get("user_sgpr_kernarg_segment_ptr"):
            put64(ARENA_BASE + self.kernarg_offset)
        if d.get("user_sgpr_dispatch_id"):
            put64(0)
        if d.get("user_sgpr_flat_scratch_init"):
            put64(scratch_base)   # gfx9: the scratch's base, to which the prologue adds the wave's offset
        if d.get("user_sgpr_private_segment_size"):
            pairs.append((nxt, self.scratch_lane_bytes))
            nxt += 1
        preload = int(d.get("user_sgpr_kernarg_preload_length", 0))
        start = int(d.get("user_sgpr_kernarg_preload_offset", 0))
        for k in range(preload):
            off = 4 * (start + k)
            word = struct.unpack_from("<I", self.kernarg, off)[0] if off + 4 <= len(self.kernarg) else 0
            pairs.append((nxt, word))
            nxt += 1
        return np.array(pairs if pairs else np.zeros((0, 2)), dtype=np.int64).reshape(-1, 2)

    def abi(self) -> np.ndarray:
        """abi returns the launch parameters the interpreter's init_wave reads."""
        d = self.desc
        a = np.zeros(itp.ABI_N, dtype=np.int64)
        a[itp.ABI_BLOCK_X:itp.ABI_BLOCK_Z + 1] = self.launch.block
        a[itp.ABI_GRID_X:itp.ABI_GRID_Z + 1] = self.launch.grid
        a[itp.ABI_WGID_SGPR] = int(d.get("user_sgpr_count", 0))
        mask = sum(1 << k for k, axis in enumerate("xyz") if d.get(f"system_sgpr_workgroup_id_{axis}", 0))
        a[itp.ABI_WGID_MASK] = mask
        info = -1
        if d.get("system_sgpr_workgroup_info"):
            info = int(a[itp.ABI_WGID_SGPR]) + bin(mask).count("1")
        a[itp.ABI_WGINFO_SGPR] = info
        a[itp.ABI_TID_MODE] = int(d.get("system_vgpr_workitem_id", 0))
        a[itp.ABI_ENTRY] = self.kernel.entry
        a[itp.ABI_CODE_BASE] = CODE_BASE
        a[itp.ABI_SCRATCH_WAVE_SGPR] = -1
        if self.scratch_lane_bytes:
            a[itp.ABI_SCRATCH_BASE] = ARENA_BASE + self.scratch_offset
            a[itp.ABI_SCRATCH_WAVE_BYTES] = 64 * self.scratch_lane_bytes
            if d.get("system_sgpr_private_segment_wavefront_offset"):   # the last system SGPR
                a[itp.ABI_SCRATCH_WAVE_SGPR] = int(a[itp.ABI_WGID_SGPR]) + bin(mask).count("1") + (info >= 0)
        return a

    # ------------------------------------------------------------ run
    def env(self) -> np.ndarray:
        env = np.zeros(memk.N_ENV, dtype=np.int64)
        env[memk.ENV_ARENA_BASE] = ARENA_BASE
        env[memk.ENV_SHARED_APERTURE] = SHARED_APERTURE
        env[memk.ENV_SHARED_APERTURE_END] = SHARED_APERTURE + (1 << 32)
        env[memk.ENV_SCRATCH_LANE_BYTES] = self.scratch_lane_bytes
        env[memk.ENV_HOSTCALL] = self.hostcall_offset
        env[memk.ENV_HOSTCALL_PACKETS] = self.hostcall_packets
        return env

    @property
    def waves_per_workgroup(self) -> int:
        """waves_per_workgroup is how many wave64s one workgroup of the launch block needs."""
        b = self.launch.block
        return (b[0] * b[1] * b[2] + 63) // 64

    def vgprs_needed(self) -> int:
        return max(int(self.desc.get("next_free_vgpr", 1)), 1)

    def register_tracking(self) -> tuple[RegisterLists, np.ndarray, np.ndarray]:
        """register_tracking is what the run loops need to count reads of registers nothing wrote:
        the program's RegisterLists, the entries every wave starts with (gpusim.exec.uninit.abi_written),
        and an empty per-instruction count (int64[instructions, 2], see interpreter.uninit_read)."""
        regs = register_lists(self.program.ops)
        a = self.abi()
        sgprs = int(a[itp.ABI_WGID_SGPR]) + bin(int(a[itp.ABI_WGID_MASK])).count("1") + \
            (1 if a[itp.ABI_WGINFO_SGPR] >= 0 else 0)
        uninit = np.zeros((self.program.sem.shape[0], 2), np.int64)
        uninit[:, 1] = itp.UNINIT_NONE
        return regs, abi_written(regs.registers, launch_set_registers(self.desc, sgprs)), uninit

    def endless(self) -> np.ndarray:
        """endless marks the instructions a wave can never leave a loop from (gpusim.exec.runaway)."""
        return endless_instructions(self.program)

    def run(self, limit: int = DEFAULT_LIMIT, wave_limit: int = DEFAULT_WAVE_LIMIT,
            timeout: Optional[float] = None, stop: Optional[np.ndarray] = None) -> FunctionalRun:
        """run executes every workgroup functionally and returns the final buffers.

        ``limit`` bounds the dispatch's wave-instructions, ``wave_limit`` each wave's, ``timeout`` (seconds)
        its host time (watchdog). Raises KernelFault if the kernel faults. ``stop`` (int64[1]): a flag that
        another thread may set to end the run early, which then raises the watchdog's fault.
        """
        p = self.program
        waves = self.waves_per_workgroup
        sreg = np.zeros((waves, SREG_FILE), dtype=np.uint32)
        sreg[:, SRC_SHARED_BASE] = SHARED_APERTURE >> 32
        sreg[:, SRC_SHARED_LIMIT] = (SHARED_APERTURE >> 32) + 1
        sreg[:, SRC_PRIVATE_BASE] = 0
        vreg = np.zeros((waves, self.vgprs_needed() + SCRATCH_ROWS, 64), dtype=np.uint32)
        T = np.zeros((SCRATCH_ROWS_NEEDED, 64), dtype=np.uint64)
        valid = np.ones(64, dtype=np.uint8)
        mem = self._memory_image()
        lds = np.zeros(max(int(self.desc.get("group_segment_fixed_size", 0)), 0), dtype=np.uint8)   # 0: none
        fault = np.zeros(memk.N_FAULT, dtype=np.int64)
        counts = np.zeros(p.rows, dtype=np.int64)
        regs, written0, uninit = self.register_tracking()
        with watchdog(timeout, stop) as stop:
            jitcache.compiled_call(
                itp.run_grid, p.sem, p.ops, p.mods, p.pc_bytes, self.abi(), self.user_sgprs(), sreg, vreg, T,
                valid, mem, self.regions, self.env(), lds, fault, counts, limit,
                np.zeros(waves, np.int64), np.zeros(waves, np.int64), np.zeros(3, np.int64),
                wave_limit, np.zeros(waves, np.int64), self.endless(), regs.reads_at, regs.reads,
                regs.writes_at, regs.writes, written0, np.zeros((waves, regs.entries), np.uint8),
                np.zeros(waves, np.int64), uninit, stop)
        if fault[memk.F_CODE]:
            raise self.fault_error(fault, limit, wave_limit, timeout, mem=mem)
        return self.outcome(mem, counts, uninit=uninit, registers=regs.registers)

    def outcome(self, mem: np.ndarray, counts: np.ndarray, *, values: bool = True,
                uninit: Optional[np.ndarray] = None, registers: Optional[np.ndarray] = None) -> FunctionalRun:
        """outcome reads the final buffers out of the memory image ``mem`` after a complete dispatch.

        ``counts[i]`` is how many waves executed instruction ``i`` (the functional run and the timing
        model both produce it), ``uninit`` and ``registers`` the run's reads of registers nothing wrote
        (register_tracking). ``values`` False: the run skipped the values outside the address and
        control slice, so the buffers are not final and ``final`` is None. With ``bound``, ``final`` and
        ``initial`` are both the bound arrays themselves, which now hold the final values.
        """
        final = {} if values else None
        for name, buf in self.buffers.items() if values else ():
            if self.bound is not None:   # the bound arrays are views of ``mem``: they hold the final values
                final[name] = buf.initial
                continue
            raw = mem[buf.offset:buf.offset + buf.initial.nbytes].copy()
            final[name] = raw.view(buf.initial.dtype).reshape(buf.initial.shape)
        g = self.launch.grid
        reads, first = 0, None
        if uninit is not None:
            reads = int(uninit[:, 0].sum())
            first = first_uninit_read(self.program, self.kernel.entry, uninit, registers,
                                      int(self.desc.get("accum_offset", 0)))
        return FunctionalRun(final=final, initial={n: b_.initial for n, b_ in self.buffers.items()},
                             scalars=dict(self.scalars), counts=counts,
                             waves=self.waves_per_workgroup * g[0] * g[1] * g[2], workgroups=g[0] * g[1] * g[2],
                             uninit_reads=reads, uninit_first=first,
                             printed=self._printed(mem) if values and self.bound is None else None)

    def _printed(self, mem: np.ndarray) -> Optional[Printed]:
        """_printed is what the kernel printed: through gpusim's own device printf (gpusim.exec.device_printf),
        then through the hostcall buffer (gpusim.exec.hostcall); None when it has neither."""
        own = read_printed(self.program.static_data, mem)
        by_host = hostcall.read_hostcall_printed(mem, self.hostcall_offset) if self.hostcall_offset else None
        return merged(own, by_host)

    def fault_error(self, fault: np.ndarray, limit: int, wave_limit: int = DEFAULT_WAVE_LIMIT,
                    timeout: Optional[float] = None, mem: Optional[np.ndarray] = None) -> KernelFault:
        """fault_error describes a fault record like a GPU fault report; given the run's memory image ``mem``
        (whose values the run computed), the error also holds what the kernel printed before it faulted."""
        err = self._fault(fault, limit, wave_limit, timeout)
        if mem is not None and self.bound is None:
            err.printed = self._printed(mem)
        return err

    def _fault(self, fault: np.ndarray, limit: int, wave_limit: int, timeout: Optional[float]) -> KernelFault:
        code = int(fault[memk.F_CODE])
        i = int(fault[memk.F_PC])
        p = self.program
        g = self.launch.grid
        flat = int(fault[memk.F_WORKGROUP])
        wg = (flat % g[0], (flat // g[0]) % g[1], flat // (g[0] * g[1]))
        what = _FAULT_TEXT.get(code, "fault")
        if code == memk.FAULT_MEMORY or code == memk.FAULT_BAD_JUMP:
            addr = int(fault[memk.F_ADDR]) & 0xFFFFFFFFFFFFFFFF   # recorded as int64
            what += f" at address 0x{addr:x}"
            if code == memk.FAULT_MEMORY:
                service = service_at(addr)
                what += f" ({int(fault[memk.F_SIZE])} bytes)" + (f", in {service}" if service else
                                                                 self._nearest_buffer(addr))
        elif code == memk.FAULT_SCRATCH:
            stack = f", plus {DYNAMIC_STACK_BYTES} for its dynamic stack" if self.desc.get("uses_dynamic_stack") else ""
            what += (f" at private offset {int(fault[memk.F_ADDR])} ({int(fault[memk.F_SIZE])} bytes; a lane's "
                     f"segment holds {self.scratch_lane_bytes}: .amdhsa_private_segment_fixed_size{stack})")
        elif code == memk.FAULT_REG_INDEX and int(fault[memk.F_SIZE]) == 1:
            what += (f": v{int(fault[memk.F_ADDR])} (the operand's VGPR plus M0[7:0] in VGPR index mode; the wave "
                     f"has v0 to v{self.vgprs_needed() - 1}: .amdhsa_next_free_vgpr)")
        elif code == memk.FAULT_REG_INDEX:
            what += (f": s{int(fault[memk.F_ADDR])} (the operand's SGPR plus M0; a wave has s0 to s101, and the "
                     "hardware's behaviour past them is not documented)")
        elif code == memk.FAULT_SWIZZLED_WIDTH:
            what += (f" ({int(fault[memk.F_SIZE])} bytes from byte {int(fault[memk.F_ADDR])} of an element: its V# "
                     "sets SWIZZLE_ENABLE, as the private segment buffer does, and a swizzled access moves one dword "
                     "at most)")
        elif code == memk.FAULT_LDS:
            lds = int(self.desc.get("group_segment_fixed_size", 0))
            what += f" at LDS offset {int(fault[memk.F_ADDR])} (allocation {lds} bytes)"
            if not self.launch.lds:
                what += ("; a kernel that takes dynamic LDS at launch gets it from lds=BYTES on the gpusim-launch "
                         "line (a Triton kernel: its compiled metadata's 'shared')")
        elif code == memk.FAULT_LIMIT:
            what += f" ({limit:,} wave-instructions; raise it with --max-instructions)"
            waiting = int(fault[memk.F_AT_BARRIER])
            if waiting:
                what += (f" while {waiting} other wave(s) of the workgroup wait at s_barrier: a barrier this "
                         "wave never reaches (barrier deadlock)")
        elif code == memk.FAULT_TIMEOUT:
            what = (f"runaway kernel: still running after {timeout:g} s of host time (--timeout); the run was "
                    "stopped here")
        elif code in (memk.FAULT_WAVE_LIMIT, memk.FAULT_ENDLESS):
            what = self._runaway_text(code, i, int(fault[memk.F_WAVE]), wave_limit, int(fault[memk.F_AT_BARRIER]))
        elif code == memk.FAULT_TRAP:
            trap = int(fault[memk.F_ADDR])
            what = (f"s_trap {trap}, llvm.trap (__builtin_trap(), abort(), a failed assert): the trap handler halts the "
                    "wave and puts the dispatch's queue in the error state" if trap == TRAP_LLVM_TRAP else
                    f"s_trap {trap}, a trap id the trap handler defines no use for (LLVM's are 2, llvm.trap, and 3, "
                    "llvm.debugtrap, which goes on without a debugger): the dispatch ends as for llvm.trap")
        elif code == memk.FAULT_UNSUPPORTED and 0 <= i < len(p):
            what = f"instruction '{p.mnemonics[i]}' is not supported yet by the executor"
        lane = int(fault[memk.F_LANE])
        where = f"pc {p.pc_text(i, self.kernel.entry)}" if 0 <= i < p.rows else "pc ?"
        instr = f" '{p.describe(i)}'" if 0 <= i < len(p) else ""
        if code == memk.FAULT_PAST_END:   # the end-of-text sentinel: no instruction of its own to name
            what = f"{where} is past the end of the kernel"
            if self.kernel.entry < i <= len(p):
                what += f" (its code ends with '{p.describe(i - 1)}' at pc {p.pc_text(i - 1, self.kernel.entry)})"
            what += " and no s_endpgm ended the wave"
        lane_txt = f", lane {lane}" if lane >= 0 else ""
        msg = (f"kernel '{self.kernel.name}' faulted: {what}; {where}{instr}, workgroup {wg}, "
               f"wave {int(fault[memk.F_WAVE])}{lane_txt}")
        return KernelFault(msg, p.source_loc(i) if 0 <= i < p.rows else None, code=code, row=i)

    def _runaway_text(self, code: int, i: int, wave: int, wave_limit: int, waiting: int) -> str:
        """_runaway_text says why wave ``wave`` at instruction ``i`` will never end, and what it holds up."""
        p = self.program
        loop = loop_around(p, i) if 0 <= i < len(p) else None
        where = " its loop"
        if loop is not None:
            first, last = loop
            where = (f" the loop at pc {p.pc_text(first, self.kernel.entry)}..{p.pc_text(last, self.kernel.entry)} "
                     f"({_lines_of(p, first, last)})")
        if code == memk.FAULT_WAVE_LIMIT:
            what = (f"wave {wave} executed more than {wave_limit:,} instructions, in{where}; "
                    "raise the limit with --max-wave-instructions")
        else:
            what = (f"wave {wave} can never leave{where}: it holds no s_endpgm, conditional branch or s_setpc "
                    "(real hardware hangs)")
        if waiting:
            return f"barrier deadlock: {waiting} other wave(s) of the workgroup wait at s_barrier while {what}"
        return ("runaway kernel: " if code == memk.FAULT_WAVE_LIMIT else "endless loop: ") + what

    def _nearest_buffer(self, addr: int) -> str:
        best = None
        places = [(name, buf.address, buf.initial.nbytes) for name, buf in self.buffers.items()]
        if self.bound is not None:   # the space's other allocations, by their own names
            mine = {buf.offset for buf in self.buffers.values()}
            places += [(name, ARENA_BASE + off, n) for name, off, n in self.bound.allocations if off not in mine]
        for name, address, nbytes in places:
            end = address + nbytes
            dist = addr - end if addr >= end else address - addr
            if best is None or dist < best[0]:
                best = (dist, name, addr >= end)
        if best is None:
            return ""
        dist, name, after = best
        return f", {dist} bytes {'past the end of' if after else 'before'} buffer '{name}'"


def _lines_of(p: Program, first: int, last: int) -> str:
    """_lines_of names the source lines rows ``first..last`` came from: the program's own (a HIP or Triton file's,
    ``k.hip lines 6-7``) where the compiler's line tables gave them, else the assembly's (``lines 37-52``)."""
    origins = [o for o in p.origins[first:last + 1] if o is not None]
    if origins:
        file = origins[0].file
        rows = sorted({o.line for o in origins if o.file == file})
        return f"{file} line {rows[0]}" if len(rows) == 1 else f"{file} lines {rows[0]}-{rows[-1]}"
    return f"line {p.locs[first].line}" if first == last else f"lines {p.locs[first].line}-{p.locs[last].line}"


@contextmanager
def watchdog(seconds: Optional[float], stop: Optional[np.ndarray] = None) -> Iterator[np.ndarray]:
    """watchdog yields the ``stop`` flag (int64[1]) a run loop polls; ``seconds`` later a timer thread sets it.

    The run loops release the GIL so the timer can fire; a run that ends first is untouched, so its
    cycles and counters do not depend on the host. None, 0, or a time longer than a timer can wait
    (``threading.TIMEOUT_MAX``, infinity among them): no watchdog. ``stop``: the flag to use, one that another
    thread may also set to stop the run (a new one if None).
    """
    stop = np.zeros(1, np.int64) if stop is None else stop
    timer = None
    if seconds and seconds < threading.TIMEOUT_MAX:
        timer = threading.Timer(seconds, stop.__setitem__, (0, 1))
        timer.daemon = True
        timer.start()
    try:
        yield stop
    finally:
        if timer is not None:
            timer.cancel()

