"""The architecture parameters as frozen dataclasses, one class per YAML section.

Every field is one key of the architecture YAML; the key path of a field is
the chain of attribute names from :class:`Arch` (``arch.cu.lds.size_bytes``
is the YAML key ``cu.lds.size_bytes``). Units live in the names:

- ``_bytes``  bytes
- ``_cycles`` shader-clock cycles (``clocks.shader_mhz``); every latency is in
  shader cycles, also for the memory side, so the engine needs one time base
- ``_mhz``    megahertz
- ``_gbps``   GB/s, 1e9 bytes per second (the system level's links, ``interconnect``)
- ``bytes_per_clk``  bytes per shader clock, except
  ``hbm.bytes_per_memory_clk_per_channel`` which is per memory clock
  (``clocks.memory_mhz``)

Latencies are increments along a miss path, not end-to-end times: a load that
hits in level k becomes visible ``sum(latency_cycles of l1..k)`` cycles after
it issues (``cu.l1`` -> ``l2`` -> ``mall`` when present -> ``hbm``); see
:meth:`Arch.load_to_use_cycles`.

Field metadata carries the validation rules the loader applies (``min``,
``max``, ``pow2``, ``choices``) and a one-line ``doc``. Every integer has a
range: a plausible physical value with generous headroom, bounded so that no
product the simulator forms overflows int64. Rules that relate several fields
live in each section's ``problems`` method, which yields ``(key, message)``
pairs with ``key`` relative to that section; :meth:`Arch.problems` also bounds
the host memory the timing model allocates for the architecture
(:func:`model_bytes`), so every architecture that loads can run.
"""
from __future__ import annotations

import hashlib
import json
import types
import typing
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import Any, Iterator, Mapping, Optional

WAVE_ARBITRATION_POLICIES = ("oldest_first", "round_robin", "greedy_then_oldest")
DISPATCH_ORDERS = ("round_robin_xcd", "linear")
CACHE_REPLACEMENT_POLICIES = ("lru", "fifo")
ISSUE_CATEGORIES = ("valu", "salu", "vmem", "lds", "branch")
L1_WRITE_POLICIES = ("write_through_no_allocate", "write_through_allocate")
L2_WRITE_POLICIES = ("write_back", "write_through")
WAVE_SIZES = (32, 64)

MAX_CYCLES = 1_000_000            # a latency or occupancy time in shader cycles
MAX_LINE = 4096                   # cache line bytes
MAX_WAYS = 1024                   # cache associativity
MAX_BYTES_PER_CLK = 1 << 20       # a port's or channel's bandwidth per clock
MAX_FLOPS_PER_CLK = 1 << 24       # a datasheet rate per CU per clock
MAX_CUS = 4096                    # xcds * cus_per_xcd
MODEL_MEMORY_BYTES = 8 << 30      # host memory the timing model may allocate for an architecture's state

Problems = Iterator["tuple[str, str]"]


def _param(doc: str, *, minimum: Optional[int] = None, maximum: Optional[int] = None, pow2: bool = False,
           choices: Optional[tuple] = None, default: Any = MISSING):
    """_param declares one YAML key with its validation rules."""
    meta = {"doc": doc, "min": minimum, "max": maximum, "pow2": pow2, "choices": choices}
    if default is MISSING:
        return field(metadata=meta)
    return field(default=default, metadata=meta)


def _internal(doc: str, default_factory):
    """_internal declares bookkeeping that is not a YAML key and not compared."""
    return field(default_factory=default_factory, compare=False, hash=False, repr=False,
                 metadata={"doc": doc, "internal": True})


def is_pow2(n: int) -> bool:
    """is_pow2 says whether n is a positive power of two."""
    return n > 0 and n & (n - 1) == 0


def _check_set_associative(size: int, line: int, ways: int, slices: int = 1,
                           what: str = "") -> Problems:
    """_check_set_associative yields problems of a cache of ``slices`` equal set-associative slices."""
    if slices > 1 and size % slices:
        yield ("size_bytes", f"{size} is not divisible by the {slices} {what or 'slices'}")
        return
    per_slice = size // slices
    if line > 0 and ways > 0 and per_slice % (line * ways):
        unit = f" per {what.rstrip('s')}" if slices > 1 else ""
        yield ("size_bytes",
               f"{size}{' (' + str(per_slice) + unit + ')' if slices > 1 else ''} is not a "
               f"multiple of line_bytes * associativity = {line} * {ways} = {line * ways}")


@dataclass(frozen=True)
class Gpu:
    """Gpu is the chip's organisation: XCDs (each with its own L2) and CUs per XCD."""

    xcds: int = _param("accelerator complex dies; each has its own L2 and CUs", minimum=1, maximum=64)
    cus_per_xcd: int = _param("compute units per XCD", minimum=1, maximum=1024)

    @property
    def cus(self) -> int:
        """cus is the total number of compute units."""
        return self.xcds * self.cus_per_xcd

    def problems(self) -> Problems:
        if self.cus > MAX_CUS:
            yield ("cus_per_xcd", f"{self.xcds} xcds x {self.cus_per_xcd} cus_per_xcd = {self.cus} CUs, over "
                                  f"the {MAX_CUS} gpusim models")


