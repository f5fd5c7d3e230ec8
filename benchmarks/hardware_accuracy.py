"""Accuracy against hardware: gpusim's kernel times beside measured AMD Instinct MI300A times.

The measured table (benchmarks/data/mi300a_kernels.csv, a copy of the issue-16 calibration set:
hipEvent times of real MI300A kernels, avg of 51 runs after one warm-up, launch overhead included;
source: MGPUSim repository, gpu_perf_scripts/mi300a.csv at commit d01e70d5) holds four kernel
families at 79 sizes from 8 KB to 19 GB of footprint. This script runs its own compiled versions of
those kernels (benchmarks/kernels/{vectoradd,relu,fir,matrixtranspose}.s, from the HIP sources in
benchmarks/kernels/hip/), sized per row by rewriting their launch headers, on the timing model of
archs/mi300a.yaml, and prints per row: measured us, simulated us, error; the roofline baseline
(footprint bytes / 5.3 TB/s + c) and its error; then per family and overall the weighted mean
absolute percentage error (WMAPE = sum |sim - measured| / sum measured) of gpusim and of the
roofline.

Held-out split: within each family the rows are ordered by problem size (fir by length, then taps)
and alternate: positions 0, 2, 4, ... are TRAINING rows, 1, 3, 5, ... are TEST rows. Only training
rows may be used to tune any parameter (the roofline's c, gpusim's launch/completion constants, any
arch YAML value calibrated against this table); WMAPE is reported on both parts.

Simulated time: what hipEvent measures, the timing model's ``event_time_us``: the kernel's cycles
plus the launch, dispatch and completion overhead of archs/mi300a.yaml's ``launch:`` section
(gpusim.engine.launch). Every run is a warm-up run of the kernel followed by the timed one
(``warm_up=True``), as the table's times follow one warm-up launch: the MALL holds what the previous
launch left; rows whose read data exceeds the MALL run cold (``timed`` says why that is the same).
``--overhead-us`` adds a constant on top (default 0); ``--fit`` fits that residual
constant (and the roofline's c) on the training rows only, as the median of measured - simulated
(the constant that minimizes the training rows' absolute error), and prints the cycles to add to the
launch section's latencies.

Runs are timed with values=False (only the address/branch slice is computed, the same cycles;
no output buffers are built, and buffers are zeros that the host maps only where written).

Usage:

    python benchmarks/hardware_accuracy.py                       # every row, 1 process
    python benchmarks/hardware_accuracy.py --jobs 2 --max-bytes 300e6
    python benchmarks/hardware_accuracy.py --families fir,relu --fit
    python benchmarks/hardware_accuracy.py --csv results.csv     # also write the per-row table
    python benchmarks/hardware_accuracy.py --max-bytes 1.1e9 --csv small.csv &   # two runs side by side,
    python benchmarks/hardware_accuracy.py --min-bytes 1.1e9 --csv big.csv       # then one report:
    python benchmarks/hardware_accuracy.py --report-csv small.csv big.csv --fit
"""
from __future__ import annotations

import argparse
import csv
import multiprocessing
import re
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run from a checkout without installing; spawned workers run this too
KERNELS = REPO / "benchmarks" / "kernels"
MEASURED = REPO / "benchmarks" / "data" / "mi300a_kernels.csv"
ARCH = "mi300a"
FAMILIES = ("vectoradd", "relu", "fir", "matrixtranspose")
PEAK_BYTES_PER_S = 5.3e12   # MI300A data sheet HBM3 peak (archs/mi300a.yaml [I])
WG = 256                    # work-items per workgroup of every kernel in the table


@dataclass
class Row:
    """Row is one measured kernel launch and, once run, its simulated time."""

    family: str
    size: str
    measured_us: float
    order: tuple = ()
    split: str = ""                      # "train" or "test"
    subs: dict = field(default_factory=dict)
    footprint_bytes: int = 0
    read_bytes: int = 0                  # the part of the footprint the kernel reads (what the MALL keeps)
    sim_us: Optional[float] = None       # hipEvent-style time from the timing model (launch included)
    kernel_us: Optional[float] = None    # the kernel as a profiler's kernel trace times it
    wave_instructions: int = 0
    host_s: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.family} {self.size}"


