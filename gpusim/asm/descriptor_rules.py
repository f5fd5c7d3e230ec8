"""descriptor_rules: the values an ``.amdhsa_kernel`` block may give its fields, as llvm-mc 19 checks them.

The kernel descriptor (LLVM AMDGPUUsage, "Kernel Descriptor") packs most ``.amdhsa_*`` values into bit fields
of COMPUTE_PGM_RSRC1/2/3 and kernel_code_properties; the assembler refuses a value its field cannot hold
("value out of range") and a few combinations. The rules below are llvm-mc-19's for gfx90a and gfx940-gfx942,
each found by assembling the field's boundary values with ``llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=...``
(``tests/asm/test_descriptor_rules.py`` runs that comparison when llvm-mc-19 is installed):

- one-bit flags take 0 or 1; the float modes and ``system_vgpr_workitem_id`` two bits (0..3); the segment
  sizes 32 bits; ``user_sgpr_count`` 0..31; ``user_sgpr_kernarg_preload_length`` 0..16 and its offset 0..511;
- ``user_sgpr_count``, when given, is at least the user SGPRs the enabled ones imply (private segment
  buffer 4, dispatch pointer, queue pointer, kernarg segment pointer, dispatch id and flat scratch init 2
  each, private segment size 1, plus the preloaded kernarg dwords);
- preloaded kernarg dwords (length + offset) fit a given nonzero ``kernarg_size``;
- fields of other generations are refused (gfx10+: ``forward_progress``, ``memory_ordered``,
  ``wavefront_size32``, ``workgroup_processor_mode``; gfx10 and gfx11: ``shared_vgpr_count``; gfx11+:
  ``inst_pref_size``, which llvm-mc 19 does not know; gfx12+: ``round_robin_scheduling``), and with
  architected flat scratch (gfx940-gfx942) the scratch set-up fields a gfx90a kernel uses, which gfx90a
  refuses ``enable_private_segment`` for in turn.

A block without ``user_sgpr_count`` gets the implied count (``implied_user_sgprs``), as the assembler writes it.

Departures: llvm-mc 19 truncates ``user_sgpr_count`` to 32 bits before its check, so it takes 2^32 as 0;
gpusim refuses it with every other value above 31. ``next_free_sgpr`` and ``next_free_vgpr`` (llvm-mc:
0..102 and 0..512) are checked against the architecture file instead (gpusim.arch.occupancy: cdna3's 102
SGPRs, and at most 256 arch VGPRs and 256 AGPRs, which refuses some unified counts llvm-mc takes), as are
``accum_offset`` and the LDS size. llvm-mc also refuses a ``reserve_xnack_mask`` that disagrees with the
target id's xnack mode (1 unless ``:xnack-``); gpusim does not check it, since a code object's descriptor
(gpusim.frontends.code_object) is read back with its reserves at 0, the SGPR granules holding them.
"""
from __future__ import annotations

from typing import Mapping, Optional

_ONE_BIT = (
    "dx10_clamp", "enable_private_segment", "exception_fp_denorm_src", "exception_fp_ieee_div_zero",
    "exception_fp_ieee_inexact", "exception_fp_ieee_invalid_op", "exception_fp_ieee_overflow",
    "exception_fp_ieee_underflow", "exception_int_div_zero", "fp16_overflow", "ieee_mode", "reserve_flat_scratch",
    "reserve_vcc", "reserve_xnack_mask", "system_sgpr_private_segment_wavefront_offset",
    "system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y", "system_sgpr_workgroup_id_z",
    "system_sgpr_workgroup_info", "tg_split", "user_sgpr_dispatch_id", "user_sgpr_dispatch_ptr",
    "user_sgpr_flat_scratch_init", "user_sgpr_kernarg_segment_ptr", "user_sgpr_private_segment_buffer",
    "user_sgpr_private_segment_size", "user_sgpr_queue_ptr", "uses_dynamic_stack")
_TWO_BITS = ("float_denorm_mode_16_64", "float_denorm_mode_32", "float_round_mode_16_64", "float_round_mode_32",
             "system_vgpr_workitem_id")
