"""The ``gpusim`` command line: parse flags, call the API, print.

Every user mistake is printed as one ``file:line:col: error: ...`` line with
exit code 2; a failed check exits 1; a kernel fault exits 3.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from gpusim.cli_paths import IMAGE_SUFFIXES, check_output_file, check_output_folder, writing
from gpusim.engine.sampling_policy import (
    DEFAULT_SAMPLE_MODE, SAMPLE_ABOVE_WAVE_INSTRUCTIONS, SAMPLE_MODES, SamplingPolicy, sample_with_interval,
)
from gpusim.errors import GpusimError, UsageError

DESCRIPTION_TRITON = """\
Compile a @triton.jit kernel with Triton's own compiler (3.x, no GPU needed) for the
architecture's gfx target and run it on gpusim, as Triton's launcher would: each program a
workgroup of --num-warps waves, the dynamic LDS and scratch arguments Triton asks for supplied.

This imports FILE.py, running the Python code in it: name only a file you trust, as you would
with `python FILE.py`. gpusim never runs code it finds in a .s, YAML or header file.

example:
  gpusim triton kernels.py:add_kernel --grid 16 --constexpr BLOCK=256 \\
      --arg x=f32[4096]:uniform(-1,1) --arg y=f32[4096]:uniform(-1,1):seed=2 \\
      --arg out=f32[4096] --arg n=4096 --check 'out ~= x + y'
