"""HBM DRAM timing per pseudo-channel: banks with row buffers, JEDEC-style command timing, refresh, a write
queue drained in batches, and the data bus of each pseudo-channel.

Times here are memory clocks (``clocks.memory_mhz``, the HBM CK); ``access._hbm`` converts from and to shader
cycles. An HBM channel (``channel.channel_of`` over ``hbm.channel_interleave_bytes``, the same select the MALL
slices use) splits into ``pseudo_channels``; the channel-local address (``channel.channel_local``) minus its
low ``log2(access_bytes)`` bits is decoded by ``hbm.address_map.bits`` (least significant first: which of
column, bank_group, bank, pseudo_channel each bit selects); the bits above the map are the row. One column
access (RD or WR) moves ``access_bytes`` over ``burst_ck`` clocks of the pseudo-channel's data bus; a request
of n bytes is ceil(n / access_bytes) column accesses, each timed on its own (``dram_read``/``dram_write``).

Per pseudo-channel state (index ``g = channel * pseudo_channels + pseudo_channel``):
  dram_bank [g, bank_groups * banks_per_group, N_BANK]   open row (+1; 0 = closed), last ACT, earliest next
                                                          ACT (tRP, tRC), earliest PRE (tRAS, tRTP, tWR)
  dram_bg   [g, bank_groups, N_BG]                        earliest ACT (tRRD_L), column (tCCD_L), read after a
                                                          write (tWTR_L)
  dram_pc   [g, N_PC]                                     earliest ACT (tRRD_S), the four-activate window
                                                          (tFAW ring), read after write (tWTR_S), write after
                                                          read (tRTW), last direction, write-queue fill
  dram_wq   [g, write_queue_depth]                        buffered writes (channel-local addresses)
  hbm_free  [g, CALENDAR]                                 the data bus, a ``channel.channel_request`` calendar

Command timing of one column access at controller arrival ``t`` (all ``max`` over the constraints named):
  row hit      column = max(t, ACT + tRCD)
  row miss     (bank closed) ACT = max(t, bank next ACT, tRRD_S, tRRD_L, tFAW); column = ACT + tRCD
  row conflict (another row open) PRE = max(t, bank earliest PRE); ACT = max(PRE + tRP, ...as a miss)
then column = max(column, tCCD_L of its bank group, tWTR (read after write) / tRTW (write after read)), and
the data burst takes the bus at column + tCL (read) / tCWL (write), or the bus's next free slot; a read's data
has arrived at the end of its burst.

Refresh is all-bank (REFab) per pseudo-channel: pseudo-channel g refreshes in [s + k tREFI, s + k tREFI +
tRFC) for k >= 0 with s = tREFI + g tREFI / (all pseudo-channels) (``refresh_first``), so refreshes are staggered over the
interval as controllers stagger them. A command that would issue inside the window waits for its end
(GPUSIM_HBM_REFRESH_STALL_CYCLES), and a refresh closes every row (an implicit precharge, not counted as a
PRE). Per-bank refresh (REFpb), which hides most of this, is not modelled.

Scheduling. The engine offers requests in issue order, which is near but not exactly time order (CUs advance
through windows in turn), and needs each read's completion when it is offered, so there is no event queue to
reorder. The approximation of FR-FCFS with write draining:
  * Reads are served in offer order per bank (first come, first served), every timing constraint is kept
    against the latest commands already placed; a row hit goes as soon as its bank and bus allow, so within
    the reads offered in a window, hits to an open row are not held behind older misses to other banks
    (the "first ready" part, across banks). The bus is a calendar: a burst that arrives out of time order
    fills an untaken slot before the latest one, as ``channel_request`` documents.
  * Row hits before a conflict: true FR-FCFS serves a hit to the open row before an older conflict to the
    same bank. Offered one at a time, the conflict comes first and closes the row (its PRE is placed at once);
    a hit to that closed row arriving before that PRE is then served as the hit FR-FCFS would have made it
    (at its own arrival, after the row's tRCD, through the bus calendar), without reopening the row.
    Departure: the conflict it would have pushed back keeps its place (optimistic by one burst per such
    hit), that hit skips tCCD_L and the turnaround state, and hits arriving after the PRE ping-pong between
    rows in offer order (pessimistic where a deeper queue would still have grouped them).
  * Writes are buffered per pseudo-channel (``write_queue_depth``) and cost the reads nothing until drained:
    when the buffer reaches ``write_high_watermark`` it drains, oldest first, to ``write_low_watermark``, in
    one batch (one read-to-write and one write-to-read turnaround for the batch, GPUSIM_HBM_READ_TO_WRITE /
    GPUSIM_HBM_WRITE_TO_READ); a write that finds the pseudo-channel without a read for
    ``write_idle_drain_ck`` clocks drains the whole buffer (reads idle). The end-of-kernel release drains
    every buffer (``dram_drain_all``). Departure: a batch starts when the write that fills it arrives, not
    when the controller would have switched; the drained writes are not re-sorted by row.
  * Reads hold an entry of the per-channel read queue (``hbm.queue_depth_per_channel``, in ``access._hbm``)
    from arrival until their data has moved; with every entry taken a read waits (queue stall cycles).
Deterministic: state depends only on the order and arguments of the calls.
"""
from collections import namedtuple

