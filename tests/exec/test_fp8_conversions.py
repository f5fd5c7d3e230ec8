"""gfx942's fp8 conversions against a brute-force numpy reference.

v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 round two f32 to the FNUZ formats (e4m3fnuz, e5m2fnuz) to nearest,
ties to even, into one 16-bit half of the destination (op_sel[3] the high one), keeping the other: a
value past the largest finite one after rounding, an infinity or a NaN gives NaN (0x80; FNUZ has no
infinity and no negative zero). v_cvt_f32_fp8 / v_cvt_f32_bf8 widen the byte SDWA's src0_sel picks (byte
0 without SDWA), v_cvt_pk_f32_fp8 / v_cvt_pk_f32_bf8 the two bytes of the word it picks.

The reference knows nothing of exponents: it lists the 255 values of each format and picks the nearest,
the even code on a tie, with the first value past the largest (the next power of two) standing for
overflow. The inputs cover the ties (the integers 0-255), the normal range, the subnormals and random
bit patterns (infinities, NaNs, f32 subnormals).
"""
from __future__ import annotations

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc

from gpusim import api

KERNEL = """; gpusim-launch: grid=4,1,1 block=64,1,1
; gpusim-arg: ties buffer f32[256] init=arange
; gpusim-arg: wide buffer f32[256] init=uniform(-70000,70000) seed=1
; gpusim-arg: small buffer f32[256] init=normal(0,0.002) seed=2
; gpusim-arg: raw buffer u32[256] init=randint(0,4294967295) seed=3
; gpusim-arg: packed buffer u32[256, 2] out
; gpusim-arg: back buffer f32[256, 16] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl fp8
\t.p2align 8
\t.type fp8,@function
fp8:
\ts_load_dwordx8 s[4:11], s[0:1], 0x0
\ts_load_dwordx4 s[12:15], s[0:1], 0x20
\ts_lshl_b32 s3, s2, 6
\tv_add_u32_e32 v1, s3, v0
\tv_lshlrev_b32_e32 v2, 2, v1
\ts_waitcnt lgkmcnt(0)
\tglobal_load_dword v3, v2, s[4:5]
\tglobal_load_dword v4, v2, s[6:7]
\tglobal_load_dword v5, v2, s[8:9]
\tglobal_load_dword v6, v2, s[10:11]
\ts_waitcnt vmcnt(0)
\tv_mov_b32_e32 v10, -1
\tv_cvt_pk_fp8_f32 v10, v3, v4
\tv_cvt_pk_fp8_f32 v10, v5, v6 op_sel:[0,0,1]
\tv_mov_b32_e32 v11, 0
\tv_cvt_pk_bf8_f32 v11, v3, v4
\tv_cvt_pk_bf8_f32 v11, -v5, |v6| op_sel:[0,0,1]
\tv_lshlrev_b32_e32 v7, 3, v1
\tglobal_store_dwordx2 v7, v[10:11], s[12:13]
\tv_cvt_f32_fp8_e32 v12, v10
\tv_cvt_f32_fp8_sdwa v13, v10 src0_sel:BYTE_1
\tv_cvt_f32_fp8_sdwa v14, v10 src0_sel:BYTE_2
\tv_cvt_f32_fp8_sdwa v15, v10 src0_sel:BYTE_3
\tv_cvt_pk_f32_fp8_e32 v[16:17], v10
\tv_cvt_pk_f32_fp8_sdwa v[18:19], v10 src0_sel:WORD_1
\tv_cvt_f32_bf8_e32 v20, v11
\tv_cvt_f32_bf8_sdwa v21, v11 src0_sel:BYTE_1
\tv_cvt_f32_bf8_sdwa v22, v11 src0_sel:BYTE_2
\tv_cvt_f32_bf8_sdwa v23, v11 src0_sel:BYTE_3
\tv_cvt_pk_f32_bf8_e32 v[24:25], v11
\tv_cvt_pk_f32_bf8_sdwa v[26:27], v11 src0_sel:WORD_1
\tv_lshlrev_b32_e32 v8, 6, v1
\tglobal_store_dwordx4 v8, v[12:15], s[14:15]
\tglobal_store_dwordx4 v8, v[16:19], s[14:15] offset:16
\tglobal_store_dwordx4 v8, v[20:23], s[14:15] offset:32
\tglobal_store_dwordx4 v8, v[24:27], s[14:15] offset:48
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel fp8
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_next_free_vgpr 28
\t\t.amdhsa_next_free_sgpr 16
\t\t.amdhsa_accum_offset 28
\t.end_amdhsa_kernel
"""
# (exponent bits, mantissa bits, bias) of e4m3fnuz and e5m2fnuz
FORMATS = {"fp8": (4, 3, 8), "bf8": (5, 2, 16)}