"""

EPILOG_RUN = """\
the report, one line per topic (the timing model runs unless --no-timing):
  occupancy  waves per SIMD the kernel's registers, LDS and workgroup size allow, the
             limiter, and the waves actually resident on average
  executed   wave-instructions in all and per unit (VALU, MFMA, SALU, SMEM, VMEM, LDS, ...)
  time       kernel cycles and microseconds at the shader clock (first dispatch to the
             end-of-kernel release)
  sampled    (sampled runs) the method, the part of the work simulated in detail and an
             error estimate on cycles (sampling noise and the method's measured error); or
             why a dispatch it would sample ran in full
  profiler   the kernel time a profiler's kernel trace (rocprof) reports: plus the cache
             invalidate at kernel start
  hipEvent   the time hipEvent timing around the launch reports: plus the command
             processor's launch latency and the completion signal (arch 'launch:' section)
  compute    achieved FLOP/s, total and VALU / MFMA, as % of the peak of the unit and data
             type that did most of the work (FLOPs count 64 lanes per wave-instruction)
  memory     achieved bytes/s at HBM, L2 and LDS, each as % of its peak
  busy       utilisation: VALU and MFMA of SIMD-cycles, SALU, LDS and VMEM (vector L1
             port) of CU-cycles; IPC per CU-cycle with resident waves
  waves      where resident wave-cycles went: issuing, vmcnt (waiting for global memory),
             lgkmcnt (LDS / scalar memory), barrier, dependency (a register still being
             written), unit busy, arbitration (ready but the issue port went to another
             wave), s_nop/s_sleep, branch refill (instruction buffer refilling after a taken branch)
  CUs        CU-cycles issuing, with no eligible wave (waves resident, none could
             issue), and idle (no wave)
  caches     L1, L2, MALL and scalar-cache hit rates
  LDS        bank-conflict cycles
  hazards    RAW: wave-instructions that read a register before its producer completed
  check      PASS/FAIL of each gpusim-check line (with --check)
--json and --csv add every raw counter under its AMD profiler name (memory counters per
instance, TCC_HIT[3], and summed, TCC_HIT_sum) and every derived metric with its unit.
With --no-timing only the functional model runs: counts, FLOPs and checks, no cycles.
Without --check the timing model computes only the values that an address, a branch
or EXEC depends on (MFMA math and data moves are skipped): the same cycles and
counters in less host time.
A timed dispatch estimated above SAMPLE_THRESHOLD wave-instructions is sampled (--sample auto,
the default): the grid method runs its first rounds of workgroups and its last in full detail
and projects the middle from their measured rate; the 'sampled' line says how much ran in
detail and gives an error estimate on cycles: a 95% confidence interval from the measured
rates, and the method's own error as measured against full simulations
(benchmarks/sampling_bias.py). Against the full simulation it was within 1.6% on every large
kernel measured, within 1% on the streams (README, "Sampled timing"). A grid of too few
rounds (a GEMM) runs in full; --sample on also warps long loops (experimental, up to 33% off);
--sample off times everything in full: use it for exact cycles and close what-ifs.
A program's launches are sampled the same way, each on its own; the 'sampled' line
of its report counts them and sums their error estimates.

examples:
  gpusim run workloads/saxpy.s --arch cdna3 --check
  gpusim run k.s --arch my_arch.yaml --grid 64,1,1 --arg n=4096
  gpusim run k.s --json result.json
  gpusim run k.s --warm-up             # timed after one warm-up run, as hardware timings are
  gpusim run k.s --sample off          # every workgroup timed in detail: exact cycles, no projection
  gpusim run k.s --csv result.csv      # kind,name,instance,value,unit rows for pandas
  gpusim run k.s --no-timing --check   # functional only: the fastest correctness check
  gpusim run k.s --trace k.pftrace --trace-cus 0-3 --trace-cycles 0:20000   # Perfetto wave timeline
  gpusim run k.s --timeline --trace-cus 0   # per-wave cycle strip in the terminal
  gpusim run workloads/tp_mlp_8gpu.yaml      # an application program: GPUs, streams, copies, collectives
  gpusim run app.yaml --set system.link.bandwidth_gbps=128 --trace app.pftrace   # faster links, a timeline

The kernel file is the output of `clang -target amdgcn-amd-amdhsa -mcpu=gfx942 -S`
(or hand-written gfx90a/gfx942 assembly) plus comment lines that say how to
launch it:
  ; gpusim-launch: grid=16,1,1 block=256,1,1
  ; gpusim-arg: n i32 4096
  ; gpusim-arg: x buffer f32[n] init=uniform(-1,1) seed=1   # shapes may name integer arguments
  ; gpusim-check: y ~= 2 * x  rtol=1e-6
""".replace("SAMPLE_THRESHOLD", f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,}")


EPILOG_TOP = """\
input: a .s file as clang emits it (clang -target amdgcn-amd-amdhsa -mcpu=gfx942 -S)
plus launch-header comment lines, e.g.
  ; gpusim-launch: grid=16,1,1 block=256,1,1
  ; gpusim-arg: x buffer f32[4096] init=uniform(-1,1) seed=1
  ; gpusim-check: y ~= 2 * x  rtol=1e-6
see 'gpusim run --help' for the full format.

exit codes: 0 ok, 1 a check failed, 2 bad input or flags, 3 the kernel faulted
"""


QUIET_HELP = ("no progress bar (a timed run draws one on standard error when it is a terminal and the run lasts "
              "over a second: of the kernel's wave-instructions, or of a program's kernel launches)")
_MILLIONS = f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS / 1e6:g} M"
SAMPLE_HELP = (
    "sampled timing: simulate a representative part of a big dispatch in full detail and project the rest "
    "(the methods and their measured errors: README, 'Sampled timing'). auto, the default, samples a timed "
    f"dispatch estimated above {SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,} ({_MILLIONS}) wave-instructions (its first "
    "workgroup's count times the grid; about 2 s of full simulation at 2-3 M per second, below which the full "
    "simulation is quick) by the grid method: the first rounds of workgroups and the last in detail, the middle "
    "at their rate, within 1.6%% of the full simulation on every measured kernel; a grid of under "
    f"{SamplingPolicy().grid_min_rounds} rounds runs in full. on also uses the experimental loop method (long "
    "loops warped past their first iterations: a GEMM of one or two rounds, but up to 33%% off where a loop's "
    "rate drifts), whatever the size; off simulates every workgroup in detail. Outputs and --check stay exact "
    "(every workgroup runs functionally), and instruction counts unless the grid's workgroups differ by their "
    "data (then its skipped middle is counted at their mean); the report says what fraction was simulated and "
    "an error estimate on cycles (sampling noise and the method's measured error). Use off for exact cycle "
    "counts (regression goldens), per-wave traces, comparisons of what-ifs within a few percent of each "
    "other, and kernels whose workgroups differ in ways sampling cannot see (data-dependent work it does not "
    "detect). --trace and --timeline record every wave, so they imply off (a --sample given with them is "
    "ignored, with a note). Ignored with --no-timing.")


class _Parser(argparse.ArgumentParser):
    """_Parser reports bad flags as a single UsageError line instead of usage + exit."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="gpusim", description="Cycle-approximate simulator of AMD CDNA GPUs running real AMDGCN "
                "assembly (gfx90a / gfx942).", formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog=EPILOG_TOP)
    p.add_argument("--version", action="version", version="gpusim 0.1.0")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    run = sub.add_parser("run", help="run a kernel (or an application program) and report what it did", epilog=EPILOG_RUN,
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         description="Run every wavefront of a kernel's grid on the timing model and report "
                         "time, FLOP/s, bandwidth, occupancy, unit utilisation, stalls and cache hit rates; with "
                         "--check, also verify its outputs against the header's numpy reference. Given a program "
                         "file (.yaml), run the application it describes (GPUs, links, streams of kernels, copies "
                         "and collectives) and report its time, per-GPU, per-stream and per-link use, collective "
                         "bandwidths and overlap.")
    run.add_argument("kernel_file", metavar="KERNEL.s|KERNEL.hip|CODE_OBJECT|PROGRAM.yaml",
                     help="assembly file with a gpusim launch header, HIP source (.hip as written for hipcc, its "
                          "launch header in // gpusim-* comments; the device code is compiled with clang-19 for the "
                          "arch's target and gpusim's HIP headers, host code is never run), a code object (.hsaco, "
                          ".co, .o, offload bundle; with --header), or an application program file (.yaml: GPUs, "
                          "links, buffers, streams of kernels, copies and collectives; see README)")
    run.add_argument("--arch", default=None, help="architecture: a shipped name (cdna3, cdna2) or a YAML "
                     "file (default: cdna3); a program file names its GPUs' in system.gpus")
    run.add_argument("--check", action="store_true", help="verify outputs against the gpusim-check lines; "
                     "exit 1 on a mismatch")
    run.add_argument("--no-timing", dest="timing", action="store_false",
                     help="functional model only: instruction counts, FLOPs and checks, no cycles (faster)")
    # the timing model used to be opt-in; old command lines that ask for it still work
    run.add_argument("--timing", dest="timing", action="store_true", help=argparse.SUPPRESS)
    run.set_defaults(timing=True)
    run.add_argument("--kernel", help="which kernel, when the file holds several (a HIP kernel by its plain "
                     "or mangled name)")
    run.add_argument("-I", "--include-dir", dest="include_dirs", metavar="DIR", action="append", default=[],
                     help="a directory to search for the headers a .hip file includes, after gpusim's own HIP "
                          "headers (repeatable)")
    run.add_argument("--device-libs", metavar="DIR", help="link the math library (ocml) of ROCm's device libraries "
                     "in DIR into a .hip file's compile, for the functions gpusim's HIP headers lack (double exp, "
                     "sin, pow, ...; tanf, atan2f, lgammaf, ...); Debian's 'apt install rocm-device-libs' puts them in "
                     "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
    run.add_argument("--header", metavar="FILE", help="a file of '; gpusim-launch/arg/check' lines: the launch "
                     "header of a code object (which has no comments), or one that replaces a kernel file's own")
    run.add_argument("--grid", metavar="X,Y,Z", help="override the number of workgroups")
    run.add_argument("--block", metavar="X,Y,Z", help="override the workgroup size in work-items")
    run.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                     help="override a scalar argument (repeatable)")
    run.add_argument("--max-instructions", type=int, default=2_000_000_000, metavar="N",
                     help="stop a runaway kernel after N wave-instructions (default 2e9)")
    run.add_argument("--max-wave-instructions", type=int, default=10_000_000, metavar="N",
                     help="stop a runaway kernel when one wave runs more than N instructions (default 1e7)")
    run.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                     help="stop the simulation after SECONDS of host time (default: none)")
    run.add_argument("--warm-up", action="store_true",
                     help="time the kernel after one warm-up run of it, as measured hardware times are: the MALL "
                          "keeps what that run left (L1/L2 are invalidated at kernel start); outputs are one run's")
    run.add_argument("--sample", choices=SAMPLE_MODES, default=None, help=SAMPLE_HELP)
    run.add_argument("--sample-interval", type=float, default=None, metavar="PCT",
                     help="with --sample auto (the default) or on: the grid method simulates rounds of workgroups "
                          "until the 95%% interval their round boundaries give the projected cycles (sampling "
                          f"noise) is within +-PCT%% (default {SamplingPolicy().grid_interval_pct:g}; 0 < PCT <= 100): "
                          "smaller is more exact and slower")
    run.add_argument("--json", metavar="FILE", help="also write counters (per instance too), derived metrics and "
                     "check results as JSON ('-' for stdout)")
    run.add_argument("--csv", metavar="FILE", help="also write counters, per-instance counters and derived metrics "
                     "as kind,name,instance,value,unit rows")
    run.add_argument("--trace", metavar="FILE", help="write a wave timeline trace: FILE.pftrace (Perfetto, for "
                     "ui.perfetto.dev) or FILE.json (Chrome trace events, for chrome://tracing)")
    run.add_argument("--timeline", action="store_true", help="print a per-wave, cycle-by-cycle strip of issues and "
                     "stalls (for small kernels; narrow it with --trace-cus and --trace-cycles)")
    run.add_argument("--trace-cus", metavar="N|FIRST-LAST", help="trace only these CUs (default: all; e.g. 0-3)")
    run.add_argument("--trace-cycles", metavar="FIRST:END", help="trace only these cycles (e.g. 0:20000)")
    run.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="program files only: replace a dotted key of the program before it runs, e.g. "
                          "system.link.bandwidth_gbps=128 or params.chunk=4194304 (repeatable)")
    run.add_argument("--no-memo", dest="memo", action="store_false",
                     help="program files only: time every kernel launch on the engine, even one whose timing "
                          "inputs repeat an earlier launch's")
    run.add_argument("--trace-max-events", type=int, default=2_000_000, metavar="N",
                     help="events recorded at most (default 2e6); beyond it the trace is cut and says so")
    run.add_argument("--quiet", action="store_true", help=QUIET_HELP)

    occ = sub.add_parser("occupancy", help="waves per SIMD a kernel can hold, and what limits it",
                         description="Compute occupancy from the kernel descriptor (VGPRs incl. AGPRs, SGPRs, "
                         "LDS, workgroup size) with LLVM's rules for gfx90a/gfx942.")
    occ.add_argument("kernel_file", metavar="KERNEL.s")
    occ.add_argument("--arch", default="cdna3", help="architecture name or YAML file (default: cdna3)")
    occ.add_argument("--kernel", help="which kernel, when the file holds several")
    occ.add_argument("--block", metavar="X,Y,Z", help="override the workgroup size")

    tr = sub.add_parser("triton", help="compile a @triton.jit kernel with Triton and run it (imports FILE.py)",
                        formatter_class=argparse.RawDescriptionHelpFormatter, description=DESCRIPTION_TRITON)
    tr.add_argument("kernel", metavar="FILE.py:KERNEL", help="the Python file and the name of its @triton.jit kernel")
    tr.add_argument("--grid", required=True, metavar="X[,Y[,Z]]", help="programs per dimension")
    tr.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                    help="a runtime argument: NAME=DTYPE[SHAPE][:INIT][:seed=N] for a buffer "
                    "(x=f32[4096]:uniform(-1,1)), NAME=NUMBER for a scalar; one per argument")
    tr.add_argument("--constexpr", action="append", default=[], metavar="NAME=VALUE", help="a tl.constexpr value")
    tr.add_argument("--num-warps", type=int, default=4, metavar="N", help="waves per program (default 4)")
    tr.add_argument("--num-stages", type=int, default=None, metavar="N", help="Triton's software pipelining depth")
    tr.add_argument("--debug", action="store_true", help="compile in Triton's debug mode: tl.device_assert checks "
                    "(a failed one prints its message and ends the run as a GPU fault, exit code 3)")
    tr.add_argument("--check", action="append", default=[], metavar="EXPR",
                    help="a gpusim-check expression over the argument names ('out ~= x + y'); repeatable")
    tr.add_argument("--arch", default="cdna3", help="architecture name or YAML file (default: cdna3); Triton "
                    "compiles for its gfx_target")
    tr.add_argument("--no-timing", dest="timing", action="store_false", help="functional run only (faster)")
    tr.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    tr.add_argument("--sample", choices=SAMPLE_MODES, default=None,
                    help="sampled timing, as 'gpusim run --sample' (default auto: a dispatch above "
                         f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,} wave-instructions by the grid method; off: in full)")

    arch = sub.add_parser("arch", help="inspect architecture files",
                          description="Show shipped or user architectures, fully resolved (extends: merged).")
    arch_sub = arch.add_subparsers(dest="arch_command", metavar="ACTION", parser_class=_Parser)
    show = arch_sub.add_parser("show", help="print the fully resolved parameters of an architecture")
    show.add_argument("name", metavar="NAME|FILE", help="cdna3, cdna2, or a YAML file that may 'extends: cdna3'")
    show.add_argument("--docs", action="store_true", help="add a comment describing each key")
    arch_sub.add_parser("list", help="list the shipped architectures")
    _add_gen(sub)
    _add_sweep(sub)
    _add_plot(sub)
    _add_tune(sub)
    _add_roofline(sub)
    _add_explain(sub)
    return p


