"""Bandwidth emerges from the bounded queues of the memory model: a streaming
kernel on every CU reaches most of the configured HBM peak, and never more."""
import re
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel

SAXPY = Path(__file__).resolve().parents[2] / "workloads" / "saxpy.s"


def saxpy(tmp_path, n):
    text = SAXPY.read_text()
    text = re.sub(r"^; gpusim-launch: .*$", f"; gpusim-launch: grid={n // 256},1,1 block=256,1,1", text, flags=re.M)
    text = re.sub(r"^; gpusim-arg: n i32 \d+$", f"; gpusim-arg: n i32 {n}", text, flags=re.M)
    path = tmp_path / "saxpy_big.s"
    path.write_text(text.replace("f32[4000]", f"f32[{n}]"))
    return gpusim.load_kernel(path)


@pytest.mark.parametrize("arch_name", ["cdna3"])
def test_streaming_saxpy_reaches_70_to_100_percent_of_hbm_peak(tmp_path, arch_name):
    arch = load_arch(arch_name)
    n = 1 << 22  # x and y (32 MiB) read from HBM on cold caches; y written back into the write-back L2
    run = time_kernel(saxpy(tmp_path, n), arch)
    c = run.counters
    seconds = run.cycles / (arch.clocks.shader_mhz * 1e6)
    achieved = (c["GPUSIM_HBM_READ_BYTES_sum"] + c["GPUSIM_HBM_WRITE_BYTES_sum"]) / seconds
    assert 0.70 * arch.hbm_bytes_per_s <= achieved <= arch.hbm_bytes_per_s
    # every line of x and y came from HBM once; y's dirty lines mostly stay in the 8 x 4 MiB of L2
    assert c["GPUSIM_HBM_READ_BYTES_sum"] >= 8 * n
    assert c["GPUSIM_HBM_WRITE_BYTES_sum"] < 4 * n