@dataclass(frozen=True)
class Clocks:
    """Clocks are the shader (engine) clock and the HBM memory clock, in MHz."""

    shader_mhz: int = _param("engine clock; every *_cycles value counts these", minimum=1, maximum=100_000)
    memory_mhz: int = _param("HBM clock that hbm.bytes_per_memory_clk_per_channel refers to",
                             minimum=1, maximum=100_000)

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class Issue:
    """Issue describes the CU instruction arbiter and execution rates (cycles are shader cycles)."""

    categories: tuple = _param("issue ports: at most one instruction of each per cycle",
                               choices=ISSUE_CATEGORIES)
    simds_per_cycle: int = _param("SIMDs the arbiter considers per cycle (the timing model visits one)",
                                  choices=(1,))
    valu_cycles: int = _param("cycles a wave's plain VALU op holds its SIMD", minimum=1, maximum=MAX_CYCLES)
    trans_cycles_multiplier: int = _param("transcendental VALU op holds the SIMD this many "
                                          "times valu_cycles", minimum=1, maximum=1024)
    f64_cycles_multiplier: int = _param("FP64 VALU op holds the SIMD this many times "
                                        "valu_cycles", minimum=1, maximum=1024)
    mfma_pass_cycles: int = _param("cycles per MFMA pass (the ISA table counts passes)",
                                   minimum=1, maximum=MAX_CYCLES)
    mfma_coissue_delay_cycles: int = _param("cycles after an XDL MFMA issues before the same "
                                            "SIMD may issue independent VALU work", minimum=0, maximum=MAX_CYCLES)
    taken_branch_cycles: int = _param("cycles a wave waits after a taken branch while its "
                                      "instruction buffer refills from the target", minimum=0, maximum=MAX_CYCLES)

    def problems(self) -> Problems:
        if not self.categories:
            yield ("categories", "needs at least one issue category")
        seen = set()
        for c in self.categories:
            if c in seen:
                yield ("categories", f"{c!r} is listed twice")
            seen.add(c)


@dataclass(frozen=True)
class Lds:
    """Lds is the per-CU local data share: size, banking, bandwidth, latency, allocation granule."""

    size_bytes: int = _param("LDS per CU", minimum=1, maximum=1 << 24)
    banks: int = _param("independent banks", minimum=1, maximum=1024)
    bank_width_bytes: int = _param("bytes one bank delivers per clock", minimum=1, maximum=1024, pow2=True)
    bytes_per_clk: int = _param("peak LDS bandwidth per CU", minimum=1, maximum=MAX_BYTES_PER_CLK)
    latency_cycles: int = _param("issue to data visible for a conflict-free access", minimum=0, maximum=MAX_CYCLES)
    alloc_granule_bytes: int = _param("a workgroup's LDS is rounded up to this", minimum=1, maximum=1 << 24,
                                      pow2=True)

    def problems(self) -> Problems:
        row = self.banks * self.bank_width_bytes
        if self.size_bytes % row:
            yield ("size_bytes", f"{self.size_bytes} is not a multiple of banks * "
                                 f"bank_width_bytes = {self.banks} * {self.bank_width_bytes} = {row}")
        if self.alloc_granule_bytes > self.size_bytes:
            yield ("alloc_granule_bytes",
                   f"{self.alloc_granule_bytes} is larger than size_bytes {self.size_bytes}")


@dataclass(frozen=True)
class VectorL1:
    """VectorL1 is the per-CU vector L1 data cache (bytes, shader cycles)."""

    size_bytes: int = _param("capacity per CU", minimum=1, maximum=1 << 26)
    line_bytes: int = _param("cache line", minimum=1, maximum=MAX_LINE, pow2=True)
    associativity: int = _param("ways per set", minimum=1, maximum=MAX_WAYS)
    latency_cycles: int = _param("vector load issue to data visible on a hit", minimum=0, maximum=MAX_CYCLES)
    bytes_per_clk: int = _param("hit bandwidth per CU", minimum=1, maximum=MAX_BYTES_PER_CLK)
    mshrs: int = _param("outstanding line misses per CU", minimum=1, maximum=65536)
    write_policy: str = _param("what a store does to the L1", choices=L1_WRITE_POLICIES)
    miss_evict_cache_bits: int = _param("a vector load or store with any of these cache-policy bits (1 glc/sc0, "
                                        "2 slc/sc1, 4 nt) misses the L1 and leaves the line out of it",
                                        minimum=0, maximum=7, default=0)

    def problems(self) -> Problems:
        yield from _check_set_associative(self.size_bytes, self.line_bytes, self.associativity)


@dataclass(frozen=True)
class SharedCache:
    """SharedCache is a small cache shared by neighbouring CUs (scalar data or instructions)."""

    size_bytes: int = _param("capacity of one instance", minimum=1, maximum=1 << 26)
    shared_by_cus: int = _param("CUs that share one instance", minimum=1, maximum=1024)
    line_bytes: int = _param("cache line", minimum=1, maximum=MAX_LINE, pow2=True)
    associativity: int = _param("ways per set", minimum=1, maximum=MAX_WAYS)
    latency_cycles: int = _param("issue to data visible on a hit", minimum=0, maximum=MAX_CYCLES)

    def problems(self) -> Problems:
        yield from _check_set_associative(self.size_bytes, self.line_bytes, self.associativity)