def _add_explain(sub) -> None:
    ex = sub.add_parser("explain", help="say in plain sentences what bounds a kernel and what to try",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Simulate a kernel (or read a run saved with 'gpusim run --json') and say what "
                        "bounds it and what to try, from its counters only; each sentence names the counters "
                        "and metrics it rests on. The rules are a small decision table, documented in "
                        "gpusim/report/explain.py.",
                        epilog="examples:\n  gpusim explain workloads/transpose_lds_tile.s\n"
                        "  gpusim explain run.json")
    ex.add_argument("kernel", metavar="KERNEL.s|RUN.json")
    ex.add_argument("--arch", default="cdna3", help="architecture for a kernel simulated here (default cdna3)")
    ex.add_argument("--sample", choices=SAMPLE_MODES, default=DEFAULT_SAMPLE_MODE,
                    help="sampled timing of a kernel simulated here, as 'gpusim run --sample' (default auto)")
    rp = sub.add_parser("report", help="compare two saved runs side by side",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Compare two runs saved with 'gpusim run --json' (a tile change, an "
                        "architecture change): time, FLOP/s, bandwidths, utilisations, hit rates, stalls and "
                        "occupancy side by side, the better value of each row marked, changes over 5% "
                        "highlighted, and the settings and architecture keys that differ named.",
                        epilog="examples:\n  gpusim run k.s --json a.json && gpusim run k.s --arch my.yaml --json "
                        "b.json\n  gpusim report a.json b.json")
    rp.add_argument("baseline", metavar="A.json")
    rp.add_argument("other", metavar="B.json")
    rp.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                    help="highlight with terminal colours (default: when printing to a terminal)")


def _add_roofline(sub) -> None:
    ro = sub.add_parser("roofline", help="place kernels on the architecture's roofline (PNG)",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Simulate kernels (or read runs saved with 'gpusim run --json') and draw "
                        "them on the architecture's roofline: bandwidth ceilings of HBM, MALL, L2 and LDS, "
                        "compute ceilings of MFMA per data type and VALU. Each kernel is placed by its achieved "
                        "FLOP/s at its arithmetic intensity at every memory level, as rocprof-compute does.",
                        epilog="examples:\n  gpusim roofline workloads/stream_triad.s workloads/gemm_128x128.s "
                        "-o roof.png\n  gpusim roofline a.json b.json --arch cdna3 -o compare.png\n\n"
                        "Each kernel also gets a line: FLOP/s, the level that binds it, its intensity there and "
                        "the percent of the roof (min(compute peak, intensity x bandwidth)) it reaches.")
    ro.add_argument("kernels", nargs="+", metavar="KERNEL.s|RUN.json", help="kernels to simulate, or runs saved "
                    "with gpusim run --json")
    ro.add_argument("--arch", default="cdna3", help="architecture of the kernels simulated here (default cdna3); "
                    "saved runs keep their own and must match it")
    ro.add_argument("-o", "--output", default="roofline.png", metavar="FILE.png", help="image (default "
                    "roofline.png)")
    ro.add_argument("--sample", choices=SAMPLE_MODES, default=DEFAULT_SAMPLE_MODE,
                    help="sampled timing of the kernels simulated here, as 'gpusim run --sample' (default auto)")