def sized(row: Row) -> None:
    """sized fills the header rewrites (grid, buffer sizes, scalars) and footprint of one row.

    Each rewrite replaces text that must occur in the committed .s header exactly once
    (rewritten_kernel checks), so a regenerated kernel with a different header is noticed.
    """
    f, s = row.family, row.size
    if f == "vectoradd":    # a = b + c, 2-D kernel launched with HEIGHT 1: grid ceil(N/256) x 1
        n = int(s)
        row.order = (n,)
        row.subs = {"grid=4,1,1": f"grid={-(-n // WG)},1,1", "width i32 1024": f"width i32 {n}"}
        row.footprint_bytes = 3 * 4 * n
        row.read_bytes = 2 * 4 * n
    elif f == "relu":
        n = int(s)
        row.order = (n,)
        row.subs = {"grid=4,1,1": f"grid={-(-n // WG)},1,1", "count i32 1024": f"count i32 {n}"}
        row.footprint_bytes = 2 * 4 * n
        row.read_bytes = 4 * n
    elif f == "fir":        # N_tapsT: N outputs (N a multiple of 256), T taps
        m = re.fullmatch(r"(\d+)_taps(\d+)", s)
        n, taps = int(m.group(1)), int(m.group(2))
        row.order = (n, taps)
        row.subs = {"grid=4,1,1": f"grid={n // WG},1,1", "output buffer f32[1024]": f"output buffer f32[{n}]",
                    "input buffer f32[1024]": f"input buffer f32[{n}]", "num_tap u32 8": f"num_tap u32 {taps}"}
        row.footprint_bytes = 2 * 4 * n + 2 * 4 * taps
        row.read_bytes = 4 * n + 2 * 4 * taps
    elif f == "matrixtranspose":   # WxW floats; 16x16 work-items move 64x64 tiles: grid (W/64) x (W/64)
        w = int(s.split("x")[0])
        row.order = (w,)
        row.subs = {"grid=4,4,1": f"grid={w // 64},{w // 64},1", "wi_width u32 64": f"wi_width u32 {w // 4}",
                    "wi_height u32 64": f"wi_height u32 {w // 4}", "blocks_x u32 4": f"blocks_x u32 {w // 64}"}
        row.footprint_bytes = 2 * 4 * w * w
        row.read_bytes = 4 * w * w
    else:
        raise ValueError(f"unknown kernel family {f!r}")


def measured_rows(families=FAMILIES) -> list:
    """measured_rows reads the in-repo copy of the measured table, sized and split into train/test."""
    rows = []
    with MEASURED.open() as fh:
        for rec in csv.DictReader(line for line in fh if not line.startswith("#")):
            if rec["kernel_name"] in families:
                row = Row(rec["kernel_name"], rec["problem_size"], 1000.0 * float(rec["avg_ms"]))
                sized(row)
                rows.append(row)
    for fam in families:
        mine = sorted((r for r in rows if r.family == fam), key=lambda r: r.order)
        for i, r in enumerate(mine):
            r.split = "train" if i % 2 == 0 else "test"
    return rows


def rewritten_kernel(row: Row, folder: Path) -> Path:
    """rewritten_kernel writes the row's kernel with its launch header rewritten to the row's size."""
    text = (KERNELS / f"{row.family}.s").read_text()
    header, sep, body = text.partition("\n\t.text")
    for old, new in row.subs.items():
        if header.count(old) != 1:
            raise ValueError(f"benchmarks/kernels/{row.family}.s: header should hold {old!r} exactly once")
        header = header.replace(old, new)
    path = folder / f"{row.family}_{row.size}.s"
    path.write_text(header + sep + body)
    return path


