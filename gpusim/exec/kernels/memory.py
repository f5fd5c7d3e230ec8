"""Device memory: address translation and little-endian access to the arena.

Buffers live in one byte array (the arena) that starts at device address
``env[ENV_ARENA_BASE]``; ``regions[r] = (lo, hi)`` are the arena offsets that
belong to a buffer. An access outside every region is a fault: the caller
records it with :func:`record_fault` and stops the wave.
"""
import numpy as np
from numba import njit

U = np.uint64

# env columns
ENV_ARENA_BASE = 0
ENV_SHARED_APERTURE = 1  # device address where the LDS aperture starts
ENV_SHARED_APERTURE_END = 2
N_ENV = 4

# fault record columns
F_CODE, F_WAVE, F_PC, F_LANE, F_ADDR, F_SIZE, F_WORKGROUP = range(7)
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
