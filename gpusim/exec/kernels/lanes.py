"""Reading and writing the operands of one wave's 64 lanes.

Sources are fetched into rows of a per-run scratch array ``T`` (uint64[8, 64])
with source modifiers (neg/abs, SDWA selects, DPP lane moves) applied, so the
instruction kernels compute on plain lane arrays. Results are written back
under the EXEC mask. These helpers mutate only the register files and ``T``.
"""
import numpy as np
from numba import njit

from gpusim.asm.program import (
    EXEC_HI, EXEC_LO, K_IMM, K_VREG, KIND, M_ABS, M_BANK_MASK,
    M_BOUND_CTRL, M_DPP, M_DST_SEL, M_DST_UNUSED, M_NEG, M_ROW_MASK, M_SDWA,
    M_SEXT, M_SIGN, M_SRC0_SEL, M_SRC1_SEL, NO_DPP, SEL_DWORD, VAL, WIDTH,
)

ALL_LANES = np.uint64(0xFFFFFFFFFFFFFFFF)
MASK32 = np.uint64(0xFFFFFFFF)


@njit(_nrt=False)
def exec_mask(sreg, w):
    """exec_mask returns the wave's 64-bit EXEC."""
    return np.uint64(sreg[w, EXEC_LO]) | (np.uint64(sreg[w, EXEC_HI]) << np.uint64(32))


@njit(_nrt=False)
def lane_on(mask, lane):
    """lane_on tells whether bit ``lane`` of a 64-bit mask is set."""
    return (mask >> np.uint64(lane)) & np.uint64(1) != 0


@njit(_nrt=False)
def sget(sreg, w, kind, val, width):
    """sget reads a scalar source (SGPR, special register or immediate) as uint64."""
    if kind == K_IMM:
        return np.uint64(val)
    x = np.uint64(sreg[w, val])
    if width >= 2:
        x |= np.uint64(sreg[w, val + 1]) << np.uint64(32)
    return x


@njit(_nrt=False)
def sset(sreg, w, idx, width, x):
    """sset writes a scalar destination of ``width`` 32-bit registers."""
    sreg[w, idx] = np.uint32(x & MASK32)
    if width >= 2:
        sreg[w, idx + 1] = np.uint32(x >> np.uint64(32))


@njit(_nrt=False)
def fetch_raw(sreg, vreg, w, kind, val, width, out):
    """fetch_raw reads a source operand into ``out`` (uint64[64]) without modifiers."""
    if kind == K_VREG:
        if width == 1:
            for l in range(64):
                out[l] = vreg[w, val, l]
        else:
            for l in range(64):
                out[l] = np.uint64(vreg[w, val, l]) | (np.uint64(vreg[w, val + 1, l]) << np.uint64(32))
    else:
        x = sget(sreg, w, kind, val, width)
        for l in range(64):
            out[l] = x


@njit(_nrt=False)
def _sdwa_select(x, sel, signed):
    if sel == SEL_DWORD:
        return x & MASK32
    if sel < 4:
        v = (x >> np.uint64(8 * sel)) & np.uint64(0xFF)
        if signed and v & np.uint64(0x80):
            v |= np.uint64(0xFFFFFF00)
        return v
    v = (x >> np.uint64(16 * (sel - 4))) & np.uint64(0xFFFF)
    if signed and v & np.uint64(0x8000):
        v |= np.uint64(0xFFFF0000)
    return v


@njit(_nrt=False)
def dpp_source_lane(ctrl, l):
    """dpp_source_lane maps a lane to the lane a DPP move reads, or -1 if none.

    ``ctrl`` is the gfx9 ``dpp_ctrl`` field: 0x00-0xFF quad_perm, 0x101-0x10F
    row_shl, 0x111-0x11F row_shr, 0x121-0x12F row_ror, 0x130 wave_shl,
    0x134 wave_rol, 0x138 wave_shr, 0x13C wave_ror, 0x140 row_mirror,
    0x141 row_half_mirror, 0x142 row_bcast:15, 0x143 row_bcast:31.
    """
    row = l & ~15
    r = l & 15
    if ctrl <= 0xFF:
        return (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3)
    if 0x101 <= ctrl <= 0x10F:
        s = r + (ctrl & 15)
        return row + s if s < 16 else -1
    if 0x111 <= ctrl <= 0x11F:
        s = r - (ctrl & 15)
        return row + s if s >= 0 else -1
    if 0x121 <= ctrl <= 0x12F:
        return row + ((r - (ctrl & 15)) & 15)
    if ctrl == 0x130:
        return l + 1 if l < 63 else -1
    if ctrl == 0x134:
        return (l + 1) & 63
    if ctrl == 0x138:
        return l - 1 if l > 0 else -1
    if ctrl == 0x13C:
        return (l - 1) & 63
    if ctrl == 0x140:
        return row + 15 - r
    if ctrl == 0x141:
        return (l & ~7) | (7 - (l & 7))
    if ctrl == 0x142:
        return row - 1 if row != 0 else -1
    if ctrl == 0x143:
        return 31 if l >= 32 else -1
    return -1


