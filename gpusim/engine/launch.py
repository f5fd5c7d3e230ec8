"""Kernel times around the dispatch: what a profiler's kernel trace and hipEvent timing each measure.

The timing loop counts ``cycles`` from the first workgroup's dispatch to the end of the end-of-kernel
release (the L2 write-back, gpusim.memory.kernels.maintenance.end_of_kernel_write_back). Around it the
architecture's ``launch`` section (gpusim.arch.schema.Launch) adds:

* the acquire at kernel start (``start_invalidate_cycles``), which a profiler's kernel trace includes:
  ``kernel_time_us`` = (start_invalidate_cycles + cycles) / shader clock, rocprof's kernel duration;
* the command processor's launch latency before it and the completion signal after it, which host-side
  hipEvent timing around the launch also includes: ``event_time_us`` = kernel_time_us +
  (command_processor_latency_cycles + completion_signal_cycles) / shader clock.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KernelTimes:
    """KernelTimes are one dispatch's times: ``cycles`` (dispatch to release, shader clock), and in
    microseconds as a profiler's kernel trace (``kernel_time_us``) and hipEvent timing (``event_time_us``)
    measure it."""

    cycles: int
    kernel_time_us: float
    event_time_us: float


def kernel_times(cycles: int, arch) -> KernelTimes:
    """kernel_times derives both measured times of a dispatch of ``cycles`` on ``arch`` (module docstring)."""
    launch = arch.launch
    mhz = arch.clocks.shader_mhz
    kernel_us = (launch.start_invalidate_cycles + cycles) / mhz
    event_us = kernel_us + (launch.command_processor_latency_cycles + launch.completion_signal_cycles) / mhz
    return KernelTimes(int(cycles), kernel_us, event_us)
