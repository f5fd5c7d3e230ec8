"""The value slice: which instructions a timing-only run must compute (gpusim.asm.value_slice).

Each case is a small gfx942 program; the test names the instructions whose
values feed an address, a branch or EXEC (needed) and those that may be skipped.
"""
from __future__ import annotations

import pytest

from gpusim.asm.encoder import encode_module
from gpusim.asm.parser import parse_file
from gpusim.asm.value_slice import value_slice

HEAD = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.p2align 8
.type k,@function
k:
"""


def slice_of(tmp_path, body: str) -> dict:
    """slice_of maps each instruction's source text (comments dropped) to whether it is needed.

    A text that occurs twice maps to None, so a test cannot ask about it by mistake.
    """
    path = tmp_path / "k.s"
    path.write_text(HEAD + body + "  s_endpgm\n")
    program = encode_module(parse_file(str(path)), "gfx942", 64)
    needed = value_slice(program)
    out = {}
    for i in range(len(program)):
        text = program.describe(i).split(";")[0].strip()
        out[text] = None if text in out else bool(needed[i])
    return out


def test_gemm_data_path_is_skipped_and_its_addresses_kept(tmp_path):
    s = slice_of(tmp_path, """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[4:7], v1, s[4:5]
  v_lshlrev_b32_e32 v2, 3, v0
  s_waitcnt vmcnt(0)
  ds_write_b128 v2, v[4:7]
  s_barrier
  ds_read_b64 v[8:9], v2 offset:64
  ds_read_b64 v[10:11], v2 offset:128
  s_waitcnt lgkmcnt(0)
  v_mfma_f32_32x32x8_f16 a[0:15], v[8:9], v[10:11], a[0:15]
  s_nop 15
  v_accvgpr_read_b32 v12, a0
  global_store_dword v1, v12, s[6:7]
""")
    for text in ("s_load_dwordx4 s[4:7], s[0:1], 0x0", "v_lshlrev_b32_e32 v1, 4, v0", "v_lshlrev_b32_e32 v2, 3, v0"):
        assert s[text] is True, text
    for text in ("global_load_dwordx4 v[4:7], v1, s[4:5]", "ds_write_b128 v2, v[4:7]",
                 "ds_read_b64 v[8:9], v2 offset:64", "v_mfma_f32_32x32x8_f16 a[0:15], v[8:9], v[10:11], a[0:15]",
                 "v_accvgpr_read_b32 v12, a0", "global_store_dword v1, v12, s[6:7]"):
        assert s[text] is False, text


def test_a_loaded_pointer_keeps_its_load(tmp_path):
    s = slice_of(tmp_path, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_mov_b32_e32 v2, 0
  s_mov_b32 s8, 0
  s_waitcnt lgkmcnt(0)
.Lloop:
  global_load_dword v1, v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32_e32 v2, 2, v1
  s_add_u32 s8, s8, 1
  s_cmp_lt_u32 s8, 64
  s_cbranch_scc1 .Lloop
""")
    assert s["global_load_dword v1, v2, s[4:5]"] is True and s["v_lshlrev_b32_e32 v2, 2, v1"] is True


def test_a_register_reused_for_data_after_its_last_address_use_is_skipped_there(tmp_path):
    s = slice_of(tmp_path, """
  v_lshlrev_b32_e32 v5, 2, v0
  ds_read_b32 v6, v5
  ds_read_b32 v5, v5 offset:256
  s_waitcnt lgkmcnt(0)
  v_add_f32_e32 v7, v5, v6
""")
    assert s["v_lshlrev_b32_e32 v5, 2, v0"] is True
    assert s["ds_read_b32 v5, v5 offset:256"] is False and s["v_add_f32_e32 v7, v5, v6"] is False


def test_a_write_under_a_narrowed_exec_keeps_the_earlier_writer(tmp_path):
    # v5 is an address after the if-block; inside it only some lanes are rewritten, so both writers count
    s = slice_of(tmp_path, """
  v_lshlrev_b32_e32 v5, 2, v0
  v_cmp_gt_u32_e32 vcc, 32, v0
  s_and_saveexec_b64 s[2:3], vcc
  s_cbranch_execz .Ldone
  v_add_u32_e32 v5, 64, v5
.Ldone:
  s_or_b64 exec, exec, s[2:3]
  ds_read_b32 v6, v5
""")
    assert s["v_lshlrev_b32_e32 v5, 2, v0"] is True and s["v_add_u32_e32 v5, 64, v5"] is True


