"""Counter consistency: what the timing run counts agrees with the functional run and with itself.

For a few real kernels on both architectures (cdna3 has a MALL, cdna2 has none):
- the timing model executes exactly the instructions the functional executor does (per instruction,
  and the SQ_INSTS_* / GPUSIM_INSTS_TOTAL totals of ``simulate`` with and without ``timing``);
- every cache lookup is a hit or a miss (TCP, SQC, TCC, MALL), every L2 request is a read or a write;
- the L2 sees exactly what the L1s and scalar caches send it;
- HBM read bytes are the line fills from HBM times the fill size: MALL misses x 64 B on cdna3
  (an L2 line is fetched as two 64 B MALL requests, TCC_EA_RDREQ), L2 fabric reads x 128 B on cdna2.
"""
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel
from gpusim.exec.launch import Dispatch

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "corpus"
DATA = Path(__file__).parent / "data"
ARCHS = {"cdna3": "gfx942", "cdna2": "gfx90a"}
KERNELS = ["saxpy", "gemm_lds_tiled", "transpose_lds", "hist_global_atomic"]
INSTRUCTION_COUNTERS = ("SQ_INSTS_VALU", "SQ_INSTS_MFMA", "SQ_INSTS_SALU", "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD",
                        "SQ_INSTS_VMEM_WR", "SQ_INSTS_LDS", "SQ_INSTS_BRANCH", "GPUSIM_INSTS_OTHER",
                        "GPUSIM_INSTS_TOTAL", "SQ_WAVES")

CASES = [(arch, CORPUS / target / f"{name}.s") for arch, target in ARCHS.items() for name in KERNELS]
CASES.append(("cdna3", DATA / "lds_transpose_32x32.s"))


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1].stem}")
def case(request):
    arch_name, path = request.param
    arch = load_arch(arch_name)
    kernel = gpusim.load_kernel(path)
    functional = gpusim.simulate(kernel, arch, check=True)
    timed = gpusim.simulate(kernel, arch, check=True, timing=True)
    assert functional.checks_passed and timed.checks_passed
    return arch, kernel, functional, timed


def test_timing_run_executes_the_functional_runs_instructions(case):
    arch, kernel, functional, timed = case
    module = kernel.module
    counts = Dispatch(module, kernel.source, kernel.program, module.launch, module.args).run().counts
    per_instruction = time_kernel(kernel, arch).instruction_counts
    assert np.array_equal(per_instruction, counts)
    for name in INSTRUCTION_COUNTERS:
        assert timed.counters[name] == functional.counters[name], name
    assert timed.counters["GPUSIM_INSTS_TOTAL"] == int(counts.sum())


def test_every_lookup_is_a_hit_or_a_miss(case):
    arch, _, _, timed = case
    c = timed.counters
    assert c["GPUSIM_TCP_HIT_sum"] + c["GPUSIM_TCP_MISS_sum"] == c["TCP_TOTAL_CACHE_ACCESSES_sum"] > 0
    assert c["SQC_DCACHE_HITS_sum"] + c["SQC_DCACHE_MISSES_sum"] == c["SQC_DCACHE_REQ_sum"] > 0
    assert c["TCC_HIT_sum"] + c["TCC_MISS_sum"] == c["TCC_REQ_sum"] > 0
    assert c["TCC_READ_sum"] + c["TCC_WRITE_sum"] == c["TCC_REQ_sum"]
    assert c["GPUSIM_MALL_HIT_sum"] + c["GPUSIM_MALL_MISS_sum"] == c["GPUSIM_MALL_REQ_sum"]


def test_l2_requests_are_what_the_l1s_and_scalar_caches_send(case):
    arch, _, _, timed = case
    c = timed.counters
    # a scalar-cache miss fetches its line from L2 in L2-line pieces (one on both archs: 64 B in 128 B lines)
    per_scalar_miss = max(1, arch.cu.scalar_cache.line_bytes // arch.l2.line_bytes)
    # and each page walk's page-table reads (64 B each: one L2 piece) come from the UTCL2s
    assert c["TCC_REQ_sum"] == (c["TCP_TCC_READ_REQ_sum"] + c["TCP_TCC_WRITE_REQ_sum"]
                                + per_scalar_miss * c["SQC_DCACHE_MISSES_sum"] + c["GPUSIM_PAGE_WALK_READS_sum"])
    # only L1 misses read from L2 (an L1 line is one L2 piece or more); writes go through to L2 either way
    per_l1_miss = max(1, arch.cu.l1.line_bytes // arch.l2.line_bytes)
    assert c["TCP_TCC_READ_REQ_sum"] <= per_l1_miss * c["GPUSIM_TCP_MISS_sum"]


def test_hbm_read_bytes_are_line_fills_times_the_fill_size(case):
    arch, _, _, timed = case
    c = timed.counters
    if arch.mall.present:
        fill = min(arch.l2.line_bytes, arch.mall.line_bytes)
        assert c["TCC_EA_RDREQ_sum"] == c["GPUSIM_MALL_REQ_sum"]  # every L2 fabric read goes to the MALL
        fills = c["GPUSIM_MALL_MISS_sum"]
    else:
        fill = arch.l2.line_bytes
        fills = c["TCC_EA_RDREQ_sum"]
    assert c["GPUSIM_HBM_RDREQ_sum"] == fills > 0
    assert c["GPUSIM_HBM_READ_BYTES_sum"] == fills * fill
    # every L2 fabric write reaches HBM except the write-backs the MALL took
    assert c["GPUSIM_HBM_WRITE_BYTES_sum"] == (c["TCC_EA_WRREQ_sum"] - c["GPUSIM_MALL_WRREQ_sum"]) * fill


@pytest.mark.parametrize("arch_name", ARCHS)
def test_cold_saxpy_reads_each_line_from_hbm_once(arch_name):
    # x and y are 4000 f32 = 16000 B = 125 L2 lines each, 256 B aligned; the kernarg segment (24 B) is one
    # more, and so is the PDE0 line the page walks of the buffers' one 2 MiB page read (cdna3: each XCD's
    # UTCL2 walks, the shared MALL fetches the line once): 252 lines of 128 B come from HBM on cold caches,
    # however the levels split them (cdna3 fetches each as two 64 B MALL lines, cdna2 as one 128 B request)
    kernel = gpusim.load_kernel(CORPUS / ARCHS[arch_name] / "saxpy.s")
    c = gpusim.simulate(kernel, arch_name, timing=True).counters
    assert c["GPUSIM_HBM_READ_BYTES_sum"] == 252 * 128
