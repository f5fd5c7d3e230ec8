"""Vector and scalar memory instructions: global_*, flat_*, buffer_*, scratch_* and s_load/s_buffer_load.

Each kernel computes the 64 lane addresses, checks them against the buffers
and moves data between the arena (or LDS, for flat addresses in the shared
aperture) and registers, or from the arena into the LDS (the LDS DMA loads:
global_load_lds_dword, scratch_load_lds_dword, buffer_load_dword ... lds).
A bad address records a fault and returns -2. Mutates registers, the arena,
the LDS row and ``fault``.
"""
import numpy as np
from numba import njit

from gpusim.asm import sems as S
from gpusim.asm.fields import (
    A_CMPSWAP,
    ADDR_BUFFER,
    ADDR_FLAT,
    ADDR_IDXEN,
    ADDR_LDS,
    ADDR_OFFEN,
    ADDR_SCRATCH,
    LD_DWORDS,
    ST_DWORDS,
)
from gpusim.asm.program import (
    D0,
    FLAT_SCRATCH_HI,
    FLAT_SCRATCH_LO,
    K_NONE,
    K_SREG,
    KIND,
    M0,
    M_ADDR,
    M_OFFSET,
    M_SUB,
    S0,
    S1,
    S2,
    S3,
    VAL,
    WIDTH,
)
from gpusim.exec.kernels.atomics import atomic_apply
from gpusim.exec.kernels.buffer_resource import SWIZZLED_RANGE, is_swizzled, swizzled_lane, swizzled_offset
from gpusim.exec.kernels.lanes import exec_mask, fetch_raw, lane_on, sget
from gpusim.exec.kernels.memory import (
    ENV_ARENA_BASE,
    ENV_SCRATCH_LANE_BYTES,
    ENV_SHARED_APERTURE,
    ENV_SHARED_APERTURE_END,
    FAULT_LDS,
    FAULT_MEMORY,
    FAULT_SCRATCH,
    FAULT_SWIZZLED_WIDTH,
    access_size,
    load_bytes,
    load_lane,
    record_fault,
    store_bytes,
    store_lane,
    translate,
)

U = np.uint64
M32 = U(0xFFFFFFFF)



@njit(_nrt=False)
def scratch_address(sreg, w, private, lane):
    """scratch_address is the device address of byte ``private`` of lane ``lane``'s private segment in wave ``w``:
    the wave's scratch (FLAT_SCRATCH) holds its lanes' segments interleaved a dword at a time (the private
    segment's swizzle for wave64, LLVM AMDGPUUsage "Private Segment"), so 64 lanes reading one private
    dword read 256 adjacent bytes."""
    base = U(sreg[w, FLAT_SCRATCH_LO]) | (U(sreg[w, FLAT_SCRATCH_HI]) << U(32))
    return base + swizzled_offset(U(lane), U(private), U(0), U(64))   # a swizzled buffer of 64 lanes' records


@njit(_nrt=False)
def _scratch_size(i, s, ops, mods):
    """_scratch_size is (access kind, dwords, bytes a lane moves, is a store) of scratch_* instruction ``i``."""
    kind = mods[i, M_SUB] & 0xFF
    store = s == S.MEM_STORE
    dwords = max(ops[i, S3 if store else D0, WIDTH], 1)   # (an LDS DMA load names no register: one dword)
    return kind, dwords, access_size(kind, dwords, store), store


@njit(_nrt=False)
def _scratch_check(i, w, s, ops, mods, sreg, T, env, fault):
    """_scratch_check faults (FAULT_SCRATCH) at the first active lane of scratch_* instruction ``i`` whose access
    reaches past its private segment (its private offset, which lane_addresses left in ``T[3]``). Returns 0, or
    -2 after recording the fault."""
    mask = exec_mask(sreg, w)
    size = _scratch_size(i, s, ops, mods)[2]
    for l in range(64):
        if lane_on(mask, l) and np.int64(T[3][l]) + size > env[ENV_SCRATCH_LANE_BYTES]:
            record_fault(fault, FAULT_SCRATCH, w, i, l, np.int64(T[3][l]), size)
            return -2
    return 0


