"""archs/mi300a.yaml: the MI300A is cdna3 with 6 XCDs and 128 GB, found by name like the built-ins."""
from __future__ import annotations

import subprocess
import sys

import pytest

from gpusim.arch import builtin_arch_names, load_arch


def test_mi300a_is_listed_and_loads_by_name():
    assert "mi300a" in builtin_arch_names()
    a = load_arch("mi300a")
    assert (a.name, a.gfx_target) == ("mi300a", "gfx942")
    assert a.provenance["gpu.xcds"].endswith("mi300a.yaml")


def test_mi300a_differs_from_mi300x_only_in_xcds_capacity_and_launch_latency():
    a, x = load_arch("mi300a"), load_arch("cdna3")
    # 6 XCDs x 38 CUs = 228 CUs (data sheet), MI300X 8 x 38 = 304.
    assert (a.gpu.xcds, a.gpu.cus_per_xcd, a.cus) == (6, 38, 228)
    # 8 stacks x 16 GB = 128 GB = 128 * 2**30 bytes (MI300X: 192 GB).
    assert a.hbm.capacity_bytes == 128 * 2**30
    # Same 5.3 TB/s HBM (1.3 GHz x 32 B x 128 channels), 256 MB MALL, 2.1 GHz engine clock.
    assert a.hbm_bytes_per_s == x.hbm_bytes_per_s == pytest.approx(5.3e12, rel=0.01)
    assert a.mall == x.mall and a.l2 == x.l2 and a.cu == x.cu
    assert a.clocks.shader_mhz == 2100
    # the launch latency is calibrated on the MI300A table's training rows (hardware_accuracy.py --fit)
    assert a.launch.command_processor_latency_cycles == x.launch.command_processor_latency_cycles + 987
    mine = a.to_dict()
    theirs = x.to_dict()
    for section in ("gpu", "hbm", "launch"):
        mine.pop(section), theirs.pop(section)
    assert {k: v for k, v in mine.items() if k not in ("name", "description")} == \
           {k: v for k, v in theirs.items() if k not in ("name", "description")}


def test_cli_arch_show_finds_mi300a():
    out = subprocess.run([sys.executable, "-m", "gpusim.cli", "arch", "show", "mi300a"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "mi300a.yaml <- " in out.stdout and "cdna3.yaml" in out.stdout
    assert "xcds: 6" in out.stdout
