"""bf16 buffers: to_bf16_bits rounds float32 values to bfloat16 bits, nearest-even, as the hardware converts."""
import numpy as np

from gpusim.exec.buffers import to_bf16_bits


def _reference(bits: int) -> int:
    """round-to-nearest-even of one float32 bit pattern to its upper 16 bits, NaN to the quiet 0x7FC0"""
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return 0x7FC0
    upper, rest = bits >> 16, bits & 0xFFFF
    if rest > 0x8000 or (rest == 0x8000 and upper & 1):
        upper += 1
    return upper


def test_every_kind_of_float32_rounds_to_the_nearest_even_bfloat16():
    rng = np.random.default_rng(5)
    patterns = np.concatenate([
        rng.integers(0, 1 << 32, 20_000, dtype=np.uint64),
        [0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001,          # ties to even (down, up) and either side
         0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,          # the largest finite values round to infinity
         0x7F800001, 0xFFFFFFFF, 0x7FC00000, 0x00000001, 0x80000000],
    ]).astype(np.uint32)
    got = to_bf16_bits(patterns.view(np.float32))
    assert got.dtype == np.uint16
    assert [int(v) for v in got] == [_reference(int(p)) for p in patterns]


def test_the_shape_is_kept_and_float64_input_is_rounded_to_float32_first():
    x = np.array([[1.0, -2.5], [1.0 + 2.0 ** -9, 3.0e38]])
    got = to_bf16_bits(x)
    assert got.shape == (2, 2)
    expected = [_reference(int(b)) for b in x.astype(np.float32).view(np.uint32).ravel()]
    assert got.ravel().tolist() == expected
