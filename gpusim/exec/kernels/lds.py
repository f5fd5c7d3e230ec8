"""LDS (ds_*) instructions: reads, writes, read2/write2, atomics and the
lane-exchange instructions that use the LDS crossbar (ds_bpermute_b32,
ds_permute_b32, ds_swizzle_b32).

Operates on the workgroup's LDS row (uint8[lds_bytes]); an address past the
allocation records an LDS fault and returns -2. Mutates registers, LDS, T and
``fault``.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.fields import DS2_RETURNS, LD_DWORDS, ST_DWORDS
from gpusim.asm.program import (
    D0,
    K_NONE,
    KIND,
    M_OFFSET,
    M_OFFSET1,
    M_SUB,
    S0,
    S1,
    S2,
    VAL,
    WIDTH,
)
from gpusim.exec.kernels.atomics import atomic_apply
from gpusim.exec.kernels.lanes import exec_mask, fetch_raw, lane_on
from gpusim.exec.kernels.memory import (
    FAULT_LDS,
    access_size,
    load_bytes,
    load_lane,
    record_fault,
    store_bytes,
    store_lane,
)

U = np.uint64
M32 = U(0xFFFFFFFF)


@njit(_nrt=False)
def swizzle_source_lane(pattern, l):
    """swizzle_source_lane maps lane ``l`` through a ds_swizzle_b32 offset pattern."""
    if pattern & 0x8000:
        return (l & ~3) | ((pattern >> (2 * (l & 3))) & 3)
    and_mask = pattern & 0x1F
    or_mask = (pattern >> 5) & 0x1F
    xor_mask = (pattern >> 10) & 0x1F
    return (l & 0x20) | ((((l & 0x1F) & and_mask) | or_mask) ^ xor_mask)


@njit(_nrt=False)
def lds_address(vaddr, offset):
    """lds_address is the LDS byte address a ds_* lane accesses: its address register plus the instruction's
    offset, in 32 bits. The sum wraps, as LLVM relies on for GFX9 (it folds a constant into the offset over a
    base it cannot prove non-negative: ``(63 - tid) * 4`` becomes ``ds_read_b32 v, -4*tid offset:252``)."""
    return np.int64((vaddr + U(offset)) & M32)


@njit(_nrt=False)
def ds2_offsets(i, mods):
    """ds2_offsets is (element bytes, offset0 bytes, offset1 bytes) of ds_read2/ds_write2 instruction ``i``.

    The two offsets count elements (4 or 8 bytes, M_SUB's low byte), or strides of 64 elements for the
    st64 forms (M_SUB bit 0x100).
    """
    sub = mods[i, M_SUB]
    esize = sub & 0xFF
    scale = esize * (64 if sub & 0x100 else 1)
    return esize, mods[i, M_OFFSET] * scale, mods[i, M_OFFSET1] * scale


@njit(_nrt=False)
def _in_range(o, size, lds_size):
    return 0 <= o and o + size <= lds_size


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, cache=True)
def exec_lds(i, w, sem, ops, mods, sreg, vreg, T, lds, fault):
    """exec_lds runs ds_* instruction ``i`` for wave ``w`` on the workgroup's LDS: 0 ok, -2 fault."""
    s = sem[i]
    mask = exec_mask(sreg, w)
    sub = mods[i, M_SUB]
    lds_size = lds.shape[0]
    off0 = mods[i, M_OFFSET]
    addr = T[7]
    words = lds[:lds_size & ~3].view(np.uint32)  # aligned, in-range dwords move whole
    if ops[i, S0, KIND] != K_NONE:
        fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], 1, addr)

    if s == S.DS_SWIZZLE or s == S.DS_BPERMUTE or s == S.DS_PERMUTE:
        data = T[6]
        fetch_raw(sreg, vreg, w, ops[i, S1, KIND], ops[i, S1, VAL], 1, data)
        R = T[5]
        reg = ops[i, D0, VAL]
        if s == S.DS_PERMUTE:
            for l in range(64):
                R[l] = 0
            for l in range(64):
                if lane_on(mask, l):
                    R[((addr[l] + U(off0)) >> U(2)) & U(63)] = data[l]
        else:
            for l in range(64):
                if s == S.DS_SWIZZLE:
                    src = swizzle_source_lane(off0, l)
                else:
                    src = np.int64(((addr[l] + U(off0)) >> U(2)) & U(63))
                R[l] = data[src] if lane_on(mask, src) else U(0)
        for l in range(64):
            if lane_on(mask, l):
                vreg[w, reg, l] = np.uint32(R[l] & M32)
        return 0

    if s == S.DS_READ:
        kind = sub & 0xFF
        reg = ops[i, D0, VAL]
        dwords = ops[i, D0, WIDTH]
        size = access_size(kind, dwords, False)
        for l in range(64):
            if not lane_on(mask, l):
                continue
            o = lds_address(addr[l], off0)
            if not _in_range(o, size, lds_size):
                record_fault(fault, FAULT_LDS, w, i, l, o, size)
                return -2
            if kind == LD_DWORDS and o & 3 == 0:
                for d in range(dwords):
                    vreg[w, reg + d, l] = words[(o >> 2) + d]
            else:
                load_lane(lds, o, kind, dwords, vreg, w, reg, l)
        return 0

    if s == S.DS_WRITE:
        kind = sub & 0xFF
        dreg = ops[i, S1, VAL]
        dwords = ops[i, S1, WIDTH]
        size = access_size(kind, dwords, True)
        for l in range(64):
            if not lane_on(mask, l):
                continue
            o = lds_address(addr[l], off0)
            if not _in_range(o, size, lds_size):
                record_fault(fault, FAULT_LDS, w, i, l, o, size)
                return -2
            if kind == ST_DWORDS and o & 3 == 0:
                for d in range(dwords):
                    words[(o >> 2) + d] = vreg[w, dreg + d, l]
            else:
                store_lane(lds, o, kind, dwords, vreg, w, dreg, l)
        return 0

    if s == S.DS_READ2 or s == S.DS_WRITE2:
        esize, first, second = ds2_offsets(i, mods)
        ew = esize // 4
        exchange = s == S.DS_WRITE2 and (sub & DS2_RETURNS) != 0
        old = T[6]   # an exchange's replaced dwords: one lane's whole result, held until its data are read
        for l in range(64):
            if not lane_on(mask, l):
                continue
            for k in range(2):
                o = lds_address(addr[l], first if k == 0 else second)
                if not _in_range(o, esize, lds_size):
                    record_fault(fault, FAULT_LDS, w, i, l, o, esize)
                    return -2
                for d in range(ew):
                    if s == S.DS_READ2 or exchange:
                        if o & 3 == 0:
                            v = words[(o >> 2) + d]
                        else:
                            v = np.uint32(load_bytes(lds, o + 4 * d, 4))
                        if exchange:
                            old[k * ew + d] = U(v)
                        else:
                            vreg[w, ops[i, D0, VAL] + k * ew + d, l] = v
                    if s == S.DS_WRITE2:
                        src = ops[i, S1, VAL] if k == 0 else ops[i, S2, VAL]
                        if o & 3 == 0:
                            words[(o >> 2) + d] = vreg[w, src + d, l]
                        else:
                            store_bytes(lds, o + 4 * d, 4, U(vreg[w, src + d, l]))
            if exchange:
                for d in range(2 * ew):
                    vreg[w, ops[i, D0, VAL] + d, l] = np.uint32(old[d])
        return 0

    if s == S.DS_ATOMIC:
        aop = sub >> 8
        dwords = ops[i, S1, WIDTH]
        size = 4 * dwords
        ret = ops[i, D0, KIND] != K_NONE
        for l in range(64):
            if not lane_on(mask, l):
                continue
            o = lds_address(addr[l], off0)
            if not _in_range(o, size, lds_size):
                record_fault(fault, FAULT_LDS, w, i, l, o, size)
                return -2
            data = U(vreg[w, ops[i, S1, VAL], l])
            if dwords == 2:
                data |= U(vreg[w, ops[i, S1, VAL] + 1, l]) << U(32)
            cmp = U(0)
            if ops[i, S2, KIND] != K_NONE:
                # two data operands (ds_cmpst, ds_mskor, ds_wrap): data0 is atomic_apply's cmp, data1 its data
                cmp = data
                data = U(vreg[w, ops[i, S2, VAL], l])
                if dwords == 2:
                    data |= U(vreg[w, ops[i, S2, VAL] + 1, l]) << U(32)
            old = load_bytes(lds, o, size)
            store_bytes(lds, o, size, atomic_apply(aop, old, data, cmp, size))
            if ret:
                vreg[w, ops[i, D0, VAL], l] = np.uint32(old & M32)
                if dwords == 2:
                    vreg[w, ops[i, D0, VAL] + 1, l] = np.uint32(old >> U(32))
        return 0
    return -1


