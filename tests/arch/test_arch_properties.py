"""Property tests: any override either yields a valid Arch or an ArchError, never anything else."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.arch import (Arch, KernelDoesNotFit, arch_overrides, format_arch, key_paths,
                         load_arch, load_arch_text, occupancy)
from gpusim.errors import ArchError

BASE = load_arch("cdna3")
LEAVES = key_paths()
SECTIONS = sorted({p.rsplit(".", 1)[0] for p in LEAVES if "." in p})
TYPOS = ["cu.lds.size", "gpu", "cu.l1.size_bytes.x", "mall.", ".cu", "hbm..channels", "nope"]

scalars = st.one_of(
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.integers(min_value=0, max_value=4096),
    st.sampled_from([1, 2, 4, 8, 16, 64, 128, 4096, 65536]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["oldest_first", "round_robin", "lru", "linear", "[valu, vmem]", "[1",
                     "0x10", "1e3", "{a: 1}", "gfx90a", "write_back"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=3),
                   st.dictionaries(st.sampled_from(["size_bytes", "channels", "x", "line_bytes"]),
                                   scalars, max_size=3))
keys = st.one_of(st.sampled_from(LEAVES), st.sampled_from(SECTIONS), st.sampled_from(TYPOS),
                 st.text(max_size=10))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(keys, values, min_size=1, max_size=3))
def test_overrides_load_or_raise_arch_error(overrides):
    try:
        arch = arch_overrides(BASE, overrides)
    except ArchError as err:
        assert str(err)  # renders as one line without raising
        assert "\n" not in str(err)
        return
    assert isinstance(arch, Arch)
    assert len(arch.hash()) == 64
    assert load_arch_text(format_arch(arch)) == arch


@settings(max_examples=300, deadline=None)
@given(arch_vgprs=st.integers(0, 256), agprs=st.integers(0, 256), sgprs=st.integers(0, 110),
       lds_bytes=st.integers(0, 65536), workgroup_size=st.integers(1, 1024),
       name=st.sampled_from(["cdna3", "cdna2", "cdna3_2x_lds"]))
def test_occupancy_is_consistent_or_refuses(arch_vgprs, agprs, sgprs, lds_bytes, workgroup_size,
                                            name):
    arch = load_arch(name)
    try:
        occ = occupancy(arch, arch_vgprs=arch_vgprs, agprs=agprs, sgprs=sgprs,
                        lds_bytes=lds_bytes, workgroup_size=workgroup_size)
    except KernelDoesNotFit:
        return
    cu = arch.cu
    assert occ.workgroups_per_cu >= 1
    assert occ.waves_per_workgroup == math.ceil(workgroup_size / arch.wave_size)
    assert occ.waves_per_cu == occ.workgroups_per_cu * occ.waves_per_workgroup
    assert occ.waves_per_cu <= cu.max_waves_per_cu
    assert occ.waves_per_simd <= min(occ.vgpr_waves_per_simd, occ.sgpr_waves_per_simd)
    assert occ.lds_bytes_allocated * occ.workgroups_per_cu <= cu.lds.size_bytes
    assert occ.vgprs_allocated % cu.vgpr_alloc_granule == 0
    assert all(v is None or v >= occ.workgroups_per_cu for v in occ.workgroup_limits.values())
    assert occ.limiter == occ.limiters[0]
    # fewer VGPRs never lowers occupancy
    if arch_vgprs > 0:
        fewer = occupancy(arch, arch_vgprs=arch_vgprs - 1, agprs=agprs, sgprs=sgprs,
                          lds_bytes=lds_bytes, workgroup_size=workgroup_size)
        assert fewer.waves_per_cu >= occ.waves_per_cu


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcdefgsxz_:-[]{}&*!<>|#'\"\n\t 0123456789.,")),
               max_size=60),
       st.booleans())
def test_any_text_loads_or_raises_arch_error(text, extend):
    source = ("extends: cdna3\n" + text) if extend else text
    try:
        arch = load_arch_text(source, filename="fuzz.yaml")
    except ArchError as err:
        assert "\n" not in str(err)
        return
    assert isinstance(arch, Arch)
