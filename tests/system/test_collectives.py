"""Collectives: numpy semantics, RCCL-style timing on a Fabric, rccl-tests bandwidths."""
from types import SimpleNamespace

import numpy as np
import pytest
import simpy

from gpusim.arch import load_arch
from gpusim.system.collectives import (apply_collective, bandwidths, collective_process, rccl_size,
                                       reduction_cost)
from gpusim.system.links import Fabric
from gpusim.system.program import CollectiveOp, BufferRef, LinkSpec, SystemSpec

ARCH = load_arch("cdna3")
LINK = LinkSpec(bandwidth_gbps=50.0, efficiency=0.8, latency_us=1.5)   # 40e3 bytes/us
MB = 1 << 20


def _op(kind, group, op="sum", root=0):
    return CollectiveOp(kind=kind, send=BufferRef("x"), group=tuple(group), op=op, root=root)


def _send(n, shape=(4, 6), dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return {g: rng.integers(-5, 6, size=shape).astype(dtype) for g in range(n)}


@pytest.mark.parametrize("op,ref", [("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod)])
def test_all_reduce_reduces_every_array(op, ref):
    send = _send(4)
    out = apply_collective(_op("all_reduce", range(4), op), send)
    expect = ref(np.stack([send[g] for g in range(4)]), axis=0)
    for g in range(4):
        np.testing.assert_array_equal(out[g], expect)
        assert out[g].dtype == np.float32 and out[g].shape == (4, 6)


def test_all_reduce_keeps_the_dtype_and_rounds_like_numpy():
    send = {g: np.full(8, 0.1 * (g + 1), np.float16) for g in range(3)}
    out = apply_collective(_op("all_reduce", range(3)), send)
    expect = (send[0] + send[1]) + send[2]
    assert out[0].dtype == np.float16
    np.testing.assert_array_equal(out[0], expect)
    ints = {g: np.array([2**31 - 1], np.int32) for g in range(2)}
    assert apply_collective(_op("all_reduce", range(2)), ints)[0][0] == -2   # wraps as int32 does


def test_all_gather_concatenates_in_group_order():
    send = _send(3, shape=(2, 2))
    out = apply_collective(_op("all_gather", (2, 0, 1)), send)
    expect = np.concatenate([send[2].ravel(), send[0].ravel(), send[1].ravel()])
    for g in range(3):
        np.testing.assert_array_equal(out[g], expect)


@pytest.mark.parametrize("op,ref", [("sum", np.sum), ("max", np.max)])
def test_reduce_scatter_gives_block_k_to_position_k(op, ref):
    send = _send(4, shape=(8,))
    group = (3, 1, 0, 2)
    out = apply_collective(_op("reduce_scatter", group, op), send)
    full = ref(np.stack([send[g] for g in range(4)]), axis=0)
    for k, g in enumerate(group):
        np.testing.assert_array_equal(out[g], full[2 * k:2 * k + 2])


def test_all_to_all_transposes_blocks():
    send = {g: np.arange(8, dtype=np.int32) + 100 * g for g in range(4)}
    out = apply_collective(_op("all_to_all", range(4)), send)
    for j in range(4):
        expect = np.concatenate([send[i][2 * j:2 * j + 2] for i in range(4)])
        np.testing.assert_array_equal(out[j], expect)


def test_broadcast_copies_the_root():
    send = _send(4)
    out = apply_collective(_op("broadcast", range(4), root=2), send)
    for g in range(4):
        np.testing.assert_array_equal(out[g], send[2])
    out[0][0, 0] = 99
    assert send[2][0, 0] != 99


def test_bad_groups_are_refused():
    with pytest.raises(ValueError, match="twice"):
        apply_collective(SimpleNamespace(kind="all_reduce", op="sum", root=0, group=(0, 0)), _send(2))
    with pytest.raises(ValueError, match="split"):
        apply_collective(_op("reduce_scatter", range(3)), _send(3, shape=(4,)))


def test_bandwidths_follow_rccl_tests():
    algbw, busbw = bandwidths("all_reduce", 268435456, 8, 1537.1e-6)
    assert algbw == pytest.approx(174.64, abs=0.01) and busbw == pytest.approx(305.62, abs=0.01)   # [K]'s row
    assert bandwidths("all_gather", 8e9, 8, 1.0) == pytest.approx((8.0, 7.0))
    assert bandwidths("reduce_scatter", 8e9, 4, 1.0) == pytest.approx((8.0, 6.0))
    assert bandwidths("all_to_all", 8e9, 8, 1.0) == pytest.approx((8.0, 7.0))
    assert bandwidths("broadcast", 8e9, 8, 1.0) == pytest.approx((8.0, 8.0))
    assert rccl_size("all_gather", 100, 8) == 800 and rccl_size("reduce_scatter", 800, 8) == 800


def _run(kind, algorithm, n, nbytes, topology="mesh", **kw):
    env = simpy.Environment()
    fabric = Fabric(env, SystemSpec(archs=(ARCH,) * n, topology=topology, link=LINK))
    proc = collective_process(env, fabric, kind, algorithm, range(n), nbytes, **kw)
    env.run()
    return proc.value, fabric


def test_ring_all_reduce_on_a_mesh_matches_the_closed_form():
    n, S = 8, 56 * MB
    r, fabric = _run("all_reduce", "ring", n, S)
    piece = S / n / (n - 1)                       # n-1 rings share each step's S/n
    assert r.duration_us == pytest.approx(2 * (n - 1) * (1.5 + piece / 40e3))
    assert len(r.link_bytes) == n * (n - 1)       # every link works
    assert r.busbw_gbps == pytest.approx(S / 1e3 / r.duration_us * 2 * (n - 1) / n)
    for load in r.gpu.values():
        assert load.sent_bytes == pytest.approx(2 * (n - 1) * S / n)


def test_ring_all_reduce_on_a_ring_topology_uses_both_directions():
    n, S = 4, 8 * MB
    r, _ = _run("all_reduce", "ring", n, S, topology="ring")
    assert r.duration_us == pytest.approx(2 * (n - 1) * (1.5 + S / n / 2 / 40e3))


def test_step_latency_adds_per_step():
    n, S = 4, 4 * MB
    base, _ = _run("all_gather", "ring", n, S // n)
    slow, _ = _run("all_gather", "ring", n, S // n, step_latency_us=10.0)
    assert slow.duration_us - base.duration_us == pytest.approx((n - 1) * 10.0)


def test_direct_all_reduce_sends_everything_once_then_reduces():
    n, S = 4, 4 * MB
    r, _ = _run("all_reduce", "direct", n, S)
    reduce_us = reduction_cost(ARCH, S, 16, inputs=n).us
    assert r.duration_us == pytest.approx(1.5 + S / 40e3 + reduce_us)


def test_a_switch_is_slower_than_a_mesh_for_all_to_all():
    mesh, _ = _run("all_to_all", "direct", 4, 8 * MB)
    switch, _ = _run("all_to_all", "direct", 4, 8 * MB, topology="switch")
    assert switch.duration_us > 2 * mesh.duration_us


def test_tree_and_chain_broadcast_pipeline_in_chunks():
    n, S = 4, 8 * MB
    chain, _ = _run("broadcast", "ring", n, S, chunk_bytes=MB, root=2)
    hops = n - 1                                  # the last chunk leaves the root at S/B, then crosses 2 more hops
    assert chain.duration_us == pytest.approx(hops * 1.5 + (S + (hops - 1) * MB) / 40e3, rel=1e-6)
    tree, _ = _run("all_reduce", "tree", n, S, chunk_bytes=MB)
    stage = 1.5 + MB / 40e3                       # up (child->parent) and down links differ: the phases overlap
    assert S / 40e3 < tree.duration_us < S / 40e3 + 2 * 2 * stage + 10.0   # depth 2, each way; reductions


def test_reduction_cost_counts_hbm_bytes_through_the_channels():
    c = reduction_cost(ARCH, MB, 16)
    assert c.hbm_bytes == 3 * MB
    per_cu = ARCH.cu.l1.bytes_per_clk * ARCH.clocks.shader_mhz * 1e6
    assert c.us == pytest.approx(3 * MB / (16 * per_cu) * 1e6)
    assert reduction_cost(ARCH, MB, 304).us < c.us


def test_a_256mb_all_reduce_on_8_gpus_is_cheap_to_simulate():
    import time
    t = time.perf_counter()
    _run("all_reduce", "ring", 8, 256 * MB)
    assert time.perf_counter() - t < 1.0