from numba import njit

from gpusim.memory.kernels.channel import channel_request
from gpusim.memory.kernels.fastdiv import quot, rem

# The DRAM model's arrays, named as in memory.kernels.arrays.MemoryArrays: every function here takes either
# bundle as ``M``. numba passes a bundle by value, so ``access._hbm`` hands over this 8-array one rather than
# the whole hierarchy's (a 64 B read cost 285 ns with the whole bundle passed down three calls).
DramArrays = namedtuple("DramArrays", ("dram_params", "dram_map", "dram_bank", "dram_bg", "dram_pc", "dram_wq",
                                       "hbm_free", "hbm_ctr"))

# Indices into the int64 DRAM parameter vector ``dram_params`` (built by gpusim.memory.hierarchy.MemoryLevels).
D_ENABLED = 0
D_PSEUDO_CHANNELS = 1
D_BANK_GROUPS = 2
D_BANKS_PER_GROUP = 3
D_ACCESS_BYTES = 4
D_BURST = 5
D_CL = 6
D_CWL = 7
D_RCD_RD = 8
D_RCD_WR = 9
D_RP = 10
D_RAS = 11
D_RC = 12
D_WR = 13
D_RTP = 14
D_CCD_S = 15
D_CCD_L = 16
D_RRD_S = 17
D_RRD_L = 18
D_FAW = 19
D_WTR_S = 20
D_WTR_L = 21
D_RTW = 22
D_RFC = 23
D_REFI = 24
D_WQ_DEPTH = 25
D_WQ_HIGH = 26
D_WQ_LOW = 27
D_IDLE_DRAIN = 28
D_MAP_BITS = 29
D_PCS_TOTAL = 30
N_DRAM_PARAMS = 31

# Address-map field codes (hbm.address_map.bits names, see ``decode_table``).
F_COLUMN = 0
F_BANK_GROUP = 1
F_BANK = 2
F_PSEUDO_CHANNEL = 3
FIELD_CODES = {"column": F_COLUMN, "bank_group": F_BANK_GROUP, "bank": F_BANK, "pseudo_channel": F_PSEUDO_CHANNEL}

# dram_bank columns
B_ROW = 0        # open row + 1; 0 = closed
B_ACT = 1        # cycle of its latest ACT
B_ACT_OK = 2     # earliest next ACT: PRE + tRP, ACT + tRC
B_PRE_OK = 3     # earliest PRE: ACT + tRAS, RD + tRTP, WR + tCWL + burst + tWR
B_PREV_ROW = 4   # the row a conflict closed + 1 (0 = none)
B_PREV_ACT = 5   # its ACT
B_PREV_CLOSE = 6  # the PRE that closed it
N_BANK = 7

# dram_bg columns
G_ACT_OK = 0     # latest ACT in the group + tRRD_L
G_COL_OK = 1     # latest column in the group + tCCD_L
G_RD_OK = 2      # latest write burst's end + tWTR_L
N_BG = 3

# dram_pc columns
C_ACT_OK = 0     # latest ACT + tRRD_S
C_FAW = 1        # C_FAW..C_FAW+3: the last four ACTs + tFAW, a ring
C_FAW_NEXT = 5   # ring slot of the oldest of them
C_RD_OK = 6      # latest write burst's end + tWTR_S
C_WR_OK = 7      # latest read column + tRTW
C_LAST_DIR = 8   # direction of the latest column access: 0 none yet, DIR_READ, DIR_WRITE
C_WQ_FILL = 9    # buffered writes
C_LAST_READ = 10  # end of the latest read burst (for the idle drain)
C_REF_FIRST = 11  # start of its first refresh window (``refresh_first``)
C_REF_AT = 12     # start of the (possibly virtual, before the first) window ``_refresh_start`` found last
N_PC = 13
DIR_READ = 1
DIR_WRITE = 2