@njit(_nrt=False)
def _scratch_move(i, w, s, ops, mods, sreg, vreg, T, mem, regions, env):
    """_scratch_move loads or stores scratch_* instruction ``i``'s active lanes, _scratch_check having passed: an
    access within one dword at the lane's address (T[7]), a multi-dword one byte by byte at each byte's own
    interleaved address (scratch_address)."""
    mask = exec_mask(sreg, w)
    kind, dwords, size, store = _scratch_size(i, s, ops, mods)
    reg = ops[i, S3 if store else D0, VAL]
    for l in range(64):
        if not lane_on(mask, l):
            continue
        private = np.int64(T[3][l])
        if (kind != LD_DWORDS and kind != ST_DWORDS) or (dwords == 1 and private & 3 == 0):
            o = translate(T[7][l], size, env, regions)
            if store:
                store_lane(mem, o, kind, dwords, vreg, w, reg, l)
            else:
                load_lane(mem, o, kind, dwords, vreg, w, reg, l)
            continue
        for d in range(dwords):
            value = U(0)
            for b in range(4):
                o = translate(scratch_address(sreg, w, private + 4 * d + b, l), 1, env, regions)
                if store:
                    mem[o] = np.uint8((U(vreg[w, reg + d, l]) >> U(8 * b)) & U(0xFF))
                else:
                    value |= U(mem[o]) << U(8 * b)
            if not store:
                vreg[w, reg + d, l] = np.uint32(value)


@njit(_nrt=False, inline="always")
def buffer_range(i, w, ops, sreg):
    """buffer_range is the bound buffer instruction ``i``'s lane range offsets (lane_addresses' T[3]) are checked
    against: its resource's num_records, or SWIZZLED_RANGE for a swizzled buffer with a stride."""
    rsrc_lo = sget(sreg, w, K_SREG, ops[i, S1, VAL], 2)
    num_records = np.int64(sget(sreg, w, K_SREG, ops[i, S1, VAL] + 2, 2) & M32)
    stride = (rsrc_lo >> U(48)) & U(0x3FFF)
    return SWIZZLED_RANGE if is_swizzled(rsrc_lo) and stride != U(0) else num_records


@njit(_nrt=False, inline="always")
def past_range(T, l, size, limit):
    """past_range: lane ``l``'s ``size``-byte access lies past its buffer resource's range (``limit``: lane_addresses'
    or buffer_range's bound, -1 for an instruction without one; T[3] the lane's range offset). Such a lane moves
    nothing and reaches no cache: a load reads zero, a store or atomic is dropped."""
    return limit >= 0 and np.int64(T[3][l]) + size > limit


