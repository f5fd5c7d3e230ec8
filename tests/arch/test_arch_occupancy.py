"""Occupancy golden cases, each worked by hand from LLVM's AMDGPUBaseInfo rules for gfx90a/gfx942."""
from __future__ import annotations

import pytest

from gpusim.arch import (KernelDoesNotFit, arch_overrides, extra_sgprs, kernel_resources,
                         load_arch, occupancy)
from gpusim.errors import GpusimError

CDNA3 = load_arch("cdna3")
CDNA2 = load_arch("cdna2")

# (id, inputs, waves_per_simd, workgroups_per_cu, limiter)
GOLDEN = [
    # 512 // alignTo(128, 8) = 4 waves/SIMD; 4 SIMDs x 4 // 4 waves per workgroup = 4
    ("vgpr128", dict(arch_vgprs=128, workgroup_size=256), 4.0, 4, "vgprs"),
    # unified: alignTo(256, 4) + 256 = 512 -> 1 wave/SIMD
    ("vgpr256_agpr256", dict(arch_vgprs=256, agprs=256, workgroup_size=256), 1.0, 1, "vgprs"),
    ("vgpr256_agpr256_wave", dict(arch_vgprs=256, agprs=256, workgroup_size=64), 1.0, 4,
     "vgprs"),
    # 512 // 24 = 21 -> capped at 8 wave slots: the hardware limit binds
    ("vgpr24", dict(arch_vgprs=24, workgroup_size=256), 8.0, 8, "waves"),
    # 129 -> granule 8 -> 136; 512 // 136 = 3
    ("vgpr129_granule", dict(arch_vgprs=129, workgroup_size=64), 3.0, 12, "vgprs"),
    # alignTo(10, 4) + 4 = 16 -> 8 waves
    ("small_unified", dict(arch_vgprs=10, agprs=4, workgroup_size=64), 8.0, 32, "waves"),
    # alignTo(130, 4) + 128 = 260 -> 264 -> 1 wave; without the accum_offset padding 258 -> 264 too,
    # but 126 + 128 = 256 gives 2
    ("unified_padding", dict(arch_vgprs=130, agprs=128, workgroup_size=64), 1.0, 4, "vgprs"),
    ("unified_256", dict(arch_vgprs=126, agprs=128, workgroup_size=64), 2.0, 8, "vgprs"),
    # 65536 // alignTo(40960, 512) = 1 workgroup of 4 waves = 1 wave per SIMD
    ("lds40k", dict(arch_vgprs=32, lds_bytes=40 * 1024, workgroup_size=256), 1.0, 1, "lds"),
    # LDS granule: 21800 -> 22016; 65536 // 22016 = 2 (unrounded it would be 3)
    ("lds_granule", dict(arch_vgprs=32, lds_bytes=21800, workgroup_size=64), 0.5, 2, "lds"),
    # 1024 work-items = 16 waves; 128 VGPRs: 4 x 4 // 16 = 1 workgroup
    ("wg1024_vgpr128", dict(arch_vgprs=128, workgroup_size=1024), 4.0, 1, "vgprs"),
    # 64 VGPRs: 8 waves/SIMD, 32 // 16 = 2 workgroups
    ("wg1024_vgpr64", dict(arch_vgprs=64, workgroup_size=1024), 8.0, 2, "waves"),
    # 96 work-items round up to 2 waves; 16 workgroups of 2 waves fill 32 slots
    ("wg96", dict(arch_vgprs=32, workgroup_size=96), 8.0, 16, "waves"),
    # SGPRs: LLVM's table gives 8 waves up to 100 SGPRs, 7 above
    ("sgpr100", dict(arch_vgprs=32, sgprs=100, workgroup_size=64), 8.0, 32, "waves"),
    ("sgpr101", dict(arch_vgprs=32, sgprs=101, workgroup_size=64), 7.0, 28, "sgprs"),
    ("sgpr108", dict(arch_vgprs=32, sgprs=108, workgroup_size=256), 7.0, 7, "sgprs"),
    # three waves per workgroup: 4 x 8 // 3 = 10 workgroups, 30 waves, 7.5 per SIMD on average
    ("wg192", dict(arch_vgprs=32, workgroup_size=192), 7.5, 10, "waves"),
]


@pytest.mark.parametrize("inputs, per_simd, workgroups, limiter",
                         [g[1:] for g in GOLDEN], ids=[g[0] for g in GOLDEN])
@pytest.mark.parametrize("arch", [CDNA3, CDNA2], ids=["cdna3", "cdna2"])
def test_golden_occupancy(arch, inputs, per_simd, workgroups, limiter):
    occ = occupancy(arch, **inputs)
    assert occ.waves_per_simd == per_simd
    assert occ.workgroups_per_cu == workgroups
    assert occ.limiter == limiter
    assert occ.waves_per_cu == workgroups * occ.waves_per_workgroup
    assert occ.limiter in occ.limiters
    assert occ.workgroup_limits[limiter] == workgroups
    assert str(workgroups) in occ.rule


def test_limiter_details_for_the_vgpr_case():
    occ = occupancy(CDNA3, arch_vgprs=128, agprs=0, sgprs=40, lds_bytes=0, workgroup_size=256)
    assert occ.vgpr_waves_per_simd == 4 and occ.sgpr_waves_per_simd == 8
    assert occ.vgprs_allocated == 128 and occ.sgprs_allocated == 48
    assert occ.workgroup_limits["lds"] is None
    assert occ.workgroup_limits["workgroup_slots"] == 16
    assert occ.rule.startswith("512 VGPRs per SIMD lane // alignTo(128, 8) = 4 waves per SIMD")
    assert "limiter vgprs" in str(occ)


