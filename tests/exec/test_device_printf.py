"""Device printf: gpusim's HIP printf records each call in a static buffer and gpusim prints the calls after the
run. The formatting of one record is held to the C library's own snprintf (through ctypes) on every conversion
and length the decoder knows; a kernel's lines come out in call order, the same functional and timed; a buffer
that overflows counts the calls it dropped; the CLI prints the lines before its report."""
from __future__ import annotations

import ctypes
import ctypes.util
import random
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.asm.static_data import StaticData
from gpusim.cli import main
from gpusim.exec import device_printf as dp

DATA = Path(__file__).parents[1] / "frontends" / "data"
LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


def _double_word(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def _snprintf(fmt: str, value) -> str:
    buf = ctypes.create_string_buffer(512)
    arg = ctypes.c_double(value) if isinstance(value, float) else ctypes.c_longlong(value)
    n = LIBC.snprintf(buf, 512, fmt.encode(), arg)
    return buf.raw[:n].decode("latin-1")   # %c of a byte above 127: gpusim writes that code point


def test_one_conversion_formats_as_the_c_library_does():
    rng = random.Random(7)
    for _ in range(20000):
        conv = rng.choice("diouxXcfFeEgG")
        flags = "".join(rng.sample("-+ #0", rng.randint(0, 2)))
        width = rng.choice(["", str(rng.randint(1, 12))])
        prec = rng.choice(["", "." + str(rng.randint(0, 6))]) if conv not in "c" else ""
        if conv in "diouxXc":
            length = rng.choice(["", "l", "ll", "h", "hh"]) if conv != "c" else ""
            value = rng.randint(-(1 << 63), (1 << 63) - 1)
            if length == "":   # an int argument: C promotes it to 64 bits as the device record does
                value = rng.randint(-(1 << 31), (1 << 31) - 1)
            args = [(dp.KIND_SIGNED, value & ((1 << 64) - 1))]
            c_value = value
        else:
            length = ""
            c_value = rng.choice([0.0, -0.0, rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)])
            args = [(dp.KIND_DOUBLE, _double_word(c_value))]
        fmt = f"<%{flags}{width}{prec}{length}{conv}>"
        assert dp.format_c(fmt, args, np.zeros(1, np.uint8)) == _snprintf(fmt, c_value), fmt


def test_oversized_fields_and_missing_arguments_are_printed_as_written():
    mem = np.zeros(1, np.uint8)
    # an oversized field still takes its argument, as C's would
    assert dp.format_c("%999999999d|%.99999f|%d", [(dp.KIND_SIGNED, 1), (dp.KIND_DOUBLE, 0)], mem) == \
        "%999999999d|%.99999f|%d"
    assert dp.format_c("%d and %d", [(dp.KIND_SIGNED, 5)], mem) == "5 and %d"


def _buffer(records: list, dropped: int, strings: bytes) -> tuple[StaticData, np.ndarray]:
    words = np.zeros(dp.BUFFER_WORDS, np.uint64)
    k = 1
    for fmt_at, args in records:
        kinds = sum(kind << (2 * j) for j, (kind, _) in enumerate(args))
        words[k:k + 2 + len(args)] = [dp.STATIC_DATA_BASE + fmt_at, len(args) << 56 | kinds] + [w for _, w in args]
        k += 2 + len(args)
    words[0] = k - 1
    words[-1] = dropped
    image = strings + words.tobytes()
    return StaticData(image, {"_ZL22__gpusim_printf_buffer": len(strings)}), np.frombuffer(image, np.uint8).copy()


def test_a_buffer_decodes_in_call_order_with_strings_and_drops():
    strings = b"%s=%d\n\0x\0"
    static, mem = _buffer([(0, [(dp.KIND_POINTER, dp.STATIC_DATA_BASE + 7), (dp.KIND_SIGNED, 3)]),
                           (0, [(dp.KIND_POINTER, 1 << 60), (dp.KIND_SIGNED, (-4) & ((1 << 64) - 1))])], 9, strings)
    printed = dp.read_printed(static, mem)
    assert printed.lines == ["x=3\n", f"(string at 0x{1 << 60:x} outside device memory)=-4\n"]
    assert printed.dropped == 9
    assert dp.read_printed(StaticData(b"\0" * 8, {"other": 0}), mem) is None


pytestmark_clang = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 compiles HIP")


@pytestmark_clang
@pytest.mark.parametrize("timing", [False, True])
def test_a_kernels_printf_lines_come_out_in_call_order(timing):
    r = gpusim.simulate(gpusim.load_kernel(DATA / "device_printf.hip"), "cdna3", check=True, timing=timing)
    x = r.outputs["x"]
    want = [f"block {i // 128} wave {i % 128 // 64}: x[{i:3d}] = {x[i]:+.3f} ms {chr(97 + i // 64)} "
            f"0x{1 << (40 + i // 64):x}  12.5%\n" for i in (0, 64, 128, 192)]
    assert r.printed.lines == want and r.printed.dropped == 0
    assert r.to_dict()["printed"] == {"texts": want, "dropped": 0}


@pytestmark_clang
def test_the_cli_prints_the_lines_before_the_report_and_counts_what_it_dropped(tmp_path, capsys):
    assert main(["run", str(DATA / "device_printf.hip"), "--no-timing"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("block 0 wave 0: x[  0] = ") and out.index("block 1 wave 1") < out.index("kernel ")
    src = tmp_path / "flood.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                   "__global__ void flood() { for (int k = 0; k < 400; ++k) printf(\"%d\\n\", k); }\n")
    assert main(["run", str(src), "--no-timing"]) == 0
    captured = capsys.readouterr()
    # 64 lanes x 400 calls of 3 words each: the first 21,844 fit words 1 to 65,534
    assert captured.out.startswith("0\n" * 64 + "1\n") and "\n341\n" in captured.out and "\n342\n" not in captured.out
    assert "note: 3,756 device printf call(s) dropped" in captured.err, captured.err
