"""Random programs time the same with every value computed and with the value slice alone.

The programs mix what the slice's liveness rules are about (gpusim.asm.value_slice): compares into VCC or
an SGPR pair that feed selects or branches, if-blocks under a narrowed EXEC (nested), registers rewritten
inside them and read by their own lanes or across lanes (DPP), VCC and SCC branches, lanes read out and
combined in SGPRs, selects and conditional moves on SCC, a carry chain, 64-bit shifts and multiply-adds
whose low half, high half or carry-out is used, scalar loads through a computed base (after a store to the
word they load, or not), and loads and stores whose addresses come from data or from memory. Each must give
the same cycles, counters and per-instruction counts both ways. Breaking any one rule makes some of these
200 programs differ (measured when this test was written: EXEC writes that do not name EXEC unseen, 10; DPP
taken as a read of its own lanes, 6; the reads of VCC that do not name it dropped, 89; the same for SCC,
116; s_cmov and s_bitset taken to replace their destination, 28; s_mov, s_bfm and s_mul_i32 taken to set
SCC, 56; and, when the 64-bit and scalar-load fragments were added, the high source halves of a 64-bit op
taken as unread even where its high result half or carry-out is live, 10; a scalar load's value never
taken to carry memory, 3).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.asm.value_slice import value_slice
from gpusim.engine.timing import time_kernel

PROGRAMS = 200

HEAD = """; gpusim-launch: grid=4,1,1 block=128,1,1
; gpusim-arg: buf buffer u32[1024] init=randint(0,4096) seed={seed}
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl k
\t.p2align 8
\t.type k,@function
k:
\ts_load_dwordx2 s[2:3], s[0:1], 0x0
\tv_mov_b32_e32 v1, v0
\tv_mul_u32_u24_e32 v2, 3, v0
\tv_xor_b32_e32 v3, 0x55, v0
\tv_mov_b32_e32 v4, 7
\tv_lshlrev_b32_e32 v5, 2, v0
\tv_mov_b32_e32 v6, 0
\tv_mov_b32_e32 v7, 1
\ts_mov_b64 s[6:7], 0
\ts_mov_b32 s16, 5
\ts_mov_b32 s17, 0x1f0
\ts_mov_b32 s18, 0x40
\ts_waitcnt lgkmcnt(0)
"""
TAIL = """\tv_and_b32_e32 v8, 0xffc, v1
\tglobal_store_dword v8, v2, s[2:3]
\ts_endpgm
\t.section .rodata,"a",@progbits
\t.p2align 6, 0x0
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_next_free_vgpr 12
\t\t.amdhsa_next_free_sgpr 24
\t\t.amdhsa_accum_offset 12
\t.end_amdhsa_kernel
"""
DATA = [f"v{i}" for i in range(1, 8)]
ADDRESS = "v_and_b32_e32 v8, 0xffc, {}"   # a data value as a byte offset into the 4 KiB buffer


def _if_block(rng: random.Random, depth: int, labels: list, a: str, b: str) -> list:
    save = f"s[{12 + 2 * depth}:{13 + 2 * depth}]"
    body = [line for _ in range(rng.randrange(1, 5)) for line in _statement(rng, depth + 1, labels)]
    return [f"v_cmp_gt_u32_e32 vcc, {a}, {b}", f"s_and_saveexec_b64 {save}, vcc", *body, f"s_or_b64 exec, exec, {save}"]


def _statement(rng: random.Random, depth: int, labels: list) -> list:
    """_statement is one random fragment, as source lines."""
    d, a, b = rng.choice(DATA), rng.choice(DATA), rng.choice(DATA)
    nest = depth < 2
    pick = rng.randrange(23)
    if pick == 0:
        return [f"v_add_u32_e32 {d}, {a}, {b}"]
    if pick == 1:
        return [f"v_xor_b32_e32 {d}, {a}, {b}"]
    if pick == 2:
        return [f"v_mul_lo_u32 {d}, {a}, {b}"]
    if pick == 3:
        return [ADDRESS.format(a), f"global_load_dword {d}, v8, s[2:3]", "s_waitcnt vmcnt(0)"]
    if pick == 4:
        return [ADDRESS.format(a), f"global_store_dword v8, {b}, s[2:3]", "s_waitcnt vmcnt(0)"]
    if pick == 5:
        return [f"v_cmp_gt_u32_e32 vcc, {a}, {b}", f"v_cndmask_b32_e32 {d}, {a}, {b}, vcc"]
    if pick == 6:
        return [f"v_cmp_lt_u32_e64 s[6:7], {a}, {b}"]
    if pick == 7:
        return [f"v_cndmask_b32_e64 {d}, {a}, {b}, s[6:7]"]
    if pick == 8:
        return [f"v_mov_b32_dpp {d}, {a} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]
    if pick == 9:
        return [f"v_readfirstlane_b32 s10, {a}", "s_and_b32 s10, s10, 0xffc", f"v_mov_b32_e32 {d}, s10"]
    if pick == 10:
        return [f"ds_swizzle_b32 {d}, {b} offset:swizzle(SWAP,1)", "s_waitcnt lgkmcnt(0)"]
    if pick == 11 and nest:
        return _if_block(rng, depth, labels, a, b)
    if pick == 12:
        labels.append(len(labels))
        label = f".Lskip{labels[-1]}"
        body = ([line for _ in range(rng.randrange(1, 4)) for line in _statement(rng, depth + 1, labels)]
                if nest else [f"v_add_u32_e32 {d}, 1, {a}"])
        return [f"v_cmp_eq_u32_e32 vcc, {a}, {b}", f"s_cbranch_vccz {label}", *body, f"{label}:"]
    if pick == 13:
        return [f"v_cmp_ne_u32_e32 vcc, {a}, {b}", f"v_addc_co_u32_e32 {d}, vcc, {a}, {b}, vcc"]
    if pick == 14:
        return [ADDRESS.format(a), "v_cndmask_b32_e64 v8, v8, 0, s[6:7]", f"global_load_dword {d}, v8, s[2:3]",
                "s_waitcnt vmcnt(0)"]
    if pick == 15 and nest:   # rewritten inside an if, then read across lanes as an address
        save = f"s[{12 + 2 * depth}:{13 + 2 * depth}]"
        return [f"v_mul_lo_u32 {a}, {a}, {b}", f"v_cmp_gt_u32_e32 vcc, {d}, {b}", f"s_and_saveexec_b64 {save}, vcc",
                f"v_add_u32_e32 {a}, 1, {d}", f"v_mov_b32_dpp v9, {a} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                ADDRESS.format("v9"), f"global_load_dword {d}, v8, s[2:3]", "s_waitcnt vmcnt(0)",
                f"s_or_b64 exec, exec, {save}"]
    if pick == 16:   # a scalar compare and branch, with something that may or may not set SCC between
        labels.append(len(labels))
        label = f".Lscc{labels[-1]}"
        between = rng.choice(["s_mov_b32 s19, s16", "s_and_b32 s19, s16, 1", "s_mul_i32 s19, s16, 3",
                              "s_add_u32 s19, s16, s17", "s_bfm_b32 s19, 3, 2"])
        return [f"v_readfirstlane_b32 s16, {a}", "s_cmp_lt_u32 s16, 0x800", between, f"s_cbranch_scc1 {label}",
                f"v_add_u32_e32 {d}, 3, {b}", f"{label}:"]
    if pick == 17:   # lanes read out, combined in SGPRs, then used as data or as an address
        use = ([f"v_mov_b32_e32 {d}, s16"] if rng.random() < 0.5 else
               ["s_and_b32 s16, s16, 0xffc", "v_mov_b32_e32 v8, s16", f"global_load_dword {d}, v8, s[2:3]",
                "s_waitcnt vmcnt(0)"])
        return [f"v_readlane_b32 s16, {a}, 5", f"v_readlane_b32 s17, {b}, 40", "s_min_u32 s16, s16, s17", *use]
    if pick == 18:   # SCC read by selects and conditional moves
        select = rng.choice(["s_cselect_b32 s18, s16, s17", "s_cmov_b32 s18, s17", "s_cmovk_i32 s18, 0x80",
                             "s_bitset1_b32 s18, 2"])
        return [f"v_readfirstlane_b32 s16, {a}", "s_cmp_gt_u32 s16, s17", select, "s_and_b32 s19, s18, 0xffc",
                "v_mov_b32_e32 v8, s19", f"global_load_dword {d}, v8, s[2:3]", "s_waitcnt vmcnt(0)"]
    if pick == 19:   # a 64-bit scalar add through the carry
        return [f"v_readfirstlane_b32 s16, {a}", "s_add_u32 s16, s16, s17", "s_addc_u32 s18, s18, 0",
                "s_and_b32 s19, s18, 0xffc", "v_mov_b32_e32 v8, s19", f"global_load_dword {d}, v8, s[2:3]",
                "s_waitcnt vmcnt(0)"]
    if pick == 20:   # a 64-bit shift or multiply-add, its low half, high half or carry used as data or address
        p, q = rng.choice((2, 4, 6)), rng.choice((2, 4, 6))   # (gfx942 takes only even-aligned register pairs)
        op = rng.choice([f"v_mad_u64_u32 v[10:11], s[20:21], {a}, 4, v[{p}:{p + 1}]",
                         f"v_lshlrev_b64 v[10:11], 2, v[{p}:{p + 1}]",
                         f"v_lshl_add_u64 v[10:11], v[{p}:{p + 1}], 2, v[{q}:{q + 1}]"])
        use = rng.choice([[ADDRESS.format("v10"), f"global_load_dword {d}, v8, s[2:3]", "s_waitcnt vmcnt(0)"],
                          [ADDRESS.format("v11"), f"global_load_dword {d}, v8, s[2:3]", "s_waitcnt vmcnt(0)"],
                          [f"v_mov_b32_e32 {d}, v11"], [f"v_mov_b32_e32 {d}, v10"],
                          ["s_and_b32 s19, s20, 0xffc", "v_mov_b32_e32 v8, s19", f"global_load_dword {d}, v8, s[2:3]",
                           "s_waitcnt vmcnt(0)"]])
        return [op, *use]
    if pick == 21:   # a scalar load through a base the kernel computed, its value used as data or as an address
        use = rng.choice([[f"v_mov_b32_e32 {d}, s19"],
                          ["s_and_b32 s19, s19, 0xffc", "v_mov_b32_e32 v8, s19", f"global_load_dword {d}, v8, s[2:3]",
                           "s_waitcnt vmcnt(0)"]])
        word = rng.randrange(4)
        store = ([f"v_mov_b32_e32 v8, {0x40 + 4 * word}", f"global_store_dword v8, {b}, s[2:3]", "s_waitcnt vmcnt(0)"]
                 if rng.random() < 0.5 else [])   # the word it loads, written first (by every lane: the last wins)
        return [*store, "s_add_u32 s4, s2, 0x40", "s_addc_u32 s5, s3, 0", f"s_load_dword s19, s[4:5], {4 * word}",
                "s_waitcnt lgkmcnt(0)", *use]
    return [f"v_sub_u32_e32 {d}, {a}, {b}"]


def random_kernel_text(seed: int) -> str:
    """random_kernel_text is a runnable gfx942 kernel of 8 to 30 random fragments (seeded)."""
    rng = random.Random(seed)
    labels: list = []
    lines = [line for _ in range(rng.randrange(8, 30)) for line in _statement(rng, 0, labels)]
    body = "".join(line + "\n" if line.endswith(":") else f"\t{line}\n" for line in lines)
    return HEAD.format(seed=seed) + body + TAIL


@pytest.fixture(scope="module")
def cdna3():
    return load_arch("cdna3")


def test_random_programs_time_the_same_with_their_values_and_with_the_slice(tmp_path, cdna3):
    different, skipped_some = [], 0
    for seed in range(PROGRAMS):
        path = tmp_path / f"k{seed}.s"
        path.write_text(random_kernel_text(seed))
        kernel = gpusim.load_kernel(path)
        skipped_some += not value_slice(kernel.program).all()
        full, sliced = time_kernel(kernel, cdna3), time_kernel(kernel, cdna3, values=False)
        if not (full.cycles == sliced.cycles and full.counters == sliced.counters
                and np.array_equal(full.instruction_counts, sliced.instruction_counts)):
            different.append((seed, full.cycles, sliced.cycles))
    assert different == []
    assert skipped_some > PROGRAMS // 2   # the slice leaves something out of most of them (of all 200, when written)
