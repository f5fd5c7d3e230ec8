"""The real gfx90a/gfx942 instructions gpusim does not run, by reason.

llvm-mc-19 takes these, so gpusim refuses them as not supported yet (exit 2) rather than as unknown, and
names the reason (the encoder's hint). tests/asm/test_llvm_coverage.py holds the list to the assembler: every
instruction its disassembler decodes is in gpusim's ISA table or here, and nothing here is in the table.
"""
from __future__ import annotations

# reason -> the instructions, space-separated
NOT_MODELLED = {
    "graphics": (
        "v_cubeid_f32 v_cubema_f32 v_cubesc_f32 v_cubetc_f32 v_screen_partition_4se_b32 v_exp_legacy_f32 "
        "v_log_legacy_f32 s_endpgm_ordered_ps_done s_setvskip"),
    "typed buffer access (the V#'s data and number formats)": " ".join(
        [f"buffer_{op}_format_{c}" for op in ("load", "store") for c in ("x", "xy", "xyz", "xyzw")]
        + [f"buffer_{op}_format_d16_{c}" for op in ("load", "store") for c in ("x", "xy", "xyz", "xyzw", "hi_x")]
        + [f"tbuffer_{op}_format_{c}" for op in ("load", "store") for c in ("x", "xy", "xyz", "xyzw")]
        + [f"tbuffer_{op}_format_d16_{c}" for op in ("load", "store") for c in ("x", "xy", "xyz", "xyzw")]),
    "scalar memory writes and atomics": " ".join(
        [f"s_{space}atomic_{op}{w}" for space in ("", "buffer_")
         for op in ("add", "and", "cmpswap", "dec", "inc", "or", "smax", "smin", "sub", "swap", "umax", "umin",
                    "xor") for w in ("", "_x2")]
        + ["s_buffer_store_dword", "s_buffer_store_dwordx2", "s_buffer_store_dwordx4", "s_dcache_discard",
           "s_dcache_discard_x2", "s_atc_probe", "s_atc_probe_buffer"]
        + [f"s_scratch_{op}_dword{w}" for op in ("load", "store") for w in ("", "x2", "x4")]),
    "trap handler and debugger": (
        "s_rfe_b64 s_rfe_restore_b64 s_sethalt s_endpgm_saved s_cbranch_cdbgsys s_cbranch_cdbguser "
        "s_cbranch_cdbgsys_and_user s_cbranch_cdbgsys_or_user"),
    "GCN's fork and join": "s_cbranch_g_fork s_cbranch_i_fork s_cbranch_join",
    "LDS DMA of bytes and shorts": (
        "global_load_lds_ubyte global_load_lds_sbyte global_load_lds_ushort global_load_lds_sshort "
        "scratch_load_lds_ubyte scratch_load_lds_sbyte scratch_load_lds_ushort scratch_load_lds_sshort"),
    "the LDS conditional exchange, whose operation AMD does not document": "ds_condxchg32_rtn_b64",
    "byte packing conversions whose rounding AMD does not document": "v_cvt_pk_u8_f32 v_cvt_pkaccum_u8_f32",
    "the 128-bit masked quad SAD": "v_mqsad_u32_u8",
    "fp8 stochastic rounding": "v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32",
}
LDS_DMA_HINT = ("gpusim models the dword form of the loads to LDS: global_load_lds_dword, scratch_load_lds_dword "
                "and buffer_load_dword ... lds")
# the ones only gfx942 has (gfx940 added them), by prefix, with what gpusim models instead
GFX942_ONLY = {
    "global_load_lds_": LDS_DMA_HINT, "scratch_load_lds_": LDS_DMA_HINT,
    "v_cvt_sr_": "gpusim models the fp8 conversions that round to nearest: v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32",
}


def _by_name() -> dict[str, str]:
    return {name: reason for reason, names in NOT_MODELLED.items() for name in names.split()}


_REASONS = _by_name()


def not_modelled_reason(mnemonic: str) -> str:
    """not_modelled_reason returns why gpusim does not run the real instruction ``mnemonic``, or ''."""
    return _REASONS.get(mnemonic, "")


def not_modelled(mcpu: str) -> set[str]:
    """not_modelled returns the real instructions of ``mcpu`` ('gfx942' or 'gfx90a') gpusim does not run."""
    return {name for name in _REASONS if not (mcpu == "gfx90a" and name.startswith(tuple(GFX942_ONLY)))}
