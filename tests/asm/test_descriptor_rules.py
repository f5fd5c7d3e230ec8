"""The values an ``.amdhsa_kernel`` block may give its fields: gpusim refuses what llvm-mc 19 refuses (a value
its bit field cannot hold, a field of another generation, too few user SGPRs), at the value, and takes what
it takes. A descriptor value past its field once reached the launch (a private segment of 2^32 bytes packed
into the dispatch packet: a traceback) or ran silently wrong (a user SGPR count below the enabled ones)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

import gpusim
from gpusim.asm.descriptor_rules import FLAT_SCRATCH_SETUP, IMPLIED_USER_SGPRS, OTHER_GENERATIONS, RANGES
from gpusim.errors import AsmError

KERNEL = """\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"
\t.text
k:
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel k
{fields}\t.end_amdhsa_kernel
"""
DEFAULTS = {"next_free_vgpr": 32, "next_free_sgpr": 32, "accum_offset": 4}


def kernel_text(target: str = "gfx942", **fields) -> str:
    values = {**DEFAULTS, **fields}
    return KERNEL.format(target=target, fields="".join(f"\t\t.amdhsa_{k} {v}\n" for k, v in values.items()))


def gpusim_takes(text: str) -> bool:
    try:
        gpusim.kernel_from_text(text, "k.s")
    except AsmError:
        return False
    return True


@pytest.mark.parametrize("fields, phrase", [
    ({"private_segment_fixed_size": 1 << 32}, "'.amdhsa_private_segment_fixed_size' 4294967296 is out of range "
                                              "(0..4294967295)"),
    ({"float_denorm_mode_32": 9}, "'.amdhsa_float_denorm_mode_32' 9 is out of range (0..3)"),
    ({"system_vgpr_workitem_id": 4}, "'.amdhsa_system_vgpr_workitem_id' 4 is out of range (0..3)"),
    ({"ieee_mode": -1}, "'.amdhsa_ieee_mode' -1 is out of range (0..1)"),
    ({"wavefront_size32": 0}, "'.amdhsa_wavefront_size32' is for gfx10+ kernels, not gfx9"),
    ({"reserve_flat_scratch": 0}, "'.amdhsa_reserve_flat_scratch' is not supported with architected flat scratch"),
    ({"user_sgpr_count": 2, "user_sgpr_kernarg_segment_ptr": 1, "user_sgpr_dispatch_ptr": 1},
     "'.amdhsa_user_sgpr_count' 2 is smaller than the 4 user SGPRs"),
])
def test_a_refused_value_is_named_at_its_place(fields, phrase):
    text = kernel_text(**fields)
    with pytest.raises(AsmError) as info:
        gpusim.kernel_from_text(text, "k.s")
    message = str(info.value)
    field = next(iter(fields))
    line = next(n for n, row in enumerate(text.splitlines(), 1) if f".amdhsa_{field} " in row)
    col = text.splitlines()[line - 1].index(f" {fields[field]}", text.splitlines()[line - 1].index(field)) + 2
    assert message.startswith(f"k.s:{line}:{col}: error: {phrase}"), message


def test_gfx90a_takes_the_scratch_set_up_and_refuses_the_architected_field():
    assert gpusim_takes(kernel_text("gfx90a", reserve_flat_scratch=1, user_sgpr_private_segment_buffer=1))
    assert not gpusim_takes(kernel_text("gfx90a", enable_private_segment=1))
    assert gpusim_takes(kernel_text("gfx942", enable_private_segment=1))


def _boundary_cases():
    """(target, fields) at and past every rule's boundary, for the comparison with llvm-mc."""
    cases = []
    for field, (lo, hi) in RANGES.items():
        if field in FLAT_SCRATCH_SETUP or field == "reserve_xnack_mask":   # the latter: a departure, see the module
            continue
        for value in {lo - 1, lo, hi, hi + 1}:
            cases.append(("gfx942", {field: value}))
    for field in OTHER_GENERATIONS:
        cases.append(("gfx942", {field: 0}))
    for field in FLAT_SCRATCH_SETUP:
        cases += [("gfx942", {field: 0}), ("gfx90a", {field: 1})]
    cases += [("gfx90a", {"enable_private_segment": 1}), ("gfx942", {"enable_private_segment": 1})]
    every = {field: 1 for field in IMPLIED_USER_SGPRS if field not in FLAT_SCRATCH_SETUP}
    implied = sum(IMPLIED_USER_SGPRS[f] for f in every)
    cases += [("gfx942", {**every, "user_sgpr_count": implied - 1}), ("gfx942", {**every, "user_sgpr_count": implied})]
    for length, offset, size in ((1, 1, 7), (1, 1, 8), (2, 0, 4), (1, 0, 4), (16, 0, 0)):
        cases.append(("gfx942", {"user_sgpr_kernarg_preload_length": length,
                                 "user_sgpr_kernarg_preload_offset": offset, "kernarg_size": size}))
    return cases


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is needed (apt-get install llvm-19)")
def test_gpusim_takes_what_llvm_mc_takes():
    differ = []
    for target, fields in _boundary_cases():
        text = kernel_text(target, **fields)
        mc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj",
                             "-o", "/dev/null"], input=text, capture_output=True, text=True).returncode == 0
        if mc != gpusim_takes(text):
            differ.append((target, fields, "llvm-mc takes it" if mc else "llvm-mc refuses it"))
    assert not differ, differ


def test_without_a_count_the_user_sgprs_are_the_enabled_ones():
    # no .amdhsa_user_sgpr_count: llvm-mc writes the 2 the kernarg pointer implies, so the workgroup id is s2
    # (it was s0, over the pointer's low half: every workgroup stored through a wrong address)
    text = """; gpusim-launch: grid=2,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[2] out
; gpusim-check: dst == np.arange(2)
""" + KERNEL.format(target="gfx942", fields="\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                    "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n\t\t.amdhsa_next_free_vgpr 8\n"
                    "\t\t.amdhsa_next_free_sgpr 8\n\t\t.amdhsa_accum_offset 4\n").replace(
        "\ts_endpgm\n", "\ts_load_dwordx2 s[0:1], s[0:1], 0x0\n\tv_mov_b32 v0, s2\n\ts_lshl_b32 s3, s2, 2\n"
                        "\tv_mov_b32 v2, s3\n\ts_waitcnt lgkmcnt(0)\n\tglobal_store_dword v2, v0, s[0:1]\n\ts_endpgm\n")
    kernel = gpusim.kernel_from_text(text, "k.s")
    assert kernel.source.descriptor["user_sgpr_count"] == 2
    result = gpusim.simulate(kernel, "cdna3", check=True, timing=False)
    assert result.checks and result.checks_passed