@dataclass(frozen=True)
class Cu:
    """Cu is one compute unit: SIMDs, wave slots, register files and its private memories.

    VGPR counts are registers per lane (each register is wave_size lanes x 4 bytes);
    arch VGPRs and AGPRs share one unified file of ``vgprs_per_simd_lane`` per SIMD.
    """

    simds: int = _param("SIMD units per CU (the timing model's arbiter serves four)", choices=(4,))
    simd_width: int = _param("lanes per SIMD", minimum=1, maximum=64)
    max_waves_per_simd: int = _param("wave slots per SIMD", minimum=1, maximum=64)
    max_workgroups_per_cu: int = _param("barrier slots: resident multi-wave workgroups per CU",
                                        minimum=1, maximum=1024)
    max_workitems_per_workgroup: int = _param("largest workgroup", minimum=1, maximum=65536)
    vgprs_per_simd_lane: int = _param("unified VGPR file per SIMD, registers per lane",
                                      minimum=1, maximum=4096)
    vgpr_alloc_granule: int = _param("VGPRs are allocated in blocks of this", minimum=1, maximum=256,
                                     pow2=True)
    max_vgprs_per_wave: int = _param("arch + acc VGPRs one wave may hold", minimum=1, maximum=4096)
    max_arch_vgprs_per_wave: int = _param("addressable arch VGPRs (v0..)", minimum=1, maximum=4096)
    max_agprs_per_wave: int = _param("addressable acc VGPRs (a0..)", minimum=0, maximum=4096)
    accum_offset_granule: int = _param("AGPRs start at a multiple of this", minimum=1, maximum=256)
    sgprs_per_simd: int = _param("SGPR file per SIMD", minimum=1, maximum=65536)
    sgpr_alloc_granule: int = _param("SGPRs are encoded/allocated in blocks of this",
                                     minimum=1, maximum=1024)
    max_sgprs_per_wave: int = _param("addressable SGPRs, without VCC/FLAT_SCRATCH/XNACK_MASK",
                                     minimum=1, maximum=1024)
    architected_flat_scratch: bool = _param("flat scratch base is architected: LLVM always "
                                            "counts 6 extra SGPRs")
    issue: Issue = _param("instruction issue")
    lds: Lds = _param("local data share")
    l1: VectorL1 = _param("vector L1 data cache")
    scalar_cache: SharedCache = _param("scalar data cache")
    instruction_cache: SharedCache = _param("instruction cache")

    @property
    def max_waves_per_cu(self) -> int:
        """max_waves_per_cu is the wave slots of the whole CU."""
        return self.simds * self.max_waves_per_simd

    def problems(self) -> Problems:
        if self.max_vgprs_per_wave > self.vgprs_per_simd_lane:
            yield ("max_vgprs_per_wave", f"{self.max_vgprs_per_wave} exceeds vgprs_per_simd_lane "
                                         f"{self.vgprs_per_simd_lane}")
        if self.max_arch_vgprs_per_wave > self.max_vgprs_per_wave:
            yield ("max_arch_vgprs_per_wave", f"{self.max_arch_vgprs_per_wave} exceeds "
                                              f"max_vgprs_per_wave {self.max_vgprs_per_wave}")
        if self.max_agprs_per_wave > self.max_vgprs_per_wave:
            yield ("max_agprs_per_wave", f"{self.max_agprs_per_wave} exceeds "
                                         f"max_vgprs_per_wave {self.max_vgprs_per_wave}")
        if self.vgprs_per_simd_lane % self.vgpr_alloc_granule:
            yield ("vgprs_per_simd_lane", f"{self.vgprs_per_simd_lane} is not a multiple of "
                                          f"vgpr_alloc_granule {self.vgpr_alloc_granule}")
        if self.max_arch_vgprs_per_wave % self.accum_offset_granule:
            yield ("accum_offset_granule", f"{self.accum_offset_granule} does not divide "
                                           f"max_arch_vgprs_per_wave {self.max_arch_vgprs_per_wave}")
        if self.max_sgprs_per_wave > self.sgprs_per_simd:
            yield ("max_sgprs_per_wave", f"{self.max_sgprs_per_wave} exceeds sgprs_per_simd "
                                         f"{self.sgprs_per_simd}")


