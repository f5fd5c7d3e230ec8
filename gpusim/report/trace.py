"""Wave timelines as traces: Perfetto protobuf (ui.perfetto.dev) or Chrome trace-event JSON.

``build_trace`` turns the events a timed run recorded (gpusim.engine.timing.TraceEvents) into a
neutral model of named tracks, slices and counters; ``write_trace`` writes it in the format the
file name asks for. Time is in shader cycles, shown as nanoseconds (1 ns on the timeline = 1 cycle).

Tracks, grouped per CU (a Perfetto process / Chrome pid):
  ``SIMD s slot k``       one per wave slot: contiguous slices of what its wave did, cycle by cycle:
                          an issue slice named by the instruction issued (args: pc, source line,
                          workgroup and wave), or a stall slice named ``stall: CAUSE`` (vmcnt,
                          lgkmcnt, barrier, dependency, unit busy, arbitration, s_nop/s_sleep, ifetch);
                          consecutive looks that found the same stall make one slice
  ``SIMD s VALU|MFMA``    the SIMD's vector and matrix units busy with an instruction
  ``in flight k``         (group ``CU n memory``) memory operations (global, scalar, LDS) from
                          issue to data back, in as many lanes as are in flight at once
Counter tracks (group ``memory system``): ``L2 hit rate (%)`` and ``HBM bandwidth (GB/s)``
per window of cycles.

Within the traced CUs and cycles the slices add up to the run's counters: issue slices number
the instructions issued (each wave's s_endpgm included; its own cycle is not a wave-cycle of the
counters, so issue slices last GPUSIM_WAVE_ISSUE_CYCLES plus one cycle per wave ended) and stall
slices of a cause last its GPUSIM_STALL_*_CYCLES.
"""
from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from gpusim.engine.kernels import cu as cuk
from gpusim.errors import UsageError

CAUSES = {cuk.WHY_ISSUE: "issue", cuk.WHY_WAITCNT_VM: "vmcnt", cuk.WHY_WAITCNT_LGKM: "lgkmcnt",
          cuk.WHY_BARRIER: "barrier", cuk.WHY_DEPENDENCY: "dependency", cuk.WHY_UNIT_BUSY: "unit busy",
          cuk.WHY_ARBITER: "arbitration", cuk.WHY_NOP: "s_nop/s_sleep", cuk.WHY_IFETCH: "ifetch"}
# the counter each stall slice name adds up to
STALL_COUNTER = {"vmcnt": "GPUSIM_STALL_WAITCNT_VM_CYCLES", "lgkmcnt": "GPUSIM_STALL_WAITCNT_LGKM_CYCLES",
                 "barrier": "GPUSIM_STALL_BARRIER_CYCLES", "dependency": "GPUSIM_STALL_DEPENDENCY_CYCLES",
                 "unit busy": "GPUSIM_STALL_UNIT_BUSY_CYCLES", "arbitration": "GPUSIM_STALL_ARBITER_CYCLES",
                 "s_nop/s_sleep": "GPUSIM_STALL_NOP_CYCLES", "ifetch": "GPUSIM_STALL_IFETCH_CYCLES"}
_MEMORY_KINDS = (cuk.TK_VMEM, cuk.TK_SMEM, cuk.TK_LDS)
PERFETTO_SUFFIXES = (".pftrace", ".perfetto-trace", ".pb", ".proto")


@dataclass
class Track:
    """Track is one named timeline: ``group`` is its CU (or 'memory system'), ``kind`` slice or counter."""

    uid: int
    name: str
    group: str
    kind: str = "slice"
    unit: str = ""


@dataclass
class Slice:
    """Slice is one interval [start, end) of cycles on a track, with its name and arguments."""

    track: int
    name: str
    start: int
    end: int
    args: dict = field(default_factory=dict)


@dataclass
class TraceModel:
    """TraceModel is what a trace shows: tracks, their slices and counter samples ((cycle, value) lists)."""

    tracks: list
    slices: list
    samples: dict          # counter track uid -> [(cycle, value), ...]
    dropped: int
    cycles: int