@njit(_nrt=False)
def lane_addresses(i, w, ops, mods, sreg, vreg, T, addr):
    """lane_addresses fills ``addr`` (uint64[64]) with each lane's byte address.

    For buffer instructions it also returns the buffer's num_records and the
    per-lane range offset in ``T[3]`` (for bounds checks); otherwise returns -1.
    """
    flags = mods[i, M_ADDR]
    off = U(mods[i, M_OFFSET])
    if flags & ADDR_SCRATCH:
        # a lane's private offset (VGPR or none, plus SGPR or none, plus the offset, in 32 bits) goes to T[3];
        # its address is the wave's scratch base (FLAT_SCRATCH) with the lanes' dwords interleaved
        if ops[i, S0, KIND] != K_NONE:
            fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], 1, T[3])
        else:
            for l in range(64):
                T[3][l] = 0
        if ops[i, S1, KIND] != K_NONE:
            off += sget(sreg, w, ops[i, S1, KIND], ops[i, S1, VAL], 1)
        for l in range(64):
            T[3][l] = (T[3][l] + off) & M32
            addr[l] = scratch_address(sreg, w, T[3][l], l)
        return np.int64(-1)
    if flags & ADDR_BUFFER:
        rsrc_lo = sget(sreg, w, K_SREG, ops[i, S1, VAL], 2)
        rsrc_hi = sget(sreg, w, K_SREG, ops[i, S1, VAL] + 2, 2)
        base = rsrc_lo & U(0xFFFFFFFFFFFF)
        stride = (rsrc_lo >> U(48)) & U(0x3FFF)
        num_records = np.int64(rsrc_hi & M32)
        soff = sget(sreg, w, ops[i, S2, KIND], ops[i, S2, VAL], 1) if ops[i, S2, KIND] != K_NONE else U(0)
        fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], ops[i, S0, WIDTH], T[6])
        both = (flags & ADDR_OFFEN) and (flags & ADDR_IDXEN)
        if is_swizzled(rsrc_lo):
            # the lanes' records interleaved (gpusim.exec.kernels.buffer_resource); T[3] gets the offset the range
            # check reads (for a strided buffer, SWIZZLED_RANGE is its bound)
            for l in range(64):
                v = T[6][l]
                index = v & M32 if flags & ADDR_IDXEN else U(0)
                voff = (v >> U(32) if both else v & M32) if flags & ADDR_OFFEN else U(0)
                rel, checked = swizzled_lane(rsrc_hi, stride, U(num_records), index, voff + off, l,
                                             (flags & ADDR_IDXEN) != 0)
                T[3][l] = checked
                addr[l] = base + soff + rel
            return buffer_range(i, w, ops, sreg)
        for l in range(64):
            v = T[6][l]
            index = U(0)
            voff = U(0)
            if flags & ADDR_IDXEN:
                index = v & M32
                if both:
                    voff = v >> U(32)
            elif flags & ADDR_OFFEN:
                voff = v & M32
            rel = index * stride + voff + off
            T[3][l] = rel
            addr[l] = base + soff + rel
        return num_records
    if ops[i, S1, KIND] != K_NONE:  # saddr: SGPR pair base + 32-bit VGPR offset
        base = sget(sreg, w, K_SREG, ops[i, S1, VAL], 2)
        fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], 1, addr)
        for l in range(64):
            addr[l] = base + (addr[l] & M32) + off
    else:
        fetch_raw(sreg, vreg, w, ops[i, S0, KIND], ops[i, S0, VAL], 2, addr)
        for l in range(64):
            addr[l] = addr[l] + off
    return np.int64(-1)


@njit(_nrt=False)
def _swizzled_width_check(i, w, ops, mods, sreg, T, size, fault):
    """_swizzled_width_check faults (FAULT_SWIZZLED_WIDTH) at the first active lane of buffer instruction ``i`` whose
    ``size``-byte access crosses a 4-byte element of a swizzled buffer (the lane's byte within its element is the
    low bits of T[3], which lane_addresses left). Returns 0 (also for a linear buffer), or -2 after recording."""
    if not mods[i, M_ADDR] & ADDR_BUFFER or not is_swizzled(sget(sreg, w, K_SREG, ops[i, S1, VAL], 2)):
        return 0
    mask = exec_mask(sreg, w)
    for l in range(64):
        if lane_on(mask, l) and np.int64(T[3][l] & U(3)) + size > 4:
            record_fault(fault, FAULT_SWIZZLED_WIDTH, w, i, l, np.int64(T[3][l] & U(3)), size)
            return -2
    return 0


@njit(_nrt=False, inline="always")
def _lds_dma_target(sreg, w, mods, i, l):
    """_lds_dma_target is the LDS byte address lane ``l`` of LDS DMA load ``i`` writes its dword to: M0 plus the
    instruction's offset (which the global, scratch or buffer address also gets) plus 4 * l, in 32 bits (LLVM
    AMDGPUUsage, llvm.amdgcn.global.load.lds; CDNA3 ISA, MUBUF loads to LDS)."""
    return np.int64((U(sreg[w, M0]) + U(mods[i, M_OFFSET]) + U(4 * l)) & M32)