def simulator_buffer_limit() -> int:
    """simulator_buffer_limit is the most buffer bytes gpusim accepts in one launch."""
    from gpusim.asm.header import MAX_BUFFER_BYTES
    return MAX_BUFFER_BYTES


COLD = False   # --cold: no warm-up launch before any row
OVERRIDES: dict = {}   # --set: what-if values of the architecture, dotted YAML keys


def model_arch():
    """model_arch is the architecture every row runs on: archs/ARCH.yaml with the --set overrides."""
    from gpusim.arch import arch_overrides, load_arch
    arch = load_arch(ARCH)
    return arch_overrides(arch, OVERRIDES) if OVERRIDES else arch


def timed(kernel, arch, read_bytes: int):
    """timed runs the timing model after a warm-up launch of the same kernel (the table's times follow
    one warm-up launch) where the warm-up can leave anything behind. The model's MALL allocates the lines
    the L2s read (their write-back victims go past it), so what a warm-up leaves there is the data the
    kernel reads: read data larger than the MALL, streamed in the same order again, finds none of it
    there (an LRU cache over a cyclic pattern longer than its capacity always misses), so those rows run
    cold and take half the host time."""
    from gpusim.engine.timing import time_kernel
    warm = read_bytes <= arch.mall.size_bytes and not COLD
    return time_kernel(kernel, arch, values=False, timeout=None, warm_up=warm)


def simulated_us(row: Row, overhead_us: float) -> float:
    """simulated_us is the hipEvent-style time of a row: the model's event time (launch, dispatch and
    completion included) plus the residual constant ``overhead_us``."""
    return row.sim_us + overhead_us


def roofline_us(row: Row, c_us: float) -> float:
    """roofline_us is the one-line baseline: footprint at the HBM peak plus a constant."""
    return row.footprint_bytes / PEAK_BYTES_PER_S * 1e6 + c_us


def run_row(row: Row) -> Row:
    """run_row simulates one row (in a worker process) and returns it with sim_us filled."""
    import gpusim
    arch = model_arch()
    with tempfile.TemporaryDirectory() as tmp:
        kernel = gpusim.load_kernel(rewritten_kernel(row, Path(tmp)))
        t0 = time.perf_counter()
        run = timed(kernel, arch, row.read_bytes)
        row.host_s = time.perf_counter() - t0
    row.sim_us = run.event_time_us
    row.kernel_us = run.kernel_time_us
    row.wave_instructions = int(run.instruction_counts.sum())
    return row


def warm_worker(cold: bool = False, overrides: dict | None = None) -> None:
    """warm_worker sets the worker's --cold and --set and loads the timing model's compiled kernels (numba's disk
    cache) with a tiny run, so a row's host seconds are its simulation only."""
    global COLD, OVERRIDES
    COLD = cold
    OVERRIDES = dict(overrides or {})
    run_row(measured_rows(("relu",))[0])


CSV_COLUMNS = ["kernel", "size", "split", "footprint_bytes", "measured_us", "gpusim_kernel_us",
               "gpusim_event_us", "roofline_us", "wave_instructions", "host_s"]


def rows_from_csv(paths) -> list:
    """rows_from_csv reads back the rows that ``--csv`` wrote (several runs, e.g. split by --min-bytes and
    --max-bytes and run side by side), keyed by kernel and size; a later file's row replaces an earlier one."""
    by_key = {(r.family, r.size): r for r in measured_rows()}
    done = {}
    for path in paths:
        with Path(path).open() as fh:
            for rec in csv.DictReader(fh):
                row = by_key[(rec["kernel"], rec["size"])]
                row.sim_us, row.kernel_us = float(rec["gpusim_event_us"]), float(rec["gpusim_kernel_us"])
                row.wave_instructions, row.host_s = int(rec["wave_instructions"]), float(rec["host_s"])
                done[(row.family, row.size)] = row
    return list(done.values())