EPILOG_SWEEP = """\
a study file (YAML):
  name: lds-and-tiles
  arch: cdna3                          # base architecture: shipped name or YAML file
  vary:                                # every combination is one point
    arch.cu.lds.size_bytes: [65536, 131072]      # arch.<key path> ('gpusim arch show cdna3')
    arch.hbm.channels: [96, 128, 192]
    gen.gemm.tile: [64x64x32, 128x128x32]         # gen.<template>.<parameter> ('gpusim gen gemm --help')
  workload: {gen: gemm, m: 4096, n: 4096, k: 4096, dtype: f16}
  # or: workload: k.s   or: workloads: [a.s, b.s]   (paths relative to the study file)
  metrics: [time_us, tflops, MFMA_Util, L2_Hit_Rate]
  sample: auto                         # optional: auto (default), on or off, as 'gpusim run --sample'
  sample_interval: 1                   # optional, with sample auto or on: as 'gpusim run --sample-interval'
metrics: any derived metric of 'gpusim run --json' (case-insensitive), a counter (TCC_HIT_sum),
or time_us, cycles, tflops, gflops, hbm_gbs, hbm_tbs, l2_tbs (the kernel's L2 traffic: a stream's
bandwidth wherever its data lives). Every key, value, combination of
architecture values and metric is checked before anything runs. A point whose kernel is
estimated above SAMPLE_THRESHOLD wave-instructions is timed from a sample under sample: auto,
the default; its row says so (sampled, sample_method, sample_error_pct: the error estimate on
cycles, in percent: sampling noise and the method's measured error). sample: off times every
point in full.

a program study (an application program, 'gpusim run app.yaml'):
  workload: {program: ../workloads/tp_mlp_8gpu.yaml}
  vary:                                # the program's dotted keys, as 'gpusim run app.yaml --set' takes
    system.link.bandwidth_gbps: [32, 64, 128]
    params.algorithm: [ring, direct]   # params.<name>: the program's 'params:'
  metrics: [total_us, hidden_fraction, busbw_gbps]
program metrics: total_us, kernel_us and comm_us (the busiest GPU's), hidden_fraction,
busbw_gbps and algbw_gbps (mean over the largest collectives), link_util_max, launches,
launches_reused (gpusim/sweep/metrics.py says each). No arch:, arch.* or gen.* keys.
sample: and sample_interval: apply to each launch; a row's sampled says whether any launch was
sampled, sample_error_pct the sum of their error estimates as a percentage of total_us.

results (-o FOLDER), written as points complete:
  points.jsonl            one row per finished point (what --resume reads)
  results.parquet | .csv  the table: point, varied keys, status, metrics, waves_per_simd,
                          limiter, sampled, sample_method, sample_error_pct, arch_hash,
                          host_s, error
  archs/HASH.yaml         the resolved architecture of each arch_hash
status: ok; invalid (the template refused the combination, e.g. LDS too small); fault (the
kernel faulted); error (anything else; --resume runs these again).

examples:
  gpusim sweep study.yaml -o results/                  # local processes, one per core
  gpusim sweep study.yaml -o results/ --resume         # finish an interrupted study
  gpusim sweep study.yaml -o results/ --scheduler tcp://host:8786   # a Dask cluster
  gpusim sweep study.yaml --list                       # check it and list its points
  gpusim plot results/ --x arch.hbm.channels --y tflops --hue gen.gemm.tile
""".replace("SAMPLE_THRESHOLD", f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,}")

EPILOG_PLOT = """\
kinds:
  line      --y METRIC against --x KEY, one line per value of --hue KEY (default without --z)
  heatmap   --z METRIC in cells of --x KEY by --y KEY (default with --z)
Keys are the study's varied keys (arch.hbm.channels, gen.gemm.tile, workload); metrics
its metric columns. Other varied keys must take one value among the rows plotted: pick it
with --where KEY=VALUE (repeatable). Only rows with status ok are drawn.

examples:
  gpusim plot results/ --x arch.hbm.channels --y tflops --hue gen.gemm.tile -o tflops.png
  gpusim plot results/ --x arch.hbm.channels --y gen.gemm.tile --z time_us -o heat.png
  gpusim plot results/ --x gen.gemm.tile --y time_us --where arch.cu.lds.size_bytes=65536
"""


def _add_sweep(sub) -> None:
    sw = sub.add_parser("sweep", help="run a what-if study: a grid of architecture and template parameters, "
                        "or of an application program's keys",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG_SWEEP,
                        description="Simulate every point of a study (architecture keys x template "
                        "parameters x workloads, or a program's system and params keys) in parallel, on local "
                        "processes or a Dask cluster, and "
                        "write one row per point as it completes.")
    sw.add_argument("study", metavar="STUDY.yaml", help="the study file")
    sw.add_argument("-o", "--output", metavar="FOLDER", help="results folder (default: results/<study name>)")
    sw.add_argument("--resume", action="store_true", help="continue the study in FOLDER: skip the points "
                    "already done (status ok, invalid or fault) and run the rest")
    sw.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: one per core)")
    sw.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask distributed scheduler, "
                    "e.g. tcp://host:8786 (needs the distributed package; workers need gpusim installed)")
    sw.add_argument("--format", default="auto", choices=("auto", "parquet", "csv"),
                    help="results table format (default auto: parquet when pyarrow is installed, else csv)")
    sw.add_argument("--list", action="store_true", help="check the study, list its points and exit")
    sw.add_argument("--max-points", type=int, default=None, metavar="N", help="refuse a study of more points "
                    "than this, counted before anything runs (default 10000)")
    sw.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_plot(sub) -> None:
    pl = sub.add_parser("plot", help="plot a sweep's results (line or heat map)",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG_PLOT,
                        description="Draw a metric of a sweep's results against its varied keys with "
                        "matplotlib.")
    pl.add_argument("results", metavar="FOLDER", help="a results folder of 'gpusim sweep' (or its table file)")
    pl.add_argument("--x", required=True, metavar="KEY", help="varied key on the x axis")
    pl.add_argument("--y", required=True, metavar="METRIC|KEY", help="metric (line) or varied key (heatmap)")
    pl.add_argument("--hue", metavar="KEY", help="one line per value of this varied key (line plots)")
    pl.add_argument("--z", metavar="METRIC", help="metric shown in the cells (heat maps)")
    pl.add_argument("--kind", choices=("line", "heatmap"), help="default: heatmap with --z, else line")
    pl.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="keep only rows where KEY has VALUE (repeatable)")
    pl.add_argument("--logx", action="store_true", help="logarithmic x axis (line plots)")
    pl.add_argument("-o", "--output", metavar="FILE.png", help="image to write (default: FOLDER/<y>_vs_<x>.png)")


