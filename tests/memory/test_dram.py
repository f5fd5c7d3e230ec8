"""The HBM DRAM timing model (gpusim/memory/kernels/dram.py): exact command timing of tiny cases.

Every expectation is derived from archs/cdna3.yaml's hbm.timing (memory clocks at 1.3 GHz):
  burst 2, tCL 17, tCWL 9, tRCD_RD 26, tRCD_WR 13, tRP 22, tRAS 37, tRC 59, tWR 27, tRTP 8,
  tCCD_S 2, tCCD_L 4, tRRD_S 4, tRRD_L 5, tFAW 20, tWTR_S 6, tWTR_L 9, tRTW 17, tRFC 455, tREFI 5070,
and its address map (bits above the 32 B column access: column, bank_group x2, pseudo_channel, bank x3,
column x4, then the row). A column access returns the end of its data burst: column + tCL (or tCWL) + 2.
Pseudo-channel 0 of channel 0 refreshes first at tREFI + 0 = 5070, for tRFC = 455 clocks.
"""
import numpy as np
import pytest

from memory_support import py

from gpusim.arch import arch_overrides, load_arch
from gpusim.memory import MemoryLevels
from gpusim.memory.kernels import dram as D

ARCH = load_arch("cdna3")
T = ARCH.hbm.timing


def _levels(arch=ARCH):
    return MemoryLevels(arch, cus=1)


def _addr(arch=ARCH, pc=0, bg=0, bank=0, col=0, row=0):
    """_addr encodes a channel-local byte address from its fields through the arch's address map."""
    fields = {"pseudo_channel": pc, "bank_group": bg, "bank": bank, "column": col}
    used = dict.fromkeys(fields, 0)
    x = 0
    bits = arch.hbm.address_map.bits
    for i, name in enumerate(bits):
        x |= ((fields[name] >> used[name]) & 1) << i
        used[name] += 1
    x |= row << len(bits)
    return x * arch.hbm.timing.access_bytes


@pytest.fixture(params=["compiled", "python"])
def column(request):
    """column runs dram_column compiled or as its Python body (the same model either way)."""
    f = D.dram_column if request.param == "compiled" else py(D.dram_column)
    return lambda m, local, t, write=False: int(f(m.kernel_args(), 0, local, t, write))


def _ctr(m, name):
    return m.counters()[name + "_sum"]


def test_decode_follows_the_address_map():
    d = _levels().dram_params
    dmap = _levels().dram_map
    assert D.dram_decode(d, dmap, _addr(pc=1, bg=2, bank=5, col=17, row=3)) == (1, 2, 5, 3)
    assert py(D.dram_decode)(d, dmap, _addr(pc=1, bg=3, bank=7, col=31, row=9)) == (1, 3, 7, 9)


def test_row_miss_then_hit_then_conflict(column):
    m = _levels()
    # empty bank: ACT at 0, RD at tRCD 26, data 26 + 17 .. 45
    assert column(m, _addr(row=1), 0) == 45
    # same row at 100: a hit, RD at 100, data 117 .. 119
    assert column(m, _addr(row=1, col=8), 100) == 119
    # another row at 200: PRE at 200 (tRAS and tRTP long met), ACT at 200 + tRP 22 = 222, RD at 248,
    # data 265 .. 267
    assert column(m, _addr(row=2), 200) == 267
    assert (_ctr(m, "GPUSIM_HBM_ROW_MISS"), _ctr(m, "GPUSIM_HBM_ROW_HIT"), _ctr(m, "GPUSIM_HBM_ROW_CONFLICT")) \
        == (1, 1, 1)
    assert (_ctr(m, "GPUSIM_HBM_ACT"), _ctr(m, "GPUSIM_HBM_PRE"), _ctr(m, "GPUSIM_HBM_RD_CAS")) == (2, 1, 3)


def test_conflict_waits_for_tras_of_the_open_row(column):
    m = _levels()
    assert column(m, _addr(row=1), 0) == 45
    # at 10 the open row's ACT (0) is younger than tRAS 37: PRE at 37, ACT at 59 (= also tRC), RD at 85,
    # data 102 .. 104
    assert column(m, _addr(row=2), 10) == 104