class _Tracks:
    """_Tracks hands out one Track per (group, name), numbering them in the order asked."""

    def __init__(self):
        self.by_key: dict = {}

    def get(self, group: str, name: str, kind: str = "slice", unit: str = "") -> int:
        key = (group, name)
        if key not in self.by_key:
            self.by_key[key] = Track(len(self.by_key) + 1, name, group, kind, unit)
        return self.by_key[key].uid

    @property
    def all(self) -> list:
        return list(self.by_key.values())


def build_trace(trace, program, arch, cycles: int) -> TraceModel:
    """build_trace turns recorded events into tracks and slices (see the module docstring).

    ``trace`` is a TraceEvents, ``program`` the kernel's Program (instruction names and source lines),
    ``arch`` the Arch it ran on, ``cycles`` the kernel's cycles.
    """
    ev = trace.events
    spc = trace.slots_per_cu
    tracks = _Tracks()
    slices: list = []
    c0, c1 = trace.window.cycle_first, min(trace.window.cycle_last, cycles)

    def clip(start, end):
        return max(int(start), c0), min(int(end), c1 + 1)

    def where(slot):
        cu = slot // spc
        k = slot % spc
        return f"CU {cu:03d}", k % 4, k

    waves: dict = {}       # slot -> list of (start cycle, workgroup, wave)
    issued: dict = {}      # (slot, cycle) -> pc
    for kind, slot, a, b, c, d in ev[ev[:, 0] == cuk.EV_WAVE].tolist():
        waves.setdefault(slot, []).append((b, a, c))
    for kind, slot, pc, cycle, done, tk in ev[ev[:, 0] == cuk.EV_ISSUE].tolist():
        issued[(slot, cycle)] = pc

    starts = {slot: [w[0] for w in ws] for slot, ws in waves.items()}   # in launch order: ascending

    def who(slot, cycle):
        """who names the wave the slot held at ``cycle``: the last one launched there by then."""
        k = bisect_right(starts.get(slot, ()), cycle)
        if k == 0:
            return {}
        _, wg, wave = waves[slot][k - 1]
        return {"workgroup": wg, "wave": wave}

    def issue_args(slot, pc, cycle):
        loc = program.locs[pc] if pc < len(program.locs) else None
        args = {"pc": f"0x{int(program.pc_bytes[pc]):x}", "cause": "issue", **who(slot, cycle)}
        if loc is not None and loc.text:
            args["source"] = f"{loc.line}: {loc.text.strip()}"
        return args

    # wave-slot state slices: issue periods by instruction, stalls merged while the cause stays the same
    states = ev[ev[:, 0] == cuk.EV_STATE]
    order = np.lexsort((states[:, 3], states[:, 1]))
    open_stall: dict = {}   # slot -> Slice being extended
    for kind, slot, why, start, end, pc in states[order].tolist():
        group, simd, k = where(slot)
        uid = tracks.get(group, f"SIMD {simd} slot {k:02d}")
        s, e = clip(start, end)
        if e <= s:
            continue
        cause = CAUSES[why]
        if cause == "issue":
            open_stall.pop(slot, None)
            ipc = issued.get((slot, start), pc)
            slices.append(Slice(uid, program.mnemonics[ipc], s, e, issue_args(slot, ipc, start)))
            continue
        last = open_stall.get(slot)
        if last is not None and last.args["cause"] == cause and last.end == s:
            last.end = e
            continue
        sl = Slice(uid, f"stall: {cause}", s, e, {"cause": cause, **who(slot, start)})
        slices.append(sl)
        open_stall[slot] = sl
    # each wave's last instruction (s_endpgm) never gets a state period of its own: give it one cycle
    for kind, slot, pc, cycle, done, tk in ev[ev[:, 0] == cuk.EV_ISSUE].tolist():
        if tk == cuk.TK_END and c0 <= cycle <= c1:
            group, simd, k = where(slot)
            uid = tracks.get(group, f"SIMD {simd} slot {k:02d}")
            slices.append(Slice(uid, program.mnemonics[pc], cycle, cycle + 1, {**issue_args(slot, pc, cycle),
                                                                                  "wave_end": 1}))
    # units and memory operations (lanes are handed out in start order: as many as overlap)
    lanes: dict = {}   # group -> list of lane end cycles
    issues = ev[ev[:, 0] == cuk.EV_ISSUE]
    for kind, slot, pc, cycle, done, tk in issues[np.argsort(issues[:, 3], kind="stable")].tolist():
        group, simd, k = where(slot)
        s, e = clip(cycle, done)
        if e <= s:
            continue
        if tk in (cuk.TK_VALU, cuk.TK_MFMA):
            unit = "VALU" if tk == cuk.TK_VALU else "MFMA"
            slices.append(Slice(tracks.get(group, f"SIMD {simd} {unit}"), program.mnemonics[pc], s, e,
                                {"pc": f"0x{int(program.pc_bytes[pc]):x}", "slot": k}))
        elif tk in _MEMORY_KINDS:
            ends = lanes.setdefault(group, [])
            lane = next((j for j, free in enumerate(ends) if free <= s), len(ends))
            if lane == len(ends):
                ends.append(e)
            else:
                ends[lane] = e
            slices.append(Slice(tracks.get(f"{group} memory", f"in flight {lane:03d}"), program.mnemonics[pc], s, e,
                                {"pc": f"0x{int(program.pc_bytes[pc]):x}", "slot": k, **who(slot, cycle)}))
    samples = _counter_samples(ev[ev[:, 0] == cuk.EV_SAMPLE], tracks, arch)
    return TraceModel(tracks.all, slices, samples, trace.dropped, cycles)