def _add_gen(sub) -> None:
    """_add_gen adds ``gpusim gen`` with one sub-command per kernel template, its flags from the registry."""
    from gpusim.templates.registry import templates

    gen = sub.add_parser("gen", help="write a kernel (.s with launch header and check) from a template",
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         description="Generate a complete kernel file from a template: assembly that llvm-mc "
                         "accepts, the launch header (grid from the problem size, random inputs) and a numpy "
                         "check. Invalid combinations are refused with the reason before anything is written.",
                         epilog="examples:\n  gpusim gen --list\n  gpusim gen gemm --help\n"
                         "  gpusim gen gemm --m 4096 --n 4096 --k 4096 --tile 128x128x32 --waves 2x2 -o k.s")
    gen.add_argument("--list", action="store_true", help="list the templates with a line on each")
    fams = gen.add_subparsers(dest="family", metavar="TEMPLATE", parser_class=_Parser)
    for t in templates().values():
        f = fams.add_parser(t.name, help=t.summary, description=f"{t.summary}\n\n{t.about}".strip(),
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog=("examples:\n" + "\n".join(f"  {e}" for e in t.examples)) if t.examples else None)
        for prm in t.params:
            shown = f" (default: {prm.default})" if prm.default is not None and prm.kind != "bool" else ""
            choices = f"; one of {', '.join(map(str, prm.choices))}" if prm.choices else ""
            if prm.kind == "bool":
                f.add_argument(f"--{prm.name}", action="store_true", default=None, help=prm.help)
            else:
                f.add_argument(f"--{prm.name}", metavar=prm.kind.upper().split(":")[0] if prm.kind != "str" else "NAME",
                               help=f"{prm.help}{choices}{shown}")
        f.add_argument("-o", "--output", metavar="FILE.s", help="write here (default: stdout)")
        f.add_argument("--arch", default="cdna3", help="architecture whose LDS and register limits apply "
                       "(default: cdna3)")


def _parse_args_kv(items: Sequence[str], flag: str = "--arg") -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"{flag} expects NAME=VALUE, got '{item}'")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _cmd_run(ns) -> int:
    from gpusim import api
    from gpusim.report.table import write_csv
    from gpusim.report.text import format_run

    for flag, path in (("--json", ns.json), ("--csv", ns.csv), ("--trace", ns.trace)):
        check_output_file(flag, path)
    if str(ns.kernel_file).endswith((".yaml", ".yml")):
        return _cmd_run_program(ns)
    if ns.set or not ns.memo:
        raise UsageError("--set and --no-memo apply to a program file (.yaml), not to a kernel")
    arch = api.load_arch(ns.arch or "cdna3")
    kernel = api.load_kernel(ns.kernel_file, kernel=ns.kernel, grid=ns.grid, block=ns.block,
                             args=_parse_args_kv(ns.arg), target=arch.gfx_target, header=ns.header,
                             include_dirs=ns.include_dirs, device_libs=ns.device_libs)
    if ns.max_instructions <= 0:
        raise UsageError("--max-instructions must be positive")
    if ns.max_wave_instructions <= 0:
        raise UsageError("--max-wave-instructions must be positive")
    if ns.timeout is not None and not ns.timeout > 0:
        raise UsageError("--timeout must be positive (seconds)")
    window = _trace_window(ns, arch)
    sample = _sample_mode(ns, window) if ns.timing else None   # a functional run has nothing to sample
    # the report prints no buffers: without --check, the timing model skips the values no address or
    # branch depends on (same cycles and counters, less host time), unless the kernel prints
    result = api.simulate(kernel, arch, check=ns.check, timing=ns.timing, outputs=kernel.prints,
                          max_instructions=ns.max_instructions, max_wave_instructions=ns.max_wave_instructions,
                          trace=window, timeout=ns.timeout, warm_up=ns.warm_up,
                          sample=_sample_policy(ns, sample), progress=_progress_bar(ns))
    # with --json -, stdout carries only the JSON so it can be piped
    out = sys.stderr if ns.json == "-" else sys.stdout
    _print_device_output(result.printed, out)
    print(format_run(result, kernel, sample=sample), file=out)
    if window is not None:
        _write_trace_views(ns, result, kernel, window)
    if ns.csv:
        with writing("--csv", ns.csv), open(ns.csv, "w", newline="") as f:
            write_csv(result, f)
    if ns.json:
        _write_json(ns.json, run_json(result))
    return 0 if result.checks_passed else 1


def _print_device_output(printed, out) -> None:
    """_print_device_output writes what the kernel's device printf calls wrote (gpusim.exec.device_printf), in
    the order they were made, before the report, and a note on stderr for the calls its buffer dropped."""
    if printed is None:
        return
    from gpusim.exec.device_printf import BUFFER_WORDS
    text = "".join(printed.lines)
    if text:
        out.write(text if text.endswith("\n") else text + "\n")
    if printed.dropped:
        print(f"note: {printed.dropped:,} device printf call(s) dropped: gpusim's printf buffer holds "
              f"{BUFFER_WORDS:,} words (2 a call, plus 1 an argument)", file=sys.stderr)


def _sample_mode(ns, window) -> str:
    """_sample_mode is the --sample mode a timed kernel run passes to simulate: auto unless given, and off with
    a trace or timeline (they record every wave), with a note on stderr when --sample was given otherwise."""
    mode = ns.sample or DEFAULT_SAMPLE_MODE
    if window is not None and mode != "off":
        if ns.sample is not None:
            shown = "--trace" if getattr(ns, "trace", None) else "--timeline"
            print(f"note: --sample {mode} ignored: {shown} records every wave, so the run is simulated in "
                  "full (--sample off)", file=sys.stderr)
        mode = "off"
    return mode


def _sample_policy(ns, mode: Optional[str]):
    """_sample_policy is what a kernel run passes to simulate as ``sample`` for ``mode`` (_sample_mode's, None
    for --no-timing): the mode, or with --sample-interval a SamplingPolicy of that mode and interval (the mode
    alone when a trace turned the run's sampling off: --sample's note says so). Raises UsageError for an
    interval out of (0, 100], or one given with --sample off or --no-timing."""
    pct = getattr(ns, "sample_interval", None)
    if pct is None:
        return mode
    _check_sample_interval(pct, (ns.sample or DEFAULT_SAMPLE_MODE) if mode is not None else None)
    return sample_with_interval(mode, pct)