def test_same_bank_group_columns_are_tccd_l_apart_others_tccd_s(column):
    m = _levels()
    # open three rows: (bg 0, bank 0) ACT 0; (bg 0, bank 1) ACT 5 (tRRD_L); (bg 1, bank 0) ACT 9 (tRRD_S)
    for bg, bank in ((0, 0), (0, 1), (1, 0)):
        column(m, _addr(bg=bg, bank=bank), 0)
    # at 1000: a hit in bg 0 has RD 1000, data 1017 .. 1019
    assert column(m, _addr(bg=0, bank=0, col=2), 1000) == 1019
    # a hit in bg 1 issues tCCD_S = 2 later: data follows on the bus, 1019 .. 1021
    assert column(m, _addr(bg=1, bank=0, col=2), 1000) == 1021
    # a hit in bg 0's other bank must wait tCCD_L = 4 after bg 0's RD at 1000: RD 1004, data 1021 .. but the
    # bus is taken until 1021, so 1021 .. 1023
    assert column(m, _addr(bg=0, bank=1, col=2), 1000) == 1023
    # and a second bg 0 hit: RD at 1004 + 4 = 1008, data 1025 .. 1027 (its tCCD_L, not the bus, decides)
    assert column(m, _addr(bg=0, bank=0, col=3), 1000) == 1027


def test_tfaw_delays_the_fifth_activate(column):
    m = _levels()
    # five empty banks, bank groups 0, 1, 2, 3, 0 so that tRRD_S = 4 (not tRRD_L) spaces them: ACTs at
    # 0, 4, 8, 12 and the fifth at max(16, first ACT + tFAW 20) = 20; RD at 20 + 26 = 46, data 63 .. 65
    ends = [column(m, _addr(bg=bg, bank=bank), 0) for bg, bank in ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1))]
    assert ends == [45, 49, 53, 57, 65]
    assert _ctr(m, "GPUSIM_HBM_ACT") == 5


def test_tfaw_off_the_fifth_activate_follows_trrd():
    m = _levels(arch_overrides(ARCH, {"hbm.timing.faw_ck": 0}))
    ends = [int(D.dram_column(m.kernel_args(), 0, _addr(bg=bg, bank=bank), 0, False))
            for bg, bank in ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1))]
    assert ends[-1] == 16 + 26 + 17 + 2  # ACT at 16 (tRRD_S after 12)


def test_refresh_window_delays_a_request_and_closes_rows(column):
    m = _levels()
    assert column(m, _addr(row=1), 0) == 45
    # pseudo-channel 0 refreshes in [5070, 5525): a request at 5170 waits until 5525; the refresh closed the
    # open row, so it is a miss: ACT 5525, RD 5551, data 5568 .. 5570
    assert column(m, _addr(row=1, col=4), 5170) == 5570
    assert _ctr(m, "GPUSIM_HBM_REFRESH_STALL_CYCLES") == 5525 - 5170
    assert (_ctr(m, "GPUSIM_HBM_ROW_MISS"), _ctr(m, "GPUSIM_HBM_ROW_HIT")) == (2, 0)
    # pseudo-channel 1 refreshes tREFI / 256 pseudo-channels = 19 clocks later, in [5089, 5544): a miss at
    # 5060 reads (RD 5086) before it, data 5103 .. 5105
    assert column(m, _addr(pc=1, row=1), 5060) == 5105
    # one at 5080 would read at 5106, inside the window: the row it opened is closed by the refresh, so it
    # opens it again at 5544: RD 5570, data 5587 .. 5589
    assert column(m, _addr(pc=1, bank=1, row=1), 5080) == 5589


def test_write_to_read_and_read_to_write_turnarounds(column):
    m = _levels()
    # WR to an empty bank (bg 0): ACT 0, WR at tRCD_WR 13, data 13 + tCWL 9 = 22 .. 24
    assert column(m, _addr(bg=0), 0, True) == 24
    # RD of the same row: tRCD_RD gives 26, tWTR_L after the write data gives 24 + 9 = 33: data 50 .. 52
    assert column(m, _addr(bg=0, col=1), 0) == 52
    # pseudo-channel 1 has its own bus and turnaround state: a RD there is an ordinary miss, data 43 .. 45
    assert column(m, _addr(pc=1, bg=1), 0) == 45
    assert _ctr(m, "GPUSIM_HBM_WRITE_TO_READ") == 1


