"""The buffer resource (V#) fields gpusim reads, and the swizzled address of a buffer access.

A V# is four SGPRs, read as two 64-bit halves (``lo``: words 0-1, ``hi``: words 2-3). Linear buffers use
the base (bits 0-47), the stride (bits 48-61) and num_records (word 2). A swizzled buffer (SWIZZLE_ENABLE,
bit 63) lays its records out for the lanes of a wave: with ADD_TID_ENABLE (word 3 bit 23) each lane's
index gains its lane number, and INDEX_STRIDE (word 3 bits 21-22: 8, 16, 32 or 64 indices) consecutive
indices share one element's place. On gfx9 the element is 4 bytes (the ELEMENT_SIZE field of older GCN
is not there: Mesa's radeonsi, "always 4 bytes on GFX9"), so the AMDHSA private segment buffer, which
the runtime sets up with INDEX_STRIDE 64 and ADD_TID_ENABLE, interleaves its lanes' private dwords as
architected flat scratch does (gpusim.exec.kernels.vmem.scratch_address, the same formula). The address (AMD "Vega" and
CDNA ISA guides, "Swizzled Buffer Addressing"):

    index  = (idxen ? vgpr_index : 0) + (add_tid_enable ? lane : 0)
    offset = (offen ? vgpr_offset : 0) + inst_offset
    buffer_offset = (index / index_stride * stride + offset / 4 * 4) * index_stride
                    + index % index_stride * 4 + offset % 4
    address = base + sgpr_offset + buffer_offset

A swizzled access moves one element at most: multi-dword accesses are "not supported except by flat and
scratch instructions in GFX9+" (LLVM AMDGPUUsage, "Private Segment"), which the executor reports as a fault.
"""
import numpy as np
from numba import njit

U = np.uint64
SWIZZLE_ENABLE_BIT = 63        # of lo (word 1 bit 31)
INDEX_STRIDE_SHIFT = 32 + 21   # of hi (word 3 bits 21-22): 8 << field indices
ADD_TID_ENABLE_BIT = 32 + 23   # of hi (word 3 bit 23)
ELEMENT_BYTES = 4
OUT_OF_RANGE = U(1 << 40)            # the range offset of a lane past a strided swizzled buffer's records
SWIZZLED_RANGE = np.int64(1 << 39)   # the bound a strided swizzled buffer's range offsets are checked against
# word 3 of the private segment buffer the launch hands a gfx90a kernel: DST_SEL X, Y, Z, W (4, 5, 6, 7),
# NUM_FORMAT float (7), DATA_FORMAT 32 (4), INDEX_STRIDE 64 (3), ADD_TID_ENABLE; only the last two matter here
PRIVATE_SEGMENT_WORD3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 7 << 12 | 4 << 15 | 3 << 21 | 1 << 23


def private_segment_resource(base: int, num_records: int) -> tuple[int, int, int, int]:
    """private_segment_resource is the four words of the swizzled V# that reaches the private segments from
    ``base``: stride 0, SWIZZLE_ENABLE, INDEX_STRIDE 64 and ADD_TID_ENABLE, ``num_records`` bytes."""
    return (base & 0xFFFFFFFF, (base >> 32) & 0xFFFF | 1 << 31, num_records & 0xFFFFFFFF, PRIVATE_SEGMENT_WORD3)


@njit(_nrt=False, inline="always")
def is_swizzled(lo):
    """is_swizzled tells whether the V# whose words 0-1 are ``lo`` has SWIZZLE_ENABLE set."""
    return (lo >> U(SWIZZLE_ENABLE_BIT)) & U(1) == U(1)


@njit(_nrt=False, inline="always")
def swizzled_offset(index, offset, stride, index_stride):
    """swizzled_offset is the byte offset from a swizzled buffer's base of byte ``offset`` of record ``index``
    (uint64s), for a V# of stride ``stride`` and INDEX_STRIDE ``index_stride`` indices (the formula above)."""
    e = U(ELEMENT_BYTES)
    return ((index // index_stride) * stride + (offset // e) * e) * index_stride + (index % index_stride) * e + offset % e


@njit(_nrt=False, inline="always")
def swizzled_lane(hi, stride, num_records, index, offset, lane, idxen):
    """swizzled_lane is (byte offset, range offset) of lane ``lane``'s access at ``index`` and byte ``offset`` of a
    swizzled buffer whose words 2-3 are ``hi``, of stride ``stride`` and ``num_records`` records.

    The byte offset is from the V#'s base plus the SGPR offset (which the range check leaves out: LLVM's
    buffer intrinsics, "soffset ... excluded from bounds checking and swizzling"). The range offset is what
    the executor checks, with the access's size, against the bound lane_addresses returns: with stride 0,
    the byte offset against num_records bytes; otherwise (ISA guides, "Range Checking") OUT_OF_RANGE when
    the index is num_records or more, or, with idxen or ADD_TID_ENABLE, the offset is the stride or more, and
    else the byte within the element, against SWIZZLED_RANGE. Either way its low two bits are the byte within
    the element (an out-of-range lane's are 0)."""
    add_tid = (hi >> U(ADD_TID_ENABLE_BIT)) & U(1) == U(1)
    if add_tid:
        index += U(lane)
    rel = swizzled_offset(index, offset, stride, U(8) << ((hi >> U(INDEX_STRIDE_SHIFT)) & U(3)))
    if stride == U(0):
        return rel, rel
    if index >= num_records or ((idxen or add_tid) and offset >= stride):
        return rel, OUT_OF_RANGE
    return rel, offset % U(ELEMENT_BYTES)
