"""Topology: which links a system has and the route a transfer takes."""
import pytest

from gpusim.arch import load_arch
from gpusim.system.program import HOST, SystemSpec
from gpusim.system.topology import Topology, default_links


def _system(n, topology):
    return SystemSpec(archs=(load_arch("cdna3"),) * n, topology=topology)


def test_mesh_has_a_link_per_ordered_pair_and_routes_direct():
    t = Topology(_system(8, "mesh"))
    assert sum(link.kind == "peer" for link in t.links) == 56
    assert t.route(0, 3) == ("xgmi 0->3",)
    assert t.route(3, 0) == ("xgmi 3->0",)


def test_ring_routes_the_short_way_and_clockwise_on_a_tie():
    t = Topology(_system(4, "ring"))
    assert sum(link.kind == "peer" for link in t.links) == 8
    assert t.route(0, 2) == ("xgmi 0->1", "xgmi 1->2")          # a tie: clockwise, 2 hops
    assert t.route(0, 3) == ("xgmi 0->3",)                      # one hop back
    assert t.route(1, 3) == ("xgmi 1->2", "xgmi 2->3")


def test_switch_routes_up_then_down():
    t = Topology(_system(4, "switch"))
    assert t.route(2, 1) == ("xgmi 2->switch", "xgmi switch->1")


def test_host_links_and_device_copies():
    t = Topology(_system(4, "mesh"))
    assert t.route(HOST, 2) == ("host->2",)
    assert t.route(2, HOST) == ("2->host",)
    assert t.route(1, 1) == ("hbm 1",)
    with pytest.raises(ValueError):
        t.route(HOST, HOST)
    with pytest.raises(ValueError):
        t.route(0, 4)


def test_default_links_read_the_arch_interconnect_section():
    arch = load_arch("cdna3")
    peer, host, engines = default_links(arch)
    assert peer.bandwidth_gbps == 64.0 and 0.6 < peer.efficiency < 0.8
    assert peer.latency_us == pytest.approx(arch.interconnect.peer_link.latency_cycles / arch.clocks.shader_mhz)
    assert host.usable_gbps == pytest.approx(55.0, rel=0.01)
    assert engines >= 1


def test_interconnect_is_a_what_if_key():
    from gpusim.arch import arch_overrides
    arch = arch_overrides(load_arch("cdna3"), {"interconnect.peer_link.bandwidth_gbps": 128.0})
    assert default_links(arch)[0].bandwidth_gbps == 128.0