def test_a_write_after_exec_is_restored_ends_the_earlier_value(tmp_path):
    s = slice_of(tmp_path, """
  v_cmp_gt_u32_e32 vcc, 32, v0
  s_and_saveexec_b64 s[2:3], vcc
  v_mul_f32_e32 v5, v0, v0
  s_or_b64 exec, exec, s[2:3]
  v_lshlrev_b32_e32 v5, 2, v0
  ds_read_b32 v6, v5
""")
    assert s["v_lshlrev_b32_e32 v5, 2, v0"] is True and s["v_mul_f32_e32 v5, v0, v0"] is False


def test_a_half_register_write_keeps_the_writer_of_the_other_half(tmp_path):
    s = slice_of(tmp_path, """
  v_lshlrev_b32_e32 v5, 2, v0
  v_cvt_f16_f32_e32 v6, v0
  v_mov_b32_sdwa v5, v6 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
  ds_read_b32 v7, v5
""")
    assert s["v_lshlrev_b32_e32 v5, 2, v0"] is True
    assert s["v_mov_b32_sdwa v5, v6 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0"] is True


def test_values_stored_and_loaded_back_as_addresses_are_kept(tmp_path):
    s = slice_of(tmp_path, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_mul_u32_u24_e32 v2, 3, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[4:5]
  s_waitcnt vmcnt(0)
  global_load_dword v3, v1, s[4:5]
  s_waitcnt vmcnt(0)
  global_load_dword v4, v3, s[4:5]
""")
    assert s["global_load_dword v3, v1, s[4:5]"] is True and s["global_store_dword v1, v2, s[4:5]"] is True
    assert s["v_mul_u32_u24_e32 v2, 3, v0"] is True
    assert s["global_load_dword v4, v3, s[4:5]"] is False


@pytest.mark.parametrize("base_written", [False, True])
def test_scalar_loads_through_a_loaded_pointer_read_what_the_kernel_stores(tmp_path, base_written):
    # s_load from the kernarg pointer reads launch-time memory; through a loaded pointer it may read a store
    # (its value is an address here: a scalar load whose value feeds only data reads nothing that matters)
    load = "s_load_dword s9, s[4:5], 0x0" if base_written else "s_load_dword s9, s[0:1], 0x8"
    s = slice_of(tmp_path, f"""
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_mul_u32_u24_e32 v2, 3, v0
  v_mov_b32_e32 v1, 0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[4:5]
  s_waitcnt vmcnt(0)
  {load}
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v5, s9
  global_load_dword v6, v5, s[4:5]
""")
    assert s["global_store_dword v1, v2, s[4:5]"] == base_written
    assert s["v_mul_u32_u24_e32 v2, 3, v0"] == base_written


def test_lane_exchanges_feeding_only_data_are_skipped(tmp_path):
    s = slice_of(tmp_path, """
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 1.0
  ds_bpermute_b32 v3, v1, v2
  s_waitcnt lgkmcnt(0)
  v_add_f32_e32 v4, v3, v2
  ds_read_b32 v5, v1
""")
    assert s["v_lshlrev_b32_e32 v1, 2, v0"] is True
    assert s["ds_bpermute_b32 v3, v1, v2"] is False and s["v_mov_b32_e32 v2, 1.0"] is False


_LOAD_HEAD = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
"""


@pytest.mark.parametrize("body, skipped", [
    # clang's f16_math: v_cmp of two loaded values, v_cndmask on VCC, a store; no address or branch reads VCC
    ("""  global_load_dword v3, v1, s[4:5] offset:1024
  s_waitcnt vmcnt(0)
  v_cmp_gt_f32_e32 vcc, v2, v3
  v_cndmask_b32_e32 v4, v3, v2, vcc
  global_store_dword v1, v4, s[6:7]
""", ("v_cmp_gt_f32_e32 vcc, v2, v3", "v_cndmask_b32_e32 v4, v3, v2, vcc", "global_store_dword v1, v4, s[6:7]")),
    # clang's wave_min_swizzle: a wave's minimum read out of two lanes, taken in SGPRs, stored
    ("""  s_waitcnt vmcnt(0)
  v_readlane_b32 s8, v2, 0
  v_readlane_b32 s9, v2, 32
  s_min_u32 s8, s8, s9
  v_mov_b32_e32 v3, s8
  global_store_dword v1, v3, s[6:7]
""", ("v_readlane_b32 s8, v2, 0", "s_min_u32 s8, s8, s9", "v_mov_b32_e32 v3, s8", "global_store_dword v1, v3, s[6:7]")),
], ids=["vcc-select", "scalar-minimum"])
def test_a_result_that_only_reaches_data_is_skipped_with_the_loads_it_reads(tmp_path, body, skipped):
    s = slice_of(tmp_path, _LOAD_HEAD + body)
    assert s["v_lshlrev_b32_e32 v1, 2, v0"] is True and s["s_load_dwordx4 s[4:7], s[0:1], 0x0"] is True
    for text in ("global_load_dword v2, v1, s[4:5]", *skipped):
        assert s[text] is False, text


@pytest.mark.parametrize("reader", [
    "s_cbranch_vccnz .Ldone",                              # reads VCC without naming it
    "v_div_fmas_f32 v5, v1, v1, v1\n  ds_read_b32 v6, v5",  # likewise, and its result is an address
    "s_and_b64 s[6:7], vcc, exec\n  s_cmp_eq_u64 s[6:7], 0\n  s_cbranch_scc1 .Ldone",
])
def test_a_compare_whose_vcc_steers_a_branch_or_an_address_is_computed(tmp_path, reader):
    s = slice_of(tmp_path, f"""
  v_mul_f32_e32 v1, v0, v0
  v_cmp_gt_f32_e32 vcc, 0, v1
  {reader}
.Ldone:
""")
    assert s["v_cmp_gt_f32_e32 vcc, 0, v1"] is True and s["v_mul_f32_e32 v1, v0, v0"] is True


def test_a_readlane_is_computed_only_when_its_scalar_is_read(tmp_path):
    s = slice_of(tmp_path, """
  v_mul_f32_e32 v1, v0, v0
  v_readfirstlane_b32 s4, v1
  v_add_f32_e32 v2, v0, v0
  v_readfirstlane_b32 s5, v2
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc1 .Ldone
  v_cmpx_gt_f32_e32 vcc, 0, v0
.Ldone:
""")
    assert s["v_readfirstlane_b32 s4, v1"] is True and s["v_mul_f32_e32 v1, v0, v0"] is True
    assert s["v_readfirstlane_b32 s5, v2"] is False and s["v_add_f32_e32 v2, v0, v0"] is False
    assert s["v_cmpx_gt_f32_e32 vcc, 0, v0"] is True  # it writes EXEC


@pytest.mark.parametrize("between, compare_needed", [
    ("s_mov_b32 s6, 1", True),               # leaves SCC as the compare set it
    ("s_bfm_b32 s6, 4, 2", True),            # likewise
    ("s_and_b32 s6, s7, 3", False),          # sets SCC itself: the branch reads its SCC, not the compare's
])
def test_scc_is_followed_from_its_writer_to_the_branch(tmp_path, between, compare_needed):
    s = slice_of(tmp_path, f"""
  v_readfirstlane_b32 s4, v0
  s_cmp_eq_u32 s4, 0
  {between}
  s_cbranch_scc1 .Ldone
  v_mov_b32_e32 v1, 0
.Ldone:
""")
    assert s["s_cmp_eq_u32 s4, 0"] is compare_needed
    assert s["v_readfirstlane_b32 s4, v0"] is compare_needed
    assert s[between] is (not compare_needed)   # s6 is read by nothing; only its SCC can be needed


@pytest.mark.parametrize("use", [
    "s_cselect_b32 s6, s7, 64",          # reads SCC
    "s_cmov_b32 s6, s7",                 # reads SCC and keeps s6 when SCC is clear
    "s_addc_u32 s6, s7, 0",              # reads SCC as its carry in
])
def test_scalar_instructions_that_read_scc_keep_its_writer_when_they_feed_an_address(tmp_path, use):
    s = slice_of(tmp_path, f"""
  s_mov_b32 s6, 128
  s_mov_b32 s7, 256
  v_readfirstlane_b32 s4, v0
  s_cmp_eq_u32 s4, 0
  {use}
  v_mov_b32_e32 v1, s6
  ds_read_b32 v2, v1
""")
    assert s["s_cmp_eq_u32 s4, 0"] is True and s[use] is True and s["s_mov_b32 s7, 256"] is True
    assert s["s_mov_b32 s6, 128"] is (use.startswith("s_cmov"))


@pytest.mark.parametrize("reader, earlier_needed", [
    ("ds_read_b32 v6, v5", False),                                     # reads its own lanes under the same EXEC
    ("v_mov_b32_dpp v7, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n  ds_read_b32 v6, v7", True),
    ("s_or_b64 exec, exec, s[2:3]\n  ds_read_b32 v6, v5", True),      # after EXEC is restored
])
def test_a_write_under_a_narrowed_exec_ends_the_earlier_value_for_readers_of_the_same_lanes(
        tmp_path, reader, earlier_needed):
    # clang's silu_to_f16: inside the if, a data register is rewritten with an address and read as one
    s = slice_of(tmp_path, f"""
  v_mul_f32_e32 v5, v0, v0
  v_cmp_gt_u32_e32 vcc, 32, v0
  s_and_saveexec_b64 s[2:3], vcc
  v_lshlrev_b32_e32 v5, 2, v0
  {reader}
""")
    assert s["v_lshlrev_b32_e32 v5, 2, v0"] is True
    assert s["v_mul_f32_e32 v5, v0, v0"] is earlier_needed


def test_a_computed_jump_keeps_every_value(tmp_path):
    s = slice_of(tmp_path, """
  v_mul_f32_e32 v1, v0, v0
  s_getpc_b64 s[4:5]
  s_setpc_b64 s[4:5]
""")
    assert s["v_mul_f32_e32 v1, v0, v0"] is True


def _program(tmp_path, body: str):
    path = tmp_path / "k.s"
    path.write_text(HEAD + body + "  s_endpgm\n")
    return encode_module(parse_file(str(path)), "gfx942", 64)


@pytest.mark.parametrize("body, reads", [
    # data only: the loaded value is stored, never an address -> no buffer contents needed
    ("  s_load_dwordx4 s[4:7], s[0:1], 0x0\n  v_lshlrev_b32_e32 v1, 2, v0\n  s_waitcnt lgkmcnt(0)\n"
     "  global_load_dword v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n  global_store_dword v1, v2, s[6:7]\n", False),
    # a pointer chase: the loaded value is the next address
    ("  s_load_dwordx2 s[4:5], s[0:1], 0x0\n  v_mov_b32_e32 v2, 0\n  s_waitcnt lgkmcnt(0)\n"
     "  global_load_dword v1, v2, s[4:5]\n  s_waitcnt vmcnt(0)\n  v_lshlrev_b32_e32 v2, 2, v1\n"
     "  global_load_dword v3, v2, s[4:5]\n", True),
    # a scalar load through a loaded pointer reads a buffer, not the kernarg segment
    ("  s_load_dwordx2 s[4:5], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n  s_load_dword s6, s[4:5], 0x0\n"
     "  s_waitcnt lgkmcnt(0)\n  s_cmp_eq_u32 s6, 0\n", True),
])
def test_reads_buffers_says_when_a_timing_run_needs_buffer_contents(tmp_path, body, reads):
    from gpusim.asm.value_slice import reads_buffers
    program = _program(tmp_path, body)
    assert reads_buffers(program, value_slice(program)) is reads


# v[2:3]: a work-item index in its low half and, in its high half, a loaded value that only data should need
LOADED_HIGH_HALF = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 2, v0
  global_load_dword v3, v1, s[4:5]
  v_mov_b32_e32 v2, v0
  s_waitcnt vmcnt(0)
"""


def test_a_64_bit_mad_whose_high_half_is_dead_needs_only_its_addends_low_half(tmp_path):
    # clang computes a 32-bit offset as the low half of v_mad_u64_u32 with a register pair whose high half
    # holds whatever it held last, here a loaded value; the load must not enter the slice through it
    s = slice_of(tmp_path, LOADED_HIGH_HALF + """  v_mad_u64_u32 v[4:5], s[8:9], v0, 4, v[2:3]
  v_ashrrev_i32_e32 v5, 31, v4
  global_store_dword v[4:5], v3, off
""")
    for text in ("v_mov_b32_e32 v2, v0", "v_mad_u64_u32 v[4:5], s[8:9], v0, 4, v[2:3]", "v_ashrrev_i32_e32 v5, 31, v4"):
        assert s[text] is True, text
    assert s["global_load_dword v3, v1, s[4:5]"] is False
    assert s["global_store_dword v[4:5], v3, off"] is False


@pytest.mark.parametrize("high_half_read", [
    "global_store_dword v[4:5], v3, off",                      # the whole 64-bit result is the address
    "v_lshl_add_u64 v[6:7], v[4:5], 0, s[6:7]\n  global_store_dword v[6:7], v3, off",  # read as a 64-bit source
])
def test_a_64_bit_mad_whose_high_half_is_live_needs_its_whole_addend(tmp_path, high_half_read):
    s = slice_of(tmp_path, LOADED_HIGH_HALF + f"""  v_mad_u64_u32 v[4:5], s[8:9], v0, 4, v[2:3]
  {high_half_read}
""")
    assert s["global_load_dword v3, v1, s[4:5]"] is True


def test_a_64_bit_mad_whose_carry_out_is_read_needs_its_whole_addend(tmp_path):
    s = slice_of(tmp_path, LOADED_HIGH_HALF + """  v_mad_u64_u32 v[4:5], vcc, v0, 4, v[2:3]
  s_cbranch_vccz .Lend
  v_add_u32_e32 v4, 4, v4
.Lend:
  global_store_dword v4, v3, s[6:7]
""")
    assert s["global_load_dword v3, v1, s[4:5]"] is True


def test_a_64_bit_shift_left_whose_high_half_is_dead_needs_only_its_sources_low_half(tmp_path):
    s = slice_of(tmp_path, LOADED_HIGH_HALF + """  v_lshlrev_b64 v[4:5], 2, v[2:3]
  global_store_dword v4, v3, s[6:7]
""")
    assert s["v_lshlrev_b64 v[4:5], 2, v[2:3]"] is True
    assert s["global_load_dword v3, v1, s[4:5]"] is False


@pytest.mark.parametrize("use, memory_carries_values", [
    ("v_mul_f32_e32 v2, s10, v2", False),   # the scalar load's value is only data
    ("v_add_u32_e32 v1, s10, v1", True),    # it is an address: memory carries values, so every store counts
])
def test_a_scalar_load_counts_as_reading_memory_only_where_its_value_is_needed(tmp_path, use, memory_carries_values):
    s = slice_of(tmp_path, f"""
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_add_u32 s8, s4, 64
  s_addc_u32 s9, s5, 0
  s_load_dword s10, s[8:9], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  {use}
  global_store_dword v1, v2, s[6:7]
""")
    assert s["s_load_dword s10, s[8:9], 0x0"] is True   # a root: its address is computed and checked either way
    assert s["global_store_dword v1, v2, s[6:7]"] is memory_carries_values
    assert s["global_load_dword v2, v1, s[4:5]"] is memory_carries_values


LDS_DMA = """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_mov_b32 m0, 0
  s_waitcnt lgkmcnt(0)
  global_load_lds_dword v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_barrier
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
"""


def test_a_load_into_the_lds_is_needed_only_when_what_it_loads_steers(tmp_path):
    # global_load_lds_dword stores to the LDS: needed when a needed instruction reads the LDS (here once
    # the value read back becomes an address), not when that value only reaches a store's data
    s = slice_of(tmp_path, LDS_DMA)
    assert s["global_load_lds_dword v1, s[4:5]"] is False
    assert s["ds_read_b32 v2, v1"] is False
    s = slice_of(tmp_path, LDS_DMA.replace("global_store_dword v1, v2, s[6:7]", "global_store_dword v2, v1, s[6:7]"))
    assert s["global_load_lds_dword v1, s[4:5]"] is True
    assert s["ds_read_b32 v2, v1"] is True