@njit(_nrt=False)
def _lds_dma_check(i, w, mods, sreg, T, regions, env, lds_size, num_records, fault):
    """_lds_dma_check faults at the first active lane of LDS DMA load ``i`` whose LDS dword lies past the
    workgroup's allocation (FAULT_LDS) or whose source lies in no buffer (FAULT_MEMORY). A buffer lane past
    the resource's range reads zero and a scratch lane was checked against its private segment
    (_scratch_check), so neither faults here. Returns 0, or -2 after recording the fault."""
    mask = exec_mask(sreg, w)
    scratch = (mods[i, M_ADDR] & ADDR_SCRATCH) != 0
    for l in range(64):
        if not lane_on(mask, l):
            continue
        to = _lds_dma_target(sreg, w, mods, i, l)
        if to + 4 > lds_size:
            record_fault(fault, FAULT_LDS, w, i, l, to, 4)
            return -2
        if scratch or past_range(T, l, 4, num_records):
            continue
        if translate(T[7][l], 4, env, regions) < 0:
            record_fault(fault, FAULT_MEMORY, w, i, l, T[7][l], 4)
            return -2
    return 0


@njit(_nrt=False)
def _lds_dma_move(i, w, mods, sreg, T, mem, regions, env, lds, num_records):
    """_lds_dma_move copies each active lane's dword of LDS DMA load ``i`` from the arena into the LDS
    (_lds_dma_target), _lds_dma_check having passed: a scratch lane's dword byte by byte from its interleaved
    private segment (scratch_address), a buffer lane past the resource's range as zero."""
    mask = exec_mask(sreg, w)
    scratch = (mods[i, M_ADDR] & ADDR_SCRATCH) != 0
    for l in range(64):
        if not lane_on(mask, l):
            continue
        value = U(0)
        if scratch:
            private = np.int64(T[3][l])
            for b in range(4):
                value |= U(mem[translate(scratch_address(sreg, w, private + b, l), 1, env, regions)]) << U(8 * b)
        elif not past_range(T, l, 4, num_records):
            value = load_bytes(mem, translate(T[7][l], 4, env, regions), 4)
        store_bytes(lds, _lds_dma_target(sreg, w, mods, i, l), 4, value)


@njit(_nrt=False)
def _resolve(a, size, env, regions, lds_size, is_flat):
    """_resolve returns (space, offset): space 0 arena, 1 LDS, -1 fault."""
    if is_flat and env[ENV_SHARED_APERTURE] <= np.int64(a) < env[ENV_SHARED_APERTURE_END]:
        o = np.int64(a) - env[ENV_SHARED_APERTURE]
        if o + size <= lds_size:
            return 1, o
        return -1, o
    o = translate(a, size, env, regions)
    return (0, o) if o >= 0 else (-1, o)


@njit(_nrt=False)
def _span_inside_one_buffer(mask, addr, size, aligned, env, regions):
    """_span_inside_one_buffer: the ``size`` bytes at every active lane's address lie inside one buffer.

    The wave's lowest to highest address is checked once instead of lane by
    lane; with ``aligned`` every address must also be a multiple of 4.
    """
    if mask == U(0xFFFFFFFFFFFFFFFF):   # every lane on: branch-free passes the compiler vectorises
        lo = np.int64(addr[0])
        hi = lo
        low_bits = np.int64(0)
        for l in range(64):
            a = np.int64(addr[l])
            lo = min(lo, a)
            hi = max(hi, a)
            low_bits |= a
        if aligned and low_bits & 3:
            return False
    else:
        lo = np.int64(0)
        hi = np.int64(0)
        found = False
        for l in range(64):
            if lane_on(mask, l):
                a = np.int64(addr[l])
                if aligned and a & 3:
                    return False
                if not found or a < lo:
                    lo = a
                if not found or a > hi:
                    hi = a
                found = True
        if not found:
            return True
    if lo < 0:   # an address at or above 2**63 lies in no buffer: the lane-by-lane check reports it
        return False
    base = env[ENV_ARENA_BASE]
    for r in range(regions.shape[0]):
        if regions[r, 0] <= lo - base and hi - base + size <= regions[r, 1]:
            return True
    return False


