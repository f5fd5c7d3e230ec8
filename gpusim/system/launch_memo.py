"""The launch memo: a launch whose timing inputs were all seen before reuses the earlier timed result.

A program launches one kernel many times (a solver's iterations, a sort's passes, a layer per token).
The timing model's cycles and counters are a function of:

* the encoded program (instructions, operands, descriptor: ``kernel_digest``), the architecture
  (``Arch.hash``) and the run's limits and quantum;
* the launch: grid, block, and the kernarg segment's bytes, which hold every scalar argument and every
  buffer's device address (and the hidden arguments), at the device's kernarg and packet addresses;
* buffer contents, but only when the kernel's address and control slice loads from memory
  (gpusim.asm.value_slice.reads_buffers: a gather's indices, a pointer chase): then the key holds a
  hash of every allocated buffer of the GPU, so a data-dependent kernel is reused only on the very same
  data. Otherwise contents reach no address, branch or EXEC mask and do not matter;
* the caches the launch starts with: what the previous kernel's release left in the MALL, the L2 (where
  the kernel-start acquire keeps it) and the TLBs. The key holds ``CacheSnapshot.signature``: which lines
  each of those holds, at which set and way, and which are dirty.

Accuracy: the signature leaves out the recency (LRU stamps) of the lines it lists, so two starting states
holding the same lines in a different recency order share a key. Recency decides only which line a full
set evicts, so a launch whose footprint overflows a set of the MALL, L2 or TLB may get the cycles its
first occurrence measured where a fresh run would evict other lines. Everything else in the key is exact:
a reused launch returns the cycles and counters a timed run of it gives (tests/system/test_kernel_launch.py).

A reused launch's caches: the GPU continues from the state the timed run left (``CacheSnapshot.restore``),
so the next kernel starts where it would after a timed run. A launch repeated in a loop whose footprint
stays in the caches leaves the same lines each time; from its third launch (cold, then warm, then warm
again with the same lines) the memo reuses.
"""
from __future__ import annotations

import hashlib
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Optional

import numpy as np

from gpusim.arch import Arch
from gpusim.asm.value_slice import reads_buffers, value_slice
from gpusim.engine.timing import keeps_l2
from gpusim.memory.hierarchy import MemoryLevels, ways_in_use

# (tags, stamps, dirty) of the levels a kernel boundary keeps (MemoryLevels.for_next_kernel)
_MALL = ("mall_tags", "mall_stamps", "mall_dirty")
_L2 = ("l2_tags", "l2_stamps", "l2_dirty")
_TLBS = (("tr.l1_tags", "tr.l1_stamps", None), ("tr.l2_tags", "tr.l2_stamps", None))


def _get(memory: MemoryLevels, path: str) -> np.ndarray:
    obj = memory
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _kept(arch: Arch) -> tuple:
    return (_MALL,) + ((_L2,) if keeps_l2(arch) else ()) + _TLBS


@dataclass(frozen=True)
class CacheSnapshot:
    """CacheSnapshot is what a GPU's caches hand the next kernel, stored sparsely: for each level the kernel
    boundary keeps (MALL, L2 where kept, UTCL1s, UTCL2s) which ways hold a line (a boolean mask over the
    leading ways any set uses, hierarchy.ways_in_use) and, in the mask's order, their tags, stamps and dirty
    bits, and the replacement clock ``seq``. ``signature`` hashes the positions, tags and dirty bits, not the
    stamps (module docstring)."""

    parts: tuple
    seq: int
    signature: bytes

    @classmethod
    def of(cls, memory: MemoryLevels) -> "CacheSnapshot":
        """of takes the kept state of ``memory`` (not changed)."""
        h = hashlib.blake2b(digest_size=16)
        parts = []
        for tags_name, stamps_name, dirty_name in _kept(memory.arch):
            tags, stamps = _get(memory, tags_name), _get(memory, stamps_name)
            used = ways_in_use(tags, stamps)
            held = (tags[..., :used] != 0) | (stamps[..., :used] != 0)   # the positions, over the used ways
            values = tags[..., :used][held]
            dirty = None if dirty_name is None else _get(memory, dirty_name)[..., :used][held]
            parts.append((tags_name, stamps_name, dirty_name, held, values, stamps[..., :used][held], dirty))
            h.update(f"{tags_name} {held.shape}".encode())
            h.update(np.packbits(held).tobytes())
            for a in (values,) + (() if dirty is None else (dirty,)):
                h.update(a.tobytes())
        return cls(tuple(parts), int(memory.seq[0]), h.digest())

    def restore(self, arch: Arch) -> MemoryLevels:
        """restore returns fresh memory levels of ``arch`` holding this state: what the next kernel's
        acquire keeps is as it was, the rest (L1s, calendars, counters) is new."""
        memory = MemoryLevels(arch)
        for tags_name, stamps_name, dirty_name, held, tags, stamps, dirty in self.parts:
            used = held.shape[-1]
            _get(memory, tags_name)[..., :used][held] = tags
            _get(memory, stamps_name)[..., :used][held] = stamps
            if dirty_name is not None:
                _get(memory, dirty_name)[..., :used][held] = dirty
        memory.seq[0] = self.seq
        return memory