@njit(_nrt=False)
def dpp_lane_enabled(mods, i, l):
    """dpp_lane_enabled applies a DPP instruction's row_mask and bank_mask to lane ``l``."""
    return ((mods[i, M_ROW_MASK] >> (l >> 4)) & 1) != 0 and ((mods[i, M_BANK_MASK] >> ((l >> 2) & 3)) & 1) != 0


@njit(_nrt=False)
def fetch(sreg, vreg, w, ops, mods, i, slot, k, out, valid):
    """fetch reads source ``k`` (operand ``slot``) of instruction ``i`` into ``out``.

    It applies DPP (source 0 only; ``valid`` gets 0 for lanes whose DPP source
    lane is out of range and bound_ctrl does not zero them), SDWA selects and
    float neg/abs with the sign bit named by ``M_SIGN``.
    """
    kind = ops[i, slot, KIND]
    val = ops[i, slot, VAL]
    width = ops[i, slot, WIDTH]
    ctrl = mods[i, M_DPP]
    if k == 0 and ctrl != NO_DPP and kind == K_VREG:
        bound_zero = mods[i, M_BOUND_CTRL] != 0
        for l in range(64):
            src = dpp_source_lane(ctrl, l)
            if src < 0:
                out[l] = 0
                valid[l] = 1 if bound_zero else 0
            else:
                out[l] = vreg[w, val, src]
                valid[l] = 1
            if not dpp_lane_enabled(mods, i, l):
                valid[l] = 0
    else:
        fetch_raw(sreg, vreg, w, kind, val, width, out)
    if mods[i, M_SDWA] != 0 and k < 2:
        sel = mods[i, M_SRC0_SEL] if k == 0 else mods[i, M_SRC1_SEL]
        signed = ((mods[i, M_SEXT] >> k) & 1) != 0
        if sel != SEL_DWORD or signed:
            for l in range(64):
                out[l] = _sdwa_select(out[l], sel, signed)
    sign = mods[i, M_SIGN]
    if sign != 0:
        bit = np.uint64(1) << np.uint64(sign)
        if (mods[i, M_ABS] >> k) & 1:
            for l in range(64):
                out[l] &= ~bit
        if (mods[i, M_NEG] >> k) & 1:
            for l in range(64):
                out[l] ^= bit


@njit(_nrt=False)
def write_vgpr(vreg, w, reg, width, res, mask):
    """write_vgpr stores ``res`` (uint64[64]) into ``width`` VGPRs from ``reg`` for lanes in ``mask``."""
    if mask == ALL_LANES:
        if width == 1:
            for l in range(64):
                vreg[w, reg, l] = np.uint32(res[l] & MASK32)
        else:
            for l in range(64):
                vreg[w, reg, l] = np.uint32(res[l] & MASK32)
                vreg[w, reg + 1, l] = np.uint32(res[l] >> np.uint64(32))
    else:
        for l in range(64):
            if lane_on(mask, l):
                vreg[w, reg, l] = np.uint32(res[l] & MASK32)
                if width >= 2:
                    vreg[w, reg + 1, l] = np.uint32(res[l] >> np.uint64(32))


@njit(_nrt=False)
def write_sdwa(vreg, w, reg, res, mask, mods, i):
    """write_sdwa stores a 32-bit result through an SDWA dst_sel / dst_unused."""
    sel = mods[i, M_DST_SEL]
    unused = mods[i, M_DST_UNUSED]
    for l in range(64):
        if not lane_on(mask, l):
            continue
        x = res[l] & MASK32
        if sel != SEL_DWORD:
            old = np.uint64(vreg[w, reg, l])
            if sel < 4:
                shift = np.uint64(8 * sel)
                field = np.uint64(0xFF) << shift
            else:
                shift = np.uint64(16 * (sel - 4))
                field = np.uint64(0xFFFF) << shift
            v = (x << shift) & field
            if unused == 2:
                x = (old & ~field) | v
            elif unused == 1:
                top = (v >> (shift + np.uint64(7 if sel < 4 else 15))) & np.uint64(1)
                x = v | ((MASK32 & ~((field << np.uint64(1)) - np.uint64(1))) if top else np.uint64(0))
            else:
                x = v
        vreg[w, reg, l] = np.uint32(x & MASK32)