def test_full_occupancy_lists_every_binding_resource():
    occ = occupancy(CDNA3, arch_vgprs=64, workgroup_size=128)
    assert occ.limiter == "waves"
    # VGPRs (512 // 64 = 8) and SGPRs allow all 8 slots, so they do not count as binding
    assert occ.limiters == ("waves", "workgroup_slots")


def test_lds_bound_kernel_gains_from_twice_the_lds():
    inputs = dict(arch_vgprs=32, lds_bytes=40 * 1024, workgroup_size=256)
    assert occupancy(load_arch("cdna3_2x_lds"), **inputs).workgroups_per_cu == 3
    assert occupancy(CDNA3, **inputs).workgroups_per_cu == 1


def test_barrier_slots_bind_when_wave_slots_grow():
    roomy = arch_overrides(CDNA3, {"cu.max_waves_per_simd": 16})
    occ = occupancy(roomy, arch_vgprs=16, workgroup_size=128)
    assert occ.limiter == "workgroup_slots" and occ.workgroups_per_cu == 16
    # single-wave workgroups take no barrier slot (LLVM getMaxWorkGroupsPerCU)
    single = occupancy(roomy, arch_vgprs=16, workgroup_size=64)
    assert single.workgroup_limits["workgroup_slots"] is None
    assert single.workgroups_per_cu == 64 and single.limiter == "waves"


@pytest.mark.parametrize("inputs, fragment", [
    (dict(arch_vgprs=256, agprs=256, workgroup_size=1024), "not one workgroup"),
    (dict(arch_vgprs=257, workgroup_size=64), "arch_vgprs 257 exceeds"),
    (dict(arch_vgprs=8, agprs=257, workgroup_size=64), "agprs 257 exceeds"),
    (dict(arch_vgprs=8, lds_bytes=65537, workgroup_size=64), "lds_bytes 65537 exceeds"),
    (dict(arch_vgprs=8, workgroup_size=1025), "workgroup_size 1025 exceeds"),
    (dict(arch_vgprs=8, workgroup_size=0), "at least 1"),
    (dict(arch_vgprs=-1, workgroup_size=64), "non-negative"),
    (dict(arch_vgprs=8.0, workgroup_size=64), "non-negative integer"),
])
def test_kernels_that_cannot_fit(inputs, fragment):
    with pytest.raises(KernelDoesNotFit) as err:
        occupancy(CDNA3, **inputs)
    assert fragment in str(err.value)
    assert isinstance(err.value, GpusimError)


def test_extra_sgprs_follow_llvm_blocks():
    # gfx90a: VCC 2, XNACK_MASK makes it 4, FLAT_SCRATCH makes it 6 (not a sum)
    flags = dict(reserve_vcc=False, reserve_flat_scratch=False, reserve_xnack_mask=False)
    assert extra_sgprs(CDNA2, **flags) == 0
    assert extra_sgprs(CDNA2, **{**flags, "reserve_vcc": True}) == 2
    assert extra_sgprs(CDNA2, **{**flags, "reserve_xnack_mask": True}) == 4
    assert extra_sgprs(CDNA2, **{**flags, "reserve_vcc": True, "reserve_xnack_mask": True}) == 4
    assert extra_sgprs(CDNA2, **{**flags, "reserve_flat_scratch": True}) == 6
    assert extra_sgprs(CDNA2) == 6
    # gfx942 has architected flat scratch: always 6
    assert extra_sgprs(CDNA3, **flags) == 6


def test_kernel_resources_from_descriptor_fields():
    res = kernel_resources(CDNA3, next_free_vgpr=256, accum_offset=128, next_free_sgpr=40,
                           group_segment_fixed_size=16384)
    assert (res.arch_vgprs, res.agprs, res.sgprs, res.lds_bytes) == (128, 128, 46, 16384)
    occ = res.occupancy(CDNA3, workgroup_size=256)
    assert occ.vgprs_per_wave == 256 and occ.vgpr_waves_per_simd == 2
    assert occ.workgroups_per_cu == 2 and occ.limiter == "vgprs"

    no_acc = kernel_resources(CDNA2, next_free_vgpr=37, accum_offset=40, next_free_sgpr=24,
                              reserve_flat_scratch=False, reserve_xnack_mask=False)
    assert (no_acc.arch_vgprs, no_acc.agprs, no_acc.sgprs, no_acc.lds_bytes) == (37, 0, 26, 0)
    assert kernel_resources(CDNA2, next_free_vgpr=37, next_free_sgpr=24).agprs == 0
    dyn = kernel_resources(CDNA3, next_free_vgpr=8, next_free_sgpr=8,
                           group_segment_fixed_size=1024, dynamic_lds_bytes=512)
    assert dyn.lds_bytes == 1536


def test_unified_total_equals_next_free_vgpr():
    for nfv, acc in [(256, 128), (512, 256), (12, 4), (100, 100), (132, 128)]:
        res = kernel_resources(CDNA3, next_free_vgpr=nfv, accum_offset=acc, next_free_sgpr=8)
        occ = res.occupancy(CDNA3, workgroup_size=64)
        assert occ.vgprs_per_wave == nfv


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(next_free_vgpr=8, accum_offset=6, next_free_sgpr=8), "multiple of 4"),
    (dict(next_free_vgpr=8, accum_offset=260, next_free_sgpr=8), "4..256"),
    (dict(next_free_vgpr=8, next_free_sgpr=103), "exceeds the 102"),
    (dict(next_free_vgpr=-8, next_free_sgpr=8), "non-negative"),
])
def test_bad_descriptor_fields(kwargs, fragment):
    with pytest.raises(KernelDoesNotFit, match=fragment):
        kernel_resources(CDNA3, **kwargs)
