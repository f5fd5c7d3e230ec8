"""Device memory: address translation and little-endian access to the arena.

Buffers live in one byte array (the arena) that starts at device address
``env[ENV_ARENA_BASE]``; ``regions[r] = (lo, hi)`` are the arena offsets that
belong to a buffer. An access outside every region is a fault: the caller
records it with :func:`record_fault` and stops the wave.
"""
import numpy as np
from numba import njit

from gpusim.asm.fields import (
    LD_DWORDS, LD_I16, LD_I8, LD_I8_D16, LD_I8_D16_HI, LD_U16_D16, LD_U16_D16_HI, LD_U8, LD_U8_D16, LD_U8_D16_HI,
    ST_B16_D16_HI, ST_B8, ST_B8_D16_HI, ST_DWORDS,
)

U = np.uint64

# env columns
ENV_ARENA_BASE = 0
ENV_SHARED_APERTURE = 1  # device address where the LDS aperture starts
ENV_SHARED_APERTURE_END = 2
ENV_SCRATCH_LANE_BYTES = 3  # the bytes of one lane's private segment (0: the kernel has no scratch instructions)
ENV_HOSTCALL = 4  # the arena offset of the dispatch's hostcall buffer region (0: none; gpusim.exec.hostcall)
ENV_HOSTCALL_PACKETS = 5  # how many packets that region holds
N_ENV = 6

# fault record columns
F_CODE, F_WAVE, F_PC, F_LANE, F_ADDR, F_SIZE, F_WORKGROUP, F_AT_BARRIER = range(8)
N_FAULT = 8
# fault codes
FAULT_NONE = 0
FAULT_MEMORY = 1
FAULT_LDS = 2
FAULT_BARRIER = 3
FAULT_LIMIT = 4
FAULT_UNSUPPORTED = 5
FAULT_MISALIGNED = 6
FAULT_BAD_JUMP = 7
FAULT_PAST_END = 8  # the wave ran off the end of the code (the Program's end-of-text sentinel)
FAULT_WAVE_LIMIT = 9  # one wave ran past its instruction budget
FAULT_ENDLESS = 10  # a wave is in a loop it can never leave (gpusim.exec.runaway)
FAULT_TIMEOUT = 11  # the run was still going when its host-time watchdog fired
FAULT_SCRATCH = 12  # a scratch_* lane access outside its private segment (F_ADDR: the private offset)
FAULT_SWIZZLED_WIDTH = 13  # a lane access across a swizzled buffer's 4-byte element (F_ADDR: its byte in it)
FAULT_TRAP = 14  # an s_trap the trap handler ends the dispatch for (F_ADDR: the trap id)
FAULT_REG_INDEX = 15  # an M0-relative register past the file: s_movrels/s_movreld's SGPR (F_SIZE 0) or VGPR index
# mode's VGPR (F_SIZE 1); F_ADDR: the register's number


@njit(_nrt=False)
def translate(addr, size, env, regions):
    """translate maps a device address to an arena offset, or -1 if no buffer holds ``size`` bytes there."""
    off = np.int64(addr) - env[ENV_ARENA_BASE]
    for r in range(regions.shape[0]):
        if regions[r, 0] <= off and off + size <= regions[r, 1]:
            return off
    return np.int64(-1)


@njit(_nrt=False)
def load_bytes(buf, off, size):
    """load_bytes reads ``size`` (1..8) little-endian bytes at ``off`` as uint64."""
    v = U(0)
    for b in range(size):
        v |= U(buf[off + b]) << U(8 * b)
    return v


@njit(_nrt=False)
def store_bytes(buf, off, size, value):
    """store_bytes writes the low ``size`` bytes of ``value`` little-endian at ``off``."""
    for b in range(size):
        buf[off + b] = np.uint8((value >> U(8 * b)) & U(0xFF))


@njit(_nrt=False)
def record_fault(fault, code, w, pc, lane, addr, size):
    """record_fault fills the fault record; the first fault wins."""
    if fault[F_CODE] == FAULT_NONE:
        fault[F_CODE] = code
        fault[F_WAVE] = w
        fault[F_PC] = pc
        fault[F_LANE] = lane
        fault[F_ADDR] = np.int64(addr)
        fault[F_SIZE] = size


@njit(_nrt=False)
def access_size(kind, dwords, is_store):
    """access_size is the number of bytes one lane moves for a load/store ``kind``."""
    if is_store:
        if kind == ST_DWORDS:
            return 4 * dwords
        return 1 if kind == ST_B8 or kind == ST_B8_D16_HI else 2
    if kind == LD_DWORDS:
        return 4 * dwords
    if kind == LD_U8 or kind == LD_I8 or kind == LD_U8_D16 or kind == LD_I8_D16 or kind == LD_U8_D16_HI \
            or kind == LD_I8_D16_HI:
        return 1
    return 2


@njit(_nrt=False)
def load_lane(buf, o, kind, dwords, vreg, w, reg, l):
    """load_lane loads one lane's value at byte ``o`` of ``buf`` into VGPR ``reg`` (sign/zero
    extension for sub-dword kinds; the d16 kinds replace one half and keep the other)."""
    if kind == LD_DWORDS:
        for d in range(dwords):
            vreg[w, reg + d, l] = np.uint32(load_bytes(buf, o + 4 * d, 4))
        return
    v = load_bytes(buf, o, access_size(kind, 1, False))
    if (kind == LD_I8 or kind == LD_I8_D16 or kind == LD_I8_D16_HI) and v & U(0x80):
        v |= U(0xFF00) if kind != LD_I8 else U(0xFFFFFF00)
    elif kind == LD_I16 and v & U(0x8000):
        v |= U(0xFFFF0000)
    old = U(vreg[w, reg, l])
    if kind == LD_U8_D16 or kind == LD_I8_D16 or kind == LD_U16_D16:
        v = (old & U(0xFFFF0000)) | (v & U(0xFFFF))
    elif kind == LD_U8_D16_HI or kind == LD_I8_D16_HI or kind == LD_U16_D16_HI:
        v = (old & U(0xFFFF)) | ((v & U(0xFFFF)) << U(16))
    vreg[w, reg, l] = np.uint32(v & U(0xFFFFFFFF))


@njit(_nrt=False)
def store_lane(buf, o, kind, dwords, vreg, w, reg, l):
    """store_lane stores one lane's VGPR ``reg`` (or its high half for the d16_hi kinds) at byte ``o``."""
    if kind == ST_DWORDS:
        for d in range(dwords):
            store_bytes(buf, o + 4 * d, 4, U(vreg[w, reg + d, l]))
        return
    v = U(vreg[w, reg, l])
    if kind == ST_B8_D16_HI or kind == ST_B16_D16_HI:
        v >>= U(16)
    store_bytes(buf, o, access_size(kind, 1, True), v)
