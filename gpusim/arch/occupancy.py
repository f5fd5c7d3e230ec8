"""Occupancy: how many waves and workgroups of a kernel one CU holds at once, and what limits it.

The per-SIMD rules follow LLVM's AMDGPUBaseInfo for gfx90a/gfx942 (see
:func:`occupancy`); the workgroup level (LDS, barrier slots, a workgroup's
waves spread over the SIMDs) is gpusim's model of the dispatcher, which the
engine's dispatcher uses to place workgroups on CUs.
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Mapping, Optional

from gpusim.errors import GpusimError

from .schema import Arch

LIMITERS = ("waves", "vgprs", "sgprs", "lds", "workgroup_slots")


class KernelDoesNotFit(GpusimError):
    """KernelDoesNotFit is a kernel whose registers, LDS or workgroup size exceed what a CU offers.

    ``directive`` names the ``.amdhsa_*`` field (without the prefix) whose value is at fault, or
    ``"block"`` for the launch's workgroup size, so a caller can point at the line that set it.
    """

    def __init__(self, message: str, directive: str = "block"):
        super().__init__(message)
        self.directive = directive


def align_up(value: int, granule: int) -> int:
    """align_up rounds value up to a multiple of granule."""
    return -(-value // granule) * granule


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class KernelResources:
    """KernelResources are the per-wave register counts and per-workgroup LDS that occupancy needs.

    ``arch_vgprs`` and ``agprs`` are registers per lane; ``sgprs`` counts the
    extra VCC/FLAT_SCRATCH/XNACK_MASK registers as LLVM's NumSgprs does;
    ``lds_bytes`` is the LDS of one workgroup before allocation rounding.
    """

    arch_vgprs: int
    agprs: int
    sgprs: int
    lds_bytes: int

    def occupancy(self, arch: Arch, workgroup_size: int) -> "Occupancy":
        """occupancy is :func:`occupancy` for these resources."""
        return occupancy(arch, arch_vgprs=self.arch_vgprs, agprs=self.agprs, sgprs=self.sgprs,
                         lds_bytes=self.lds_bytes, workgroup_size=workgroup_size)


def extra_sgprs(arch: Arch, *, reserve_vcc: bool = True, reserve_flat_scratch: bool = True,
                reserve_xnack_mask: bool = True) -> int:
    """extra_sgprs is the number of SGPRs LLVM adds to ``next_free_sgpr`` for a gfx9 kernel.

    LLVM's getNumExtraSGPRs counts the special registers as a block, not a sum:
    VCC -> 2; XNACK_MASK -> 4 (VCC's slot included); FLAT_SCRATCH, or any
    target with architected flat scratch (gfx942) -> 6.
    """
    extra = 2 if reserve_vcc else 0
    if reserve_xnack_mask:
        extra = 4
    if reserve_flat_scratch or arch.cu.architected_flat_scratch:
        extra = 6
    return extra


def kernel_resources(arch: Arch, *, next_free_vgpr: int, accum_offset: Optional[int] = None,
                     next_free_sgpr: int, group_segment_fixed_size: int = 0,
                     dynamic_lds_bytes: int = 0, reserve_vcc: bool = True,
                     reserve_flat_scratch: bool = True,
                     reserve_xnack_mask: bool = True) -> KernelResources:
    """kernel_resources turns ``.amdhsa_*`` kernel descriptor values into occupancy inputs.

    On gfx90a/gfx942 ``.amdhsa_next_free_vgpr`` counts the unified file
    (arch VGPRs, padded to ``accum_offset``, then AGPRs), so arch VGPRs =
    min(next_free_vgpr, accum_offset) and AGPRs = next_free_vgpr - accum_offset
    when positive; ``accum_offset`` None means no AGPRs. SGPRs =
    ``next_free_sgpr`` + :func:`extra_sgprs`; the reserve flags default to the
    assembler's defaults when the directives are absent. LDS is the static
    ``group_segment_fixed_size`` plus any dynamic LDS requested at launch.
    Raises KernelDoesNotFit for values no kernel for this arch can have.
    """
    cu = arch.cu
    for label, value in (("next_free_vgpr", next_free_vgpr), ("next_free_sgpr", next_free_sgpr),
                         ("group_segment_fixed_size", group_segment_fixed_size),
                         ("dynamic_lds_bytes", dynamic_lds_bytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise KernelDoesNotFit(f".amdhsa_{label} must be a non-negative integer, "
                                   f"got {value!r}", label)
    if accum_offset is None:
        arch_vgprs, agprs = next_free_vgpr, 0
    else:
        granule = cu.accum_offset_granule
        if isinstance(accum_offset, bool) or not isinstance(accum_offset, int) \
                or not granule <= accum_offset <= cu.max_arch_vgprs_per_wave \
                or accum_offset % granule:
            raise KernelDoesNotFit(f".amdhsa_accum_offset must be a multiple of {granule} in "
                                   f"{granule}..{cu.max_arch_vgprs_per_wave}, got {accum_offset!r}",
                                   "accum_offset")
        arch_vgprs = min(next_free_vgpr, accum_offset)
        agprs = max(0, next_free_vgpr - accum_offset)
    if next_free_sgpr > cu.max_sgprs_per_wave:
        raise KernelDoesNotFit(f".amdhsa_next_free_sgpr {next_free_sgpr} exceeds the "
                               f"{cu.max_sgprs_per_wave} addressable SGPRs of {arch.name}", "next_free_sgpr")
    sgprs = next_free_sgpr + extra_sgprs(arch, reserve_vcc=reserve_vcc,
                                         reserve_flat_scratch=reserve_flat_scratch,
                                         reserve_xnack_mask=reserve_xnack_mask)
    return KernelResources(arch_vgprs=arch_vgprs, agprs=agprs, sgprs=sgprs,
                           lds_bytes=group_segment_fixed_size + dynamic_lds_bytes)


def unified_vgprs(arch_vgprs: int, agprs: int, granule: int = 4) -> int:
    """unified_vgprs is LLVM's gfx90a total: alignTo(arch_vgprs, 4) + agprs if agprs else arch_vgprs."""
    return align_up(arch_vgprs, granule) + agprs if agprs > 0 else arch_vgprs


@dataclass(frozen=True)
class Occupancy:
    """Occupancy is how much of one CU a kernel can hold at once, and why not more.

    ``waves_per_simd`` is the average over the CU's SIMDs (waves_per_cu / simds);
    ``workgroup_limits`` maps each resource to the workgroups per CU it allows
    (None: that resource sets no limit). ``limiters`` are the resources that
    bind, in LIMITERS order: those whose limit equals ``workgroups_per_cu``,
    except VGPRs/SGPRs that still allow every wave slot. ``limiter`` is the
    first of them ('waves' means the hardware wave slots, i.e. full
    occupancy) and ``rule`` the arithmetic that bound.
    """

    waves_per_simd: float
    waves_per_cu: int
    workgroups_per_cu: int
    waves_per_workgroup: int
    limiter: str
    limiters: tuple
    rule: str
    vgprs_per_wave: int
    vgprs_allocated: int
    sgprs_allocated: int
    lds_bytes_allocated: int
    vgpr_waves_per_simd: int
    sgpr_waves_per_simd: int
    workgroup_limits: Mapping[str, Optional[int]]

    def __str__(self) -> str:
        return (f"{self.waves_per_simd:g} waves/SIMD, {self.waves_per_cu} waves and "
                f"{self.workgroups_per_cu} workgroups per CU; limiter {self.limiter}: {self.rule}")


def _check_count(name: str, value: int, maximum: int, what: str, directive: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise KernelDoesNotFit(f"{name} must be a non-negative integer, got {value!r}", directive)
    if value > maximum:
        raise KernelDoesNotFit(f"{name} {value} exceeds {what} {maximum}", directive)


def occupancy(arch: Arch, *, arch_vgprs: int, agprs: int = 0, sgprs: int = 0,
              lds_bytes: int = 0, workgroup_size: int) -> Occupancy:
    """occupancy computes the waves and workgroups of one kernel that fit on one CU.

    Per SIMD (LLVM AMDGPUBaseInfo, gfx90a/gfx942):

    - VGPRs: total = alignTo(arch_vgprs, 4) + agprs when agprs > 0, else arch_vgprs;
      Wv = min(max_waves_per_simd, vgprs_per_simd_lane // alignTo(max(total, 1), granule)).
    - SGPRs: Ws = min(max_waves_per_simd, sgprs_per_simd // max(sgprs, 1)). This is
      LLVM's getOccupancyWithNumSGPRs table for gfx8/gfx9 (<=80: 10, <=88: 9,
      <=100: 8, else 7), which uses the raw count; the 16-SGPR granule only
      affects the descriptor encoding (reported as ``sgprs_allocated``).

    Per CU, with N = ceil(workgroup_size / wave_size) waves per workgroup spread
    over the SIMDs, the workgroups per CU are the minimum of

    - waves:           simds * max_waves_per_simd // N
    - vgprs:           simds * Wv // N
    - sgprs:           simds * Ws // N
    - lds:             lds.size_bytes // alignTo(lds_bytes, lds.alloc_granule_bytes)  (if lds_bytes > 0)
    - workgroup_slots: max_workgroups_per_cu (barrier slots; LLVM exempts N == 1)

    and waves_per_cu = workgroups * N, waves_per_simd = waves_per_cu / simds.
    Raises KernelDoesNotFit when not even one workgroup fits.
    """
    cu = arch.cu
    _check_count("arch_vgprs", arch_vgprs, cu.max_arch_vgprs_per_wave,
                 f"the addressable arch VGPRs of {arch.name}", "next_free_vgpr")
    _check_count("agprs", agprs, cu.max_agprs_per_wave, f"the AGPRs of {arch.name}", "next_free_vgpr")
    _check_count("sgprs", sgprs, cu.sgprs_per_simd, f"the SGPRs per SIMD of {arch.name}", "next_free_sgpr")
    _check_count("lds_bytes", lds_bytes, cu.lds.size_bytes, f"the LDS per CU of {arch.name}",
                 "group_segment_fixed_size")
    _check_count("workgroup_size", workgroup_size, cu.max_workitems_per_workgroup,
                 f"the largest workgroup of {arch.name}", "block")
    if workgroup_size == 0:
        raise KernelDoesNotFit("workgroup_size must be at least 1")
    total = unified_vgprs(arch_vgprs, agprs, cu.accum_offset_granule)
    if total > cu.max_vgprs_per_wave:
        raise KernelDoesNotFit(f"{total} VGPRs (arch + acc) exceed the {cu.max_vgprs_per_wave} "
                               f"a wave of {arch.name} may hold", "next_free_vgpr")

    n = _ceil_div(workgroup_size, arch.wave_size)
    vgprs_allocated = align_up(max(total, 1), cu.vgpr_alloc_granule)
    wv = min(cu.max_waves_per_simd, cu.vgprs_per_simd_lane // vgprs_allocated)
    ws = min(cu.max_waves_per_simd, cu.sgprs_per_simd // max(sgprs, 1))
    lds_allocated = align_up(lds_bytes, cu.lds.alloc_granule_bytes)

    limits = {
        "waves": cu.simds * cu.max_waves_per_simd // n,
        "vgprs": cu.simds * wv // n,
        "sgprs": cu.simds * ws // n,
        "lds": cu.lds.size_bytes // lds_allocated if lds_allocated else None,
        "workgroup_slots": cu.max_workgroups_per_cu if n > 1 else None,
    }
    workgroups = min(v for v in limits.values() if v is not None)
    below_cap = {"vgprs": wv < cu.max_waves_per_simd, "sgprs": ws < cu.max_waves_per_simd}
    binding = tuple(k for k in LIMITERS
                    if limits[k] == workgroups and below_cap.get(k, True))
    limiter = binding[0]

    arch_total = (f"alignTo({arch_vgprs}, {cu.accum_offset_granule}) + {agprs} AGPRs = {total}"
                  if agprs else f"{total}")
    per_wg = f"{n} waves per workgroup"
    rules = {
        "waves": f"{cu.simds} SIMDs x {cu.max_waves_per_simd} wave slots // {per_wg} "
                 f"= {limits['waves']} workgroups",
        "vgprs": f"{cu.vgprs_per_simd_lane} VGPRs per SIMD lane // alignTo({arch_total}, "
                 f"{cu.vgpr_alloc_granule}) = {wv} waves per SIMD; {cu.simds} x {wv} // {per_wg} "
                 f"= {limits['vgprs']} workgroups",
        "sgprs": f"{cu.sgprs_per_simd} SGPRs per SIMD // {max(sgprs, 1)} = {ws} waves per SIMD; "
                 f"{cu.simds} x {ws} // {per_wg} = {limits['sgprs']} workgroups",
        "lds": f"{cu.lds.size_bytes} LDS bytes per CU // alignTo({lds_bytes}, "
               f"{cu.lds.alloc_granule_bytes}) = {limits['lds']} workgroups",
        "workgroup_slots": f"at most {cu.max_workgroups_per_cu} multi-wave workgroups per CU "
                           f"(barrier slots)",
    }
    if workgroups == 0:
        at_fault = {"vgprs": "next_free_vgpr", "sgprs": "next_free_sgpr", "lds": "group_segment_fixed_size"}
        raise KernelDoesNotFit(f"not one workgroup of {workgroup_size} work-items fits on a CU "
                               f"of {arch.name}: {rules[limiter]}", at_fault.get(limiter, "block"))
    waves_per_cu = workgroups * n
    return Occupancy(
        waves_per_simd=waves_per_cu / cu.simds,
        waves_per_cu=waves_per_cu,
        workgroups_per_cu=workgroups,
        waves_per_workgroup=n,
        limiter=limiter,
        limiters=binding,
        rule=rules[limiter],
        vgprs_per_wave=total,
        vgprs_allocated=vgprs_allocated,
        sgprs_allocated=align_up(max(sgprs, 1), cu.sgpr_alloc_granule),
        lds_bytes_allocated=lds_allocated,
        vgpr_waves_per_simd=wv,
        sgpr_waves_per_simd=ws,
        workgroup_limits=types.MappingProxyType(limits),
    )


def descriptor_occupancy(arch: Arch, descriptor: Mapping[str, int], workgroup_size: int) -> Occupancy:
    """descriptor_occupancy computes occupancy from a kernel's ``.amdhsa_*`` fields (names without the prefix).

    AGPRs count only when ``next_free_vgpr`` exceeds ``accum_offset``.
    """
    d = descriptor
    accum = d.get("accum_offset")
    nfv = int(d.get("next_free_vgpr", 0))
    if accum is not None and nfv >= 0 and accum > align_up(max(nfv, 1), 4):
        raise KernelDoesNotFit(f".amdhsa_accum_offset {accum} exceeds the VGPRs allocated, "
                               f"alignTo(.amdhsa_next_free_vgpr {nfv}, 4) = {align_up(max(nfv, 1), 4)} "
                               "(llvm-mc refuses it too)", "accum_offset")
    # an accum_offset at or past next_free_vgpr leaves no AGPRs; it is still checked like LLVM does
    res = kernel_resources(arch, next_free_vgpr=nfv, accum_offset=None if accum is None else int(accum),
                           next_free_sgpr=int(d.get("next_free_sgpr", 0)),
                           group_segment_fixed_size=int(d.get("group_segment_fixed_size", 0)),
                           reserve_vcc=bool(d.get("reserve_vcc", 1)),
                           reserve_flat_scratch=bool(d.get("reserve_flat_scratch", 1)),
                           reserve_xnack_mask=bool(d.get("reserve_xnack_mask", 1)))
    return res.occupancy(arch, workgroup_size)