def test_read_after_write_in_another_bank_group_waits_twtr_s(column):
    m = _levels()
    assert column(m, _addr(bg=0), 0, True) == 24  # as above: write data ends at 24
    # bank group 1: ACT at tRRD_S 4, RD at 30 = 24 + tWTR_S 6 (also tRCD): data 47 .. 49
    assert column(m, _addr(bg=1), 0) == 49


def test_write_after_read_waits_trtw(column):
    m = _levels()
    assert column(m, _addr(bg=0), 0) == 45  # RD at 26
    # WR in bank group 1: ACT 4, tRCD_WR gives 17, tRTW after the RD gives 26 + 17 = 43: data 52 .. 54
    assert column(m, _addr(bg=1), 0, True) == 54
    assert _ctr(m, "GPUSIM_HBM_READ_TO_WRITE") == 1


def test_writes_wait_in_the_queue_until_the_high_watermark():
    m = _levels()
    M = m.kernel_args()
    for i in range(T.write_high_watermark - 1):  # 47 writes of one burst each, all pseudo-channel 0
        assert D.dram_write(M, 0, _addr(col=i % 32, bank=i // 32), 32, 10) == 10
    assert _ctr(m, "GPUSIM_HBM_WR_CAS") == 0
    # the 48th drains the 32 oldest, down to the low watermark of 16
    assert D.dram_write(M, 0, _addr(col=5, bank=3), 32, 10) > 10
    assert _ctr(m, "GPUSIM_HBM_WR_CAS") == T.write_high_watermark - T.write_low_watermark
    D.dram_drain_all(M, 2000)
    assert _ctr(m, "GPUSIM_HBM_WR_CAS") == T.write_high_watermark


def test_row_counters_add_up_to_column_accesses():
    m = _levels(ARCH)
    rng = np.random.default_rng(7)
    t = 0
    for _ in range(3000):
        addr = int(rng.integers(0, 1 << 26)) & ~63
        t += int(rng.integers(0, 40))
        m.access(0, addr, t, nbytes=64, write=bool(rng.integers(0, 4) == 0))
    M = m.kernel_args()
    D.dram_drain_all(M, 10 ** 9)
    c = m.counters()
    cas = c["GPUSIM_HBM_RD_CAS_sum"] + c["GPUSIM_HBM_WR_CAS_sum"]
    assert c["GPUSIM_HBM_ROW_HIT_sum"] + c["GPUSIM_HBM_ROW_MISS_sum"] + c["GPUSIM_HBM_ROW_CONFLICT_sum"] == cas
    assert c["GPUSIM_HBM_RD_CAS_sum"] * T.access_bytes == c["GPUSIM_HBM_READ_BYTES_sum"]
    assert c["GPUSIM_HBM_PRE_sum"] == c["GPUSIM_HBM_ROW_CONFLICT_sum"]
    assert c["GPUSIM_HBM_ACT_sum"] >= c["GPUSIM_HBM_ROW_MISS_sum"] + c["GPUSIM_HBM_ROW_CONFLICT_sum"]
    assert c["GPUSIM_HBM_ROW_CONFLICT_sum"] > 0 and c["GPUSIM_HBM_ROW_HIT_sum"] > 0


@pytest.mark.parametrize("enabled, done", [
    # off: the 64 B line holds channel 0 for 64 / 32 = 2 memory clocks, ceil(2 x 2100 / 1300) = 4 shader cycles
    (False, 4),
    # on: two bursts of one row in bank group 0: ACT 0, RDs at 26 and 30 (tCCD_L), data ends 49 memory
    # clocks = ceil(49 x 2100 / 1300) = 80 shader cycles
    (True, 80),
])
def test_hbm_read_with_the_model_on_and_off(enabled, done):
    from gpusim.memory.kernels.access import _hbm
    m = _levels(arch_overrides(ARCH, {"hbm.timing.enabled": enabled}))
    assert _hbm(m.kernel_args(), 0, 64, 0, False) == done + ARCH.hbm.latency_cycles
    assert py(_hbm)(m.kernel_args(), 1 << 20, 64, 0, False) == done + ARCH.hbm.latency_cycles
    assert m.counters()["GPUSIM_HBM_RD_CAS_sum"] == (4 if enabled else 0)
