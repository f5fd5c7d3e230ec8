"""init=perm: a random permutation of 0..n-1, the same values whatever the element type, for the same seed."""
import numpy as np
import pytest

from gpusim.asm.ir import ArgSpec
from gpusim.exec.buffers import make_buffer


@pytest.mark.parametrize("dtype, numpy_type", [("u32", np.uint32), ("i32", np.int32), ("f32", np.float32),
                                               ("u64", np.uint64)])
def test_perm_is_numpys_permutation_of_the_seed_in_the_buffers_type(dtype, numpy_type):
    buf = make_buffer(ArgSpec(name="keys", kind="buffer", dtype=dtype, shape=(1000,), init="perm", seed=7))
    assert buf.dtype == numpy_type and buf.shape == (1000,)
    np.testing.assert_array_equal(buf, np.random.default_rng(7).permutation(1000).astype(numpy_type))
    assert sorted(buf.astype(np.int64).tolist()) == list(range(1000))
