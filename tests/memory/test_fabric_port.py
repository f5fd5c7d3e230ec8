"""The XCDs' ports to the data fabric (access.fabric_port, l2.fabric_bytes_per_clk).

A port is a bandwidth server per XCD that every line fill from the MALL or HBM and every write-back of the
XCD's L2 passes through. It adds no latency of its own: an idle port leaves a request's cycles as they were
without one, and a busy one delays the next line by the cycles the lines ahead of it hold it. With 32 B per
clock a 128 B line holds the port 128 / 32 = 4 cycles; with 96 B per clock, 22 sixteenths of a cycle.
"""
from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels
from gpusim.memory.kernels.channel import channel_of

LINE = 128
CDNA3 = load_arch("cdna3")
# no port, translation and DRAM timing off, and HBM clocked as the shader (no rounding between the two clocks): a
# line's other costs do not depend on when it starts, so the port's share is the difference
BASE = arch_overrides(CDNA3, {"translation.enabled": False, "hbm.timing.enabled": False, "l2.fabric_bytes_per_clk": 0,
                              "clocks.memory_mhz": CDNA3.clocks.shader_mhz})


def _ported(bytes_per_clk):
    return arch_overrides(BASE, {"l2.fabric_bytes_per_clk": bytes_per_clk})


def _lines_on_distinct_channels(count):
    """_lines_on_distinct_channels returns ``count`` L2 line addresses, each on its own L2 channel and HBM
    channel, so that nothing but the fabric port is shared between them."""
    found, l2_seen, hbm_seen = [], set(), set()
    addr = 0
    while len(found) < count:
        l2 = channel_of(addr, BASE.l2.channel_interleave_bytes, BASE.l2.channels)
        hbm = channel_of(addr, BASE.hbm.channel_interleave_bytes, BASE.hbm.channels)
        if l2 not in l2_seen and hbm not in hbm_seen:
            found.append(addr)
            l2_seen.add(l2)
            hbm_seen.add(hbm)
        addr += LINE
    return found


def _fills(arch, requests):
    """_fills returns the completion cycles of cold loads (cu, addr) all issued at cycle 0, and the levels."""
    m = MemoryLevels(arch, cus=2 * arch.gpu.cus_per_xcd)
    return [m.access(cu, addr, 0) for cu, addr in requests], m


def test_an_idle_port_adds_no_latency():
    (alone,), _ = _fills(BASE, [(0, 0)])
    (ported,), m = _fills(_ported(32), [(0, 0)])
    assert ported == alone
    assert m.counters()["GPUSIM_TCC_FABRIC_STALL_CYCLES_sum"] == 0


def test_lines_of_one_xcd_queue_at_its_port():
    requests = list(enumerate(_lines_on_distinct_channels(3)))       # CUs 0-2 of XCD 0, one L2 channel each
    free, _ = _fills(BASE, requests)
    ported, m = _fills(_ported(32), requests)
    # the three misses reach the port at the same cycle t: the first takes it for [t, t + 4), the second
    # waits until t + 4, the third until t + 8
    assert [p - f for p, f in zip(ported, free)] == [0, 4, 8]
    assert m.counters()["GPUSIM_TCC_FABRIC_STALL_CYCLES_sum"] == 0 + 4 + 8


def test_a_line_can_take_a_fraction_of_a_cycle():
    requests = list(enumerate(_lines_on_distinct_channels(4)))
    free, _ = _fills(BASE, requests)
    ported, _ = _fills(_ported(96), requests)
    # 128 B at 96 B per clock is 4/3 of a cycle, 21.3 of the port's sixteenth-cycle ticks, rounded up to 22:
    # the lines start 0, 22, 44 and 66 ticks after t, and go on at the next whole cycle: t + 0, 2, 3, 5
    assert [p - f for p, f in zip(ported, free)] == [0, 2, 3, 5]


def test_ports_are_per_xcd():
    first, second = _lines_on_distinct_channels(2)
    requests = [(0, first), (BASE.gpu.cus_per_xcd, second)]          # CU 0 of XCD 0 and CU 0 of XCD 1
    free, _ = _fills(BASE, requests)
    ported, m = _fills(_ported(32), requests)
    assert ported == free
    assert m.counters()["GPUSIM_TCC_FABRIC_STALL_CYCLES_sum"] == 0