@njit(_nrt=False)
def _dwords_fast(i, w, s, ops, mask, addr, vreg, mem, regions, env):
    """_dwords_fast moves whole dwords when every active lane is 4-byte aligned inside one buffer.

    It checks the wave's address span once instead of per lane. Returns
    False, having touched nothing, when the general path must run.
    """
    is_load = s == S.MEM_LOAD
    slot = D0 if is_load else S3
    reg = ops[i, slot, VAL]
    dwords = ops[i, slot, WIDTH]
    if not _span_inside_one_buffer(mask, addr, 4 * dwords, True, env, regions):
        return False
    base = env[ENV_ARENA_BASE]
    words = mem.view(np.uint32)
    for l in range(64):
        if lane_on(mask, l):
            k = (np.int64(addr[l]) - base) >> 2
            for d in range(dwords):
                if is_load:
                    vreg[w, reg + d, l] = words[k + d]
                else:
                    words[k + d] = vreg[w, reg + d, l]
    return True


@njit(_nrt=False, inline="always")
def _access_bytes(i, s, ops, sub):
    """_access_bytes is the bytes one lane of global/flat/buffer load, store or atomic ``i`` (sem ``s``) moves."""
    if s == S.MEM_ATOMIC:
        dwords = ops[i, S3, WIDTH]
        return 4 * (dwords // 2 if (sub >> 8) == A_CMPSWAP else dwords)
    store = s == S.MEM_STORE
    return access_size(sub & 0xFF, max(ops[i, S3 if store else D0, WIDTH], 1), store)  # LDS DMA: no register, a dword


@njit(_nrt=False)
def _lds_dma_checks(i, w, s, ops, mods, sreg, T, regions, env, lds_size, num_records, fault):
    """_lds_dma_checks runs every check of LDS DMA load ``i`` whose lane addresses lane_addresses computed, in the
    order exec_vmem and vmem_addresses both keep: a scratch lane's private segment, a swizzled buffer's element,
    then each lane's LDS dword and source (_lds_dma_check). Returns 0, or -2 after recording the fault."""
    if mods[i, M_ADDR] & ADDR_SCRATCH and _scratch_check(i, w, s, ops, mods, sreg, T, env, fault) < 0:
        return -2
    if num_records >= 0 and _swizzled_width_check(i, w, ops, mods, sreg, T, 4, fault) < 0:
        return -2
    return _lds_dma_check(i, w, mods, sreg, T, regions, env, lds_size, num_records, fault)


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, cache=True)
def exec_vmem(i, w, sem, ops, mods, sreg, vreg, T, mem, regions, env, lds, fault):
    """exec_vmem runs global/flat/buffer instruction ``i`` for wave ``w``: 0 ok, -2 fault."""
    s = sem[i]
    if s == S.MEM_CACHE:
        return 0  # cache write-back / invalidate: memory here is coherent, so only the timing sees them
    mask = exec_mask(sreg, w)
    addr = T[7]
    num_records = lane_addresses(i, w, ops, mods, sreg, vreg, T, addr)
    flags = mods[i, M_ADDR]
    if flags & ADDR_LDS:
        if _lds_dma_checks(i, w, s, ops, mods, sreg, T, regions, env, lds.shape[0], num_records, fault) < 0:
            return -2
        _lds_dma_move(i, w, mods, sreg, T, mem, regions, env, lds, num_records)
        return 0
    if flags & ADDR_SCRATCH:
        if _scratch_check(i, w, s, ops, mods, sreg, T, env, fault) < 0:
            return -2
        _scratch_move(i, w, s, ops, mods, sreg, vreg, T, mem, regions, env)
        return 0
    is_flat = (flags & ADDR_FLAT) != 0
    sub = mods[i, M_SUB]
    lds_size = lds.shape[0]
    if num_records >= 0 and _swizzled_width_check(i, w, ops, mods, sreg, T, _access_bytes(i, s, ops, sub), fault) < 0:
        return -2
    if (s == S.MEM_LOAD or s == S.MEM_STORE) and (sub & 0xFF) == 0 and num_records < 0:
        if _dwords_fast(i, w, s, ops, mask, addr, vreg, mem, regions, env):
            return 0
    if s == S.MEM_LOAD:
        kind = sub & 0xFF
        reg = ops[i, D0, VAL]
        dwords = ops[i, D0, WIDTH]
        size = access_size(kind, dwords, False)
        for l in range(64):
            if not lane_on(mask, l):
                continue
            a = addr[l]
            if past_range(T, l, size, num_records):
                # out of the buffer resource's range: reads return zero
                for d in range(dwords if kind == LD_DWORDS else 1):
                    vreg[w, reg + d, l] = 0
                continue
            space, o = _resolve(a, size, env, regions, lds_size, is_flat)
            if space < 0:
                record_fault(fault, FAULT_MEMORY, w, i, l, a, size)
                return -2
            load_lane(mem if space == 0 else lds, o, kind, dwords, vreg, w, reg, l)
        return 0
    if s == S.MEM_STORE:
        kind = sub & 0xFF
        dreg = ops[i, S3, VAL]
        dwords = ops[i, S3, WIDTH]
        size = access_size(kind, dwords, True)
        for l in range(64):
            if not lane_on(mask, l):
                continue
            if past_range(T, l, size, num_records):
                continue
            a = addr[l]
            space, o = _resolve(a, size, env, regions, lds_size, is_flat)
            if space < 0:
                record_fault(fault, FAULT_MEMORY, w, i, l, a, size)
                return -2
            store_lane(mem if space == 0 else lds, o, kind, dwords, vreg, w, dreg, l)
        return 0
    if s == S.MEM_ATOMIC:
        aop = sub >> 8
        dreg = ops[i, S3, VAL]
        dwords = ops[i, S3, WIDTH]
        if aop == A_CMPSWAP:
            dwords //= 2
        size = 4 * dwords
        ret = ops[i, D0, KIND] != K_NONE
        for l in range(64):
            if not lane_on(mask, l):
                continue
            if past_range(T, l, size, num_records):
                # out of the buffer resource's range: a no-op for the lane (Triton masks buffer atomics so), which
                # returns zero as a load there reads
                if ret:
                    for d in range(dwords):
                        vreg[w, ops[i, D0, VAL] + d, l] = 0
                continue
            a = addr[l]
            space, o = _resolve(a, size, env, regions, lds_size, is_flat)
            if space < 0:
                record_fault(fault, FAULT_MEMORY, w, i, l, a, size)
                return -2
            buf = mem if space == 0 else lds
            data = U(vreg[w, dreg, l])
            cmp = U(0)
            if dwords == 2:
                data |= U(vreg[w, dreg + 1, l]) << U(32)
            if aop == A_CMPSWAP:
                cmp = U(vreg[w, dreg + dwords, l])
                if dwords == 2:
                    cmp |= U(vreg[w, dreg + dwords + 1, l]) << U(32)
            old = load_bytes(buf, o, size)
            store_bytes(buf, o, size, atomic_apply(aop, old, data, cmp, size))
            if ret:
                r = ops[i, D0, VAL]
                vreg[w, r, l] = np.uint32(old & M32)
                if dwords == 2:
                    vreg[w, r + 1, l] = np.uint32(old >> U(32))
        return 0
    return -1