# field -> (lowest, highest) value the assembler takes
RANGES: dict[str, tuple[int, int]] = {
    **{f: (0, 1) for f in _ONE_BIT}, **{f: (0, 3) for f in _TWO_BITS},
    "group_segment_fixed_size": (0, (1 << 32) - 1), "private_segment_fixed_size": (0, (1 << 32) - 1),
    "kernarg_size": (0, (1 << 32) - 1), "user_sgpr_count": (0, 31), "user_sgpr_kernarg_preload_length": (0, 16),
    "user_sgpr_kernarg_preload_offset": (0, 511),
}
# the user SGPRs each enabled field takes (the order the hardware loads them in)
IMPLIED_USER_SGPRS = {"user_sgpr_private_segment_buffer": 4, "user_sgpr_dispatch_ptr": 2, "user_sgpr_queue_ptr": 2,
                      "user_sgpr_kernarg_segment_ptr": 2, "user_sgpr_dispatch_id": 2,
                      "user_sgpr_flat_scratch_init": 2, "user_sgpr_private_segment_size": 1}
OTHER_GENERATIONS = {"forward_progress": "gfx10+", "memory_ordered": "gfx10+", "wavefront_size32": "gfx10+",
                     "workgroup_processor_mode": "gfx10+", "shared_vgpr_count": "gfx10 or gfx11",
                     "inst_pref_size": "gfx11+", "round_robin_scheduling": "gfx12+"}
# scratch set-up that architected flat scratch (gfx940-gfx942) does in hardware
FLAT_SCRATCH_SETUP = ("reserve_flat_scratch", "system_sgpr_private_segment_wavefront_offset",
                      "user_sgpr_flat_scratch_init", "user_sgpr_private_segment_buffer")
ARCHITECTED_FLAT_SCRATCH = ("gfx940", "gfx941", "gfx942")


def implied_user_sgprs(values: Mapping[str, int]) -> int:
    """implied_user_sgprs is the user SGPR count the enabled ``.amdhsa_user_sgpr_*`` fields and the preloaded
    kernarg dwords imply: what the assembler writes for ``.amdhsa_user_sgpr_count`` when it is not given."""
    return (sum(n for field, n in IMPLIED_USER_SGPRS.items() if values.get(field, 0))
            + values.get("user_sgpr_kernarg_preload_length", 0))


def descriptor_problem(values: Mapping[str, int], processor: Optional[str]) -> Optional[tuple[Optional[str], str]]:
    """descriptor_problem returns (field, what is wrong) for the first value of ``values`` (field name without
    ``.amdhsa_`` -> value) that llvm-mc 19 refuses, the field None for a rule over the whole block; None when
    every value passes. ``processor`` (gfx90a, gfx942, ...) enables the rules that depend on it, None skips
    them."""
    for field, value in values.items():
        if field in OTHER_GENERATIONS:
            return field, f"'.amdhsa_{field}' is for {OTHER_GENERATIONS[field]} kernels, not gfx9"
        lo, hi = RANGES.get(field, (0, None))
        if value < lo or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            return field, f"'.amdhsa_{field}' {value} is out of range ({span})"
    if processor in ARCHITECTED_FLAT_SCRATCH:
        for field in FLAT_SCRATCH_SETUP:
            if field in values:
                return field, f"'.amdhsa_{field}' is not supported with architected flat scratch ({processor})"
    elif processor is not None and "enable_private_segment" in values:
        return "enable_private_segment", (f"'.amdhsa_enable_private_segment' needs architected flat scratch, "
                                          f"which {processor} does not have")
    implied = implied_user_sgprs(values)
    if "user_sgpr_count" in values and values["user_sgpr_count"] < implied:
        return "user_sgpr_count", (f"'.amdhsa_user_sgpr_count' {values['user_sgpr_count']} is smaller than the "
                                   f"{implied} user SGPRs the enabled '.amdhsa_user_sgpr_*' fields imply")
    preload = values.get("user_sgpr_kernarg_preload_length", 0)
    dwords = preload + values.get("user_sgpr_kernarg_preload_offset", 0)
    kernarg = values.get("kernarg_size", 0)
    if preload and kernarg and dwords * 4 > kernarg:
        return "user_sgpr_kernarg_preload_length", (f"kernarg preload of {dwords} dwords (length + offset) is "
                                                    f"larger than the {kernarg}-byte kernarg segment")
    return None
