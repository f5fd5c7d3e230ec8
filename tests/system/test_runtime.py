"""Running programs: launch overheads, stream order, events, copies, collectives, overlap, deadlocks, the memo.

Times are pinned against the engine's own kernel times and the arch's launch figures, so a change to how
the runtime composes them is seen.
"""
from __future__ import annotations

import json
import textwrap
from contextlib import contextmanager
from pathlib import Path

import pytest

import gpusim
from gpusim.cli import main
from gpusim.errors import ProgramDeadlock
from gpusim.system.links import Fabric
from gpusim.system.loader import load_program
from gpusim.system.simulate import simulate_program

ROOT = Path(__file__).resolve().parents[2]
SAXPY = ROOT / "workloads" / "saxpy.s"
CDNA3 = gpusim.load_arch("cdna3")
MHZ = CDNA3.clocks.shader_mhz
CP_US = CDNA3.launch.command_processor_latency_cycles / MHZ
SIGNAL_US = CDNA3.launch.completion_signal_cycles / MHZ


def program(tmp_path: Path, body: str, name: str = "app.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).replace("SAXPY", str(SAXPY)))
    return path


def saxpy_program(tmp_path, launches: int, extra: str = "", gpus: str = "gpu: 0", count: int = 1,
                  stream_gpu: str = "gpu: 0") -> Path:
    """saxpy_program is ``launches`` saxpy launches (y = 2.5 x + y, 4000 elements) in one stream."""
    ops = ", ".join("{kernel: SAXPY, args: {x: x, y: y}}" for _ in range(launches))
    lines = [f"system: {{gpus: {{arch: cdna3, count: {count}}}}}",
             "buffers:",
             f'  x: {{type: "f32[4000] uniform(-1,1) seed=1", {gpus}}}',
             f'  y: {{type: "f32[4000] uniform(-1,1) seed=2", {gpus}}}',
             "streams:",
             f"  - {{name: s, {stream_gpu}, ops: [{ops}]}}",
             extra]
    path = tmp_path / "app.yaml"
    path.write_text("\n".join(lines).replace("SAXPY", str(SAXPY)) + "\n")
    return path


def cold_kernel_us() -> float:
    return gpusim.simulate(gpusim.load_kernel(SAXPY), CDNA3, timing=True).kernel_time_us


def test_one_kernel_costs_the_command_processor_latency_its_kernel_time_and_the_completion_signal(tmp_path):
    r = simulate_program(saxpy_program(tmp_path, 1))
    assert r.launches[0]["kernel_time_us"] == pytest.approx(cold_kernel_us(), abs=1e-9)
    assert r.total_us == pytest.approx(CP_US + cold_kernel_us() + SIGNAL_US, abs=1e-9)


def test_back_to_back_kernels_are_a_completion_signal_apart_and_hide_the_command_processor_latency(tmp_path):
    r = simulate_program(saxpy_program(tmp_path, 3))
    kernels = [s for s in r.spans if s.kind == "kernel"]
    assert kernels[0].start == pytest.approx(CP_US)
    for before, after in zip(kernels, kernels[1:]):
        assert after.start - before.end == pytest.approx(SIGNAL_US)
    assert r.total_us == pytest.approx(CP_US + sum(k.duration for k in kernels) + 3 * SIGNAL_US)
    # the second launch runs on the caches the first left: not the cold time
    assert kernels[1].duration < kernels[0].duration


def test_a_kernel_after_a_host_delay_pays_the_command_processor_latency_again(tmp_path):
    path = program(tmp_path, """
        buffers:
          x: {type: "f32[4000] uniform(-1,1) seed=1", gpu: 0}
          y: {type: "f32[4000] uniform(-1,1) seed=2", gpu: 0}
        streams:
          - name: s
            gpu: 0
            ops:
              - kernel: SAXPY
                args: {x: x, y: y}
              - host_delay: 10
              - kernel: SAXPY
                args: {x: x, y: y}
        """)
    r = simulate_program(path)
    first, second = [s for s in r.spans if s.kind == "kernel"]
    assert second.start == pytest.approx(first.end + SIGNAL_US + 10 + CP_US)


def test_kernels_of_two_streams_on_one_gpu_run_one_after_the_other(tmp_path):
    path = program(tmp_path, """
        buffers:
          x: {type: "f32[4000] uniform(-1,1) seed=1", gpu: 0}
          y: {type: "f32[4000] uniform(-1,1) seed=2", gpu: 0}
          z: {type: "f32[4000] uniform(-1,1) seed=3", gpu: 0}
        streams:
          - {name: a, gpu: 0, ops: [{kernel: SAXPY, args: {x: x, y: y}}]}
          - {name: b, gpu: 0, ops: [{kernel: SAXPY, args: {x: x, y: z}}]}
        """)
    r = simulate_program(path)
    a, b = sorted((s for s in r.spans if s.kind == "kernel"), key=lambda s: s.start)
    assert a.stream == "a" and b.stream == "b" and b.start >= a.end


def test_the_kth_wait_on_an_event_waits_for_its_kth_record(tmp_path):
    path = program(tmp_path, """
        buffers:
          x: {type: "f32[4000] uniform(-1,1) seed=1", gpu: 0}
          y: {type: "f32[4000] uniform(-1,1) seed=2", gpu: 0}
        streams:
          - name: producer
            gpu: 0
            ops:
              - {host_delay: 5}
              - {record: tick}
              - {host_delay: 20}
              - {record: tick}
          - name: consumer
            gpu: 0
            ops:
              - {wait: tick}
              - {wait: tick}
              - {kernel: SAXPY, args: {x: x, y: y}}
        """)
    r = simulate_program(path)
    waits = [s for s in r.spans if s.kind == "wait"]
    assert [w.end for w in waits] == pytest.approx([5.0, 25.0])
    kernel = next(s for s in r.spans if s.kind == "kernel")
    assert kernel.start == pytest.approx(25.0)   # its packet was ready at CP_US, long before the wait ended


def test_a_wait_for_a_record_that_never_comes_is_a_deadlock_naming_the_stream_and_the_event(tmp_path):
    path = program(tmp_path, """
        streams:
          - {name: producer, gpu: 0, ops: [{record: tick}]}
          - {name: consumer, gpu: 0, ops: [{wait: tick}, {wait: tick}]}
        """)
    with pytest.raises(ProgramDeadlock) as err:
        simulate_program(path)
    text = str(err.value)
    assert "consumer waits for event 'tick' (record 2; 1 made so far)" in text
    assert text.startswith(f"{path}:4:50:") and err.value.exit_code == 3   # at the second wait


def test_two_streams_waiting_for_each_other_are_both_named(tmp_path):
    path = program(tmp_path, """
        streams:
          - {name: a, gpu: 0, ops: [{wait: from_b}, {record: from_a}]}
          - {name: b, gpu: 0, ops: [{wait: from_a}, {record: from_b}]}
        """)
    with pytest.raises(ProgramDeadlock) as err:
        simulate_program(path)
    assert "a waits for event 'from_b'" in str(err.value) and "b waits for event 'from_a'" in str(err.value)


def test_a_peer_copy_takes_the_links_closed_form_time_and_moves_the_bytes(tmp_path):
    path = program(tmp_path, """
        system:
          gpus: {arch: cdna3, count: 2}
        buffers:
          x: {type: "f32[262144] uniform(-1,1) seed=1", gpus: all}
        streams:
          - {name: s, gpu: 0, ops: [{memcpy: {src: x@0, dst: x@1}}]}
        checks:
          - "x[1] == x[0]"
        """)
    r = simulate_program(path, check=True)
    span = next(s for s in r.spans if s.kind == "peer")
    import simpy
    closed = Fabric(simpy.Environment(), load_program(path).system).transfer_us(0, 1, 1 << 20)
    assert span.duration == pytest.approx(closed)
    assert r.checks_passed and r.links[[row["link"] for row in r.links].index("xgmi 0->1")]["bytes"] == 1 << 20


def test_collectives_really_reduce_and_gather(tmp_path):
    path = program(tmp_path, """
        system:
          gpus: {arch: cdna3, count: 4}
        buffers:
          g: {type: "f32[1024] uniform(-1,1) seed=1", gpus: all}
          parts: {type: "f32[256] uniform(-1,1) seed=5", gpus: all}
          whole: {type: "f32[1024] zeros", gpus: all}
        streams:
          - name: s
            gpus: all
            ops:
              - all_reduce: {send: g, group: all, algorithm: ring}
              - all_gather: {send: parts, recv: whole, group: all, algorithm: direct}
        checks:
          - "g ~= np.broadcast_to(g.sum(axis=0), g.shape) rtol=1e-5 atol=1e-6"
          - "whole == np.broadcast_to(parts.reshape(-1), whole.shape)"
        """)
    r = simulate_program(path, check=True)
    assert r.checks_passed and [c["kind"] for c in r.collectives] == ["all_reduce", "all_gather"]
    ar = r.collectives[0]
    # rccl-tests' bus bandwidth of an all-reduce: algbw x 2(n-1)/n
    assert ar["busbw_gbps"] == pytest.approx(ar["algbw_gbps"] * 2 * 3 / 4)


OVERLAP = """
    system:
      gpus: {arch: cdna3, count: 2}
    buffers:
      x: {type: "f32[1048576] uniform(-1,1) seed=1", gpus: all}
      y: {type: "f32[1048576] uniform(-1,1) seed=2", gpus: all}
      g: {type: "f32[4194304] uniform(-1,1) seed=3", gpus: all}
    streams:
      - name: compute
        gpus: all
        ops:
          - {kernel: SAXPY, grid: [4096, 1, 1], args: {x: x, y: y, n: 1048576}}
          - {kernel: SAXPY, grid: [4096, 1, 1], args: {x: x, y: y, n: 1048576}}
      - name: comm
        gpus: all
        ops:
          - {all_reduce: {send: g, group: all, channels: CHANNELS}}
    """


def test_a_collective_beside_a_kernel_hides_under_it_but_slows_it(tmp_path):
    alone = simulate_program(program(tmp_path, OVERLAP.replace("CHANNELS", "16").split("      - name: comm")[0],
                                     "alone.yaml"))
    beside = simulate_program(program(tmp_path, OVERLAP.replace("CHANNELS", "152"), "beside.yaml"))
    kernel_alone = sum(s.duration for s in alone.spans if s.kind == "kernel" and s.gpu == 0)
    kernel_beside = sum(s.duration for s in beside.spans if s.kind == "kernel" and s.gpu == 0)
    assert beside.overlap["hidden_us"] > 0
    # half the CUs held by the collective: the kernels take longer while it runs
    assert kernel_beside > kernel_alone * 1.2


def test_the_memo_reuses_identical_launches_with_the_same_times(tmp_path):
    path = saxpy_program(tmp_path, 4, gpus="gpus: all", count=2, stream_gpu="gpus: all")
    with_memo = simulate_program(path)
    without = simulate_program(path, memo=False)
    assert with_memo.memo["reused"] > 0 and without.memo == {"enabled": False}
    assert with_memo.total_us == without.total_us
    assert [r["cycles"] for r in with_memo.launches] == [r["cycles"] for r in without.launches]


def test_the_same_program_gives_the_same_result(tmp_path):
    path = saxpy_program(tmp_path, 2, gpus="gpus: all", count=2, stream_gpu="gpus: all")
    assert json.dumps(simulate_program(path).to_dict(), default=str) == \
        json.dumps(simulate_program(path).to_dict(), default=str)


def test_cli_runs_a_program_reports_it_and_writes_json_and_a_trace(tmp_path, capsys):
    path = saxpy_program(tmp_path, 2)
    out_json, out_trace = tmp_path / "r.json", tmp_path / "t.json"
    assert main(["run", str(path), "--json", str(out_json), "--trace", str(out_trace)]) == 0
    text = capsys.readouterr().out
    assert "total" in text and "launches   2 kernels" in text
    doc = json.loads(out_json.read_text())
    assert doc["total_us"] > 0 and {s["kind"] for s in doc["spans"]} == {"kernel"}
    events = json.loads(out_trace.read_text())["traceEvents"]
    assert any(e.get("args", {}).get("name") == "stream s" for e in events)
    assert sum(1 for e in events if e["ph"] == "X") == 2


def test_cli_exit_codes_of_programs(tmp_path, capsys):
    bad_check = saxpy_program(tmp_path, 1, extra="checks:\n  - \"y == x\"")
    assert main(["run", str(bad_check), "--check"]) == 1
    broken = program(tmp_path, "streams:\n  - {name: s, gpu: 3, ops: []}\n", "broken.yaml")
    assert main(["run", str(broken)]) == 2
    assert f"{broken}:2:" in capsys.readouterr().err
    stuck = program(tmp_path, "streams:\n  - {name: s, gpu: 0, ops: [{wait: never}]}\n"
                              "  - {name: t, gpu: 0, ops: [{record: never}, {wait: never}, {wait: never}]}\n",
                    "stuck.yaml")
    assert main(["run", str(stuck)]) == 3
    assert main(["run", str(saxpy_program(tmp_path, 1)), "--grid", "4,1,1"]) == 2
    assert main(["run", str(saxpy_program(tmp_path, 1)), "--arch", "cdna2"]) == 2
    assert "try --set system.gpus.arch=cdna2" in capsys.readouterr().err


def test_a_programs_perfetto_trace_has_a_track_per_stream_link_and_collective(tmp_path):
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace, TrackEvent
    from gpusim.report.program_trace import write_program_trace
    path = program(tmp_path, """
        system:
          gpus: {arch: cdna3, count: 2}
        buffers:
          x: {type: "f32[4000] uniform(-1,1) seed=1", gpus: all}
          y: {type: "f32[4000] uniform(-1,1) seed=2", gpus: all}
        streams:
          - name: s
            gpus: all
            ops:
              - {kernel: SAXPY, args: {x: x, y: y}}
              - {kernel: SAXPY, args: {x: x, y: y}}
              - {all_reduce: {send: y, group: all}}
        """)
    result = simulate_program(path)
    trace = Trace()
    trace.ParseFromString(write_program_trace(result, tmp_path / "app.pftrace").read_bytes())
    names, begins = {}, []
    for p in trace.packet:
        if p.HasField("track_descriptor"):
            names[p.track_descriptor.uuid] = p.track_descriptor.name
        elif p.track_event.type == TrackEvent.TYPE_SLICE_BEGIN:
            args = {a.name: a for a in p.track_event.debug_annotations}
            begins.append((names[p.track_event.track_uuid], p.track_event.name, args))
    tracks = set(names.values())
    assert {"stream s@0", "stream s@1", "xgmi 0->1", "xgmi 1->0", "all_reduce"} <= tracks
    kernels = [b for b in begins if b[0] == "stream s@1" and b[1] == "saxpy"]
    # GPU 1's launches repeat GPU 0's: the trace says the memo reused them (a bool annotation)
    assert len(kernels) == 2 and all(k[2]["reused"].bool_value for k in kernels)


def test_cli_set_overrides_a_program_key_for_a_what_if(tmp_path):
    path = program(tmp_path, """
        system:
          gpus: {arch: cdna3, count: 2}
        buffers:
          g: {type: "f32[4194304] ones", gpus: all}
        streams:
          - {name: s, gpus: all, ops: [{all_reduce: {send: g, group: all}}]}
        """)
    times = []
    for flags in ([], ["--set", "system.link.bandwidth_gbps=128"]):
        out = tmp_path / "r.json"
        assert main(["run", str(path), "--json", str(out), *flags]) == 0
        times.append(json.loads(out.read_text())["collectives"][0]["time_us"])
    # a 16 MB all-reduce between two GPUs is link-bound: twice the bandwidth, about half the time
    assert 0.45 < times[1] / times[0] < 0.6
    assert main(["run", str(path), "--set", "system.link.bandwith_gbps=128"]) == 2


def test_a_trace_window_adds_every_launchs_cu_tracks_at_its_time_in_the_program(tmp_path):
    from gpusim.engine.timing import TraceWindow
    from gpusim.report.program_trace import build_program_trace
    path = saxpy_program(tmp_path, 2, gpus="gpus: all", count=2, stream_gpu="gpus: all")
    result = simulate_program(path, trace=TraceWindow(cu_first=0, cu_last=0))
    assert result.memo["reused"] == 0 and len(result.kernel_traces) == 4   # traced launches are all timed
    model = build_program_trace(result)
    groups = {t.group for t in model.tracks}
    assert {"GPU 0 CU 000", "GPU 1 CU 000"} <= groups and not any("CU 001" in g for g in groups)
    by_uid = {t.uid: t for t in model.tracks}
    kernels = {(s.gpu, round(s.start * 1000)): s for s in result.spans if s.kind == "kernel"}
    for sl in model.slices:
        group = by_uid[sl.track].group
        if " CU " not in group:
            continue
        gpu = int(group.split()[1])
        # every wave slice lies within one of its GPU's kernel spans
        assert any(k.start * 1000 - 1 <= sl.start and sl.end <= k.end * 1000 + 1
                   for (g, _), k in kernels.items() if g == gpu)


def test_copies_and_memsets_move_exactly_the_bytes_their_offsets_select(tmp_path):
    path = program(tmp_path, """
        buffers:
          a: {type: "u8[16] arange", gpu: 0}
          b: {type: "u8[16] zeros", gpu: 0}
        streams:
          - name: s
            gpu: 0
            ops:
              - {memcpy: {src: a, dst: b, nbytes: 4, src_offset: 2, dst_offset: 8}}
              - {memset: {dst: a, value: 7, offset: 12, nbytes: 2}}
        checks:
          - "b == np.array([0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 5, 0, 0, 0, 0], dtype=u8)"
          - "a == np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 7, 7, 14, 15], dtype=u8)"
        """)
    r = simulate_program(path, check=True)
    assert r.checks_passed and [s.detail["nbytes"] for s in r.spans] == [4, 2]


def test_a_progress_watch_is_told_the_launches_and_shown_each_as_it_completes(tmp_path):
    path = saxpy_program(tmp_path, 3)
    seen = {}

    @contextmanager
    def watch(launches):
        seen["launches"], seen["records"] = launches, []
        yield seen["records"].append

    plain = simulate_program(path)
    watched = simulate_program(path, progress=watch)
    assert watched.total_us == plain.total_us and watched.launches == plain.launches
    assert seen["launches"] == 3
    # each launch in the order it completed, with what the result says of it (the memo reuses the third)
    assert [(r.label, r.cycles, r.reused) for r in seen["records"]] == \
        [(launch["kernel"], launch["cycles"], launch["reused"]) for launch in plain.launches]
    assert [r.reused for r in seen["records"]] == [False, False, True]


def test_a_device_global_keeps_its_value_from_launch_to_launch(tmp_path):
    # each workgroup takes a ticket from a __device__ counter (.bss): the second launch's follow the first's
    kernel = ROOT / "tests" / "frontends" / "data" / "static_data.hip"
    path = program(tmp_path, f"""
        system: {{gpus: {{arch: cdna3, count: 1}}}}
        buffers:
          x: {{type: "f32[256] uniform(-1,1) seed=1", gpu: 0}}
          y: {{type: "f32[256]", gpu: 0}}
          first: {{type: "i32[4]", gpu: 0}}
          second: {{type: "i32[4]", gpu: 0}}
        streams:
          - {{name: s, gpu: 0, ops: [{{kernel: {kernel}, args: {{x: x, y: y, tickets: first}}}},
                                   {{kernel: {kernel}, args: {{x: x, y: y, tickets: second}}}}]}}
        checks:
          - "np.sort(first) == np.arange(4)"
          - "np.sort(second) == np.arange(4, 8)"
          - "y ~= x * np.tile(np.array([1, 2, 3, 4], f32), 64) + np.array([0.5, 0.25, 0.125], f32)[np.arange(256) % 3]"
    """)
    result = simulate_program(path, check=True)   # the tables of .data and .rodata read where the code expects
    assert [c.passed for c in result.checks] == [True, True, True], [c.describe() for c in result.checks]


def test_kernels_of_two_files_with_their_own_static_data_are_refused_by_name(tmp_path):
    path = program(tmp_path, f"""
        system: {{gpus: {{arch: cdna3, count: 1}}}}
        buffers:
          out: {{type: "u32[9]", gpu: 0}}
          x: {{type: "f32[256] uniform(-1,1) seed=1", gpu: 0}}
          y: {{type: "f32[256]", gpu: 0}}
          tickets: {{type: "i32[4]", gpu: 0}}
        streams:
          - {{name: s, gpu: 0, ops: [{{kernel: {ROOT / "tests" / "asm" / "data" / "static" / "static_data.s"},
                                    args: {{out: out}}}},
                                   {{kernel: {ROOT / "tests" / "frontends" / "data" / "static_data.hip"},
                                    args: {{x: x, y: y, tickets: tickets}}}}]}}
    """)
    with pytest.raises(gpusim.errors.ProgramError, match="kernels 'static_data' .* and '_Z1gPKfPfPi' .* each have "
                                                         "their own static data"):
        simulate_program(path)


@pytest.mark.parametrize("arch", ["cdna3", "cdna2"])
def test_launches_with_scratch_memory_share_the_gpus_scratch(tmp_path, arch):
    # a private array indexed by data, then a recursive function whose stack (1 KB a lane) needs more scratch, so
    # the GPU's grows, then the array again: scratch_* on gfx942, the private segment buffer on gfx90a
    data = ROOT / "tests" / "frontends" / "data"
    path = program(tmp_path, f"""
        system: {{gpus: {{arch: {arch}, count: 1}}}}
        buffers:
          x: {{type: "f32[256, 32] uniform(-1,1) seed=1", gpu: 0}}
          pick: {{type: "i32[256] randint(0,32) seed=2", gpu: 0}}
          first: {{type: "f32[256]", gpu: 0}}
          again: {{type: "f32[256]", gpu: 0}}
          n: {{type: "i32[64] randint(0,12) seed=3", gpu: 0}}
          fib: {{type: "i32[64]", gpu: 0}}
        streams:
          - {{name: s, gpu: 0, ops: [{{kernel: {data / "private_array.hip"}, args: {{x: x, pick: pick, y: first}}}},
                                   {{kernel: {data / "recursion.hip"}, args: {{n: n, y: fib}}}},
                                   {{kernel: {data / "private_array.hip"}, args: {{x: x, pick: pick, y: again}}}}]}}
        checks:
          - "first ~= x[np.arange(256), pick] * (pick + 1)  rtol=1e-6 atol=0"
          - "fib == np.array([1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233])[n]"
          - "again ~= x[np.arange(256), pick] * (pick + 1)  rtol=1e-6 atol=0"
    """)
    result = simulate_program(path, check=True)
    assert [c.passed for c in result.checks] == [True, True, True], [c.describe() for c in result.checks]