@dataclass(frozen=True)
class L2:
    """L2 is the L2 cache of one XCD, split into address-interleaved channels."""

    size_bytes: int = _param("capacity per XCD (all channels)", minimum=1, maximum=1 << 32)
    channels: int = _param("channels per XCD", minimum=1, maximum=1024)
    line_bytes: int = _param("cache line", minimum=1, maximum=MAX_LINE, pow2=True)
    associativity: int = _param("ways per set", minimum=1, maximum=MAX_WAYS)
    bytes_per_clk_per_channel: int = _param("bandwidth of one channel", minimum=1, maximum=MAX_BYTES_PER_CLK)
    latency_cycles: int = _param("added to an L1 miss that hits in L2", minimum=0, maximum=MAX_CYCLES)
    mshrs_per_channel: int = _param("outstanding misses per channel", minimum=1, maximum=65536)
    channel_interleave_bytes: int = _param("consecutive bytes mapped to one channel",
                                           minimum=1, maximum=1 << 30, pow2=True)
    write_policy: str = _param("what a store does to the L2", choices=L2_WRITE_POLICIES)
    write_back_at_kernel_end: bool = _param("the end-of-kernel release writes every dirty L2 line back to "
                                            "memory, and the kernel ends when that is done", default=False)
    invalidate_keeps_device_memory: bool = _param("an L2 invalidate (gfx942 buffer_inv sc1, gfx90a buffer_invl2) "
                                                  "drops only lines cached non-coherently, so it keeps the lines "
                                                  "of device memory (the model's buffers)", default=False)
    write_back_to_mall: bool = _param("a cache write-back (buffer_wbl2, and the end-of-kernel release) is done when "
                                      "the MALL has taken the dirty lines (a memory-side cache, which writes them to "
                                      "DRAM when it evicts them), not when DRAM has written them", default=False)
    fabric_bytes_per_clk: int = _param(
        "bandwidth of the XCD's port to the data fabric (its link to the MALL and HBM), shared by its L2 "
        "channels' line fills and write-backs; 0 = no limit beyond the levels below", minimum=0,
        maximum=MAX_BYTES_PER_CLK, default=0)

    def problems(self) -> Problems:
        yield from _check_set_associative(self.size_bytes, self.line_bytes, self.associativity,
                                          self.channels, "channels")
        if self.channel_interleave_bytes < self.line_bytes:
            yield ("channel_interleave_bytes", f"{self.channel_interleave_bytes} is smaller than "
                                               f"line_bytes {self.line_bytes}")


@dataclass(frozen=True)
class Mall:
    """Mall is the memory-attached last-level cache (Infinity Cache); size_bytes 0 means none."""

    size_bytes: int = _param("capacity of the whole GPU; 0 = no MALL", minimum=0, maximum=1 << 36)
    channels: int = _param("slices, address interleaved", minimum=0, maximum=4096)
    line_bytes: int = _param("cache line", minimum=0, maximum=MAX_LINE)
    associativity: int = _param("ways per set", minimum=0, maximum=MAX_WAYS)
    bytes_per_clk_per_channel: int = _param("bandwidth of one slice", minimum=0, maximum=MAX_BYTES_PER_CLK)
    latency_cycles: int = _param("added to an L2 miss that hits in the MALL", minimum=0, maximum=MAX_CYCLES)

    @property
    def present(self) -> bool:
        """present says whether this GPU has a MALL."""
        return self.size_bytes > 0

    def problems(self) -> Problems:
        if not self.present:
            return
        for key in ("channels", "line_bytes", "associativity", "bytes_per_clk_per_channel"):
            if getattr(self, key) < 1:
                yield (key, f"must be >= 1 when size_bytes > 0, got {getattr(self, key)}")
                return
        if not is_pow2(self.line_bytes):
            yield ("line_bytes", f"must be a power of two, got {self.line_bytes}")
            return
        yield from _check_set_associative(self.size_bytes, self.line_bytes, self.associativity,
                                          self.channels, "channels")


DRAM_MAP_FIELDS = ("column", "bank_group", "bank", "pseudo_channel")
DRAM_REFRESH_MODES = ("all_bank",)
MAX_CK = 1_000_000                # a DRAM timing in memory clocks


def _ck(doc: str, minimum: int = 0):
    """_ck declares one DRAM timing in memory clocks (``clocks.memory_mhz``)."""
    return _param(doc + " (memory clocks)", minimum=minimum, maximum=MAX_CK)


@dataclass(frozen=True)
class HbmTiming:
    """HbmTiming is the organisation and JEDEC-style command timing of one HBM pseudo-channel, in memory clocks
    (gpusim/memory/kernels/dram.py); ``enabled: false`` keeps the plain bandwidth-plus-latency channel."""

    enabled: bool = _param("time HBM with the bank/row model (else a bandwidth calendar per channel)")
    pseudo_channels: int = _param("pseudo-channels per channel, each with its own banks and data bus",
                                  minimum=1, maximum=16, pow2=True)
    bank_groups: int = _param("bank groups per pseudo-channel", minimum=1, maximum=64, pow2=True)
    banks_per_group: int = _param("banks per bank group (stack IDs folded in)", minimum=1, maximum=64, pow2=True)
    access_bytes: int = _param("bytes one column access (one burst) moves", minimum=1, maximum=MAX_LINE, pow2=True)
    burst_ck: int = _ck("data-bus clocks of one burst", minimum=1)
    cl_ck: int = _ck("read latency tCL: RD to first data")
    cwl_ck: int = _ck("write latency tCWL: WR to first data")
    rcd_rd_ck: int = _ck("tRCD for reads: ACT to RD")
    rcd_wr_ck: int = _ck("tRCD for writes: ACT to WR")
    rp_ck: int = _ck("tRP: PRE to ACT of the same bank")
    ras_ck: int = _ck("tRAS: ACT to PRE of the same bank")
    rc_ck: int = _ck("tRC: ACT to ACT of the same bank")
    wr_ck: int = _ck("tWR: end of write data to PRE")
    rtp_ck: int = _ck("tRTP: RD to PRE")
    ccd_s_ck: int = _ck("tCCD_S: column to column, different bank groups", minimum=1)
    ccd_l_ck: int = _ck("tCCD_L: column to column, same bank group", minimum=1)
    rrd_s_ck: int = _ck("tRRD_S: ACT to ACT, different bank groups")
    rrd_l_ck: int = _ck("tRRD_L: ACT to ACT, same bank group")
    faw_ck: int = _ck("tFAW: window holding at most four ACTs of a pseudo-channel")
    wtr_s_ck: int = _ck("tWTR_S: end of write data to RD, different bank group")
    wtr_l_ck: int = _ck("tWTR_L: end of write data to RD, same bank group")
    rtw_ck: int = _ck("tRTW: RD to WR turnaround")
    refresh: str = _param("refresh scheme: all_bank (REFab per pseudo-channel)", choices=DRAM_REFRESH_MODES)
    rfc_ck: int = _ck("tRFC: a refresh blocks its pseudo-channel this long")
    refi_ck: int = _ck("tREFI: refresh interval; 0 = no refresh")
    write_queue_depth: int = _param("buffered writes per pseudo-channel", minimum=1, maximum=4096)
    write_high_watermark: int = _param("buffered writes that start a drain", minimum=1, maximum=4096)
    write_low_watermark: int = _param("buffered writes a drain leaves", minimum=0, maximum=4096)
    write_idle_drain_ck: int = _ck("a write finding no read for this long drains the whole queue")

    def problems(self) -> Problems:
        if self.write_high_watermark > self.write_queue_depth:
            yield ("write_high_watermark", f"{self.write_high_watermark} exceeds write_queue_depth "
                                           f"{self.write_queue_depth}")
        if self.write_low_watermark >= self.write_high_watermark:
            yield ("write_low_watermark", f"{self.write_low_watermark} is not below write_high_watermark "
                                          f"{self.write_high_watermark}")
        if self.refi_ck and self.rfc_ck >= self.refi_ck:
            yield ("rfc_ck", f"{self.rfc_ck} is not below refi_ck {self.refi_ck}")


