"""One GPU's compute at the application level: kernels one at a time, slowed by collectives beside them.

The engine times a kernel with the whole GPU to itself (``kernel_launch.run_launch``). At this level
that time is the kernel's *work*, which it gets through at rate 1 while nothing else runs. A collective
running on the same GPU holds ``channels`` CUs and moves bytes through the GPU's HBM; while it does, the
kernel's rate drops to ``1 / slowdown``, where ``slowdown`` is the larger of:

* the CU share: ``cus / (cus - channels)`` (a compute-bound kernel loses the CUs the collective holds);
* the HBM share: ``u / (1 - v)`` when that exceeds 1, where ``u`` is the fraction of the HBM peak the
  kernel used alone (its HBM bytes over its time) and ``v`` the fraction the collectives use now
  (a memory-bound kernel gets what bandwidth they leave).

So overlap is not free, and it costs what the resource the kernel needs loses. Model assumptions, said
in the README: the collective is not slowed by the kernel in return (its CUs are reserved and it is
link-bound), and two kernels of different streams on one GPU run one after the other (the engine times
one kernel at a time), in the order they were launched.
"""
from __future__ import annotations

import simpy


class GpuCompute:
    """GpuCompute is one GPU's kernel slot and the CUs and HBM share its collectives hold now."""

    def __init__(self, env: simpy.Environment, cus: int):
        self.env = env
        self.cus = cus
        self.slot = simpy.Resource(env, capacity=1)
        self.channels = 0
        self.hbm_share = 0.0
        self._changed = env.event()

    def occupy(self, channels: int, hbm_share: float) -> None:
        """occupy records that a collective now holds ``channels`` CUs and ``hbm_share`` of the HBM peak."""
        self.channels += channels
        self.hbm_share += hbm_share
        self._signal()

    def release(self, channels: int, hbm_share: float) -> None:
        """release gives back what ``occupy`` took."""
        self.channels -= channels
        self.hbm_share = max(0.0, self.hbm_share - hbm_share)
        self._signal()

    def _signal(self) -> None:
        changed, self._changed = self._changed, self.env.event()
        changed.succeed()

    def slowdown(self, hbm_use: float) -> float:
        """slowdown is how many times longer a kernel that used ``hbm_use`` of the HBM peak alone takes now."""
        free = max(self.cus - self.channels, 1)
        cu = self.cus / free
        left = 1.0 - min(self.hbm_share, 0.95)
        hbm = hbm_use / left if hbm_use > left else 1.0
        return max(1.0, cu, hbm)

    def run(self, work_us: float, hbm_use: float):
        """run is a simpy process: it works through ``work_us`` of kernel time at the rate the collectives on
        this GPU leave, re-rating whenever one starts or ends; its value is the time it took."""
        start = self.env.now
        left = work_us
        while left > 1e-9:
            rate = 1.0 / self.slowdown(hbm_use)
            t0 = self.env.now
            done = self.env.timeout(left / rate)
            changed = self._changed
            yield done | changed
            left -= (self.env.now - t0) * rate
            if done.processed:   # (a Timeout counts as triggered from its creation on; processed once it fired)
                break
        return self.env.now - start
