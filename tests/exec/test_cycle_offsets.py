"""init=cycle_offsets: a random single cycle over a buffer's rows, stored as byte offsets, so a pointer
chase loads the next element's offset with no arithmetic (benchmarks/latency_ladder.py's kernels)."""
import numpy as np
import pytest

from gpusim.asm.ir import ArgSpec
from gpusim.errors import HeaderError
from gpusim.exec.buffers import make_buffer


def spec(dtype, shape, init="cycle_offsets", seed=3):
    return ArgSpec(name="next", kind="buffer", dtype=dtype, shape=shape, init=init, seed=seed)


def test_rows_hold_the_next_rows_byte_offset_along_one_cycle():
    buf = make_buffer(spec("u32", (8, 16)))      # 8 rows of 64 bytes
    assert buf.shape == (8, 16) and (buf[:, 1:] == 0).all()
    offset, seen = 0, []
    for _ in range(8):                            # the chase from row 0 visits every row once, then returns
        seen.append(offset // 64)
        offset = int(buf.reshape(-1)[offset // 4])
        assert offset % 64 == 0
    assert sorted(seen) == list(range(8)) and offset == 0


def test_same_permutation_as_cycle_for_the_same_seed():
    # a 1-D buffer is rows of one element: slot i holds 4 * cycle's next[i]
    assert (make_buffer(spec("u32", (100,))) == 4 * make_buffer(spec("u32", (100,), init="cycle"))).all()


def test_offsets_that_do_not_fit_are_refused():
    # 300 rows of 1 byte fit u8 offsets up to 255 only
    with pytest.raises(HeaderError, match="byte offsets up to 299 do not fit u8; use a wider type"):
        make_buffer(spec("u8", (300,)))
    assert np.max(make_buffer(spec("u8", (256,)))) == 255