@dataclass(frozen=True)
class HbmAddressMap:
    """HbmAddressMap says which bits of a channel-local address select pseudo-channel, bank group, bank and
    column; the channel itself is ``hbm.channel_interleave_bytes`` over ``hbm.channels`` (as the MALL slices
    select theirs) and the row is every bit above the map."""

    bits: tuple = _param("one field per address bit, least significant first, from bit log2(access_bytes) of "
                         "the channel-local address", choices=DRAM_MAP_FIELDS)

    def problems(self) -> Problems:
        if len(self.bits) > 16:  # gpusim decodes them with a table of 2**bits entries
            yield ("bits", f"{len(self.bits)} bits, over the 16 gpusim decodes")


@dataclass(frozen=True)
class Hbm:
    """Hbm is the DRAM: stacks, channels, per-channel bandwidth (memory clock) and latency."""

    stacks: int = _param("HBM stacks", minimum=1, maximum=64)
    channels: int = _param("independent channels, all stacks together", minimum=1, maximum=4096)
    bytes_per_memory_clk_per_channel: int = _param("bandwidth of one channel per memory clock",
                                                   minimum=1, maximum=MAX_BYTES_PER_CLK)
    capacity_bytes: int = _param("memory size", minimum=1, maximum=1 << 50)
    latency_cycles: int = _param("added to a miss in the last cache level (MALL, else L2)",
                                 minimum=0, maximum=MAX_CYCLES)
    queue_depth_per_channel: int = _param("requests a channel holds before back-pressure",
                                          minimum=1, maximum=65536)
    channel_interleave_bytes: int = _param("consecutive bytes mapped to one channel", minimum=1, maximum=1 << 30,
                                           pow2=True)
    timing: HbmTiming = _param("DRAM organisation and command timing per pseudo-channel")
    address_map: HbmAddressMap = _param("address bits to pseudo-channel, bank group, bank, column")

    def problems(self) -> Problems:
        if self.channels % self.stacks:
            yield ("channels", f"{self.channels} is not a multiple of stacks {self.stacks}")
        t, bits = self.timing, self.address_map.bits
        for name, count in (("pseudo_channel", t.pseudo_channels), ("bank_group", t.bank_groups),
                            ("bank", t.banks_per_group)):
            if 1 << bits.count(name) != count:
                yield ("address_map.bits", f"{bits.count(name)} {name} bits select {1 << bits.count(name)}, "
                                           f"not timing's {count}")
        if t.enabled and t.pseudo_channels * t.access_bytes != self.bytes_per_memory_clk_per_channel * t.burst_ck:
            yield ("timing.burst_ck", f"{t.pseudo_channels} pseudo-channels x {t.access_bytes} B per "
                                      f"{t.burst_ck}-clock burst is not bytes_per_memory_clk_per_channel "
                                      f"{self.bytes_per_memory_clk_per_channel}")