def wmape(pairs) -> float:
    """wmape of (predicted, measured) pairs: sum |predicted - measured| / sum measured, in percent."""
    pairs = list(pairs)
    total = sum(m for _, m in pairs)
    return 100.0 * sum(abs(p - m) for p, m in pairs) / total if total else float("nan")


def median(values) -> float:
    v = sorted(values)
    n = len(v)
    return 0.0 if n == 0 else (v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2]))


def fit_constants(rows: list) -> tuple:
    """fit_constants returns (gpusim overhead us, roofline c us) fitted on TRAINING rows only: each is
    the median of measured - model, the constant that minimizes the training rows' absolute error."""
    train = [r for r in rows if r.split == "train"]
    return (median(r.measured_us - r.sim_us for r in train),
            median(r.measured_us - roofline_us(r, 0.0) for r in train))


def report(rows: list, overhead_us: float, roof_c: float) -> None:
    print(f"\n{'kernel':16s} {'size':>14s} {'split':>5s} {'MB':>9s} {'measured us':>12s} {'gpusim us':>10s} "
          f"{'err':>7s} {'roofline us':>12s} {'err':>7s} {'host s':>7s}")
    for r in rows:
        sim, roof = simulated_us(r, overhead_us), roofline_us(r, roof_c)
        print(f"{r.family:16s} {r.size:>14s} {r.split:>5s} {r.footprint_bytes / 1e6:9.1f} {r.measured_us:12.1f} "
              f"{sim:10.1f} {100 * (sim - r.measured_us) / r.measured_us:6.0f}% {roof:12.1f} "
              f"{100 * (roof - r.measured_us) / r.measured_us:6.0f}% {r.host_s:7.1f}")
    print(f"\nWMAPE (gpusim overhead {overhead_us:.2f} us, roofline bytes/5.3 TB/s + {roof_c:.2f} us)")
    print(f"{'family':16s} {'rows':>5s} {'gpusim all':>11s} {'train':>7s} {'test':>7s} "
          f"{'roofline all':>13s} {'train':>7s} {'test':>7s}")
    for fam in [f for f in FAMILIES if any(r.family == f for r in rows)] + ["overall"]:
        mine = [r for r in rows if fam in ("overall", r.family)]
        cells = []
        for model in (lambda r: simulated_us(r, overhead_us), lambda r: roofline_us(r, roof_c)):
            for part in ("all", "train", "test"):
                sel = [r for r in mine if part in ("all", r.split)]
                cells.append(wmape((model(r), r.measured_us) for r in sel))
        print(f"{fam:16s} {len(mine):5d} {cells[0]:10.1f}% {cells[1]:6.1f}% {cells[2]:6.1f}% "
              f"{cells[3]:12.1f}% {cells[4]:6.1f}% {cells[5]:6.1f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated subset of " + ",".join(FAMILIES))
    ap.add_argument("--max-bytes", type=float, default=float("inf"),
                    help="skip rows whose footprint (all buffers) exceeds this many bytes (default: run all)")
    ap.add_argument("--min-bytes", type=float, default=0.0,
                    help="skip rows whose footprint is below this many bytes (default 0; with --max-bytes, splits "
                         "the table into runs that can go side by side)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--overhead-us", type=float, default=0.0,
                    help="residual constant added to the model's hipEvent time (default 0)")
    ap.add_argument("--fit", action="store_true",
                    help="fit the residual constant and the roofline's c on the training rows only, and print them")
    ap.add_argument("--csv", type=Path, help="also write the per-row table here")
    ap.add_argument("--cold", action="store_true",
                    help="run every row cold (no warm-up launch): the MALL starts empty")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="what-if: override an architecture value for every row, by its dotted YAML key "
                         "(e.g. l2.fabric_bytes_per_clk=32); repeatable")
    ap.add_argument("--report-csv", type=Path, nargs="+", metavar="CSV",
                    help="simulate nothing: report (and --fit) the rows that earlier --csv runs wrote")
    args = ap.parse_args()
    families = tuple(f.strip() for f in args.families.split(",") if f.strip())
    unknown = set(families) - set(FAMILIES)
    if unknown:
        ap.error(f"unknown families {sorted(unknown)}; choose from {', '.join(FAMILIES)}")

    if args.report_csv:
        done = sorted(rows_from_csv(args.report_csv), key=lambda r: (FAMILIES.index(r.family), r.order))
        print(f"{len(done)} rows read from {', '.join(map(str, args.report_csv))}")
        overhead, roof_c = fit_constants(done) if args.fit else (args.overhead_us, fit_constants(done)[1])
        report(done, overhead, roof_c)
        return
    overrides = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            ap.error(f"--set {item!r}: expected KEY=VALUE, e.g. l2.fabric_bytes_per_clk=32")
        overrides[key.strip()] = value.strip()
    if overrides:
        from gpusim.arch import arch_overrides, load_arch
        from gpusim.errors import ArchError
        try:
            arch_overrides(load_arch(ARCH), overrides)
        except ArchError as err:
            ap.error(f"--set: {str(err).removeprefix('error: ')}")
    rows = measured_rows(families)
    limit = simulator_buffer_limit()
    too_big = [r for r in rows if r.footprint_bytes > limit]
    if too_big:
        print(f"not simulated: {', '.join(r.label for r in too_big)} (buffers over gpusim's {limit >> 30} GiB "
              f"launch limit, gpusim.asm.header.MAX_BUFFER_BYTES)")
    todo = [r for r in rows if args.min_bytes <= r.footprint_bytes <= min(args.max_bytes, limit)]
    skipped = [r for r in rows if r not in todo and r.footprint_bytes <= limit]
    todo.sort(key=lambda r: -r.footprint_bytes * (r.order[1] if r.family == "fir" else 1))   # biggest first
    print(f"{len(todo)} of {len(rows)} rows on {ARCH}, {args.jobs} process(es)"
          + ("; skipped (footprint outside --min-bytes/--max-bytes): " + ", ".join(r.label for r in skipped)
             if skipped else ""))
    t0 = time.perf_counter()
    done = []
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs, initializer=warm_worker,
                                                     initargs=(args.cold, overrides)) as pool:
            for r in pool.imap_unordered(run_row, todo):
                done.append(r)
                print(f"  {r.label}: {r.sim_us:.1f} us simulated in {r.host_s:.1f} s", flush=True)
    else:
        warm_worker(args.cold, overrides)
        for r in todo:
            done.append(run_row(r))
            print(f"  {r.label}: {r.sim_us:.1f} us simulated in {r.host_s:.1f} s", flush=True)
    wall = time.perf_counter() - t0
    done.sort(key=lambda r: (FAMILIES.index(r.family), r.order))
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    instr = sum(r.wave_instructions for r in done)
    print(f"\n{len(done)} rows in {wall:.0f} s wall ({sum(r.host_s for r in done):.0f} s simulating, "
          f"{instr / 1e6:.1f} M wave-instructions); peak resident memory of one process {peak:.0f} MiB")

    overhead, roof_c = args.overhead_us, 0.0
    if args.fit:
        from gpusim.arch import load_arch
        mhz = load_arch(ARCH).clocks.shader_mhz
        overhead, roof_c = fit_constants(done)
        print(f"\nfit on {sum(r.split == 'train' for r in done)} training rows only: residual "
              f"{overhead:.2f} us = {overhead * mhz:.0f} shader cycles at {mhz} MHz (to add to the launch: "
              f"latencies of archs/{ARCH}.yaml); roofline c {roof_c:.2f} us")
    else:
        roof_c = fit_constants(done)[1]
    report(done, overhead, roof_c)
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(CSV_COLUMNS)
            for r in done:
                w.writerow([r.family, r.size, r.split, r.footprint_bytes, r.measured_us, f"{r.kernel_us:.3f}",
                            f"{r.sim_us:.3f}", f"{roofline_us(r, roof_c):.3f}", r.wave_instructions,
                            f"{r.host_s:.2f}"])


if __name__ == "__main__":
    main()
