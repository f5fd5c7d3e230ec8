"""Program files: a good one becomes the right dataclasses; every bad one is refused with file:line:col."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import gpusim.api
from gpusim.errors import AsmError, GpusimError, ProgramError
from gpusim.system import loader
from gpusim.system.topology import default_links
from gpusim.system.loader import kernel_key, load_program, program_from_dict
from gpusim.system.program import (HOST, BufferRef, CollectiveOp, EventRecordOp, EventWaitOp, HostDelayOp, KernelOp,
                                   MemcpyOp, MemsetOp, Program)

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SAXPY = REPO / "workloads" / "saxpy.s"          # n i32 4000, a f32, x/y buffer f32[n], grid 16 x 256
VADD = REPO / "tests" / "data" / "corpus" / "gfx942" / "vadd_tail.s"   # a,b,c buffer f32[1000], n i32


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n").replace("SAXPY", str(SAXPY)).replace("VADD", str(VADD)))
    return path


def refused(tmp_path: Path, text: str, line: int, at: str, *phrases: str) -> str:
    """refused loads a program that must fail, and checks why and where: at ``line``, at the column of the
    first ``at`` on that line (the offending token)."""
    path = write(tmp_path, text)
    with pytest.raises(ProgramError) as info:
        load_program(path)
    message = str(info.value)
    col = path.read_text().splitlines()[line - 1].index(at) + 1
    assert message.startswith(f"{path}:{line}:{col}: error: "), message
    for phrase in phrases:
        assert phrase in message, message
    assert "\n" not in message
    return message


TWO_GPUS = """
system:
  gpus: {arch: cdna3, count: 2}
buffers:
  x: {type: "f32[4000] uniform(-1,1) seed=1", gpu: 0}
  y: {type: "f32[4000]", gpu: 0}
  hx: {type: "f32[4000]", host: true}
  g: {type: "f32[1024] ones", gpus: all}
  h: {type: "f32[1024]", gpus: [1]}
streams:
  - name: s
    gpu: 0
    ops:
"""


def ops(*lines: str) -> str:
    """ops is the TWO_GPUS program with these operation lines (the first one is line 13)."""
    return TWO_GPUS + "".join(f"      {line}\n" for line in lines)


# ---------------------------------------------------------------- the good program
def test_good_program_becomes_the_dataclasses():
    p = load_program(DATA / "good.yaml")
    assert isinstance(p, Program)
    assert p.system.gpu_count == 4 and p.system.topology == "ring" and p.system.copy_engines == 3
    assert p.system.archs[0].name == p.system.archs[3].name
    # efficiency is not in the file: it comes from the arch's interconnect.peer_link (cdna3: 0.711)
    assert (p.system.link.bandwidth_gbps, p.system.link.efficiency, p.system.link.latency_us) == (48.0, 0.711, 1.5)
    assert p.system.host_link.bandwidth_gbps == 64.0
    x = p.buffer("x")
    assert (x.arg.dtype, x.arg.shape, x.arg.init, x.arg.init_params, x.arg.seed) == \
        ("f32", (4096,), "uniform", (-1.0, 1.0), 1)
    assert x.gpus == (0,) and not x.per_gpu
    assert p.buffer("y").arg.init == "uniform"
    assert p.buffer("hx").gpus == (HOST,)
    assert p.buffer("g").gpus == (0, 1, 2, 3) and p.buffer("g").per_gpu
    assert [s.name for s in p.streams] == ["compute", "comm@0", "comm@1", "comm@2", "comm@3"]
    assert [s.gpu for s in p.streams] == [0, 0, 1, 2, 3]
    assert dict(p.params) == {"n": 4096, "chunk": "64KiB", "scale": 2.0}
    assert [c.lhs for c in p.checks] == ["y", "g2"] and p.checks[0].loc.line == 49


def test_good_program_unrolls_repeats_with_substituted_scalars():
    compute = load_program(DATA / "good.yaml").streams[0]
    kernels = [op for op in compute.ops if isinstance(op, KernelOp)]
    assert [k.name for k in kernels] == ["saxpy1", "s1_0", "s1_1", "s1_2", "s2_0", "s2_1", "s2_2"]
    assert [dict(k.args)["a"] for k in kernels] == [2.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0]
    assert dict(kernels[0].args)["n"] == 4096 and kernels[0].grid == (16, 1, 1) and kernels[1].grid is None
    assert dict(kernels[0].args)["x"] == BufferRef("x", loc=dict(kernels[0].args)["x"].loc)
    assert kernels[1].loc.line == 34 and kernels[0].loc.line == 21
    assert isinstance(compute.ops[2], EventRecordOp) and compute.ops[2].event == "done"
    assert len(compute.ops) == 1 + 1 + 1 + 6 + 1


def test_good_program_infers_copy_kinds_and_reads_collectives():
    p = load_program(DATA / "good.yaml")
    first, last = p.streams[0].ops[0], p.streams[0].ops[-1]
    assert isinstance(first, MemcpyOp) and first.kind == "h2d" and first.nbytes is None
    assert isinstance(last, MemcpyOp) and last.kind == "d2h" and last.nbytes == 1024
    comm1 = p.streams[2].ops
    assert isinstance(comm1[0], EventWaitOp) and isinstance(comm1[1], HostDelayOp) and comm1[1].us == 5.0
    assert isinstance(comm1[2], MemsetOp) and comm1[2].dst.name == "g2"
    gather, reduce = comm1[3], comm1[4]
    assert isinstance(gather, CollectiveOp) and gather.kind == "all_gather" and gather.group == (0, 1, 2, 3)
    assert (gather.chunk_bytes, gather.channels, gather.recv.name) == (65536, 8, "g2")
    assert reduce.kind == "all_reduce" and reduce.recv is None and reduce.algorithm == "direct"
    peer0, peer1 = p.streams[1].ops[5], comm1[5]
    assert (peer0.kind, peer0.src.gpu, peer0.dst.gpu) == ("d2d", 0, 0)
    assert (peer1.kind, peer1.src.gpu, peer1.dst.gpu) == ("peer", 1, 0)
    assert [s.ops[-1].event for s in p.streams[1:]] == ["comm@0", "comm@1", "comm@2", "comm@3"]


def test_kernels_side_table_holds_each_launch_with_its_scalars_applied():
    p = load_program(DATA / "good.yaml")
    launches = [op for s in p.streams for op in s.ops if isinstance(op, KernelOp)]
    assert {kernel_key(op) for op in launches} == set(p.kernels)
    assert len(p.kernels) == 3
    first = p.kernels[kernel_key(launches[0])]
    args = {a.name: a for a in first.module.args}
    assert args["n"].value == 4096 and args["x"].shape == (4096,) and args["a"].value == 2.0
    assert first.module.launch.grid == (16, 1, 1)
    assert p.kernels[kernel_key(launches[1])].module.args[1].value == 1.0


def test_a_file_is_parsed_once_for_many_launches(tmp_path, monkeypatch):
    calls = []
    real = gpusim.api.load_kernel
    monkeypatch.setattr(gpusim.api, "load_kernel", lambda path, **kw: calls.append(path) or real(path, **kw))
    p = load_program(write(tmp_path, ops(
        "- repeat:",
        "    var: k",
        "    count: 200",
        "    ops:",
        "      - kernel: SAXPY",
        "        args: {x: x, y: y, a: \"${k}\"}")))
    assert len(p.streams[0].ops) == 200
    assert len(calls) == 1
    assert len(p.kernels) == 200
    assert [dict(op.args)["a"] for op in p.streams[0].ops[:3]] == [0.0, 1.0, 2.0]


def test_template_kernel(tmp_path):
    p = load_program(write(tmp_path, """
        buffers:
          a: "f32[4096]"
          b: "f32[4096] uniform(-1,1)"
        streams:
          - ops:
              - kernel: "template:stream"
                params: {op: triad, n: 4096}
                args: {a: a, b: b, c: b, s: 1.5}
        """))
    op = p.streams[0].ops[0]
    assert op.params == (("op", "triad"), ("n", 4096)) and p.streams[0].name == "stream0"
    assert p.kernels[kernel_key(op)].module.args[3].value == 1.5


def test_defaults(tmp_path):
    p = load_program(write(tmp_path, "buffers:\n  x: \"u8[16]\"\n"))
    assert p.system.gpu_count == 1 and p.system.topology == "mesh" and p.system.copy_engines == 2
    # the first GPU's arch file gives the links (cdna3: xGMI 64 GB/s at 71.1% usable, PCIe at 86%)
    assert (p.system.link, p.system.host_link, p.system.copy_engines) == default_links(p.system.archs[0])
    assert p.system.link.bandwidth_gbps == 64 and abs(p.system.link.usable_gbps - 45.5) < 0.1
    assert p.streams == () and p.buffer("x").gpus == (0,)


def test_arch_file_beside_the_program(tmp_path):
    (tmp_path / "big_lds.yaml").write_text("extends: cdna3\nname: big_lds\ncu:\n  lds:\n    size_bytes: 131072\n")
    p = load_program(write(tmp_path, "system:\n  gpus: [{arch: big_lds.yaml}, cdna3]\n"))
    assert [a.name for a in p.system.archs] == ["big_lds", "cdna3"]
    assert p.system.archs[0].cu.lds.size_bytes == 131072
    (tmp_path / "bad.yaml").write_text("extends: cdna3\ncu:\n  ldss: {}\n")
    with pytest.raises(GpusimError) as info:   # an error inside the arch file names that file
        load_program(write(tmp_path, "system:\n  gpus: {arch: bad.yaml}\n"))
    assert str(info.value).startswith(str(tmp_path / "bad.yaml") + ":3:"), str(info.value)


def test_program_from_dict():
    p = program_from_dict({"system": {"gpus": {"count": 2}},
                           "buffers": {"g": {"type": "f32[8]", "gpus": "all"}},
                           "streams": [{"gpus": "all", "ops": [{"all_reduce": {"send": "g"}}]}],
                           "checks": ["g == 0"]})
    assert [s.name for s in p.streams] == ["stream0@0", "stream0@1"] and p.path == "<dict>"
    assert p.streams[1].ops[0].group == (0, 1) and p.checks[0].loc is None
    with pytest.raises(ProgramError) as info:
        program_from_dict({"buffers": {"g": "f32[8]"}, "streams": [{"ops": [{"memset": {"dst": "gg"}}]}]})
    assert str(info.value) == "error: unknown buffer 'gg' (did you mean 'g'?)"


# ---------------------------------------------------------------- overrides
def test_overrides_set_system_keys_and_params():
    p = load_program(DATA / "good.yaml", {"system.link.efficiency": 0.5, "system.host_link.bandwidth_gbps": 128,
                                          "params.n": 8192, "system.gpus.count": 2, "params.chunk": "1MiB",
                                          "buffers.g2.type": "f32[2048]"})
    assert p.system.link.efficiency == 0.5 and p.system.link.bandwidth_gbps == 48.0
    assert p.system.host_link.bandwidth_gbps == 128.0
    assert p.buffer("x").arg.shape == (8192,) and p.system.gpu_count == 2
    assert [s.name for s in p.streams] == ["compute", "comm@0", "comm@1"]
    assert p.streams[1].ops[3].chunk_bytes == 1 << 20
    assert dict(p.params)["n"] == 8192 and p.buffer("g2").arg.shape == (2048,)


def test_override_of_a_list_item(tmp_path):
    path = write(tmp_path, ops("- host_delay: 1"))
    assert load_program(path, {"streams.0.gpu": 1}).streams[0].gpu == 1


@pytest.mark.parametrize("key, phrase", [
    ("system.link.bandwith_gbps", "no key 'system.link.bandwith_gbps' (did you mean 'bandwidth_gbps'?)"),
    ("params.chunks", "no parameter 'chunks' (did you mean 'chunk'?)"),
    ("sytem.topology", "no key 'sytem' (did you mean 'system'?)"),
    ("streams.9.gpu", "is a list of 2; '9' is not an index of it"),
])
def test_bad_override_key(key, phrase):
    with pytest.raises(ProgramError) as info:
        load_program(DATA / "good.yaml", {key: 1})
    assert str(info.value).startswith(f"<override>:1:1: error: override {key}: "), str(info.value)
    assert phrase in str(info.value)


def test_bad_override_value_is_named():
    with pytest.raises(ProgramError) as info:
        load_program(DATA / "good.yaml", {"system.gpus.count": 0})
    assert str(info.value).startswith("<override>:1:1: error: system.gpus.count must be at least 1, got 0")


@pytest.mark.parametrize("overrides, shown", [
    ({"system.link.bandwidth_gbps": "fast"}, "system.link.bandwidth_gbps=fast"),
    ({"": None}, "="),   # `--set =`: an empty key and value
])
def test_a_bad_override_is_shown_as_it_was_typed(overrides, shown):
    with pytest.raises(ProgramError) as info:
        load_program(DATA / "good.yaml", overrides)
    assert str(info.value).endswith(f" [in: {shown}]"), str(info.value)


# ---------------------------------------------------------------- bad programs: keys, types, sizes
def test_unknown_top_level_key(tmp_path):
    refused(tmp_path, "bufers:\n  x: \"u8[4]\"\n", 1, 'bufers', "unknown key 'bufers' in the program",
            "did you mean 'buffers'?")


def test_unknown_system_key_and_wrong_types(tmp_path):
    refused(tmp_path, "system:\n  gpus: {count: 2}\n  topolgy: ring\n", 3, 'topolgy', "unknown key 'topolgy'",
            "did you mean 'topology'?")
    refused(tmp_path, "system:\n  gpus: {count: two}\n", 2, 'two', "system.gpus.count is an integer, got str 'two'")
    refused(tmp_path, "system:\n  gpus: {count: 0}\n", 2, '0', "must be at least 1, got 0")
    refused(tmp_path, "system:\n  topology: torus\n", 2, 'torus', "unknown topology 'torus'")
    refused(tmp_path, "system:\n  link: {bandwidth_gbps: -5}\n", 2, '-5', "link.bandwidth_gbps must be at least 0.001, got -5")
    refused(tmp_path, "system:\n  host_link: {efficiency: 1.5}\n", 2, '1.5', "efficiency must be at most 1.0")


def test_unknown_arch_points_at_the_program(tmp_path):
    refused(tmp_path, "system:\n  gpus: [{arch: cdna3}, {arch: cdna33}]\n", 2, 'cdna33',
            "unknown architecture 'cdna33'",
            "did you mean 'cdna3'?")


def test_buffer_type_errors_point_inside_the_string(tmp_path):
    refused(tmp_path, 'buffers:\n  x: {type: "f32[16] uniformm(-1,1)"}\n', 2, 'uniformm',
            "buffer 'x': unknown init 'uniformm'",
            "did you mean 'uniform'?")
    refused(tmp_path, 'buffers:\n  x: {type: "f23[16]"}\n', 2, 'f23', "unknown dtype 'f23'")
    refused(tmp_path, 'buffers:\n  x: {type: "f32[16] init=zeros seed=-1"}\n', 2, '-1', "seed must be a non-negative")
    refused(tmp_path, 'buffers:\n  x: {type: "f32[0]"}\n', 2, '0]', "must be positive")
    refused(tmp_path, 'buffers:\n  x: {type: "f32[n]"}\n', 2, 'n]', "unknown name 'n'", "${param}")


def test_bad_buffer_names_and_places(tmp_path):
    refused(tmp_path, 'buffers:\n  f32: "u8[4]"\n', 2, 'f32', "invalid buffer name 'f32'")
    refused(tmp_path, 'buffers:\n  x: {type: "u8[4]", gpu: 1}\n', 2, '1}', "no GPU 1; the system has 1")
    refused(tmp_path, 'buffers:\n  x: {type: "u8[4]", gpu: 0, host: true}\n', 2, 'host', "has both 'gpu' and 'host'")
    refused(tmp_path, 'buffers:\n  x: {gpu: 0}\n', 2, 'x', "buffer 'x' needs a type")


def test_unknown_parameter_has_a_did_you_mean(tmp_path):
    refused(tmp_path, 'params: {size: 4}\nbuffers:\n  x: {type: "u8[4]", gpu: "${sise}"}\n', 3, '"${sise}"',
            "unknown parameter '${sise}'", "did you mean 'size'?")


def test_a_parameter_that_names_another_is_refused_at_its_own_line(tmp_path):
    # a value is substituted once, so '${b}' in a parameter would reach the buffer unresolved
    refused(tmp_path, 'params:\n  a: "${b}"\n  b: 4\nbuffers:\n  x: {type: "u8[${a}]", gpu: 0}\n', 2, '"${b}"',
            "parameter 'a' names another parameter ('${b}')")
    refused(tmp_path, 'params:\n  a: [1, "${b}"]\n  b: 4\n', 2, '"${b}"', "parameter 'a' names another parameter")
    refused(tmp_path, 'params:\n  a: "x${"\n', 2, '"x${"', "parameter 'a' holds a malformed '${...}'")


# ---------------------------------------------------------------- buffers and GPUs in operations
def test_unknown_buffer(tmp_path):
    refused(tmp_path, ops("- memcpy: {src: hx, dst: xx}"), 13, 'xx', "unknown buffer 'xx'", "did you mean 'x'?")


def test_stream_gpu_out_of_range(tmp_path):
    refused(tmp_path, TWO_GPUS.replace("    gpu: 0", "    gpu: 2") + "      - host_delay: 1\n", 11, '2',
            "stream 's' gpu: no GPU 2; the system has 2")


def test_per_gpu_copy_that_does_not_exist(tmp_path):
    refused(tmp_path, ops("- memcpy: {src: h@0, dst: g}"), 13, 'h@0', "per-GPU buffer 'h' has no copy on GPU 0",
            "it is on GPUs 1")
    refused(tmp_path, ops("- memset: {dst: h}"), 13, 'h}', "has no copy on GPU 0, which runs this stream")
    refused(tmp_path, ops("- memset: {dst: x@0}"), 13, 'x@0', "buffer 'x' is not per-GPU")


def test_host_buffer_as_a_kernel_argument(tmp_path):
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {x: hx, y: y}"), 14, 'hx',
            "argument 'x': 'hx' is a host buffer")


def test_kernel_buffer_on_another_gpu(tmp_path):
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {x: x, y: g@1}"), 14, 'g@1',
            "argument 'y': buffer 'g@1' is on GPU 1 but the kernel runs on GPU 0")


# ---------------------------------------------------------------- kernels
def test_missing_kernel_file(tmp_path):
    refused(tmp_path, ops("- kernel: nothere.s"), 13, 'nothere.s', "no kernel file 'nothere.s'")


def test_kernel_that_does_not_assemble_raises_the_assemblers_error(tmp_path):
    bad = tmp_path / "bad.s"
    bad.write_text(SAXPY.read_text().replace("s_endpgm", "s_endpgmm", 1))
    with pytest.raises(AsmError) as info:
        load_program(write(tmp_path, ops("- kernel: bad.s")))
    assert str(info.value).startswith(f"{bad}:")


def test_kernel_argument_names_and_kinds(tmp_path):
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {xx: x}"), 14, 'xx',
            f"kernel '{SAXPY}' declares no argument 'xx'",
            "did you mean 'x'?")
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {x: 3}"), 14, '3',
            "argument 'x' is a buffer; bind it to a buffer")
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {a: y}"), 14, 'y}', "argument 'a' is a f32 scalar; bind it to "
                                                                       "a number, not buffer 'y'")
    refused(tmp_path, ops("- kernel: SAXPY", "  args: {n: 1.5}"), 14, '1.5', "argument 'n': malformed i32 value")
    refused(tmp_path, ops("- kernel: SAXPY", "  grid: [0]"), 14, '0]', "grid must be at least 1")
    refused(tmp_path, ops("- kernel: SAXPY", "  gird: [1]"), 14, 'gird', "unknown key 'gird' in a kernel operation",
            "did you mean 'grid'?")


def test_shape_mismatch_names_both_shapes(tmp_path):
    message = refused(tmp_path, ops("- kernel: SAXPY", "  args: {x: g, n: 4000}"), 14, 'g,',
                      "argument 'x' of kernel", "is f32[4000] but buffer 'g' is f32[1024]")
    assert "set its scalars in args" in message
    # after n changes the kernel's shapes, the same binding fits
    load_program(write(tmp_path, ops("- kernel: SAXPY", "  args: {x: g, y: g, n: 1024}")))
    # the right size in the wrong type
    refused(tmp_path, ops("- kernel: VADD", "  args: {a: z}").replace('  hx:', '  z: "i32[1000]"\n  hx:'), 15, 'z}',
            "argument 'a' of kernel", "is f32[1000] but buffer 'z' is i32[1000]")


def test_template_problem_points_at_the_kernel(tmp_path):
    refused(tmp_path, ops("- kernel: \"template:stream\"", "  params: {op: triadd}"), 13, '"template',
            "kernel 'template:stream': --op: 'triadd' is not one of")
    refused(tmp_path, ops("- kernel: \"template:strem\""), 13, '"template', "strem")


# ---------------------------------------------------------------- copies
def test_memcpy_sizes(tmp_path):
    refused(tmp_path, ops("- memcpy: {src: x, dst: g}"), 13, '{',
            "memcpy src 'x' is 16,000 bytes and dst 'g' 4,096; give nbytes")
    refused(tmp_path, ops("- memcpy: {src: x, dst: g, nbytes: 8KiB}"), 13, '8KiB',
            "memcpy nbytes 8,192 is more than dst 'g' holds (4,096 bytes)")
    refused(tmp_path, ops("- memcpy: {src: x, dst: g, nbytes: 0}"), 13, '0}', "nbytes must be at least 1")
    load_program(write(tmp_path, ops("- memcpy: {src: x, dst: g, nbytes: 4KiB}")))


def test_memcpy_between_host_buffers(tmp_path):
    refused(tmp_path, ops("- memcpy: {src: hx, dst: hx}"), 13, '{', "memcpy from host buffer 'hx' to host buffer")


def test_operation_shape(tmp_path):
    refused(tmp_path, ops("- memcopy: {src: x, dst: y}"), 13, 'memcopy', "unknown operation 'memcopy'",
            "did you mean 'memcpy'?")
    refused(tmp_path, ops("- memcpy: {src: x, dst: y}", "  nbytes: 4"), 14, 'nbytes',
            "unexpected key 'nbytes' beside 'memcpy'")
    refused(tmp_path, ops("- host_delay: soon"), 13, 'soon', "host_delay (microseconds) is a number")


# ---------------------------------------------------------------- collectives
def test_collective_group_naming_a_gpu_twice(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: g, group: [0, 1, 0]}"), 13, '0]', "all_reduce group names GPU 0 twice")


def test_collective_gpu_outside_the_system(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: g, group: [0, 2]}"), 13, '2]', "no GPU 2; the system has 2")


def test_collective_buffers_must_be_per_gpu_on_the_group(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: x}"), 13, 'x}', "all_reduce send 'x' is one buffer on GPU 0")
    refused(tmp_path, ops("- all_reduce: {send: g, recv: h}"), 13, 'h}', "recv 'h' has no copy on GPU 0 of the group")
    refused(tmp_path, ops("- all_reduce: {send: g@0}"), 13, 'g@0', "names one GPU's copy")


def test_collective_recv_sizes(tmp_path):
    text = TWO_GPUS.replace('  hx:', '  g3: {type: "f32[2048]", gpus: all}\n  g1: {type: "f32[512]", gpus: all}\n'
                                     '  g7: {type: "f32[7]", gpus: all}\n  i: {type: "i32[1024]", gpus: all}\n  hx:')
    line = 17   # the first operation's line, after the four extra buffers
    refused(tmp_path, text + "      - all_gather: {send: g, recv: g}\n", line, 'g}',
            "all_gather over 2 GPUs: recv 'g' is 4,096 bytes but must be 2 x send = 8,192 bytes")
    refused(tmp_path, text + "      - reduce_scatter: {send: g, recv: g3}\n", line, 'g3',
            "must be send / 2 = 2,048 bytes")
    refused(tmp_path, text + "      - all_reduce: {send: g, recv: g1}\n", line, 'g1',
            "must be the size of send = 4,096")
    refused(tmp_path, text + "      - reduce_scatter: {send: g7, recv: g1}\n", line, 'g7',
            "has 7 elements, which do not "
                                                                                     "divide by 2")
    refused(tmp_path, text + "      - all_to_all: {send: g7}\n", line, 'g7', "has 7 elements, which do not divide by 2")
    refused(tmp_path, text + "      - all_reduce: {send: g, recv: i}\n", line, 'i}',
            "recv 'i' is i32 but send 'g' is f32")
    p = load_program(write(tmp_path, text.replace("gpu: 0\n    ops", "gpus: all\n    ops")
                           + "      - all_gather: {send: g1, recv: g}\n"
                                            "      - reduce_scatter: {send: g3, recv: g}\n"
                                            "      - broadcast: {send: g, root: 1}\n"))
    assert [op.kind for op in p.streams[0].ops] == ["all_gather", "reduce_scatter", "broadcast"]
    assert p.streams[0].ops[2].root == 1


def test_collective_from_a_stream_outside_its_group(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: h, group: [1]}"), 13, '[1]',
            "issued by a stream on GPU 0, which is not in its group (GPUs 1)")


def test_collective_that_a_group_member_never_issues(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: g}", "- all_gather: {send: g}") + textwrap.indent(textwrap.dedent("""
        - gpu: 1
          ops:
            - all_reduce: {send: g}
        """), "  "), 14, "all_gather", "GPU 0 issues 2 collectives over group [0, 1] but GPU 1 issues 1: this "
                                       "all_gather (number 2 on GPU 0) would wait forever")


def test_collective_algorithm_and_op(tmp_path):
    refused(tmp_path, ops("- all_reduce: {send: g, algorithm: rings}"), 13, 'rings',
            "unknown all_reduce algorithm 'rings'",
            "did you mean 'ring'?")
    refused(tmp_path, ops("- all_reduce: {send: g, op: avg}"), 13, 'avg', "unknown all_reduce op 'avg'",
            "ops: sum, max, min, prod")
    refused(tmp_path, ops("- all_reduce: {send: g, chunk_bytes: 4MB!}"), 13, '4MB!', "chunk_bytes is a size in bytes")
    refused(tmp_path, ops("- broadcast: {send: g, root: 3}"), 13, '3}', "broadcast root: no GPU 3")


# ---------------------------------------------------------------- events, repeats, checks
def test_wait_on_an_event_nobody_records(tmp_path):
    refused(tmp_path, ops("- record: ready", "- wait: redy"), 14, 'wait', "stream 's' waits on event 'redy', which no "
                                                                    "stream records", "did you mean 'ready'?")


def test_repeat_needs_exactly_one_of_values_range_count(tmp_path):
    refused(tmp_path, ops("- repeat: {values: [1], count: 2, ops: []}"), 13, '{',
            "repeat needs exactly one of values, range, count, halving, doubling, got values and count")
    refused(tmp_path, ops("- repeat: {ops: []}"), 13, '{', "repeat needs exactly one of values, range, count, halving, doubling")
    refused(tmp_path, ops("- repeat: {range: [0, 4, 0], ops: []}"), 13, '0]', "step must not be 0")


def test_repeat_range_and_nested_substitution(tmp_path):
    p = load_program(write(tmp_path, ops(
        "- repeat:",
        "    var: k",
        "    range: [1, 8, 3]",
        "    ops:",
        "      - repeat:",
        "          var: j",
        "          values: [a, b]",
        "          ops: [{record: \"e${k}${j}\"}]")))
    assert [op.event for op in p.streams[0].ops] == ["e1a", "e1b", "e4a", "e4b", "e7a", "e7b"]


def test_unrolled_size_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_OPS", 10)
    refused(tmp_path, ops("- host_delay: 1", "- repeat:", "    count: 3", "    ops:", "      - repeat:",
                          "          count: 3", "          ops: [{host_delay: 1}, {host_delay: 2}]"),
            14, "repeat", "the program unrolls to more than 10 operations")
    refused(tmp_path, ops("- repeat: {count: 11, ops: []}"), 13, '11', "repeat of 11 iterations")


def test_check_naming_an_unknown_buffer(tmp_path):
    refused(tmp_path, ops("- host_delay: 1") + "checks:\n  - \"y ~= 2 * xx\"\n  - g == 1\n", 15, 'xx',
            "unknown name 'xx'", "did you mean 'x'?")
    refused(tmp_path, ops("- host_delay: 1") + "checks:\n  - y ~= open('f')\n", 15, 'open',
            "check expressions may not contain")
    refused(tmp_path, ops("- host_delay: 1") + "checks:\n  - y\n", 15, 'y', "gpusim-check needs 'EXPR ~= EXPR'")


def test_doubling_and_halving_repeats_unroll_a_bitonic_sorts_stages(tmp_path):
    """A bitonic sort of n keys is log2(n)(log2(n)+1)/2 stages: k doubles from 2 to n, j halves from k/2 to 1."""
    text = textwrap.dedent("""
        params: {n: 16}
        buffers:
          keys: {type: "u32[${n}] perm seed=1", gpu: 0}
        streams:
          - name: sort
            gpu: 0
            ops:
              - repeat:
                  var: k
                  doubling: [2, "${n}"]
                  ops:
                    - repeat: {var: j, halving: ["${k} // 2", 1], ops: [{record: "k${k} j${j}"}]}
        """)
    p = load_program(write(tmp_path, text))
    assert [op.event for op in p.streams[0].ops] == [
        "k2 j1", "k4 j2", "k4 j1", "k8 j4", "k8 j2", "k8 j1", "k16 j8", "k16 j4", "k16 j2", "k16 j1"]


def test_a_flat_kernel_argument_takes_a_buffer_of_as_many_elements_but_a_transposed_one_is_refused(tmp_path):
    gemm = Path(__file__).resolve().parents[2] / "workloads" / "tp_mlp_up.s"
    silu = Path(__file__).resolve().parents[2] / "workloads" / "silu_to_f16.s"
    text = textwrap.dedent(f"""
        buffers:
          h: {{type: "f32[512,1792] zeros", gpu: 0}}
          a: {{type: "f16[917504] zeros", gpu: 0}}
          x: {{type: "f16[512,4096] zeros", gpu: 0}}
          w: {{type: "f16[4096,1792] zeros", gpu: 0}}
        streams:
          - name: s
            gpu: 0
            ops:
              - kernel: {silu}
                args: {{x: h, y: a}}
              - kernel: {gemm}
                args: {{A: x, Bt: w, C: h}}
        """)
    with pytest.raises(ProgramError) as err:
        load_program(write(tmp_path, text))
    assert ":13:26:" in str(err.value) and "argument 'Bt'" in str(err.value) and "[4096,1792]" in str(err.value)


def test_absurd_link_figures_and_host_delays_are_refused_not_simulated(tmp_path):
    refused(tmp_path, "system:\n  link: {latency_us: 1e308}\n", 2, '1e308', "link.latency_us must be at most")
    refused(tmp_path, "streams:\n  - {name: s, gpu: 0, ops: [{host_delay: 1e300}]}\n", 2, '1e300',
            "host_delay (microseconds) must be at most")


def test_the_tensor_parallel_degree_is_one_parameter_of_the_tp_mlp_program():
    """params.tp sets the GPU count, the weight slices' shapes, the generated GEMMs and the SiLU's launch."""
    path = Path(__file__).resolve().parents[2] / "workloads" / "tp_mlp.yaml"
    for tp, slice_ in ((8, 1792), (4, 3584), (2, 7168)):
        p = load_program(path, overrides={"params.tp": tp})
        assert p.system.gpu_count == tp and len(p.streams) == 2 * tp
        assert p.buffer("w1").arg.shape == (slice_, 4096) and p.buffer("w2").arg.shape == (4096, slice_)
        up, silu, down = list(p.kernels.values())[:3]
        assert up.module.launch.grid == (slice_ // 128, 4, 1) and down.module.launch.grid == (32, 4, 1)
        assert silu.module.launch.grid == (512 * slice_ // 256, 1, 1)
