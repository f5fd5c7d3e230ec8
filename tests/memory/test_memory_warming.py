"""Functional warming (gpusim.memory.kernels.warming) leaves the caches as the timed walk would."""
import numpy as np

from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels
from gpusim.memory.kernels.translation import translated_access_line
from gpusim.memory.kernels.warming import warm_line

ARCH = load_arch("cdna3")
# page walks put page-table lines in the L2, which warming leaves out (the module's docstring says why)
NO_WALKS = arch_overrides(ARCH, {"translation.enabled": False})
CUS = 2


def _requests(seed=7, n=6000):
    """A mixed stream over 6 MiB (past one XCD's 4 MiB L2): vector reads and writes from two CUs, some
    with the nt bit (miss-evict in the L1), and scalar reads; (cu, address, is_write, is_scalar, bits)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        cu = int(rng.integers(CUS))
        addr = int(rng.integers(6 << 20)) & ~3
        kind = rng.random()
        if kind < 0.1:
            out.append((cu, addr, False, True, 0))
        else:
            out.append((cu, addr, kind < 0.4, False, 4 if kind > 0.9 else 0))
    return out


def _state(m):
    k = m.kernel_args()
    return {"l1": k.l1_tags, "scalar": k.sq_tags, "l2": k.l2_tags, "l2_dirty": k.l2_dirty, "mall": k.mall_tags}


def test_warming_fills_the_same_lines_as_the_timed_walk():
    timed, warmed = MemoryLevels(NO_WALKS, cus=CUS), MemoryLevels(NO_WALKS, cus=CUS)
    t = 0
    for cu, addr, write, scalar, bits in _requests():
        t += 3
        translated_access_line(timed.kernel_args(), cu, addr, 4 if write else 0, t, write, scalar, bits)
        warm_line(warmed.kernel_args(), cu, addr, t, write, scalar, bits)
    a, b = _state(timed), _state(warmed)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    assert a["l2_dirty"].sum() > 0 and (a["mall"] != 0).sum() > 0   # the stream reached every level


def test_warming_counts_nothing_and_a_warmed_line_hits_in_the_l1():
    m = MemoryLevels(ARCH, cus=CUS)
    warm_line(m.kernel_args(), 0, 8192, 1000, False, False, 0)
    assert all(v == 0 for v in m.counters().values())
    latency = translated_access_line(m.kernel_args(), 0, 8192, 0, 2000, False, False, 0) - 2000
    assert latency < ARCH.cu.l1.latency_cycles + 8     # an L1 hit (plus the line's port cycles), no walk
    assert m.counters()["GPUSIM_TCP_HIT_sum"] == 1


SMALL_PAGES = arch_overrides(ARCH, {"translation.page_bytes": 4096})   # 6 MiB: 1,536 pages, past both TLBs


def test_warming_leaves_the_translation_caches_as_the_timed_walk():
    timed, warmed = MemoryLevels(SMALL_PAGES, cus=CUS), MemoryLevels(SMALL_PAGES, cus=CUS)
    t = 0
    for cu, addr, write, scalar, bits in _requests():
        t += 3
        for a in (addr, addr + 64):   # a second line of the page: the CU's last-page shortcut
            translated_access_line(timed.kernel_args(), cu, a, 4 if write else 0, t, write, scalar, bits)
            warm_line(warmed.kernel_args(), cu, a, t, write, scalar, bits)
    a, b = timed.kernel_args().tr, warmed.kernel_args().tr
    for name in ("l1_tags", "l2_tags"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    np.testing.assert_array_equal(a.last[:, 1:], b.last[:, 1:])   # the same last page, set and way per CU
    assert (a.l1_tags != 0).all() and (a.l2_tags != 0).all()      # both TLBs full, so LRU chose victims


def test_a_timed_lookup_after_warming_takes_the_last_page_shortcut_and_counts_one_hit():
    m = MemoryLevels(ARCH, cus=CUS)
    warm_line(m.kernel_args(), 1, 1 << 22, 1000, False, False, 0)
    stamps = m.kernel_args().tr.l1_stamps.copy()
    translated_access_line(m.kernel_args(), 1, (1 << 22) + 4096, 0, 2000, False, False, 0)
    counters = m.counters()
    assert counters["TCP_UTCL1_REQUEST_sum"] == 1 and counters["TCP_UTCL1_TRANSLATION_HIT_sum"] == 1
    np.testing.assert_array_equal(m.kernel_args().tr.l1_stamps, stamps)   # the shortcut restamps nothing
