"""The LDS's rarely used read-modify-writes: ds_rsub, ds_mskor, ds_wrap, the float compare-stores ds_cmpst_f32/f64
and the paired exchanges ds_wrxchg2(st64)_rtn, as the Vega ISA's descriptions define them (the AMD ISA's DATA is
the first data operand, DATA2 the second). Every lane works on LDS of its own, so the final LDS and every value
returned are checked against Python applying the same operations in program order."""
from __future__ import annotations

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc, run_kernel

KERNEL = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: lds0 buffer u32[1408] init=zeros
; gpusim-arg: ops buffer u32[64, 8] init=zeros
; gpusim-arg: ret buffer u32[64, 22] out
; gpusim-arg: lds1 buffer u32[1408] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl lds_rare
\t.p2align 8
\t.type lds_rare,@function
lds_rare:
\ts_load_dwordx4 s[4:7], s[0:1], 0x0
\ts_load_dwordx4 s[8:11], s[0:1], 0x10
\tv_lshlrev_b32_e32 v1, 2, v0
\ts_mov_b32 s12, 0
\ts_waitcnt lgkmcnt(0)
.Lcopy_in:
\tglobal_load_dword v2, v1, s[4:5]
\ts_waitcnt vmcnt(0)
\tds_write_b32 v1, v2
\tv_add_u32_e32 v1, 0x100, v1
\ts_add_u32 s12, s12, 1
\ts_cmp_lt_u32 s12, 22
\ts_cbranch_scc1 .Lcopy_in
\tv_lshlrev_b32_e32 v5, 5, v0
\tglobal_load_dwordx4 v[20:23], v5, s[6:7]
\tglobal_load_dwordx4 v[24:27], v5, s[6:7] offset:16
\tv_lshlrev_b32_e32 v1, 6, v0
\tv_lshlrev_b32_e32 v3, 2, v0
\tv_add_u32_e32 v3, 0x1000, v3
\tv_lshlrev_b32_e32 v4, 3, v0
\tv_add_u32_e32 v4, 0x1200, v4
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\ts_barrier
\tds_rsub_rtn_u32 v30, v1, v20
\tds_rsub_u32 v1, v21
\tds_mskor_rtn_b32 v31, v1, v20, v21 offset:4
\tds_mskor_b32 v1, v22, v23 offset:4
\tds_wrap_rtn_b32 v32, v1, v20, v21 offset:8
\tds_cmpst_rtn_f32 v33, v1, v22, v23 offset:12
\tds_cmpst_f32 v1, v23, v26 offset:12
\tds_rsub_rtn_u64 v[50:51], v1, v[20:21] offset:16
\tds_rsub_u64 v1, v[22:23] offset:16
\tds_mskor_rtn_b64 v[34:35], v1, v[20:21], v[22:23] offset:24
\tds_mskor_b64 v1, v[24:25], v[26:27] offset:24
\tds_cmpst_rtn_f64 v[36:37], v1, v[24:25], v[26:27] offset:32
\tds_cmpst_f64 v1, v[26:27], v[20:21] offset:32
\tds_wrxchg2_rtn_b32 v[38:39], v1, v24, v25 offset0:10 offset1:11
\tds_wrxchg2_rtn_b64 v[40:43], v1, v[20:21], v[22:23] offset0:6 offset1:7
\tds_wrxchg2st64_rtn_b32 v[44:45], v3, v26, v27 offset1:1
\tds_wrxchg2st64_rtn_b64 v[46:49], v4, v[24:25], v[26:27] offset1:1
\ts_waitcnt lgkmcnt(0)
\tv_mul_u32_u24_e32 v5, 0x58, v0
\tglobal_store_dwordx4 v5, v[30:33], s[8:9]
\tglobal_store_dwordx4 v5, v[34:37], s[8:9] offset:16
\tglobal_store_dwordx4 v5, v[38:41], s[8:9] offset:32
\tglobal_store_dwordx4 v5, v[42:45], s[8:9] offset:48
\tglobal_store_dwordx4 v5, v[46:49], s[8:9] offset:64
\tglobal_store_dwordx2 v5, v[50:51], s[8:9] offset:80
\ts_barrier
\tv_lshlrev_b32_e32 v1, 2, v0
\ts_mov_b32 s12, 0
.Lcopy_out:
\tds_read_b32 v2, v1
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dword v1, v2, s[10:11]
\tv_add_u32_e32 v1, 0x100, v1
\ts_add_u32 s12, s12, 1
\ts_cmp_lt_u32 s12, 22
\ts_cbranch_scc1 .Lcopy_out
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel lds_rare
\t\t.amdhsa_group_segment_fixed_size 5632
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 52
\t\t.amdhsa_next_free_sgpr 14
\t\t.amdhsa_accum_offset 52
\t.end_amdhsa_kernel
"""

SLOT = 16          # dwords of LDS per lane: the single-address operations and the paired exchanges
ST64_B32 = 1024    # dword index of the st64 b32 exchange's two arrays of 64 dwords
ST64_B64 = 1152    # dword index of the st64 b64 exchange's two arrays of 64 qwords
M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def _f32(bits: int) -> float:
    return float(np.array([bits], np.uint32).view(np.float32)[0])


def _f64(bits: int) -> float:
    return float(np.array([bits], np.uint64).view(np.float64)[0])


def _bits32(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0])


def _bits64(x: float) -> int:
    return int(np.array([x], np.float64).view(np.uint64)[0])


class Lds:
    """The LDS image as dwords, with the 64-bit view the b64 operations use."""

    def __init__(self, words: np.ndarray):
        self.w = [int(x) for x in words]

    def q(self, i: int) -> int:
        return self.w[i] | self.w[i + 1] << 32

    def set_q(self, i: int, v: int) -> None:
        self.w[i], self.w[i + 1] = v & M32, v >> 32


def reference(lds0: np.ndarray, ops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """reference is (the final LDS, the values each lane got back) of the kernel, one lane after another."""
    m = Lds(lds0)
    ret = np.zeros((64, 22), np.uint64)
    for lane in range(64):
        v = [int(x) for x in ops[lane]]
        b = lane * SLOT
        pair = lambda k: v[k] | v[k + 1] << 32   # noqa: E731
        r = []
        old = m.w[b]                                   # ds_rsub_rtn_u32 v30, v1, v20; ds_rsub_u32 v1, v21
        m.w[b] = (v[0] - old) & M32
        m.w[b] = (v[1] - m.w[b]) & M32
        r.append(old)
        old = m.w[b + 1]                               # ds_mskor: (mem & ~DATA) | DATA2, twice
        m.w[b + 1] = (old & ~v[0] & M32) | v[1]
        m.w[b + 1] = (m.w[b + 1] & ~v[2] & M32) | v[3]
        r.append(old)
        old = m.w[b + 2]                               # ds_wrap_rtn_b32: mem >= DATA ? mem - DATA : mem + DATA2
        m.w[b + 2] = (old - v[0]) & M32 if old >= v[0] else (old + v[1]) & M32
        r.append(old)
        old = m.w[b + 3]                               # ds_cmpst_f32: mem == DATA (as floats) ? DATA2 : mem, twice
        m.w[b + 3] = v[3] if _f32(old) == _f32(v[2]) else old
        m.w[b + 3] = v[6] if _f32(m.w[b + 3]) == _f32(v[3]) else m.w[b + 3]
        r.append(old)
        old64 = m.q(b + 4)                             # ds_rsub_rtn_u64, ds_rsub_u64
        m.set_q(b + 4, (pair(0) - old64) & M64)
        m.set_q(b + 4, (pair(2) - m.q(b + 4)) & M64)
        rsub64 = old64   # returned in v[50:51], stored last
        old64 = m.q(b + 6)                             # ds_mskor_rtn_b64, ds_mskor_b64
        m.set_q(b + 6, (old64 & ~pair(0) & M64) | pair(2))
        m.set_q(b + 6, (m.q(b + 6) & ~pair(4) & M64) | pair(6))
        r += [old64 & M32, old64 >> 32]
        old64 = m.q(b + 8)                             # ds_cmpst_rtn_f64, ds_cmpst_f64
        m.set_q(b + 8, pair(6) if _f64(old64) == _f64(pair(4)) else old64)
        m.set_q(b + 8, pair(0) if _f64(m.q(b + 8)) == _f64(pair(6)) else m.q(b + 8))
        r += [old64 & M32, old64 >> 32]
        r += [m.w[b + 10], m.w[b + 11]]                # ds_wrxchg2_rtn_b32 offset0:10 offset1:11
        m.w[b + 10], m.w[b + 11] = v[4], v[5]
        r += [m.w[b + 12], m.w[b + 13], m.w[b + 14], m.w[b + 15]]   # ds_wrxchg2_rtn_b64 offset0:6 offset1:7
        m.set_q(b + 12, pair(0))
        m.set_q(b + 14, pair(2))
        x, y = ST64_B32 + lane, ST64_B32 + 64 + lane   # ds_wrxchg2st64_rtn_b32 offset1:1: 64 dwords apart
        r += [m.w[x], m.w[y]]
        m.w[x], m.w[y] = v[6], v[7]
        x, y = ST64_B64 + 2 * lane, ST64_B64 + 128 + 2 * lane   # ds_wrxchg2st64_rtn_b64 offset1:1: 64 qwords
        r += [m.w[x], m.w[x + 1], m.w[y], m.w[y + 1]]
        m.set_q(x, pair(4))
        m.set_q(y, pair(6))
        ret[lane] = r + [rsub64 & M32, rsub64 >> 32]
    return np.array(m.w, np.uint64), ret


def inputs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """inputs is (the LDS's first contents, each lane's 8 data dwords), with every branch of the operations
    taken by some lanes: ds_wrap on both sides of its limit, the float compares equal, +0 against -0, NaN
    against itself, and unequal."""
    rng = np.random.default_rng(seed)
    lds0 = rng.integers(0, 2**32, 1408, dtype=np.uint64)
    ops = rng.integers(0, 2**32, (64, 8), dtype=np.uint64)
    for lane in range(64):
        b = lane * SLOT
        ops[lane, 0] = (int(lds0[b + 2]) + (1 if lane % 2 else -1) * int(rng.integers(0, 1000))) & M32
        case = lane % 4
        f32_pair = {0: (1.5, 1.5), 1: (0.0, -0.0), 2: (np.nan, np.nan), 3: (2.0, 3.0)}[case]
        lds0[b + 3], ops[lane, 2] = _bits32(f32_pair[0]), _bits32(f32_pair[1])
        ops[lane, 3] = _bits32(-7.25) if lane % 8 < 4 else ops[lane, 3]   # the second compare-store meets it
        f64_pair = {0: (2.5, 2.5), 1: (-0.0, 0.0), 2: (np.nan, np.nan), 3: (1.0, -1.0)}[(lane + 1) % 4]
        q, c = _bits64(f64_pair[0]), _bits64(f64_pair[1])
        lds0[b + 8], lds0[b + 9], ops[lane, 4], ops[lane, 5] = q & M32, q >> 32, c & M32, c >> 32
    return lds0, ops


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, KERNEL, "gfx942")


def test_rare_lds_operations_match_the_isa_descriptions(tmp_path):
    lds0, ops = inputs(5)
    path = tmp_path / "lds_rare.s"
    path.write_text(KERNEL)
    out = run_kernel(path, {"lds0": lds0, "ops": ops})
    want_lds, want_ret = reference(lds0, ops)
    np.testing.assert_array_equal(out["ret"].astype(np.uint64), want_ret)
    np.testing.assert_array_equal(out["lds1"].astype(np.uint64), want_lds)


def test_the_float_compare_stores_compare_as_floats(tmp_path):
    # +0 equals -0 and a NaN equals nothing: a bitwise compare-store (ds_cmpst_b32) would differ on both
    lds0, ops = inputs(6)
    path = tmp_path / "lds_rare.s"
    path.write_text(KERNEL)
    out = run_kernel(path, {"lds0": lds0, "ops": ops})
    got = out["ret"].astype(np.uint64)[:, 3]
    assert (got == lds0[np.arange(64) * SLOT + 3]).all()     # each returned what it found
    final = out["lds1"].astype(np.uint64)[np.arange(64) * SLOT + 3]
    stored = final != lds0[np.arange(64) * SLOT + 3]
    assert stored[1::4].all() and not stored[2::4].any()      # +0 == -0 stores; NaN == NaN does not


def test_a_timed_run_gives_the_same_lds_and_results(tmp_path):
    # the timing model executes the same instructions: random inputs from the header, the same reference
    from gpusim import api
    from gpusim.arch import load_arch
    from gpusim.engine.timing import time_kernel

    path = tmp_path / "lds_rare.s"
    path.write_text(KERNEL.replace("init=zeros", "init=randint(0,4000000000)"))
    run = time_kernel(api.load_kernel(path), load_arch("cdna3")).functional
    want_lds, want_ret = reference(run.initial["lds0"], run.initial["ops"])
    np.testing.assert_array_equal(run.final["ret"].astype(np.uint64), want_ret)
    np.testing.assert_array_equal(run.final["lds1"].astype(np.uint64), want_lds)


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timed"])
def test_an_exchange_past_the_lds_faults_at_its_instruction(tmp_path, timing):
    # the st64 b32 exchange's second element at offset1 255 lies 65,280 bytes past its first: outside the
    # workgroup's 5,632 bytes, from lane 0 on, in the functional run and on the timing model alike
    from gpusim import api
    from gpusim.errors import KernelFault
    from gpusim.exec.kernels.memory import FAULT_LDS

    path = tmp_path / "lds_rare.s"
    path.write_text(KERNEL.replace("ds_wrxchg2st64_rtn_b32 v[44:45], v3, v26, v27 offset1:1",
                                   "ds_wrxchg2st64_rtn_b32 v[44:45], v3, v26, v27 offset1:255"))
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna3", timing=timing)
    assert info.value.code == FAULT_LDS
    assert "'ds_wrxchg2st64_rtn_b32 v[44:45], v3, v26, v27 offset1:255', workgroup (0, 0, 0), wave 0, lane 0" \
        in str(info.value)