# Per HBM channel counters (hbm_ctr[channel, :]), after access.GPUSIM_HBM_QUEUE_STALL_CYCLES (4).
GPUSIM_HBM_ROW_HIT = 5
GPUSIM_HBM_ROW_MISS = 6          # the bank had no open row (ACT only)
GPUSIM_HBM_ROW_CONFLICT = 7      # another row was open (PRE + ACT)
GPUSIM_HBM_RD_CAS = 8            # read column accesses
GPUSIM_HBM_WR_CAS = 9            # write column accesses
GPUSIM_HBM_ACT = 10
GPUSIM_HBM_PRE = 11
GPUSIM_HBM_REFRESH_STALL_CYCLES = 12
GPUSIM_HBM_READ_TO_WRITE = 13    # bus turnarounds
GPUSIM_HBM_WRITE_TO_READ = 14
N_HBM = 15

_NEVER = -(1 << 60)


@njit(_nrt=False)
def _refresh_start(d, pcs, t):
    """_refresh_start is the start of the latest refresh window of pseudo-channel ``pcs`` starting at or
    before ``t`` (``_NEVER`` if none); caches the window it finds in ``pcs[C_REF_AT]``."""
    refi = d[D_REFI]
    r = pcs[C_REF_AT]
    if not (r <= t < r + refi):
        if refi == 0:
            return _NEVER
        r = pcs[C_REF_FIRST] + ((t - pcs[C_REF_FIRST]) // refi) * refi
        pcs[C_REF_AT] = r
    return r if r >= pcs[C_REF_FIRST] else _NEVER


@njit(_nrt=False)
def _after_refresh(d, pcs, t):
    """_after_refresh is the first cycle at or after ``t`` outside pseudo-channel ``pcs``'s refresh windows."""
    r = _refresh_start(d, pcs, t)
    if r != _NEVER and t < r + d[D_RFC]:
        return r + d[D_RFC]
    return t


def refresh_first(g: int, refi: int, pseudo_channels: int) -> int:
    """refresh_first is the start of pseudo-channel ``g``'s first refresh window (of ``pseudo_channels`` in all)."""
    return refi + (g * refi) // pseudo_channels


def decode_table(bits) -> list:
    """decode_table returns, for every value of the ``len(bits)`` address bits the map names (``bits`` least
    significant first, FIELD_CODES names), the fields they select packed as pseudo_channel | bank_group << 8 |
    bank << 16: the ``dram_map`` that ``dram_decode`` looks up."""
    table = []
    for x in range(1 << len(bits)):
        fields = [0, 0, 0, 0]
        used = [0, 0, 0, 0]
        for i, name in enumerate(bits):
            f = FIELD_CODES[name]
            fields[f] |= ((x >> i) & 1) << used[f]
            used[f] += 1
        table.append(fields[F_PSEUDO_CHANNEL] | fields[F_BANK_GROUP] << 8 | fields[F_BANK] << 16)
    return table


@njit(_nrt=False)
def dram_decode(d, dmap, local):
    """dram_decode returns ``(pseudo_channel, bank_group, bank, row)`` of channel-local byte address ``local``
    (``dmap`` is ``decode_table``: one lookup instead of a loop over the map's bits)."""
    x = quot(local, d[D_ACCESS_BYTES])
    e = dmap[x & ((1 << d[D_MAP_BITS]) - 1)]
    return e & 0xFF, (e >> 8) & 0xFF, (e >> 16) & 0xFF, x >> d[D_MAP_BITS]


@njit(_nrt=False)
def _activate(d, bk, grp, pcs, ctr, t):
    """_activate issues an ACT to bank row ``bk`` at or after ``t`` (tRC/tRP, tRRD_S/L, tFAW, refresh); returns its cycle."""
    slot = C_FAW + pcs[C_FAW_NEXT]
    a = max(t, bk[B_ACT_OK], pcs[C_ACT_OK], grp[G_ACT_OK], pcs[slot])
    a2 = _after_refresh(d, pcs, a)
    ctr[GPUSIM_HBM_REFRESH_STALL_CYCLES] += a2 - a
    a = a2
    bk[B_ACT] = a
    bk[B_ACT_OK] = a + d[D_RC]
    bk[B_PRE_OK] = a + d[D_RAS]
    pcs[C_ACT_OK] = a + d[D_RRD_S]
    grp[G_ACT_OK] = a + d[D_RRD_L]
    pcs[slot] = a + d[D_FAW]
    pcs[C_FAW_NEXT] = rem(pcs[C_FAW_NEXT] + 1, 4)
    ctr[GPUSIM_HBM_ACT] += 1
    return a


@njit(_nrt=False)
def dram_column(M, ch, local, t, is_write):
    """dram_column times one column access (RD, or WR when ``is_write``) of channel ``ch`` to channel-local
    address ``local``, arriving at the controller at memory clock ``t``; returns the end of its data burst.

    Opens the row first if needed (a miss, or a conflict that precharges the open row), under every constraint
    in this module's docstring. Mutates the bank, bank-group, pseudo-channel and bus state of ``M`` and the
    counters of ``hbm_ctr[ch]``.
    """
    d = M.dram_params
    pc, bg, bank, row = dram_decode(d, M.dram_map, local)
    g = ch * d[D_PSEUDO_CHANNELS] + pc
    bk = M.dram_bank[g, bg * d[D_BANKS_PER_GROUP] + bank]
    grp = M.dram_bg[g, bg]
    pcs = M.dram_pc[g]
    ctr = M.hbm_ctr[ch]
    t2 = _after_refresh(d, pcs, t)
    ctr[GPUSIM_HBM_REFRESH_STALL_CYCLES] += t2 - t
    t = t2
    rcd = d[D_RCD_WR] if is_write else d[D_RCD_RD]
    # a refresh since the row was opened has closed it
    if bk[B_ROW] != 0 and bk[B_ACT] < _refresh_start(d, pcs, t):
        bk[B_ROW] = 0
        bk[B_PREV_ROW] = 0
    if bk[B_ROW] == row + 1:
        kind = GPUSIM_HBM_ROW_HIT
        col = max(t, bk[B_ACT] + rcd)
    elif bk[B_PREV_ROW] == row + 1 and t < bk[B_PREV_CLOSE]:
        # FR-FCFS would have served this hit before the conflict that closed its row (it arrived first)
        kind = GPUSIM_HBM_ROW_HIT
        col = max(t, bk[B_PREV_ACT] + rcd)
        lat = d[D_CWL] if is_write else d[D_CL]
        end = channel_request(M.hbm_free, g, col + lat, d[D_ACCESS_BYTES], quot(d[D_ACCESS_BYTES], d[D_BURST]), 0)
        ctr[kind] += 1
        ctr[GPUSIM_HBM_WR_CAS if is_write else GPUSIM_HBM_RD_CAS] += 1
        return end
    elif bk[B_ROW] == 0:
        kind = GPUSIM_HBM_ROW_MISS
        col = _activate(d, bk, grp, pcs, ctr, t) + rcd
    else:
        kind = GPUSIM_HBM_ROW_CONFLICT
        ctr[GPUSIM_HBM_PRE] += 1
        pre = max(t, bk[B_PRE_OK])
        bk[B_PREV_ROW] = bk[B_ROW]
        bk[B_PREV_ACT] = bk[B_ACT]
        bk[B_PREV_CLOSE] = pre
        bk[B_ACT_OK] = max(bk[B_ACT_OK], pre + d[D_RP])
        col = _activate(d, bk, grp, pcs, ctr, pre) + rcd
    bk[B_ROW] = row + 1
    if is_write:
        col = max(col, grp[G_COL_OK], pcs[C_WR_OK])
    else:
        col = max(col, grp[G_COL_OK], pcs[C_RD_OK], grp[G_RD_OK])
    # a column pushed past the start of a refresh window finds its row closed by it: it waits for the
    # window's end and opens the row again (then it counts as a miss)
    r = _refresh_start(d, pcs, col)
    if r > bk[B_ACT]:
        ctr[GPUSIM_HBM_REFRESH_STALL_CYCLES] += max(r + d[D_RFC] - col, 0)
        col = max(col, _activate(d, bk, grp, pcs, ctr, r + d[D_RFC]) + rcd)
        if kind == GPUSIM_HBM_ROW_HIT:
            kind = GPUSIM_HBM_ROW_MISS
    ctr[kind] += 1
    lat = d[D_CWL] if is_write else d[D_CL]
    burst = d[D_BURST]
    end = channel_request(M.hbm_free, g, col + lat, d[D_ACCESS_BYTES], quot(d[D_ACCESS_BYTES], burst), 0)
    col = end - burst - lat
    grp[G_COL_OK] = max(grp[G_COL_OK], col + d[D_CCD_L])
    if is_write:
        ctr[GPUSIM_HBM_WR_CAS] += 1
        if pcs[C_LAST_DIR] == DIR_READ:
            ctr[GPUSIM_HBM_READ_TO_WRITE] += 1
        pcs[C_LAST_DIR] = DIR_WRITE
        bk[B_PRE_OK] = max(bk[B_PRE_OK], end + d[D_WR])
        pcs[C_RD_OK] = max(pcs[C_RD_OK], end + d[D_WTR_S])
        grp[G_RD_OK] = max(grp[G_RD_OK], end + d[D_WTR_L])
    else:
        ctr[GPUSIM_HBM_RD_CAS] += 1
        if pcs[C_LAST_DIR] == DIR_WRITE:
            ctr[GPUSIM_HBM_WRITE_TO_READ] += 1
        pcs[C_LAST_DIR] = DIR_READ
        bk[B_PRE_OK] = max(bk[B_PRE_OK], col + d[D_RTP])
        pcs[C_WR_OK] = max(pcs[C_WR_OK], col + d[D_RTW])
        pcs[C_LAST_READ] = max(pcs[C_LAST_READ], end)
    return end


@njit(_nrt=False)
def _drain(M, ch, g, keep, t):
    """_drain writes the oldest buffered writes of pseudo-channel ``g`` (of channel ``ch``) from memory clock
    ``t`` until ``keep`` are left; returns the end of the last write burst (``t`` if none)."""
    pcs = M.dram_pc[g]
    wq = M.dram_wq[g]
    n = pcs[C_WQ_FILL]
    done = t
    for j in range(n - keep):
        done = max(done, dram_column(M, ch, wq[j], t, True))
    for j in range(keep):
        wq[j] = wq[n - keep + j]
    pcs[C_WQ_FILL] = min(n, keep)
    return done


@njit(_nrt=False)
def dram_read(M, ch, local, nbytes, t):
    """dram_read reads ``nbytes`` from channel-local address ``local`` of HBM channel ``ch``, arriving at
    memory clock ``t``; returns the memory clock its last byte has arrived (its column accesses each timed by
    ``dram_column``)."""
    d = M.dram_params
    size = d[D_ACCESS_BYTES]
    done = t
    for off in range(0, max(nbytes, 1), size):
        done = max(done, dram_column(M, ch, local + off, t, False))
    return done


@njit(_nrt=False)
def dram_write(M, ch, local, nbytes, t):
    """dram_write buffers a write of ``nbytes`` at channel-local ``local`` of channel ``ch`` arriving at memory
    clock ``t``, one entry per column access in its pseudo-channel's write queue, and drains a queue that
    reaches the high watermark (to the low one) or that finds its reads idle (all of it); returns the memory
    clock the controller has accepted the write (the end of a drain it triggered, else ``t``)."""
    d = M.dram_params
    size = d[D_ACCESS_BYTES]
    done = t
    for off in range(0, max(nbytes, 1), size):
        pc, bg, bank, row = dram_decode(d, M.dram_map, local + off)
        g = ch * d[D_PSEUDO_CHANNELS] + pc
        pcs = M.dram_pc[g]
        pcs[C_WQ_FILL] += 1
        M.dram_wq[g, pcs[C_WQ_FILL] - 1] = local + off
        if pcs[C_WQ_FILL] >= d[D_WQ_HIGH]:
            done = max(done, _drain(M, ch, g, d[D_WQ_LOW], t))
        elif pcs[C_LAST_READ] + d[D_IDLE_DRAIN] <= t:
            done = max(done, _drain(M, ch, g, 0, t))
    return done


@njit(_nrt=False)
def dram_drain_all(M, t):
    """dram_drain_all drains every pseudo-channel's write queue from memory clock ``t``; returns the end of the
    last write burst (``t`` if none was buffered)."""
    d = M.dram_params
    done = t
    if d[D_ENABLED] == 0:
        return done
    for g in range(M.dram_pc.shape[0]):
        if M.dram_pc[g, C_WQ_FILL] > 0:
            done = max(done, _drain(M, quot(g, d[D_PSEUDO_CHANNELS]), g, 0, t))
    return done
