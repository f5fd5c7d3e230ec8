"""Wave traces: Perfetto and Chrome files are well formed, their slices add up to the counters, the
window options bound them, and the terminal timeline shows what the golden kernels do."""
import collections
import json
from pathlib import Path

import pytest

import gpusim
from gpusim.engine.timing import TraceWindow
from gpusim.report.timeline import format_timeline
from gpusim.report.trace import STALL_COUNTER, build_trace, write_trace

REPO = Path(__file__).resolve().parents[2]
GEMM = REPO / "tests" / "data" / "corpus" / "gfx942" / "mfma_gemm_128x128f16.s"
GOLDEN = REPO / "tests" / "engine" / "data"


def traced(path, window=TraceWindow()):
    kernel = gpusim.load_kernel(path)
    result = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False, trace=window)
    return kernel, result, build_trace(result.trace, kernel.program, result.arch, result.cycles)


@pytest.fixture(scope="module")
def gemm():
    return traced(GEMM)


def stall_cycles(slices):
    out = collections.Counter()
    for name, cause, duration in slices:
        if cause and cause != "issue":
            out[cause] += duration
    return out


def check_adds_up(result, slices):
    """slices: (name, cause, duration, wave_end) of every slice; compares them with the run's counters."""
    issues = [s for s in slices if s[1] == "issue"]
    assert len(issues) == result.counters["GPUSIM_INSTS_TOTAL"]
    ends = sum(1 for s in issues if s[3])
    assert ends == result.counters["SQ_WAVES"]
    assert sum(s[2] for s in issues) - ends == result.counters["GPUSIM_WAVE_ISSUE_CYCLES"]
    by_cause = stall_cycles([s[:3] for s in slices])
    for cause, counter in STALL_COUNTER.items():
        assert by_cause[cause] == result.counters[counter], cause
    assert sum(by_cause.values()) > 0


def test_tracing_changes_no_cycle_or_counter(gemm):
    kernel, result, _ = gemm
    plain = gpusim.simulate(kernel, "cdna3", timing=True, outputs=False)
    assert plain.cycles == result.cycles and plain.counters == result.counters


def test_perfetto_trace_is_well_formed_and_adds_up(gemm, tmp_path):
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace, TrackEvent
    kernel, result, model = gemm
    path = write_trace(model, tmp_path / "k.pftrace")
    trace = Trace()
    trace.ParseFromString(path.read_bytes())
    names, counters, stacks, slices = {}, set(), collections.defaultdict(list), []
    for p in trace.packet:
        assert p.trusted_packet_sequence_id == 1
        if p.HasField("track_descriptor"):
            d = p.track_descriptor
            names[d.uuid] = d.name or d.process.process_name
            assert names[d.uuid], "every track is named"
            if d.HasField("counter"):
                counters.add(d.uuid)
            continue
        e = p.track_event
        assert e.track_uuid in names, "an event on a described track"
        if e.type == TrackEvent.TYPE_SLICE_BEGIN:
            stacks[e.track_uuid].append((p.timestamp, e.name, {a.name: a for a in e.debug_annotations}))
            assert len(stacks[e.track_uuid]) == 1, "slices of one track never overlap"
        elif e.type == TrackEvent.TYPE_SLICE_END:
            start, name, args = stacks[e.track_uuid].pop()
            assert p.timestamp >= start
            cause = args["cause"].string_value if "cause" in args else ""
            slices.append((name, cause, p.timestamp - start, "wave_end" in args))
        else:
            assert e.type == TrackEvent.TYPE_COUNTER and e.track_uuid in counters
    assert all(not s for s in stacks.values()), "every begin has its end"
    assert {names[u] for u in counters} == {"L2 hit rate (%)", "HBM bandwidth (GB/s)"}
    check_adds_up(result, slices)
    assert any(n.startswith("SIMD 0 slot") for n in names.values())
    assert any(n == "SIMD 0 MFMA" for n in names.values())


def test_chrome_json_is_well_formed_and_adds_up(gemm, tmp_path):
    kernel, result, model = gemm
    doc = json.loads(write_trace(model, tmp_path / "k.json").read_text())
    events = doc["traceEvents"]
    threads = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = []
    last_end = {}
    for e in sorted((e for e in events if e["ph"] == "X"), key=lambda e: (e["pid"], e["tid"], e["ts"])):
        assert (e["pid"], e["tid"]) in threads and e["dur"] >= 0
        key = (e["pid"], e["tid"])
        assert e["ts"] >= last_end.get(key, 0) - 1e-9, "slices of one track never overlap"
        last_end[key] = e["ts"] + e["dur"]
        slices.append((e["name"], e["args"].get("cause", ""), round(e["dur"] * 1000), "wave_end" in e["args"]))
    check_adds_up(result, slices)
    assert {e["name"] for e in events if e["ph"] == "C"} == {"L2 hit rate (%)", "HBM bandwidth (GB/s)"}


def test_the_window_bounds_the_trace():
    _, result, model = traced(GEMM, TraceWindow(cu_first=0, cu_last=0, cycle_first=1000, cycle_last=2999))
    groups = {t.group for t in model.tracks}
    assert groups == {"CU 000", "CU 000 memory", "memory system"}
    assert all(1000 <= s.start and s.end <= 3000 for s in model.slices)
    _, full, whole = traced(GEMM)
    assert 0 < len(model.slices) < len(whole.slices)


def test_a_full_buffer_drops_events_and_says_how_many():
    _, result, model = traced(GEMM, TraceWindow(capacity=500))
    assert len(result.trace.events) == 500 and model.dropped > 0


def test_the_timeline_shows_two_waves_sharing_a_simd():
    # golden kernel: 5 waves; waves 0 and 4 share SIMD 0 and its vector unit (oldest first wins)
    kernel, result, model = traced(GOLDEN / "valu_chain_2waves_same_simd.s")
    text = format_timeline(model, kernel.program, first=0, last=result.cycles)
    rows = {line[:28].strip(): line[28:] for line in text.splitlines()[4:]}
    assert rows["CU 000 S0 k00 WG0 w0"] == "V---" * 9 + "E" + "." * 37
    assert rows["CU 000 S0 k04 WG0 w4"] == "a" * 36 + "V---" * 9 + "E."
    assert rows["CU 000 S1 k01 WG0 w1"] == "." + "V---" * 9 + "E" + "." * 36
    assert "1 column = cycle" in text


def test_cli_trace_and_its_errors(tmp_path, cli):
    proc = cli("run", str(GEMM), "--trace", "k.pftrace", "--trace-cus", "0-1", "--trace-cycles", "0:4000")
    assert proc.returncode == 0, proc.stderr
    assert "trace: k.pftrace (" in proc.stdout and (tmp_path / "k.pftrace").stat().st_size > 1000
    for flags, message in [(["--trace", "k.txt"], "--trace k.txt: say FILE.pftrace"),
                           (["--trace", "k.json", "--trace-cus", "3-1"], "--trace-cus expects N or FIRST-LAST"),
                           (["--trace", "k.json", "--trace-cycles", "100"], "--trace-cycles expects FIRST:END"),
                           (["--trace-cus", "0"], "narrow --trace or --timeline"),
                           (["--timeline", "--no-timing"], "drop --no-timing")]:
        proc = cli("run", str(GEMM), *flags)
        assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
            (flags, proc.stderr)