def _check_sample_interval(pct: Optional[float], mode: Optional[str]) -> None:
    """_check_sample_interval raises UsageError naming --sample-interval when ``pct`` (None: not given) does not
    go with the --sample ``mode`` the run asked for (given or the default; None for a run with nothing to
    time)."""
    from gpusim.engine.sampling_policy import interval_problem
    problem = interval_problem(pct, mode) if pct is not None else ""
    if problem:
        raise UsageError(f"--sample-interval {pct:g}: {problem}")


def run_json(result) -> dict:
    """run_json is the document ``gpusim run --json`` writes: Result.to_dict() with ``sampling`` (the
    SamplingOutcome's to_dict(), or null for a functional run or a timing model that reports none)."""
    doc = result.to_dict()
    outcome = getattr(result, "sampling", None)
    doc.setdefault("sampling", None if outcome is None else outcome.to_dict())
    return doc


def _cmd_triton(ns) -> int:
    from gpusim import api
    from gpusim.frontends import triton as fe
    from gpusim.report.text import format_run
    import gpusim.triton as gt

    kernel = fe.load_kernel_from_file(ns.kernel)
    args, types = fe.command_line_values(kernel, ns.arg)
    try:
        grid = tuple(int(g) for g in ns.grid.split(","))
    except ValueError:
        raise UsageError(f"--grid {ns.grid}: expected X[,Y[,Z]] program counts") from None
    options = {} if ns.num_stages is None else {"num_stages": ns.num_stages}
    if ns.debug:
        options["debug"] = True
    arch = api.load_arch(ns.arch)
    compiled = gt.compile(kernel, grid=grid, args=args, constexprs=fe.command_line_constexprs(ns.constexpr),
                          num_warps=ns.num_warps, arch=arch, types=types, options=options, checks=ns.check)
    sample = (ns.sample or DEFAULT_SAMPLE_MODE) if ns.timing else None
    result = api.simulate(compiled, arch, check=bool(ns.check), timing=ns.timing,
                          outputs=bool(ns.check) or compiled.prints, sample=sample, progress=_progress_bar(ns))
    _print_device_output(result.printed, sys.stdout)
    print(format_run(result, compiled, sample=sample))
    return 0 if result.checks_passed else 1


def _progress_bar(ns, program: bool = False):
    """_progress_bar is the progress bar a timed run (of a kernel, or of a ``program``'s launches) draws on
    standard error: on a terminal, unless --quiet."""
    if ns.quiet or not ns.timing or not sys.stderr.isatty():
        return None
    from gpusim.report.progress_bar import ProgramProgress, TerminalProgress
    return ProgramProgress(sys.stderr) if program else TerminalProgress(sys.stderr)


def _write_json(path: str, doc: dict) -> None:
    """_write_json writes ``doc`` as indented JSON to ``path``, or to stdout for '-'."""
    text = json.dumps(doc, indent=2)
    if path == "-":
        print(text)
    else:
        with writing("--json", path), open(path, "w") as f:
            f.write(text + "\n")


def _cmd_run_program(ns) -> int:
    """_cmd_run_program runs an application program file (gpusim.system) and prints its report."""
    from gpusim.report.program_text import format_program
    from gpusim.system.simulate import simulate_program

    for flag, given in (("--kernel", ns.kernel), ("--grid", ns.grid), ("--block", ns.block), ("--arg", ns.arg),
                        ("--csv", ns.csv), ("--timeline", ns.timeline), ("--warm-up", ns.warm_up),
                        ("--header", ns.header), ("--include-dir", ns.include_dirs), ("--device-libs", ns.device_libs)):
        if given:
            raise UsageError(f"{flag} applies to a kernel file; a program file sets launches in its streams")
    if ns.arch is not None:
        raise UsageError("--arch applies to a kernel file; a program names its GPUs' architectures in system.gpus "
                         f"(try --set system.gpus.arch={ns.arch})")
    if not ns.timing:
        raise UsageError("--no-timing applies to a kernel file; a program is a timed model")
    from gpusim.sweep.results import number_or_text
    overrides = {k: number_or_text(v) for k, v in _parse_args_kv(ns.set, "--set").items()}
    window = None
    if ns.trace_cus or ns.trace_cycles:   # per-CU wave tracks of every launch, beside the program's own
        if not ns.trace:
            raise UsageError("--trace-cus and --trace-cycles narrow --trace; give it")
        window = _trace_window(ns, None)
    sample = _sample_policy(ns, _sample_mode(ns, window))   # each launch, as a kernel run's dispatch
    result = simulate_program(ns.kernel_file, check=ns.check, overrides=overrides, memo=ns.memo, trace=window,
                              sample=sample, progress=_progress_bar(ns, program=True))
    print(format_program(result), file=sys.stderr if ns.json == "-" else sys.stdout)
    if ns.trace:
        from gpusim.report.program_trace import write_program_trace
        with writing("--trace", ns.trace):
            write_program_trace(result, ns.trace)
    if ns.json:
        _write_json(ns.json, result.to_dict())
    return 0 if result.checks_passed else 1


def _trace_window(ns, arch):
    """_trace_window is the TraceWindow --trace / --timeline ask for, or None (``arch`` None: a program's,
    whose GPUs may differ; a CU range past a GPU's last CU then selects none of it)."""
    if not (ns.trace or ns.timeline):
        if ns.trace_cus or ns.trace_cycles:
            raise UsageError("--trace-cus and --trace-cycles narrow --trace or --timeline; give one of them")
        return None
    if not ns.timing:
        raise UsageError("--trace and --timeline show the timing model; drop --no-timing")
    if ns.trace_max_events <= 0:
        raise UsageError("--trace-max-events must be positive")
    from gpusim.engine.timing import TraceWindow
    from gpusim.report.trace import PERFETTO_SUFFIXES, parse_cu_range, parse_cycle_range
    if ns.trace and not ns.trace.endswith((".json",) + PERFETTO_SUFFIXES):
        raise UsageError(f"--trace {ns.trace}: say FILE.pftrace (Perfetto) or FILE.json (Chrome trace events)")
    cu_first, cu_last = parse_cu_range(ns.trace_cus, arch.cus if arch is not None else 1 << 20)
    c_first, c_last = parse_cycle_range(ns.trace_cycles)
    return TraceWindow(cu_first, cu_last, c_first, c_last, ns.trace_max_events)