@dataclass(frozen=True)
class Translation:
    """Translation is virtual-to-physical address translation: a UTCL1 per CU, a UTCL2 per XCD, page walks.

    Every vector memory request translates its page before the vector L1 (gpusim.memory.kernels.translation).
    """

    enabled: bool = _param("translate addresses; false reproduces a GPU with no translation cost")
    page_bytes: int = _param("page (translation fragment) size the allocator maps buffers with",
                             minimum=4096, maximum=1 << 30, pow2=True)
    utcl1_entries: int = _param("translations the UTCL1 of one CU holds", minimum=1, maximum=1 << 16)
    utcl1_associativity: int = _param("UTCL1 ways per set", minimum=1, maximum=MAX_WAYS)
    utcl1_hit_cycles: int = _param("added to a vector request whose page hits in the UTCL1",
                                   minimum=0, maximum=MAX_CYCLES)
    utcl1_misses_in_flight: int = _param("UTCL1 misses of one CU outstanding at once; more wait",
                                         minimum=1, maximum=4096)
    utcl2_entries: int = _param("translations the UTCL2 of one XCD holds", minimum=1, maximum=1 << 20)
    utcl2_associativity: int = _param("UTCL2 ways per set", minimum=1, maximum=MAX_WAYS)
    utcl2_hit_cycles: int = _param("added to a UTCL1 miss: the round trip to the UTCL2 and its lookup",
                                   minimum=0, maximum=MAX_CYCLES)
    utcl2_walkers: int = _param("page walks one UTCL2 runs at once; more wait", minimum=1, maximum=4096)
    pde_cache_levels: int = _param("upper page-table levels a walk finds in the walker's page-directory "
                                   "cache instead of memory", minimum=0, maximum=3)
    walk_level_cycles: int = _param("walker pipeline cycles per page-table level read from memory, on top "
                                    "of the read's L2/MALL/HBM time", minimum=0, maximum=MAX_CYCLES)
    walk_busy_cycles: int = _param("cycles one page walk holds its walker: the UTCL2 starts at most "
                                   "utcl2_walkers walks per walk_busy_cycles", minimum=1, maximum=MAX_CYCLES)

    def problems(self) -> Problems:
        for level in ("utcl1", "utcl2"):
            entries, ways = getattr(self, f"{level}_entries"), getattr(self, f"{level}_associativity")
            if entries % ways:
                yield (f"{level}_entries", f"{entries} is not a multiple of {level}_associativity {ways}")