@njit(_nrt=False)
def lds_addresses(i, w, sem, ops, mods, sreg, vreg, T, lds_size, fault):
    """lds_addresses computes and checks the lane addresses of ds_* instruction ``i``, moving no data.

    It is exec_lds for an instruction outside the value slice (gpusim.asm.value_slice):
    ``T[7]`` gets the same addresses and an offset exec_lds would fault on
    faults here, at the same lane; registers and LDS stay untouched. The lane
    exchanges (ds_bpermute, ds_permute, ds_swizzle) have no memory address to check.
    Returns 0, or -2 after recording the fault.
    """
    s = sem[i]
    mask = exec_mask(sreg, w)
    addr = T[7]
    if ops[i, S0, KIND] != K_NONE:
        fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], 1, addr)
    if s == S.DS_SWIZZLE or s == S.DS_BPERMUTE or s == S.DS_PERMUTE:
        return 0
    off0 = mods[i, M_OFFSET]
    sub = mods[i, M_SUB]
    two = s == S.DS_READ2 or s == S.DS_WRITE2
    if two:
        size, first, second = ds2_offsets(i, mods)
    else:
        if s == S.DS_ATOMIC:
            size = 4 * ops[i, S1, WIDTH]
        elif s == S.DS_READ:
            size = access_size(sub & 0xFF, ops[i, D0, WIDTH], False)
        else:
            size = access_size(sub & 0xFF, ops[i, S1, WIDTH], True)
        first = off0
        second = off0
    for l in range(64):
        if not lane_on(mask, l):
            continue
        for o in (lds_address(addr[l], first), lds_address(addr[l], second)):
            if not _in_range(o, size, lds_size):
                record_fault(fault, FAULT_LDS, w, i, l, o, size)
                return -2
            if not two:
                break
    return 0
