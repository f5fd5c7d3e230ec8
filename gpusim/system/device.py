"""One GPU's device memory for a whole program: buffers at fixed addresses, and its warm caches.

A program's buffers live as long as the program, and so do their addresses: every kernel, copy and
collective on the GPU sees a buffer at the same device address, which is what lets the MALL, L2 and TLB
lines one kernel leaves serve the next (gpusim.memory.hierarchy.MemoryLevels.for_next_kernel).
"""
from __future__ import annotations

from typing import Mapping, Optional

import numpy as np

from gpusim.arch import Arch
from gpusim.asm.static_data import StaticData
from gpusim.exec.launch import ARENA_BASE, GUARD_BYTES, BoundMemory, after_static_data, align_up
from gpusim.memory.hierarchy import MemoryLevels

# the kernarg segment a device reserves for every launch: HIP's limit on a kernel's arguments, and room
# for code object v5's hidden arguments
DEFAULT_KERNARG_BYTES = 4096


class DeviceMemory:
    """DeviceMemory is GPU ``gpu``'s device address space and cache state over a whole program.

    The space uses a single-kernel dispatch's scheme (gpusim.exec.launch.Dispatch), so fault reports read the
    same: from ARENA_BASE, the static data image ``static_data`` of the program's kernel file that has one
    (gpusim.asm.static_data; written once, so a ``__device__`` global keeps its value from launch to launch, as
    in a loaded code object) and a guard gap, a kernarg segment of ``kernarg_bytes`` (64-byte aligned) that
    every launch reuses, its dispatch packet, then each allocated buffer in allocation order, 256-byte aligned
    with a 4 KiB guard gap after each, and the launches' scratch memory where reserve_scratch placed it. A
    single kernel whose kernarg segment has ``kernarg_bytes`` and whose buffers are allocated in argument order
    gets exactly the addresses a single-kernel run gives them.

    Each buffer's array is a view of one arena (``arena``): a kernel launched here (DeviceMemory.bound)
    reads and writes it in place, and so may copies and collectives, through ``array`` or ``view``.
    ``allocate`` may move the arena to grow it: arrays and views taken before it are stale after it, so
    take them after the program's buffers are allocated, or again.

    ``memory`` is the GPU's memory levels as the last kernel left them (cold at first): what
    gpusim.engine.timing.time_kernel takes and hands back. ``stale`` names the buffers whose contents a
    timing-only launch left undefined (gpusim.system.kernel_launch.run_launch); whoever rewrites one whole
    (a copy, a memset) may discard it. Mutated by: ``allocate`` (the arena), whoever writes the arrays,
    and whoever assigns ``memory`` or ``stale``.
    """

    def __init__(self, gpu: int, arch: Arch, *, kernarg_bytes: int = DEFAULT_KERNARG_BYTES,
                 static_data: Optional[StaticData] = None):
        self.gpu = gpu
        self.arch = arch
        self.static_data = static_data
        self.kernarg_offset = after_static_data(static_data)
        self.kernarg_capacity = align_up(max(int(kernarg_bytes), 8), 64)
        self.packet_offset = align_up(self.kernarg_offset + self.kernarg_capacity + GUARD_BYTES)
        self._cursor = align_up(self.packet_offset + 64 + GUARD_BYTES)
        self.arena = np.zeros(self._cursor, np.uint8)
        if static_data is not None:
            self.arena[:len(static_data.image)] = np.frombuffer(static_data.image, np.uint8)
        self._places: dict[str, tuple[int, np.dtype, tuple]] = {}   # name -> (arena offset, dtype, shape)
        self._scratch = (0, 0)   # (arena offset, bytes) of the launches' scratch memory (reserve_scratch)
        self.memory = MemoryLevels(arch)
        self.stale: set[str] = set()

    # ------------------------------------------------------------ allocation
    def allocate(self, name: str, array: np.ndarray) -> int:
        """allocate gives buffer ``name`` its device address for the program's life, holding a copy of
        ``array`` (its dtype, shape and initial contents); returns the address. Raises ValueError for a
        name already allocated."""
        if name in self._places:
            raise ValueError(f"buffer '{name}' is already allocated on GPU {self.gpu}")
        array = np.ascontiguousarray(array)
        offset = self._cursor
        end = align_up(offset + max(array.nbytes, 1) + GUARD_BYTES)
        if end > len(self.arena):
            grown = np.zeros(max(end, 2 * len(self.arena)), np.uint8)
            grown[:self._cursor] = self.arena[:self._cursor]
            self.arena = grown
        self._cursor = end
        self._places[name] = (offset, array.dtype, array.shape)
        self.arena[offset:offset + array.nbytes] = array.reshape(-1).view(np.uint8)
        return ARENA_BASE + offset

    def reserve_scratch(self, nbytes: int) -> None:
        """reserve_scratch makes the GPU's scratch memory, which every launch's private segments use in turn (as
        the runtime's queue scratch is), hold at least ``nbytes``: past what it holds, a larger one is placed
        after the buffers (the old one is left unused). It may move the arena, as ``allocate`` does."""
        if nbytes <= self._scratch[1]:
            return
        offset = self._cursor
        end = align_up(offset + nbytes + GUARD_BYTES)
        if end > len(self.arena):
            grown = np.zeros(max(end, 2 * len(self.arena)), np.uint8)
            grown[:self._cursor] = self.arena[:self._cursor]
            self.arena = grown
        self._cursor = end
        self._scratch = (offset, nbytes)

    @property
    def names(self) -> tuple[str, ...]:
        """names are the allocated buffers, in allocation (address) order."""
        return tuple(self._places)

    def address(self, name: str) -> int:
        """address is buffer ``name``'s device address."""
        return ARENA_BASE + self._place(name)[0]

    def offset(self, name: str) -> int:
        """offset is buffer ``name``'s offset from ARENA_BASE."""
        return self._place(name)[0]

    def array(self, name: str) -> np.ndarray:
        """array is buffer ``name``'s current contents: a view, so writing it writes device memory."""
        offset, dtype, shape = self._place(name)
        n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        return self.arena[offset:offset + n].view(dtype).reshape(shape)

    def view(self, name: str, offset: int = 0, nbytes: Optional[int] = None) -> np.ndarray:
        """view is bytes ``offset`` .. ``offset + nbytes`` of buffer ``name`` (nbytes None: to its end) as a
        writable uint8 view, what a copy or a memset reads or writes. Raises ValueError outside the buffer."""
        start, dtype, shape = self._place(name)
        size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        nbytes = size - offset if nbytes is None else nbytes
        if offset < 0 or nbytes < 0 or offset + nbytes > size:
            raise ValueError(f"bytes {offset}..{offset + nbytes} lie outside buffer '{name}' ({size} bytes)")
        return self.arena[start + offset:start + offset + nbytes]

    def nbytes(self, name: str) -> int:
        """nbytes is buffer ``name``'s size in bytes."""
        _, dtype, shape = self._place(name)
        return int(np.prod(shape, dtype=np.int64)) * dtype.itemsize

    def used_bytes(self) -> np.ndarray:
        """used_bytes is the arena from the first buffer to the end of the last (guards included): every
        byte a kernel may read besides its kernarg segment and packet."""
        first = align_up(self.packet_offset + 64 + GUARD_BYTES)
        return self.arena[first:self._cursor]

    def static_bytes(self) -> np.ndarray:
        """static_bytes is the static data image as the kernels have left it (empty without one)."""
        return self.arena[:0 if self.static_data is None else len(self.static_data.image)]

    def _place(self, name: str) -> tuple[int, np.dtype, tuple]:
        try:
            return self._places[name]
        except KeyError:
            raise KeyError(f"no buffer '{name}' on GPU {self.gpu}") from None

    # ------------------------------------------------------------ launches
    def bound(self, buffers: Mapping[str, str]) -> BoundMemory:
        """bound is the space a dispatch runs in with its buffer arguments bound to device buffers
        (``buffers``: argument name -> buffer name); gpusim.exec.launch.Dispatch takes it."""
        args = {arg: (self.array(name), self.offset(name)) for arg, name in buffers.items()}
        allocations = tuple((name, off, self.nbytes(name)) for name, (off, _, _) in self._places.items())
        return BoundMemory(self.arena, args, allocations, self.kernarg_offset, self.kernarg_capacity,
                           self.packet_offset, self.static_data, *self._scratch)
