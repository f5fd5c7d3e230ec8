"""Shared-tile read-after-write: per-load cost of re-reading lines every workgroup has just stored.

benchmarks/kernels/shared_tile.s has every workgroup store the same tile of a global scratch buffer, wait,
meet its barrier and chase dependent loads through the tile. The per-load time is the difference of two runs
(2K and K loads) over K, so the stores, the launch and the first misses cancel out; on an L1 that keeps the
tile it is an L1 hit plus the chase loop's own instructions (136 cycles with cdna3's L1 at 108; the bare
chain of benchmarks/latency_ladder.py takes 116). The counters show where the loads went: vector L1 hits
and misses, L2 requests and the busiest L2 channel.
Usage:

    python benchmarks/shared_tile.py [--arch cdna3] [--loads 32] [--agent] [--invalidate-drops-l2]

Findings (cdna3, --loads 16; "kernel" is the 32-load run), measured with the L1 at 88 and the L2 at 111
cycles, before the latency ladder's recalibration (cdna3 today: 136 cycles per load plain, 1216 x 4 waves
7,808 cycles; rerun for the rest):
- plain (workgroup-scope barrier, as HIP's __syncthreads compiles on gfx942): 116 cycles per load at every
  size, 1 to 1216 workgroups; the store keeps or skips the L1 line, the first load is one L2 round trip, no
  L2 channel hot spot, no MSHR stalls. 1216 x 4 waves: 6,372 cycles.
- --agent (buffer_wbl2 sc1 / buffer_inv sc1 around the barrier, sc1 loads): sc1 loads are MISS_EVICT in the
  L1 (CDNA3 ISA load controls, cu.l1.miss_evict_cache_bits), so every load is an L2 round trip: 228 cycles
  per load, 239 at 1216 x 4 waves where each XCD's 608 waves re-read the same lines from one L2 channel
  (5,112 requests): 15,005 cycles. Before this branch the sc1 loads hit the L1 (116 per load) while each
  wave's write-back queued the re-dirtied tile lines on the same 4 HBM channels (5,016 writes each) and the
  invalidate emptied the XCD's L2: 22,402 cycles. With the write-back done at the memory-side MALL
  (l2.write_back_to_mall) but the old invalidate (--invalidate-drops-l2): 18,572.
The measured MI300A "fir" (calibration/mi300a_kernels.csv, MGPUSim's fir.cpp) has no store, barrier or fence
before its loads: clang-19 -O3 makes coeff[i] an s_load and input[tid - i] a global_load per tap, and
gpusim's per-tap slope (157 and 194 cycles at 1024 and 262144 outputs, 64 vs 8 taps) is 16-18% under the
chip's (187 and 236 cycles at 2.1 GHz), not 3x over it.
"""
from __future__ import annotations

import argparse
import dataclasses
import tempfile
from pathlib import Path

KERNEL = Path(__file__).with_name("kernels") / "shared_tile.s"
# (label, workgroups, work-items per workgroup): one wave per CU, many CUs on every XCD, 4 waves reading
# each other's lines, several workgroups per CU
CASES = (("1 WG x 1 wave", 1, 64), ("8 WGs x 1 wave", 8, 64), ("304 WGs x 1 wave", 304, 64),
         ("304 WGs x 4 waves", 304, 256), ("1216 WGs x 4 waves", 1216, 256))


def run(arch, workgroups: int, block: int, loads: int, agent: bool = False):
    """run times the kernel for ``workgroups`` x ``block`` work-items chasing ``loads`` loads each.

    ``agent`` makes the synchronisation agent-scope, as LLVM compiles a release and an acquire fence at agent
    scope around the barrier and agent-scope relaxed atomic loads on gfx942 (AMDGPUUsage, memory model GFX942):
    ``buffer_wbl2 sc1`` before the barrier, ``buffer_inv sc1`` after it and ``sc1`` on every load.
    """
    import gpusim
    from gpusim.engine.timing import time_kernel

    text = KERNEL.read_text()
    text = text.replace("grid=8,1,1 block=64,1,1", f"grid={workgroups},1,1 block={block},1,1")
    text = text.replace("u32[64] init=zeros", f"u32[{block}] init=zeros")
    text = text.replace("loads i32 64", f"loads i32 {loads}").replace("mask i32 63", f"mask i32 {block - 1}")
    text = text.replace("u32[512] out", f"u32[{workgroups * block}] out")
    if agent:
        text = text.replace("\ts_waitcnt vmcnt(0)\n\ts_barrier\n", "\tbuffer_wbl2 sc1\n\ts_waitcnt vmcnt(0)\n"
                            "\ts_barrier\n\tbuffer_inv sc1\n")
        text = text.replace("global_load_dword v2, v3, s[4:5]", "global_load_dword v2, v3, s[4:5] sc1")
    text = "\n".join(line for line in text.splitlines() if "gpusim-check" not in line)
    path = Path(tempfile.mkdtemp()) / "shared_tile.s"
    path.write_text(text)
    return time_kernel(gpusim.load_kernel(path), arch, values=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="cdna3")
    ap.add_argument("--loads", type=int, default=32, help="K: the runs chase K and 2K loads")
    ap.add_argument("--agent", action="store_true", help="agent-scope fences and loads (see run)")
    ap.add_argument("--invalidate-drops-l2", action="store_true",
                    help="the model before l2.invalidate_keeps_device_memory: buffer_inv sc1 empties the XCD's L2")
    args = ap.parse_args()
    from gpusim.arch import load_arch
    arch = load_arch(args.arch)
    if args.invalidate_drops_l2:
        arch = dataclasses.replace(arch, l2=dataclasses.replace(arch.l2, invalidate_keeps_device_memory=False))
    k = args.loads
    print(f"{'case':20s} {'cycles/load':>11s} {'kernel (2K)':>11s} {'L1 hit':>7s} {'L2 req':>8s} "
          f"{'busiest L2 ch':>13s} {'TCP MSHR stall':>14s}")
    for label, wgs, block in CASES:
        short, long = run(arch, wgs, block, k, args.agent), run(arch, wgs, block, 2 * k, args.agent)
        c = long.counters
        hit, miss = c["GPUSIM_TCP_HIT_sum"], c["GPUSIM_TCP_MISS_sum"]
        busiest = max(v for name, v in c.items() if name.startswith("TCC_REQ["))
        print(f"{label:20s} {(long.cycles - short.cycles) / k:11.1f} {long.cycles:11d} "
              f"{100 * hit / max(hit + miss, 1):6.1f}% "
              f"{c['TCC_REQ_sum']:8d} {busiest:13d} {c['GPUSIM_TCP_MSHR_STALL_CYCLES_sum']:14d}")


if __name__ == "__main__":
    main()