@dataclass(frozen=True)
class MatrixPeaks:
    """MatrixPeaks are MFMA operations per CU per shader clock (FLOP; OPs for i8); 0 = no such MFMA."""

    f16: int = _param("FP16 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    bf16: int = _param("BF16 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    xf32: int = _param("XF32/TF32 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    f32: int = _param("FP32 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    f64: int = _param("FP64 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    fp8: int = _param("FP8/BF8 MFMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    i8: int = _param("INT8 MFMA (integer ops)", minimum=0, maximum=MAX_FLOPS_PER_CLK)

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class VectorPeaks:
    """VectorPeaks are VALU FLOP per CU per shader clock (an FMA counts 2)."""

    f32: int = _param("plain FP32 FMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    f32_packed: int = _param("packed FP32 (v_pk_fma_f32)", minimum=0, maximum=MAX_FLOPS_PER_CLK)
    f64: int = _param("FP64 FMA", minimum=0, maximum=MAX_FLOPS_PER_CLK)

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class Peaks:
    """Peaks are the datasheet compute rates per CU per shader clock, for rooflines."""

    matrix_flops_per_cu_per_clk: MatrixPeaks = _param("MFMA rates")
    vector_flops_per_cu_per_clk: VectorPeaks = _param("VALU rates")

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class Policies:
    """Policies name the scheduling and replacement algorithms the engine picks from its registry."""

    wave_arbitration: str = _param("which ready wave a SIMD issues from, among those of the highest s_setprio priority",
                                   choices=WAVE_ARBITRATION_POLICIES)
    dispatch_order: str = _param("how workgroups are assigned to XCDs and CUs",
                                 choices=DISPATCH_ORDERS)
    cache_replacement: str = _param("victim choice in every cache",
                                    choices=CACHE_REPLACEMENT_POLICIES)

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class Launch:
    """Launch is what a kernel launch costs around the CUs' own work: the command processor, the workgroup
    dispatchers, the caches' acquire at kernel start, and the completion signal (gpusim.engine.launch)."""

    command_processor_latency_cycles: int = _param(
        "from the start event's timestamp to the first workgroup's dispatch: the command processor reads the "
        "AQL packet and sets the dispatch up (part of hipEvent time, not of a profiler's kernel time)",
        minimum=0, maximum=MAX_CYCLES)
    completion_signal_cycles: int = _param(
        "from the end of the kernel's release to the end event's timestamp: the end-of-pipe event and "
        "completion signal (part of hipEvent time, not of a profiler's kernel time)", minimum=0, maximum=MAX_CYCLES)
    workgroup_dispatch_cycles: int = _param(
        "an XCD's workgroup dispatcher launches at most one workgroup per this many cycles (0: no limit)",
        minimum=0, maximum=MAX_CYCLES)
    start_invalidate_cycles: int = _param(
        "the acquire at kernel start: cycles the command processor's L1/K$ (and L2) invalidate takes before the "
        "first workgroup is dispatched (part of a profiler's kernel time)", minimum=0, maximum=MAX_CYCLES)
    invalidate_l2_at_start: bool = _param(
        "the kernel-start acquire also invalidates the L2 (an agent of several XCDs, each with its own L2), "
        "as l2.invalidate_keeps_device_memory says; decides what a warm-up run leaves in the L2 for the timed one")

    def problems(self) -> Problems:
        return iter(())


@dataclass(frozen=True)
class Link:
    """Link is one kind of data link, per direction, as the application level (gpusim.system) models it: a
    bandwidth server at ``bandwidth_gbps * efficiency`` that a transfer reaches ``latency_cycles`` after it
    starts (shader cycles of ``clocks.shader_mhz``, the time base of every latency in this schema)."""

    bandwidth_gbps: float = _param("peak bandwidth per direction, GB/s (1e9 bytes per second)")
    efficiency: float = _param("fraction of bandwidth_gbps a long transfer achieves (protocol, CRC, flow control)")
    latency_cycles: int = _param("from a transfer's start to its first byte's arrival", minimum=0,
                                 maximum=MAX_CYCLES)

    def problems(self) -> Problems:
        if not 0 < self.bandwidth_gbps <= 1e6:
            yield ("bandwidth_gbps", f"must be > 0 and <= 1000000, got {self.bandwidth_gbps}")
        if not 0 < self.efficiency <= 1:
            yield ("efficiency", f"must be > 0 and <= 1, got {self.efficiency}")


@dataclass(frozen=True)
class Interconnect:
    """Interconnect is how this GPU reaches its peers and the host, and how fast it copies inside its own HBM:
    the defaults of a program's ``system`` (gpusim.system.topology.default_links); kernels never read it."""

    peer_link: Link = _param("one GPU-GPU link (xGMI), per direction", default=Link(64.0, 0.75, 2100))
    host_link: Link = _param("the GPU's link to host memory (PCIe or Infinity Fabric), per direction",
                             default=Link(64.0, 0.85, 4200))
    copy_engines: int = _param("copies (memcpy, memset) one GPU runs at once", minimum=1, maximum=64, default=2)
    d2d_hbm_efficiency: float = _param(
        "fraction of the HBM peak a device-to-device copy moves, reads plus writes: a copy of N bytes moves 2N, "
        "so it copies at hbm peak / 2 x this", default=0.75)

    def problems(self) -> Problems:
        if not 0 < self.d2d_hbm_efficiency <= 1:
            yield ("d2d_hbm_efficiency", f"must be > 0 and <= 1, got {self.d2d_hbm_efficiency}")


@dataclass(frozen=True)
class Arch:
    """Arch is one fully resolved, validated GPU architecture.

    Build it with :func:`gpusim.arch.load_arch`; derive variants with
    :func:`gpusim.arch.arch_overrides`. It is immutable and hashable;
    ``to_dict()`` gives the canonical nested dict and ``hash()`` its sha256.
    ``sources`` lists the YAML files it was resolved from (the named file
    first, then what it extends) and ``provenance`` maps every key path to
    the file that set it; neither takes part in equality or the hash.
    """

    name: str = _param("short name, e.g. cdna3")
    gfx_target: str = _param("LLVM processor name, e.g. gfx942")
    wave_size: int = _param("lanes per wavefront", choices=WAVE_SIZES)
    gpu: Gpu = _param("chip organisation")
    clocks: Clocks = _param("clock frequencies")
    cu: Cu = _param("compute unit")
    l2: L2 = _param("L2 cache, per XCD")
    mall: Mall = _param("memory-attached last-level cache")
    hbm: Hbm = _param("DRAM")
    translation: Translation = _param("address translation: UTCL1 per CU, UTCL2 per XCD, page walks")
    peaks: Peaks = _param("datasheet compute rates")
    policies: Policies = _param("named algorithms")
    launch: Launch = _param("launch, dispatch and completion costs around the kernel")
    interconnect: Interconnect = _param("links to peers and host, copy engines (the application level's defaults)",
                                        default=Interconnect())
    description: str = _param("one line for humans", default="")
    sources: tuple = _internal("YAML files this was resolved from, the named one first", tuple)
    provenance: Mapping[str, str] = _internal("key path -> file that set it",
                                              lambda: types.MappingProxyType({}))

    def problems(self) -> Problems:
        if not self.name.strip():
            yield ("name", "must not be empty")
        for key in ("name", "description"):
            if not getattr(self, key).isprintable():
                yield (key, "must be one line of printable text")
        target = self.gfx_target
        if not (target.startswith("gfx") and len(target) > 3
                and all(c in "0123456789abcdef" for c in target[3:])):
            yield ("gfx_target", f"{target!r} is not an LLVM gfx processor name like 'gfx942'")
        if self.wave_size % self.cu.simd_width:
            yield ("cu.simd_width", f"{self.cu.simd_width} does not divide wave_size "
                                    f"{self.wave_size}")
        waves = -(-self.cu.max_workitems_per_workgroup // self.wave_size)
        if waves > self.cu.max_waves_per_cu:
            yield ("cu.max_workitems_per_workgroup",
                   f"{self.cu.max_workitems_per_workgroup} work-items need {waves} waves but a "
                   f"CU holds {self.cu.max_waves_per_cu} (simds * max_waves_per_simd)")
        parts = model_bytes(self)
        total = sum(parts.values())
        if total > MODEL_MEMORY_BYTES:
            key = max(parts, key=parts.get)
            yield (key, f"the timing model would need {total / 2**30:.1f} GiB of host memory for this "
                        f"architecture ({parts[key] / 2**30:.1f} GiB for the state that {key} sizes), over "
                        f"gpusim's {MODEL_MEMORY_BYTES >> 30} GiB")

    def to_dict(self) -> dict:
        """to_dict returns the canonical nested dict of every YAML key (lists for tuples)."""
        return _to_dict(self)

    def hash(self) -> str:
        """hash returns the sha256 hex digest of the canonical JSON of :meth:`to_dict`."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def cus(self) -> int:
        """cus is the total number of compute units."""
        return self.gpu.cus

    @property
    def hbm_bytes_per_s(self) -> float:
        """hbm_bytes_per_s is the peak DRAM bandwidth in bytes per second."""
        return self.hbm.channels * self.hbm.bytes_per_memory_clk_per_channel \
            * self.clocks.memory_mhz * 1e6

    @property
    def hbm_bytes_per_shader_clk(self) -> float:
        """hbm_bytes_per_shader_clk is the peak DRAM bandwidth per shader clock, all channels."""
        return self.hbm_bytes_per_s / (self.clocks.shader_mhz * 1e6)

    def load_to_use_cycles(self, level: str) -> int:
        """load_to_use_cycles is the modelled latency of a vector load served by ``level``.

        ``level`` is 'l1', 'l2', 'mall' or 'hbm'; the result is the sum of the
        per-level increments on the way there (the MALL is skipped when absent). With the DRAM model on,
        HBM adds the command timing of a row conflict, what a pointer chase over a large buffer meets:
        tRP + tRCD + tCL + one burst, converted to shader cycles (rounded up).
        """
        order = ["l1", "l2"] + (["mall"] if self.mall.present else []) + ["hbm"]
        if level not in order:
            raise ValueError(f"no memory level '{level}' in {self.name}; levels: {order}")
        t = self.hbm.timing
        dram_ck = (t.rp_ck + t.rcd_rd_ck + t.cl_ck + t.burst_ck) if t.enabled else 0
        dram = -(-dram_ck * self.clocks.shader_mhz // self.clocks.memory_mhz)
        steps = {"l1": self.cu.l1.latency_cycles, "l2": self.l2.latency_cycles,
                 "mall": self.mall.latency_cycles, "hbm": self.hbm.latency_cycles + dram}
        return sum(steps[name] for name in order[: order.index(level) + 1])


_LINE_STATE_BYTES = 33        # a modelled cache line: tag, stamp and two ready cycles (int64) and a dirty byte
_CHANNEL_STATE_BYTES = 16384  # a bandwidth server's calendar (gpusim.memory.kernels.channel)


def model_bytes(arch: "Arch") -> dict:
    """model_bytes estimates the host memory the timing model allocates for ``arch``, by the key that sizes it.

    Caches keep state per line (gpusim.memory.hierarchy.MemoryLevels), channels a calendar each, and
    every CU at most its register files and LDS (occupancy never holds more waves than the VGPR file).
    Upper estimates: what a kernel allocates on top (its buffers) is bounded by the launch header.
    """
    cu, cus, xcds = arch.cu, arch.gpu.cus, arch.gpu.xcds

    def lines(cache) -> int:
        return cache.size_bytes // cache.line_bytes if cache.line_bytes else 0

    shared = -(-cus // cu.scalar_cache.shared_by_cus)
    return {
        "cu.l1.size_bytes": cus * (lines(cu.l1) * _LINE_STATE_BYTES + cu.l1.mshrs * 16 + _CHANNEL_STATE_BYTES),
        "cu.scalar_cache.size_bytes": shared * lines(cu.scalar_cache) * _LINE_STATE_BYTES,
        "l2.size_bytes": xcds * (lines(arch.l2) * _LINE_STATE_BYTES
                                 + arch.l2.channels * (arch.l2.mshrs_per_channel * 16 + _CHANNEL_STATE_BYTES)),
        "mall.size_bytes": lines(arch.mall) * _LINE_STATE_BYTES + arch.mall.channels * _CHANNEL_STATE_BYTES,
        "hbm.channels": arch.hbm.channels * (arch.hbm.queue_depth_per_channel * 16 + arch.hbm.timing.pseudo_channels
                                             * (_CHANNEL_STATE_BYTES + 8 * arch.hbm.timing.write_queue_depth
                                                + 32 * arch.hbm.timing.bank_groups * (1 + arch.hbm.timing.banks_per_group))),
        "cu.vgprs_per_simd_lane": cus * cu.simds * cu.vgprs_per_simd_lane * arch.wave_size * 4,
        "cu.lds.size_bytes": cus * cu.lds.size_bytes,
        "translation.utcl1_entries": cus * arch.translation.utcl1_entries * _LINE_STATE_BYTES,
        "translation.utcl2_entries": xcds * arch.translation.utcl2_entries * _LINE_STATE_BYTES,
    }


def yaml_fields(cls) -> list:
    """yaml_fields returns the dataclass fields of ``cls`` that are YAML keys, in order."""
    return [f for f in fields(cls) if not f.metadata.get("internal")]


def _to_dict(obj: Any) -> Any:
    if is_dataclass(obj):
        return {f.name: _to_dict(getattr(obj, f.name)) for f in yaml_fields(type(obj))}
    if isinstance(obj, tuple):
        return [_to_dict(x) for x in obj]
    return obj


def key_paths(cls=Arch, prefix: str = "") -> list:
    """key_paths lists every leaf key path of the schema, e.g. 'cu.lds.size_bytes'."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in yaml_fields(cls):
        path = f"{prefix}{f.name}"
        if is_dataclass(hints[f.name]):
            out.extend(key_paths(hints[f.name], path + "."))
        else:
            out.append(path)
    return out
