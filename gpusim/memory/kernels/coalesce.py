"""The coalescer: a wave's per-lane addresses become distinct cache-line requests."""
import numpy as np
from numba import njit

from gpusim.memory.kernels.fastdiv import rem

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(_nrt=False)
def _coalesce(addrs, mask, size, line_bytes, out_lines, out_bytes, want_bytes):
    m = np.uint64(mask)
    n = 0
    top = np.int64(-1)   # the highest line so far: a line above it is new without a search
    for lane in range(addrs.shape[0]):
        if (m >> np.uint64(lane)) & _ONE == 0:
            continue
        a = np.int64(addrs[lane])
        end = a + size
        line = a - rem(a, line_bytes)
        while line < end:
            # Unit-stride waves touch the same line many lanes in a row: try the newest line first; lanes whose
            # lines rise with the lane (a column of rows) each bring a new one.
            k = -1
            if n > 0 and out_lines[n - 1] == line:
                k = n - 1
            elif line <= top:
                for j in range(n):
                    if out_lines[j] == line:
                        k = j
                        break
            if k < 0:
                out_lines[n] = line
                if want_bytes:
                    out_bytes[n] = 0
                k = n
                n += 1
                top = max(top, line)
            if want_bytes:
                lo = max(a, line)
                hi = min(end, line + line_bytes)
                out_bytes[k] = min(out_bytes[k] + (hi - lo), line_bytes)
            line += line_bytes
    return n


@njit(_nrt=False)
def coalesce(addrs, mask, size, line_bytes, out_lines):
    """coalesce writes the distinct line base addresses a wave access touches to ``out_lines`` and returns their count.

    Lane ``l`` of ``addrs`` (int64 or uint64 byte addresses) takes part when bit ``l`` of the uint64 ``mask`` is
    set and touches ``size`` bytes from its address, so one lane may touch two lines. Lines come in first-touch
    order (lane order, lower line first). ``out_lines`` (int64, at least 2 per lane: 128 for wave64) is the only
    thing mutated.
    """
    if np.uint64(mask) == _ALL and size <= line_bytes and _unit_stride(addrs, size):
        # every lane on, each right after the previous (the common streaming access): the lines are a range
        first = np.int64(addrs[0])
        end = first + addrs.shape[0] * size
        n = 0
        for line in range(first - rem(first, line_bytes), end, line_bytes):
            out_lines[n] = line
            n += 1
        return n
    return _coalesce(addrs, mask, size, line_bytes, out_lines, out_lines, False)


@njit(_nrt=False)
def _unit_stride(addrs, size):
    """_unit_stride tells whether lane ``l``'s address is lane 0's plus ``l * size``, for every lane."""
    first = np.int64(addrs[0])
    ok = True
    for lane in range(addrs.shape[0]):
        ok &= np.int64(addrs[lane]) - first == lane * size   # no early exit: one vectorisable pass
    return ok


@njit(_nrt=False)
def coalesce_bytes(addrs, mask, size, line_bytes, out_lines, out_bytes):
    """coalesce_bytes does what ``coalesce`` does and also writes, per line, the bytes the lanes touch in it.

    ``out_bytes[i]`` (int64, as long as ``out_lines``) sums the bytes of every active lane inside line ``i``,
    capped at ``line_bytes``; lanes that overlap count twice below the cap (a write's bandwidth, not its
    distinct bytes). Mutates ``out_lines`` and ``out_bytes``.
    """
    return _coalesce(addrs, mask, size, line_bytes, out_lines, out_bytes, True)
