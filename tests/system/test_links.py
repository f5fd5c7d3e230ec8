"""Fabric: transfers as chunks over bandwidth-limited, shared links (time in microseconds)."""
import pytest
import simpy

from gpusim.arch import load_arch
from gpusim.system.links import Fabric
from gpusim.system.program import HOST, LinkSpec, SystemSpec
from gpusim.system.topology import d2d_copy_gbps

LINK = LinkSpec(bandwidth_gbps=50.0, efficiency=0.8, latency_us=2.0)   # 40 GB/s usable = 40e3 bytes/us
MB = 1 << 20


def _fabric(n=4, topology="mesh"):
    env = simpy.Environment()
    system = SystemSpec(archs=(load_arch("cdna3"),) * n, topology=topology, link=LINK,
                        host_link=LinkSpec(64.0, 0.5, 1.0))
    return env, Fabric(env, system)


def test_one_transfer_takes_latency_plus_bytes_over_usable_bandwidth():
    env, f = _fabric()
    env.run(f.transfer(0, 1, MB, chunk_bytes=64 * 1024))
    assert env.now == pytest.approx(2.0 + MB / 40e3)
    assert f.stats["xgmi 0->1"].bytes == MB


def test_two_transfers_on_one_link_share_it_chunk_by_chunk():
    env, f = _fabric()
    a = f.transfer(0, 1, MB, chunk_bytes=64 * 1024, label="a")
    b = f.transfer(0, 1, MB, chunk_bytes=64 * 1024, label="b")
    ends = {}
    a.callbacks.append(lambda e: ends.setdefault("a", env.now))
    b.callbacks.append(lambda e: ends.setdefault("b", env.now))
    env.run()
    chunk_us = 64 * 1024 / 40e3
    assert ends["b"] == pytest.approx(2.0 + 2 * MB / 40e3)
    assert ends["a"] == pytest.approx(ends["b"] - chunk_us)       # interleaved, not one after the other
    labels = [iv[2] for iv in f.stats["xgmi 0->1"].intervals[:4]]
    assert labels == ["a", "b", "a", "b"]


def test_transfers_on_different_links_do_not_contend():
    env, f = _fabric()
    f.transfer(0, 1, MB)
    f.transfer(0, 2, MB)
    env.run()
    assert env.now == pytest.approx(2.0 + MB / 40e3)


def test_a_multi_hop_route_pipelines_its_chunks():
    env, f = _fabric(4, "ring")
    env.run(f.transfer(0, 2, MB, chunk_bytes=MB // 16))
    chunk_us = MB / 16 / 40e3
    assert len(f.route(0, 2)) == 2
    assert env.now == pytest.approx(2 * 2.0 + MB / 40e3 + chunk_us)   # both hops' latency, one extra chunk


def test_many_chunks_are_coalesced_without_changing_the_time():
    env, f = _fabric()
    env.run(f.transfer(0, 1, 1 << 30, chunk_bytes=4096))
    assert env.now == pytest.approx(2.0 + (1 << 30) / 40e3)
    assert len(f.stats["xgmi 0->1"].intervals) == 1                  # merged: one label, back to back


def test_host_and_device_copies_use_their_own_rates():
    env, f = _fabric()
    env.run(f.transfer(HOST, 3, MB))
    assert env.now == pytest.approx(1.0 + MB / 32e3)
    env2, f2 = _fabric()
    env2.run(f2.transfer(1, 1, MB))
    assert env2.now == pytest.approx(MB / (d2d_copy_gbps(load_arch("cdna3")) * 1e3))
    env3, f3 = _fabric()
    env3.run(f3.transfer(1, 1, MB, gbps=1000.0))
    assert env3.now == pytest.approx(MB / 1e6)


def test_usage_reports_utilisation_and_achieved_bandwidth():
    env, f = _fabric()
    env.run(f.transfer(0, 1, MB))
    total = env.now
    rows = {r.link: r for r in f.usage(total)}
    assert set(rows) == {"xgmi 0->1"}
    r = rows["xgmi 0->1"]
    assert r.busy_us == pytest.approx(MB / 40e3)
    assert r.utilisation == pytest.approx((MB / 40e3) / total)
    assert r.achieved_gbps == pytest.approx(MB / total / 1e3)
