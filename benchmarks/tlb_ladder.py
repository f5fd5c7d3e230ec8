"""TLB ladder: per-step cycles of a dependent chase whose every step lands in another page.

The chase visits ``pages`` pages in a random single cycle, one line per page, each load issued when
the previous one has returned plus the wait and reissue of the next load (``LOOP_CYCLES``, as the
chain of benchmarks/latency_ladder.py spends them: only the load and its s_waitcnt between steps). It
runs on the memory model (MemoryLevels) rather than the engine, so footprints of many GiB cost no host
memory: only addresses are modelled. Each step is timed on the second pass, with translation on and off;
the difference is what translation adds:

* pages <= utcl1_entries: every page hits the UTCL1 (utcl1_hit_cycles, 0 on cdna3);
* utcl1_entries < pages <= utcl2_entries: UTCL1 misses that hit the UTCL2 (+ utcl2_hit_cycles);
* pages > utcl2_entries: every step walks the page table (+ utcl2_hit_cycles + the walk's reads).

Lines are offset within their page by ``(i % 256) * 128`` bytes so that they spread over cache sets
and channels as a real chase's would, not all onto set 0. No published MI300X/MI300A TLB-latency
figure was found (searched: Chips and Cheese MI300X, the SC25 CDNA3 characterisation artifact, the
MGPUSim MI300A calibration scripts, rocprofiler-compute docs); the "published" column says so, and the
data-only column is the latency ladder's figure for the level the lines live in. Usage:

    python benchmarks/tlb_ladder.py [--arch cdna3] [--page-bytes 4096]
    python benchmarks/tlb_ladder.py --transpose 1024 2048 4096 [--page-bytes 4096]

``--transpose`` instead times gpusim's LDS transpose template (``gpusim gen transpose``) of W x W f32
matrices on the engine, with translation on and off, and prints the bandwidth (bytes read + written per
second at clocks.shader_mhz) and the UTCL1 miss rate: the row stride W * 4 bytes grows past the TLB reach.
"""
from __future__ import annotations

import argparse

import numpy as np

LOOP_CYCLES = 6      # per step of latency_ladder.py's chain: s_waitcnt and reissue (archs/cdna3.yaml header)
PUBLISHED = "none found"


def chase_step(arch, pages: int, stride: int) -> float:
    """chase_step is the mean cycles per step of the second pass of a chase over ``pages`` pages."""
    from gpusim.memory import MemoryLevels

    m = MemoryLevels(arch, cus=1)
    order = np.random.default_rng(1).permutation(pages)
    addrs = [int(i) * stride + (int(i) % 256) * 128 for i in order]
    t = 0
    for _ in range(2):
        start = t
        for a in addrs:
            t = m.access(0, a, t) + LOOP_CYCLES
    return (t - start) / pages


def transpose_rows(arch, off, sizes) -> None:
    """transpose_rows prints, per W, the LDS transpose's bandwidth with translation on and off."""
    import tempfile
    from pathlib import Path

    import gpusim
    from gpusim.engine.timing import time_kernel
    from gpusim.templates.registry import generate

    print(f"{'W':>6s} {'stride KiB':>10s} {'GB/s on':>8s} {'GB/s off':>9s} {'UTCL1 miss':>10s} {'walks':>7s}")
    for w in sizes:
        path = Path(tempfile.mkdtemp()) / f"transpose_{w}.s"
        path.write_text(generate("transpose", arch, rows=w, cols=w, variant="lds-padded"))
        kernel = gpusim.load_kernel(path)
        runs = [time_kernel(kernel, a, values=False) for a in (arch, off)]
        gbs = [2 * w * w * 4 / (r.cycles / (arch.clocks.shader_mhz * 1e6)) / 1e9 for r in runs]
        c = runs[0].counters
        miss = c["TCP_UTCL1_TRANSLATION_MISS_sum"] / max(1, c["TCP_UTCL1_REQUEST_sum"])
        print(f"{w:6d} {w * 4 / 1024:10.0f} {gbs[0]:8.0f} {gbs[1]:9.0f} {100 * miss:9.1f}% "
              f"{c['GPUSIM_PAGE_WALKS_sum']:7d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="cdna3")
    ap.add_argument("--page-bytes", type=int, default=None, help="what-if page size (default: the arch's)")
    ap.add_argument("--transpose", type=int, nargs="+", metavar="W", help="time W x W LDS transposes instead")
    args = ap.parse_args()
    from gpusim.arch import arch_overrides, load_arch
    arch = load_arch(args.arch)
    if args.page_bytes:
        arch = arch_overrides(arch, {"translation.page_bytes": args.page_bytes})
    off = arch_overrides(arch, {"translation.enabled": False})
    if args.transpose:
        transpose_rows(arch, off, args.transpose)
        return
    tr = arch.translation
    stride = max(tr.page_bytes, 64 << 10)   # one line per page, 256 distinct line offsets within it
    rows = [("UTCL1 hit", tr.utcl1_entries // 2), ("UTCL1 miss, UTCL2 hit", tr.utcl1_entries * 4),
            ("UTCL2 miss (walk)", tr.utcl2_entries * 4)]
    print(f"{args.arch}: {tr.page_bytes // 1024} KiB pages, UTCL1 {tr.utcl1_entries} entries "
          f"(reach {tr.utcl1_entries * tr.page_bytes >> 10} KiB), UTCL2 {tr.utcl2_entries} entries "
          f"(reach {tr.utcl2_entries * tr.page_bytes >> 10} KiB); chase stride {stride >> 10} KiB")
    print(f"{'step':24s} {'pages':>6s} {'cycles/step':>12s} {'no transl.':>11s} {'added':>7s} {'published':>10s}")
    for name, pages in rows:
        on, base = chase_step(arch, pages, stride), chase_step(off, pages, stride)
        print(f"{name:24s} {pages:6d} {on:12.1f} {base:11.1f} {on - base:7.1f} {PUBLISHED:>10s}")


if __name__ == "__main__":
    main()