def _write_trace_views(ns, result, kernel, window) -> None:
    from gpusim.report.timeline import format_timeline
    from gpusim.report.trace import build_trace, write_trace
    model = build_trace(result.trace, kernel.program, result.arch, result.cycles)
    note = sys.stderr if ns.json == "-" else sys.stdout
    if model.dropped:
        print(f"trace: {model.dropped:,} events beyond --trace-max-events {window.capacity:,} were not recorded; "
              "narrow it with --trace-cus / --trace-cycles", file=sys.stderr)
    if ns.timeline:
        print(format_timeline(model, kernel.program, first=window.cycle_first,
                              last=min(window.cycle_last, result.cycles)), file=note)
    if ns.trace:
        with writing("--trace", ns.trace):
            path = write_trace(model, ns.trace)
        tracks = sum(1 for t in model.tracks if t.kind == "slice")
        print(f"trace: {path} ({len(model.slices):,} slices on {tracks} tracks; open it in "
              f"{'chrome://tracing or ' if path.suffix == '.json' else ''}ui.perfetto.dev)", file=note)


def _cmd_occupancy(ns) -> int:
    from gpusim import api
    kernel = api.load_kernel(ns.kernel_file, kernel=ns.kernel, block=ns.block)
    arch = api.load_arch(ns.arch)
    occ = api.kernel_occupancy(kernel, arch)
    d = kernel.descriptor
    nfv = int(d.get("next_free_vgpr", 0))
    agprs = max(0, nfv - int(d.get("accum_offset", nfv)))
    print(f"kernel {kernel.name} ({kernel.target}) on {arch.name}")
    print(f"  resources: {occ.vgprs_per_wave} VGPRs/lane ({nfv - agprs} arch + {agprs} AGPRs, "
          f"allocated {occ.vgprs_allocated}), {occ.sgprs_allocated} SGPRs, "
          f"{occ.lds_bytes_allocated} bytes LDS, {occ.waves_per_workgroup} waves per workgroup")
    print(f"  occupancy: {occ.waves_per_simd:g} waves/SIMD ({occ.waves_per_cu} waves, "
          f"{occ.workgroups_per_cu} workgroups per CU)")
    print(f"  limiter:   {occ.limiter} — {occ.rule}")
    limits = ", ".join(f"{k} {'-' if v is None else v}" for k, v in occ.workgroup_limits.items())
    print(f"  workgroups per CU allowed by each resource: {limits}")
    return 0


def _cmd_gen(ns) -> int:
    from gpusim.templates.registry import generate, templates
    if ns.list or ns.family is None:
        for t in templates().values():
            print(f"{t.name:14s} {t.summary}")
        if ns.family is None and not ns.list:
            print("\nsay 'gpusim gen TEMPLATE --help' for a template's parameters")
        return 0
    check_output_file("-o", ns.output)
    t = templates()[ns.family]
    given = {p.name: getattr(ns, p.name.replace("-", "_")) for p in t.params
             if getattr(ns, p.name.replace("-", "_")) is not None}
    text = generate(ns.family, ns.arch, **given)
    if ns.output:
        with open(ns.output, "w") as f:
            f.write(text)
        print(f"wrote {ns.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


EPILOG_TUNE = """\
how it searches (details: gpusim/sweep/tune.py):
  1. every combination of the family's search space that the template accepts for the problem
     (tile divides it, waves divide the tile, LDS and registers fit the architecture)
  2. minus those of which not one workgroup fits on a CU (occupancy), counted by resource
  3. the --max-points most promising by a static per-CU roofline estimate (a heuristic pre-filter:
     it only chooses what to simulate), spread over several tile shapes
  4. simulated on the timing model (local processes, or --scheduler), ranked by time
A parameter given on the command line is fixed; the others are searched.

examples:
  gpusim tune gemm --m 8192 --n 8192 --k 8192
  gpusim tune gemm --arch my.yaml --m 4096 --n 4096 --k 4096 --dtype bf16 --max-points 48 -o tune/
  gpusim tune gemm --m 4096 --n 4096 --k 1024 --tile 128x128x32 --list   # what would run, no simulation
"""


def _add_tune(sub) -> None:
    from gpusim.sweep.tune import DEFAULT_MAX_POINTS, SPACES
    from gpusim.templates.registry import templates

    tu = sub.add_parser("tune", help="search a template's parameters for the fastest kernel",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG_TUNE,
                        description="Search a kernel template's parameter space for a problem on an "
                        "architecture, prune what cannot run, simulate the most promising and print the best.")
    fams = tu.add_subparsers(dest="family", metavar="TEMPLATE", parser_class=_Parser)
    for name in SPACES:
        t = templates()[name]
        f = fams.add_parser(name, help=t.summary, formatter_class=argparse.RawDescriptionHelpFormatter,
                            description=f"Tune {name}: {t.summary}", epilog=EPILOG_TUNE)
        for prm in t.params:
            if prm.kind == "bool":
                f.add_argument(f"--{prm.name}", default=None, choices=("on", "off"),
                               help=f"fix: {prm.help} (default: searched)")
            else:
                f.add_argument(f"--{prm.name}", metavar=prm.kind.upper().split(":")[0] if prm.kind != "str"
                               else "NAME", help=f"fix: {prm.help}")
        f.add_argument("--arch", default="cdna3", help="architecture name or YAML file (default: cdna3)")
        f.add_argument("--top", type=int, default=5, metavar="N", help="configurations to print (default 5)")
        f.add_argument("--max-points", type=int, default=DEFAULT_MAX_POINTS, metavar="N",
                       help=f"kernels to simulate at most (default {DEFAULT_MAX_POINTS})")
        f.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: one per core)")
        f.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask scheduler, e.g. tcp://host:8786")
        f.add_argument("-o", "--output", metavar="FOLDER", help="keep the simulated points here (a sweep "
                       "results folder; default: a temporary one)")
        f.add_argument("--resume", action="store_true", help="finish a tuning whose results are in FOLDER")
        f.add_argument("--list", action="store_true", help="search and print the shortlist; simulate nothing")
        f.add_argument("--sample", choices=SAMPLE_MODES, default=DEFAULT_SAMPLE_MODE,
                       help="sampled timing of each kernel, as 'gpusim run --sample' (default auto: a kernel above "
                            f"{SAMPLE_ABOVE_WAVE_INSTRUCTIONS:,} wave-instructions in enough rounds of workgroups is "
                            "timed by the grid method, its error estimate in the results; off: every kernel in full, "
                            "exact cycles; on: the experimental loop method too)")
        f.add_argument("--sample-interval", type=float, default=None, metavar="PCT",
                       help="with --sample auto or on: each kernel's grid method waits for a 95%% interval within "
                            "+-PCT%% on its cycles, as 'gpusim run --sample-interval'")
        f.add_argument("--quiet", action="store_true", help="no progress bar")


def _cmd_explain(ns) -> int:
    from pathlib import Path

    from gpusim import api
    from gpusim.report.explain import explain, format_explain
    from gpusim.report.text import sampling_line
    if Path(ns.kernel).suffix == ".json":
        run = ns.kernel
    else:
        run = api.simulate(api.load_kernel(ns.kernel), api.load_arch(ns.arch), timing=True, outputs=False,
                           sample=ns.sample)
        sampled = sampling_line(run, ns.sample)
        if sampled:
            print(sampled)
    print(format_explain(explain(run)))
    return 0


