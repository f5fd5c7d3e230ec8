"""DeviceMemory: a GPU's buffers keep their device addresses for the program's life."""
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.exec.buffers import make_buffer
from gpusim.exec.launch import ARENA_BASE, GUARD_BYTES, Dispatch
from gpusim.system.device import DeviceMemory
from gpusim.system.kernel_launch import kernarg_bytes

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def arch():
    return gpusim.load_arch("cdna3")


def test_addresses_are_aligned_guarded_and_fixed_while_the_space_grows(arch):
    dev = DeviceMemory(0, arch)
    a = dev.allocate("a", np.arange(10, dtype=np.float32))
    b = dev.allocate("b", np.ones((3, 5), np.int64))
    big = dev.allocate("big", np.full(1 << 20, 7, np.uint8))   # grows the arena several times over
    assert a >= ARENA_BASE and a % 256 == 0 and b % 256 == 0 and big % 256 == 0
    assert b - (a + 40) >= GUARD_BYTES and big - (b + 120) >= GUARD_BYTES
    assert (dev.address("a"), dev.address("b"), dev.address("big")) == (a, b, big)
    assert dev.names == ("a", "b", "big")
    np.testing.assert_array_equal(dev.array("a"), np.arange(10, dtype=np.float32))   # contents survive growth
    assert dev.array("b").shape == (3, 5) and dev.array("b").dtype == np.int64
    assert int(dev.array("big").sum()) == 7 << 20


def test_arrays_and_views_write_device_memory_in_place(arch):
    dev = DeviceMemory(0, arch)
    dev.allocate("x", np.zeros(8, np.int32))
    dev.array("x")[2] = 5
    dev.view("x", 12, 4)[:] = np.frombuffer(np.int32(9).tobytes(), np.uint8)
    np.testing.assert_array_equal(dev.array("x"), [0, 0, 5, 9, 0, 0, 0, 0])
    assert dev.view("x").nbytes == 32 and dev.nbytes("x") == 32
    with pytest.raises(ValueError):
        dev.view("x", 30, 4)
    with pytest.raises(ValueError):
        dev.allocate("x", np.zeros(1))
    with pytest.raises(KeyError, match="no buffer 'y' on GPU 0"):
        dev.array("y")


def test_a_kernels_buffers_allocated_in_argument_order_get_a_single_kernel_runs_addresses(arch):
    kernel = gpusim.load_kernel(REPO / "tests/data/corpus/gfx942/gather.s")
    module = kernel.module
    single = Dispatch(module, kernel.source, kernel.program, module.launch, module.args)
    dev = DeviceMemory(0, arch, kernarg_bytes=kernarg_bytes(kernel))
    for spec in module.args:
        if spec.kind == "buffer":
            assert dev.allocate(spec.name, make_buffer(spec)) == single.buffers[spec.name].address
    assert dev.packet_offset == single.packet_offset and dev.kernarg_offset == single.kernarg_offset


def test_the_caches_start_cold(arch):
    dev = DeviceMemory(3, arch)
    assert dev.gpu == 3 and not dev.memory.mall_tags.any() and not dev.memory.l2_tags.any()
    assert dev.stale == set()