@njit(_nrt=False)
def vmem_addresses(i, w, sem, ops, mods, sreg, vreg, T, regions, env, lds_size, fault):
    """vmem_addresses computes and checks the lane addresses of global/flat/buffer instruction ``i``, moving no data.

    It is exec_vmem for an instruction outside the value slice (gpusim.asm.value_slice):
    ``T[7]`` gets the same addresses and an address exec_vmem would fault on
    faults here, at the same lane; registers, memory and LDS stay untouched.
    Returns 0, or -2 after recording the fault.
    """
    s = sem[i]
    if s == S.MEM_CACHE:
        return 0
    mask = exec_mask(sreg, w)
    addr = T[7]
    num_records = lane_addresses(i, w, ops, mods, sreg, vreg, T, addr)
    flags = mods[i, M_ADDR]
    if flags & ADDR_LDS:
        return _lds_dma_checks(i, w, s, ops, mods, sreg, T, regions, env, lds_size, num_records, fault)
    if flags & ADDR_SCRATCH:
        return _scratch_check(i, w, s, ops, mods, sreg, T, env, fault)
    is_flat = (flags & ADDR_FLAT) != 0
    sub = mods[i, M_SUB]
    size = _access_bytes(i, s, ops, sub)
    if num_records >= 0 and _swizzled_width_check(i, w, ops, mods, sreg, T, size, fault) < 0:
        return -2
    if num_records < 0 and not is_flat and _span_inside_one_buffer(mask, addr, size, False, env, regions):
        return 0
    for l in range(64):
        if not lane_on(mask, l):
            continue
        if past_range(T, l, size, num_records):   # dropped, not faulted
            continue
        space, o = _resolve(addr[l], size, env, regions, lds_size, is_flat)
        if space < 0:
            record_fault(fault, FAULT_MEMORY, w, i, l, addr[l], size)
            return -2
    return 0