def _cmd_report(ns) -> int:
    from gpusim.report.compare import compare, format_compare
    color = ns.color == "always" or (ns.color == "auto" and sys.stdout.isatty())
    print(format_compare(compare(ns.baseline, ns.other), color=color))
    return 0


def _cmd_roofline(ns) -> int:
    from pathlib import Path

    from gpusim import api
    from gpusim.report.roofline import kernel_points, plot_roofline, roofline_summary
    from gpusim.report.text import sampling_line
    check_output_file("-o", ns.output, IMAGE_SUFFIXES)
    arch = api.load_arch(ns.arch)
    points, sampled = {}, []
    for ref in ns.kernels:
        path = Path(ref)
        label = path.stem if path.stem not in points else str(path)   # a.s and a.json both shown
        if path.suffix == ".json":
            points[label] = kernel_points(path, arch)
        else:
            result = api.simulate(api.load_kernel(path), arch, timing=True, outputs=False, sample=ns.sample)
            points[label] = kernel_points(result, arch)
            line = sampling_line(result, ns.sample)
            if line:
                sampled.append(f"{label}: {line}")
    out = plot_roofline(points, arch, ns.output)
    print("\n".join(roofline_summary(points, arch) + sampled))
    print(f"wrote {out}")
    return 0


def _cmd_tune(ns) -> int:
    from gpusim.sweep.tune import format_tune, search, tune
    from gpusim.templates.registry import templates
    if ns.family is None:
        raise UsageError("gpusim tune: name a template (see 'gpusim tune --help')")
    check_output_folder("-o", ns.output)
    for flag in ("top", "max_points", "workers"):
        if getattr(ns, flag) is not None and getattr(ns, flag) <= 0:
            raise UsageError(f"--{flag.replace('_', '-')} must be positive")
    fixed = {}
    for prm in templates()[ns.family].params:
        value = getattr(ns, prm.name.replace("-", "_"))
        if value is not None:
            fixed[prm.name] = (value == "on") if prm.kind == "bool" else value
    _check_sample_interval(ns.sample_interval, ns.sample)
    if ns.list:
        found = search(ns.family, ns.arch, fixed, max_points=ns.max_points)
        print(f"{found.enumerated} combinations, {found.valid} valid, {sum(found.pruned.values())} pruned by "
              f"occupancy, {len(found.kept)} shortlisted (static estimate, cycles):")
        for c in found.kept:
            print(f"  {c.estimate:12,.0f}  " + "  ".join(f"{k}={c.params[k]}" for k in found.varied))
        return 0
    outcome = tune(ns.family, ns.arch, fixed, top=ns.top, max_points=ns.max_points, out=ns.output,
                   workers=ns.workers, scheduler=ns.scheduler, progress=not ns.quiet, resume=ns.resume,
                   sample=ns.sample, sample_interval=ns.sample_interval)
    print(format_tune(outcome))
    return 0 if outcome.rows else 1


def _cmd_sweep(ns) -> int:
    from pathlib import Path

    from gpusim.sweep import load_study, run_study
    from gpusim.sweep.results import default_folder
    from gpusim.sweep.study import DEFAULT_MAX_POINTS
    if ns.max_points is not None and ns.max_points <= 0:
        raise UsageError("--max-points must be positive")
    study = load_study(ns.study, max_points=ns.max_points or DEFAULT_MAX_POINTS)
    points = study.points()
    if ns.list:
        print(f"study {study.name} (hash {study.hash()}): {len(points)} points on "
              f"{'program ' + study.program if study.program else study.arch}; "
              f"metrics {', '.join(study.metrics)}")
        for p in points:
            print(f"  {p.index:4d}  " + "  ".join(f"{k}={v}" for k, v in p.params.items()))
        return 0
    if ns.workers is not None and ns.workers <= 0:
        raise UsageError("--workers must be positive")
    out = Path(ns.output) if ns.output else default_folder(study)
    check_output_folder("-o" if ns.output else "results folder", str(out))
    where = f"Dask scheduler {ns.scheduler}" if ns.scheduler else f"{ns.workers or 'one per core'} local workers"
    print(f"study {study.name}: {len(points)} points on {where}; results in {out}/", file=sys.stderr)
    outcome = run_study(study, out, workers=ns.workers, scheduler=ns.scheduler, resume=ns.resume, fmt=ns.format,
                        progress=not ns.quiet)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(outcome.counts.items()))
    skipped = f" ({outcome.skipped} already done)" if outcome.skipped else ""
    print(f"ran {outcome.ran} points{skipped}: {counts}; table {outcome.table}")
    # invalid points (combinations a template refuses) are answers too; faults and errors are not
    return 1 if outcome.counts.get("error") or outcome.counts.get("fault") else 0


def _cmd_plot(ns) -> int:
    from gpusim.report.plot import plot_results
    check_output_file("-o", ns.output, IMAGE_SUFFIXES)
    where = dict(_parse_args_kv(ns.where, flag="--where"))
    path = plot_results(ns.results, x=ns.x, y=ns.y, hue=ns.hue, z=ns.z, kind=ns.kind, where=where,
                        logx=ns.logx, output=ns.output)
    print(f"wrote {path}")
    return 0


def _cmd_arch(ns) -> int:
    from gpusim.arch import builtin_arch_names, format_arch, load_arch
    if ns.arch_command == "show":
        print(format_arch(load_arch(ns.name), docs=ns.docs), end="")
        return 0
    if ns.arch_command == "list":
        for name in builtin_arch_names():
            arch = load_arch(name)
            print(f"{name:28s} {arch.gfx_target:8s} {arch.cus:4d} CUs  {arch.clocks.shader_mhz} MHz")
        return 0
    raise UsageError("gpusim arch: say 'show NAME' or 'list' (see 'gpusim arch --help')")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """main runs the CLI and returns the process exit code."""
    try:
        ns = _parser().parse_args(argv)
        if ns.command is None:
            _parser().print_help()
            return 2
        handler = {"run": _cmd_run, "occupancy": _cmd_occupancy, "arch": _cmd_arch, "gen": _cmd_gen,
                   "sweep": _cmd_sweep, "plot": _cmd_plot, "tune": _cmd_tune,
                   "roofline": _cmd_roofline, "explain": _cmd_explain, "report": _cmd_report,
                   "triton": _cmd_triton}[ns.command]
        return handler(ns)
    except GpusimError as err:
        _print_device_output(getattr(err, "printed", None), sys.stdout)   # a failed assert's message, say
        print(str(err), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("gpusim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:   # a file that passed the output checks and still could not be written (disk full)
        where = f"{err.filename}: " if err.filename else ""
        print(f"error: {where}{err.strerror or err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