@dataclass(frozen=True)
class KernelFacts:
    """KernelFacts are what the memo needs of one kernel, computed once: ``digest`` identifies its encoded
    program and descriptor, ``needed`` is its address and control slice (value_slice) and ``reads_buffers``
    whether that slice loads buffer contents."""

    digest: bytes
    needed: np.ndarray
    reads_buffers: bool


def kernel_facts(kernel) -> KernelFacts:
    """kernel_facts computes KernelFacts of a gpusim.api.Kernel."""
    p = kernel.program
    h = hashlib.blake2b(digest_size=16)
    for a in (p.sem, p.ops, p.mods, p.pc_bytes, p.unit):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update("\n".join(p.mnemonics).encode())
    h.update(repr((kernel.source.name, kernel.source.entry, sorted(kernel.descriptor.items()),
                   kernel.module.metadata, kernel.target)).encode())
    needed = value_slice(p)
    return KernelFacts(h.digest(), needed, reads_buffers(p, needed))


@dataclass(frozen=True)
class MemoEntry:
    """MemoEntry is one timed launch's result: ``cycles``, ``counters`` and ``instances`` as LaunchOutcome
    has them, ``after`` the caches it left and ``sampling`` its SamplingOutcome (None: timed without one)."""

    cycles: int
    counters: dict
    instances: dict
    after: CacheSnapshot
    sampling: object = None


class LaunchMemo:
    """LaunchMemo remembers timed launches by the key the module docstring describes, at most
    ``max_entries`` of them (the least recently used goes first), for any number of GPUs and kernels.
    ``hits`` and ``misses`` count lookups. Mutated by lookups and stores (gpusim.system.kernel_launch)."""

    def __init__(self, max_entries: int = 1024):
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[bytes, MemoEntry] = OrderedDict()
        self._kernels: dict[int, tuple[object, KernelFacts]] = {}
        self._signatures: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._arch_hashes: dict[int, tuple[Arch, bytes]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def facts(self, kernel) -> KernelFacts:
        """facts returns ``kernel``'s KernelFacts, computed on its first launch (the memo keeps the kernel)."""
        held = self._kernels.get(id(kernel))
        if held is None or held[0] is not kernel:
            held = (kernel, kernel_facts(kernel))
            self._kernels[id(kernel)] = held
        return held[1]

    def signature(self, memory: MemoryLevels) -> bytes:
        """signature is ``memory``'s CacheSnapshot signature, computed once per MemoryLevels object."""
        sig = self._signatures.get(memory)
        if sig is None:
            sig = CacheSnapshot.of(memory).signature
            self._signatures[memory] = sig
        return sig

    def remember_state(self, memory: MemoryLevels, snapshot: CacheSnapshot) -> None:
        """remember_state records that ``memory`` holds ``snapshot``'s state (its signature need not be
        computed again)."""
        self._signatures[memory] = snapshot.signature

    def key(self, facts: KernelFacts, arch: Arch, grid, block, kernarg: bytes, places: tuple, limits: tuple,
            start: bytes, contents: Optional[bytes]) -> bytes:
        """key combines a launch's timing inputs (module docstring) into one digest."""
        arch_hash = self._arch_hashes.get(id(arch))
        if arch_hash is None or arch_hash[0] is not arch:
            arch_hash = self._arch_hashes[id(arch)] = (arch, arch.hash().encode())
        h = hashlib.blake2b(digest_size=20)
        for part in (facts.digest, arch_hash[1], repr((tuple(grid), tuple(block), places, limits)).encode(),
                     bytes(kernarg), start, b"-" if contents is None else contents):
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
        return h.digest()

    def lookup(self, key: bytes) -> Optional[MemoEntry]:
        """lookup returns the entry stored under ``key`` (counted as a hit) or None (a miss)."""
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        return entry

    def store(self, key: bytes, entry: MemoEntry) -> None:
        """store keeps ``entry`` under ``key``, dropping the least recently used entry beyond max_entries."""
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