def _counter_samples(rows: np.ndarray, tracks: _Tracks, arch) -> dict:
    """_counter_samples turns cumulative memory totals into per-window L2 hit rate and HBM bandwidth."""
    hit_uid = tracks.get("memory system", "L2 hit rate (%)", "counter", "%")
    bw_uid = tracks.get("memory system", "HBM bandwidth (GB/s)", "counter", "GB/s")
    out = {hit_uid: [], bw_uid: []}
    prev = None
    for kind, _, cycle, hits, misses, moved in rows.tolist():
        if prev is not None and cycle > prev[0]:
            dh, dm, db = hits - prev[1], misses - prev[2], moved - prev[3]
            out[hit_uid].append((prev[0], 100.0 * dh / (dh + dm) if dh + dm else 0.0))
            out[bw_uid].append((prev[0], db / (cycle - prev[0]) * arch.clocks.shader_mhz * 1e6 / 1e9))
        prev = (cycle, hits, misses, moved)
    return out


def write_trace(model: TraceModel, path) -> Path:
    """write_trace writes ``model`` as Chrome JSON (``.json``) or Perfetto protobuf (PERFETTO_SUFFIXES)."""
    path = Path(path)
    if path.suffix == ".json":
        _write_chrome(model, path)
    elif path.suffix in PERFETTO_SUFFIXES:
        _write_perfetto(model, path)
    else:
        raise UsageError(f"--trace {path}: say FILE.json (Chrome trace-event JSON) or FILE.pftrace (Perfetto)")
    return path


def _groups(model: TraceModel) -> dict:
    names = sorted({t.group for t in model.tracks})
    return {name: i + 1 for i, name in enumerate(names)}


def _write_chrome(model: TraceModel, path: Path) -> None:
    """Chrome trace-event JSON: 'X' complete events in microseconds (cycle / 1000: 1 ns per cycle)."""
    pids = _groups(model)
    out = []
    for t in model.tracks:
        pid = pids[t.group]
        out.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": t.group}})
        if t.kind == "slice":
            out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": t.uid, "args": {"name": t.name}})
            out.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": t.uid,
                        "args": {"sort_index": t.uid}})
    by_uid = {t.uid: t for t in model.tracks}
    for s in model.slices:
        t = by_uid[s.track]
        out.append({"ph": "X", "name": s.name, "cat": s.args.get("cause", "unit"), "pid": pids[t.group],
                    "tid": t.uid, "ts": s.start / 1000, "dur": (s.end - s.start) / 1000, "args": s.args})
    for uid, points in model.samples.items():
        t = by_uid[uid]
        for cycle, value in points:
            out.append({"ph": "C", "name": t.name, "pid": pids[t.group], "ts": cycle / 1000,
                        "args": {t.unit or "value": round(value, 3)}})
    doc = {"traceEvents": out, "displayTimeUnit": "ns",
           "otherData": {"time": "shader cycles, 1 ns per cycle", "dropped_events": model.dropped,
                         "kernel_cycles": model.cycles}}
    path.write_text(json.dumps(doc))