# cached on its own: run_grid and run_timed both call it, so the second to compile loads it (jitcache)
@njit(_nrt=False, cache=True)
def exec_smem(i, w, sem, ops, mods, sreg, mem, regions, env, fault):
    """exec_smem runs s_load_dword*/s_buffer_load_dword* for wave ``w``: 0 ok, -2 fault."""
    s = sem[i]
    if s == S.S_DCACHE or s == S.S_MEMTIME:
        if s == S.S_MEMTIME and ops[i, D0, KIND] != K_NONE:
            sreg[w, ops[i, D0, VAL]] = 0
            sreg[w, ops[i, D0, VAL] + 1] = 0
        return 0
    base = sget(sreg, w, K_SREG, ops[i, S0, VAL], 2)
    limit = np.int64(-1)
    if s == S.S_BUFFER_LOAD:
        base &= U(0xFFFFFFFFFFFF)
        limit = np.int64(sget(sreg, w, K_SREG, ops[i, S0, VAL] + 2, 1))
    off = U(0)
    if ops[i, S1, KIND] != K_NONE:
        off = sget(sreg, w, ops[i, S1, KIND], ops[i, S1, VAL], 1) & M32
    off += U(mods[i, M_OFFSET])
    if s == S.S_STORE:
        dwords = ops[i, S2, WIDTH]
    else:
        dwords = ops[i, D0, WIDTH]
    # s_load ignores the two low address bits
    a = (base + off) & ~U(3)
    size = 4 * dwords
    if limit >= 0 and np.int64(off) + size > limit:
        for d in range(dwords):
            sreg[w, ops[i, D0, VAL] + d] = 0
        return 0
    o = translate(a, size, env, regions)
    if o < 0:
        record_fault(fault, FAULT_MEMORY, w, i, -1, a, size)
        return -2
    if s == S.S_STORE:
        for d in range(dwords):
            store_bytes(mem, o + 4 * d, 4, U(sreg[w, ops[i, S2, VAL] + d]))
    else:
        for d in range(dwords):
            sreg[w, ops[i, D0, VAL] + d] = np.uint32(load_bytes(mem, o + 4 * d, 4))
    return 0
