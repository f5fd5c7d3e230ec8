"""Buffer initialisers: the values a header's init= asks for, the same whatever the buffer's size or type.

Element-wise initialisers are made a chunk at a time (gpusim.exec.buffers.CHUNK_ELEMENTS); their values must
be those of one numpy call over the whole buffer, across chunk boundaries too.
"""
import re

import numpy as np
import pytest

from gpusim.asm.ir import ArgSpec
from gpusim.asm.parser import parse_text
from gpusim.exec.buffers import CHUNK_ELEMENTS, make_buffer, to_bf16_bits


def _buffer(init, dtype, n, params=(), seed=7):
    return make_buffer(ArgSpec(name="x", kind="buffer", dtype=dtype, shape=(n,), init=init, init_params=params,
                               seed=seed))


@pytest.mark.parametrize("dtype, numpy_type", [("u32", np.uint32), ("i32", np.int32), ("f32", np.float32),
                                               ("u64", np.uint64)])
def test_perm_is_numpys_permutation_of_the_seed_in_the_buffers_type(dtype, numpy_type):
    buf = _buffer("perm", dtype, 1000)
    assert buf.dtype == numpy_type and buf.shape == (1000,)
    np.testing.assert_array_equal(buf, np.random.default_rng(7).permutation(1000).astype(numpy_type))
    assert sorted(buf.astype(np.int64).tolist()) == list(range(1000))


N = 2 * CHUNK_ELEMENTS + 17   # two whole chunks and a partial one


@pytest.mark.parametrize("init, params, whole", [
    ("uniform", (-1.0, 1.0), lambda rng: rng.uniform(-1.0, 1.0, N)),
    ("normal", (0.5, 2.0), lambda rng: rng.normal(0.5, 2.0, N)),
    ("arange", (), lambda rng: np.arange(N)),
    ("value", (3.25,), lambda rng: np.full(N, 3.25)),
])
@pytest.mark.parametrize("dtype", ["f32", "f16", "i32"])
def test_element_wise_values_are_one_numpy_call_over_the_buffer_across_chunks(init, params, whole, dtype):
    expected = whole(np.random.default_rng(7)).astype({"f32": np.float32, "f16": np.float16, "i32": np.int32}[dtype])
    np.testing.assert_array_equal(_buffer(init, dtype, N, params), expected)


def test_bf16_buffers_round_each_chunk_as_the_whole_buffer():
    expected = to_bf16_bits(np.random.default_rng(7).uniform(-3.0, 3.0, N))
    got = _buffer("uniform", "bf16", N, (-3.0, 3.0))
    assert got.dtype == np.uint16
    np.testing.assert_array_equal(got, expected)


def test_randint_reaches_the_ends_of_the_64_bit_types_exactly():
    top = parse_text("; gpusim-arg: x buffer u64[4096] init=randint(18446744073709551613,18446744073709551616)"
                     " seed=3\n.text\ns_endpgm\n", "h.s").args[0]
    assert top.init_params == (18446744073709551613, 18446744073709551616)   # exact, not rounded through a float
    assert set(make_buffer(top).tolist()) == {18446744073709551613, 18446744073709551614, 18446744073709551615}
    low = _buffer("randint", "i64", 4096, (-(1 << 63), -(1 << 63) + 2))
    assert set(low.tolist()) == {-(1 << 63), -(1 << 63) + 1}
    # bounds inside the signed 64-bit range draw as they always have (the same values for a seed)
    np.testing.assert_array_equal(_buffer("randint", "u64", 64, (0, 1 << 40)),
                                  np.random.default_rng(7).integers(0, 1 << 40, 64).astype(np.uint64))


@pytest.mark.parametrize("dtype, init, params, phrase", [
    ("u8", "arange", (), "init arange gives 256 at element 256, which u8 cannot hold"),
    ("u32", "normal", (0.0, 1.0), "which u32 cannot hold"),   # a negative draw would wrap
    ("f32", "value", (1e39,), "init value(1e+39) gives 1e+39 at element 0, which f32 cannot hold"),
    ("f16", "uniform", (0.0, 1e5), "which f16 cannot hold"),
    ("i16", "perm", (), "init perm gives 3"),
])
def test_values_the_type_cannot_hold_are_refused_at_the_arguments_line(dtype, init, params, phrase):
    from gpusim.errors import HeaderError, SourceLoc
    spec = ArgSpec(name="x", kind="buffer", dtype=dtype, shape=(40000,), init=init, init_params=params, seed=7,
                   loc=SourceLoc("k.s", 4, 15))
    with pytest.raises(HeaderError, match=re.escape(phrase)) as info:
        make_buffer(spec)
    assert info.value.loc.line == 4 and "buffer 'x'" in str(info.value)


def test_values_the_type_holds_and_infinities_asked_for_are_kept():
    assert (_buffer("arange", "u8", 256) == np.arange(256)).all()
    assert np.isinf(_buffer("value", "f16", 4, (float("inf"),))).all()
    assert (_buffer("uniform", "u8", 1000, (0.0, 256.0)) <= 255).all()   # truncated: 255.9 is 255