def _write_perfetto(model: TraceModel, path: Path) -> None:
    """Perfetto protobuf: track descriptors (process per CU, thread per track), then begin/end events."""
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import TrackEvent
    from perfetto.trace_builder.proto_builder import StreamingTraceProtoBuilder

    seq = 1
    pids = _groups(model)
    with open(path, "wb") as f:
        builder = StreamingTraceProtoBuilder(f)
        first = True

        def packet():
            nonlocal first
            p = builder.create_packet()
            p.trusted_packet_sequence_id = seq
            if first:
                p.sequence_flags = 1   # SEQ_INCREMENTAL_STATE_CLEARED
                first = False
            return p

        for group, pid in pids.items():
            p = packet()
            p.track_descriptor.uuid = _group_uuid(pid)
            p.track_descriptor.process.pid = pid
            p.track_descriptor.process.process_name = group
            builder.write_packet(p)
        for t in model.tracks:
            p = packet()
            d = p.track_descriptor
            d.uuid = _track_uuid(t.uid)
            d.parent_uuid = _group_uuid(pids[t.group])
            d.name = t.name
            if t.kind == "counter":
                d.counter.unit_name = t.unit
            else:
                d.thread.pid = pids[t.group]
                d.thread.tid = t.uid
                d.thread.thread_name = t.name
            builder.write_packet(p)
        # ends sort before begins at the same cycle, so adjacent slices of a track never overlap
        marks = []
        for i, s in enumerate(model.slices):
            marks.append((s.start, 1, i))
            marks.append((s.end, 0, i))
        marks.sort()
        for cycle, is_begin, i in marks:
            s = model.slices[i]
            p = packet()
            p.timestamp = cycle
            p.track_event.track_uuid = _track_uuid(s.track)
            if is_begin:
                p.track_event.type = TrackEvent.TYPE_SLICE_BEGIN
                p.track_event.name = s.name
                for key, value in s.args.items():
                    a = p.track_event.debug_annotations.add()
                    a.name = key
                    if isinstance(value, bool):   # (a bool is an int to Python, not to the protobuf)
                        a.bool_value = value
                    elif isinstance(value, int):
                        a.int_value = value
                    elif isinstance(value, float):
                        a.double_value = value
                    else:
                        a.string_value = str(value)
            else:
                p.track_event.type = TrackEvent.TYPE_SLICE_END
            builder.write_packet(p)
        for uid, points in model.samples.items():
            for cycle, value in points:
                p = packet()
                p.timestamp = cycle
                p.track_event.track_uuid = _track_uuid(uid)
                p.track_event.type = TrackEvent.TYPE_COUNTER
                p.track_event.double_counter_value = float(value)
                builder.write_packet(p)


def _group_uuid(pid: int) -> int:
    return 1_000_000 + pid


def _track_uuid(uid: int) -> int:
    return 2_000_000 + uid


def parse_cu_range(text: Optional[str], cus: int) -> tuple:
    """parse_cu_range reads ``--trace-cus`` (``3``, ``0-3``) into an inclusive (first, last) within the GPU."""
    if not text:
        return 0, cus - 1
    try:
        parts = [int(p) for p in str(text).split("-")]
    except ValueError:
        parts = []
    if len(parts) not in (1, 2) or min(parts) < 0 or parts[-1] < parts[0]:
        raise UsageError(f"--trace-cus expects N or FIRST-LAST (e.g. 0-3), got '{text}'")
    if parts[0] >= cus:
        raise UsageError(f"--trace-cus {text}: the architecture has CUs 0-{cus - 1}")
    return parts[0], min(parts[-1], cus - 1)


def parse_cycle_range(text: Optional[str]) -> tuple:
    """parse_cycle_range reads ``--trace-cycles`` (``0:20000``, ``5000:``) into an inclusive (first, last)."""
    if not text:
        return 0, 1 << 62
    first, sep, last = str(text).partition(":")
    try:
        lo = int(first) if first else 0
        hi = int(last) - 1 if last else 1 << 62
    except ValueError:
        lo, hi, sep = 0, -1, ""
    if not sep or lo < 0 or hi < lo:
        raise UsageError(f"--trace-cycles expects FIRST:END (e.g. 0:20000, END exclusive), got '{text}'")
    return lo, hi