def _values(fmt: str) -> np.ndarray:
    """_values is the value of each of the 256 codes of ``fmt`` (code 0x80 NaN)."""
    e_bits, m_bits, bias = FORMATS[fmt]
    out = np.empty(256)
    for code in range(256):
        e, m = (code >> m_bits) & ((1 << e_bits) - 1), code & ((1 << m_bits) - 1)
        mag = m / (1 << m_bits) * 2.0 ** (1 - bias) if e == 0 else (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)
        out[code] = -mag if code & 0x80 else mag
    out[0x80] = np.nan
    return out


def _encode(x: np.ndarray, fmt: str) -> np.ndarray:
    """_encode is the code of each f32 of ``x`` in ``fmt``, by brute force over the non-negative codes."""
    values = _values(fmt)[:128]
    overflow = 2.0 ** (2 ** FORMATS[fmt][0] - 1 - FORMATS[fmt][2] + 1)   # the power of two past the largest
    grid = np.append(values, overflow)
    out = np.empty(x.shape, np.uint8)
    for n, v in enumerate(x.astype(np.float64).ravel()):
        if not np.isfinite(v) or abs(v) >= overflow:   # (far past it every distance would round alike)
            out.flat[n] = 0x80
            continue
        dist = np.abs(grid - abs(v))
        best = np.flatnonzero(dist == dist.min())
        code = int(best[0]) if len(best) == 1 else int(best[best % 2 == 0][0])   # a tie: the even code
        out.flat[n] = 0x80 if code == 128 else (code | 0x80 if v < 0 and code else code)
    return out


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, KERNEL, "gfx942")


def test_the_reference_rounds_ties_to_even_and_overflows_to_nan():
    x = np.array([17.0, 19.0, 239.0, 247.0, 248.0, -0.0, 2.0 ** -11, 3 * 2.0 ** -11], np.float32)
    assert _encode(x, "fp8").tolist() == [0x60, 0x62, 0x7F, 0x7F, 0x80, 0x00, 0x00, 0x02]


@pytest.mark.parametrize("mode", [{}, {"timing": True}])
def test_conversions_match_the_reference(tmp_path, mode):
    path = tmp_path / "fp8.s"
    path.write_text(KERNEL)
    r = api.simulate(api.load_kernel(path), "cdna3", **mode)
    o = r.outputs
    ties, wide, small, raw = o["ties"], o["wide"], o["small"], o["raw"].view(np.float32)
    packed = o["packed"].view(np.uint8).reshape(256, 2, 4)
    for k, fmt in enumerate(("fp8", "bf8")):
        signed = (-small, np.abs(raw)) if fmt == "bf8" else (small, raw)     # the second bf8 pair: -v5, |v6|
        want = np.stack([_encode(ties, fmt), _encode(wide, fmt), _encode(signed[0], fmt), _encode(signed[1], fmt)],
                        axis=1)
        np.testing.assert_array_equal(packed[:, k], want, err_msg=fmt)
        decoded = _values(fmt)[packed[:, k]]                      # bytes 0-3, then the two words' pairs
        back = o["back"][:, 8 * k:8 * k + 8]
        np.testing.assert_array_equal(back[:, :4], decoded.astype(np.float32), err_msg=fmt)
        np.testing.assert_array_equal(back[:, 4:], decoded.astype(np.float32), err_msg=fmt)


def test_op_sel_on_the_f32_sources_changes_nothing(tmp_path):
    # op_sel picks halves of 16-bit operands; the packs' f32 sources ignore their bits, only the destination's
    # (the last entry) picks the word
    results = []
    for text in (KERNEL, KERNEL.replace("v_cvt_pk_fp8_f32 v10, v5, v6 op_sel:[0,0,1]",
                                        "v_cvt_pk_fp8_f32 v10, v5, v6 op_sel:[1,1,1]")):
        path = tmp_path / "fp8.s"
        path.write_text(text)
        results.append(api.simulate(api.load_kernel(path), "cdna3").outputs["packed"])
    np.testing.assert_array_equal(results[1], results[0])


def test_the_widening_pair_takes_omod_and_clamp_on_both_halves(tmp_path):
    # v_cvt_pk_f32_fp8_e64 ... mul:2 clamp doubles each of the two f32 and clamps it to [0, 1] (a NaN to 0)
    path = tmp_path / "fp8.s"
    path.write_text(KERNEL.replace("v_cvt_pk_f32_fp8_e32 v[16:17], v10", "v_cvt_pk_f32_fp8_e64 v[16:17], v10 mul:2 clamp"))
    o = api.simulate(api.load_kernel(path), "cdna3").outputs
    decoded = _values("fp8")[o["packed"].view(np.uint8).reshape(256, 2, 4)[:, 0, :2]]
    want = np.nan_to_num(np.clip(2 * decoded, 0, 1), nan=0.0).astype(np.float32)
    np.testing.assert_array_equal(o["back"][:, 4:6], want)
