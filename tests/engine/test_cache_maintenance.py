"""buffer_inv / buffer_wbl2 / buffer_wbinvl1_vol act on the timed caches as the write-back and invalidate they are.

One wave loads a 128 B line (every lane from one address), waits, runs the
maintenance instruction under test and waits for it (it counts in vmcnt, as
AMDGPUUsage's memory model has LLVM wait for it with s_waitcnt vmcnt(0)),
then loads the line again. Without maintenance the second load hits the
vector L1; after an invalidate it misses there and hits the L2. An agent-scope
(sc1) invalidate keeps the L2's lines of device memory, cached coherently on
cdna3 (l2.invalidate_keeps_device_memory); with that off it drops them and the
load misses in the L2 too. A store, a write-back and a second
store to the same line make the L2 write the line to memory twice instead of
once (at the end-of-kernel release).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel

REPO = Path(__file__).resolve().parents[2]
LOAD_TWICE = """\
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: buf buffer u32[64] init=arange
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl maint
	.p2align 8
	.type maint,@function
maint:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	{first}
	s_waitcnt vmcnt(0)
	{between}
	{second}
	s_waitcnt vmcnt(0)
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel maint
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
"""
LOAD = "global_load_dword v2, v1, s[2:3]"
STORE = "global_store_dword v1, v1, s[2:3]"


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def run(tmp_path, arch, between: str, first: str = LOAD, second: str = LOAD):
    path = tmp_path / "maint.s"
    path.write_text(LOAD_TWICE.format(first=first, between=between, second=second))
    return time_kernel(gpusim.load_kernel(path), arch)


def l1(c):
    return c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]


def test_second_load_hits_l1_without_an_invalidate(tmp_path, cdna3):
    c = run(tmp_path, cdna3, "s_nop 0").counters
    assert l1(c) == (2, 1, 1)
    # the kernarg line, the first load's page walk (PDE0) and the first load: the hit never reaches the L2
    assert c["TCC_REQ_sum"] == 3


@pytest.mark.parametrize("inv", ["buffer_inv sc0", "buffer_wbinvl1_vol", "buffer_wbinvl1"])
def test_an_l1_invalidate_makes_the_next_load_miss_l1_and_hit_l2(tmp_path, cdna3, inv):
    c = run(tmp_path, cdna3, inv + "\n\ts_waitcnt vmcnt(0)").counters
    assert l1(c) == (2, 0, 2)
    # kernarg, the walk's PDE0 line and the first load miss; the second load (its page still in the UTCL1) hits
    assert (c["TCC_REQ_sum"], c["TCC_HIT_sum"], c["TCC_MISS_sum"]) == (4, 1, 3)


@pytest.mark.parametrize("inv", ["buffer_inv sc1", "buffer_inv sc0 sc1"])
def test_an_agent_scope_invalidate_keeps_device_memory_in_the_l2(tmp_path, cdna3, inv):
    c = run(tmp_path, cdna3, inv + "\n\ts_waitcnt vmcnt(0)").counters
    assert l1(c) == (2, 0, 2)
    # kernarg, the walk's PDE0 line and the first load miss; the L2 keeps the line, so the second load hits
    # there (the invalidate leaves the UTCL1 as it is: no second walk)
    assert (c["TCC_REQ_sum"], c["TCC_HIT_sum"], c["TCC_MISS_sum"]) == (4, 1, 3)


@pytest.mark.parametrize("inv", ["buffer_inv sc1", "buffer_inv sc0 sc1"])
def test_an_agent_scope_invalidate_of_noncoherent_lines_makes_the_next_load_miss_l1_and_l2(tmp_path, cdna3, inv):
    noncoherent = dataclasses.replace(cdna3, l2=dataclasses.replace(cdna3.l2, invalidate_keeps_device_memory=False))
    c = run(tmp_path, noncoherent, inv + "\n\ts_waitcnt vmcnt(0)").counters
    assert l1(c) == (2, 0, 2)
    # kernarg, the walk's PDE0 line and both loads miss
    assert (c["TCC_REQ_sum"], c["TCC_HIT_sum"], c["TCC_MISS_sum"]) == (4, 0, 4)


def test_the_wave_waits_for_an_invalidate_in_vmcnt(tmp_path, cdna3):
    nop = run(tmp_path, cdna3, "s_nop 0\n\ts_nop 0").cycles
    # the same loads and instruction count, but the wave waits for buffer_inv's L1 and L2 round trip,
    # and the second load then misses the L1
    inv = run(tmp_path, cdna3, "buffer_inv sc1\n\ts_waitcnt vmcnt(0)").cycles
    assert inv - nop >= cdna3.cu.l1.latency_cycles + cdna3.l2.latency_cycles


@pytest.mark.parametrize("to_mall", [True, False])
def test_a_write_back_sends_the_dirty_line_to_memory_before_the_kernel_ends(tmp_path, cdna3, to_mall):
    arch = dataclasses.replace(cdna3, l2=dataclasses.replace(cdna3.l2, write_back_to_mall=to_mall))
    assert arch.l2.write_policy == "write_back"
    once = run(tmp_path, arch, "s_nop 0", first=STORE, second=STORE).counters
    twice = run(tmp_path, arch, "buffer_wbl2 sc1\n\ts_waitcnt vmcnt(0)", first=STORE, second=STORE).counters
    # one 128 B L2 line is two 64 B fabric writes: once at the end-of-kernel release without buffer_wbl2;
    # with it, once at the write-back and again at the end, as the second store dirtied the line again
    assert once["TCC_EA_WRREQ_sum"] == 2
    assert twice["TCC_EA_WRREQ_sum"] == 4
    # the write-back's and the release's writes stop at the memory-side MALL (cdna3's l2.write_back_to_mall)
    # and HBM writes nothing during the kernel; without it, HBM writes the line at each of them
    mall_writes = 2 if to_mall else 0
    assert once["GPUSIM_MALL_WRREQ_sum"] == mall_writes
    assert twice["GPUSIM_MALL_WRREQ_sum"] == 2 * mall_writes
    assert once["GPUSIM_HBM_WRITE_BYTES_sum"] == (0 if to_mall else 128)
    assert twice["GPUSIM_HBM_WRITE_BYTES_sum"] == (0 if to_mall else 256)


@pytest.mark.parametrize("target, arch", [("gfx942", "cdna3"), ("gfx90a", "cdna2")])
def test_clang_seq_cst_device_atomics_run_timed_and_pass_their_check(target, arch):
    """clang-19's code for device-scope seq_cst atomics (kernels/cl/hist_seq_cst_atomic.cl) runs timed.

    On gfx942 each atomic sits between buffer_wbl2 sc1 and buffer_inv sc1; on gfx90a it is followed by
    buffer_wbinvl1_vol. Every wave invalidates its CU's L1 after its atomic.
    """
    path = REPO / "tests" / "data" / "corpus" / target / "hist_seq_cst_atomic.s"
    text = path.read_text()
    assert ("buffer_wbl2 sc1" in text and "buffer_inv sc1" in text) if target == "gfx942" \
        else "buffer_wbinvl1_vol" in text
    result = gpusim.simulate(gpusim.load_kernel(path), arch, check=True, timing=True)
    assert result.checks_passed, "\n".join(c.describe() for c in result.checks)
    waves = result.counters["SQ_WAVES"]
    maintenance = 2 if target == "gfx942" else 1
    assert result.counters["SQ_INSTS_VMEM_WR"] == waves  # the atomics; the maintenance is not a write
    assert result.counters["GPUSIM_INSTS_OTHER"] >= maintenance * waves
