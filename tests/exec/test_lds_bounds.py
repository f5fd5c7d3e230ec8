"""LDS accesses stay inside the workgroup's allocation: outside it a kernel faults, and offsets llvm-mc
refuses are refused at load time.

The executor's LDS row is exactly ``.amdhsa_group_segment_fixed_size`` bytes, so a kernel that allocates no
LDS faults on its first ds_* access (it used to get 4 bytes of slack that hid the bug). ds_read2/ds_write2
offsets are 8-bit element counts: a negative one would move the access below the lane's address.
"""
from __future__ import annotations

import pytest

from exec_support import fixture_path
from test_register_reach import HEAD, TAIL

from gpusim import api
from gpusim.errors import AsmError, KernelFault

MODES = {"functional": {}, "timed": {"timing": True, "check": False}, "timed-sliced": {"timing": True, "outputs": False}}


@pytest.mark.parametrize("mode", MODES)
def test_an_lds_access_in_a_kernel_without_lds_faults(mode):
    kernel = api.load_kernel(fixture_path("fault_lds_unallocated.s"))
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", **MODES[mode])
    msg = str(info.value)
    assert ("kernel 'lds_unallocated' faulted: LDS access outside the workgroup's allocation at LDS offset 0 "
            "(allocation 0 bytes); a kernel that takes dynamic LDS at launch gets it from lds=BYTES on the "
            "gpusim-launch line (a Triton kernel: its compiled metadata's 'shared'); pc 0x4 'ds_write_b32 v1, v0', "
            "workgroup (0, 0, 0), wave 0, lane 0") in msg
    assert info.value.loc.line == 11


@pytest.mark.parametrize("offsets, message", [
    ("offset1:-1", "offset0/offset1 of ds_*2 must be 0..255"),
    ("offset1:256", "offset0/offset1 of ds_*2 must be 0..255"),
    ("offset0:-4 offset1:1", "offset -4 is out of range for DS instructions on gfx942 (0..65535)"),
])
def test_a_ds_read2_offset_outside_0_to_255_is_refused(tmp_path, offsets, message):
    path = tmp_path / "k.s"
    path.write_text(HEAD + f"\tds_read2_b32 v[2:3], v0 {offsets}\n" + TAIL.format(nfv=8, acc=8))
    with pytest.raises(AsmError) as info:
        api.load_kernel(path)
    assert message in str(info.value)
    assert info.value.loc.line == 9


WRAP = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
; gpusim-check: dst == 63 - np.arange(64)
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl reverse
\t.p2align 8
\t.type reverse,@function
reverse:
\ts_load_dwordx2 s[2:3], s[0:1], 0x0
\tv_lshlrev_b32_e32 v1, 2, v0
\tds_write_b32 v1, v0
\ts_waitcnt lgkmcnt(0)
\ts_barrier
\tv_sub_u32_e32 v2, 0, v1
\tds_read_b32 v3, v2 offset:252
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dword v1, v3, s[2:3]
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel reverse
\t\t.amdhsa_group_segment_fixed_size 256
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 4
\t\t.amdhsa_next_free_sgpr 4
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
"""


@pytest.mark.parametrize("mode", MODES)
def test_an_address_plus_offset_wraps_in_32_bits(tmp_path, mode):
    # clang folds (63 - tid) * 4 into a base of -4 * tid and offset:252, as a HIP tile reversal compiles:
    # the sum is taken in 32 bits, so every lane reads inside the allocation
    path = tmp_path / "reverse.s"
    path.write_text(WRAP)
    r = api.simulate(api.load_kernel(path), "cdna3", **{**MODES[mode], "check": mode != "timed-sliced"})
    assert mode == "timed-sliced" or (r.checks and all(c.passed for c in r.checks)), [c.describe() for c in r.checks]
    assert mode == "functional" or r.cycles > 0
