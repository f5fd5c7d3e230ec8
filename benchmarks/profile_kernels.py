"""Where the simulator's host time goes inside its numba kernels: a perf profile by function.

``perf`` shows numba's JIT-compiled code as anonymous addresses ("[JIT] tid N"), so a profile of a
simulation says only that most of the time is spent there. This script names it. It compiles gpusim's
kernels in its own process, into a fresh numba cache (kernels loaded from a cache keep no object code
to read symbols from), writes ``/tmp/perf-PID.map`` (address, size and name of every compiled
function, which perf reads to name samples), then attaches ``perf record`` to itself for the measured
runs only and prints the share of the samples in the simulator's kernels by function, the rest
(Python, numpy, the kernel) summed apart.

Functions numba inlines count as the one they are inlined into: ``cu.run_timed`` holds the wave
arbiter, the issue loop and the L1 walk; the memory levels below it, the interpreter's instruction
groups and the sampled timing's fast-forward are functions of their own.

Usage (Linux with ``perf``; compiling takes 3-5 minutes on 2 cores, then the runs):

    python benchmarks/profile_kernels.py stream_triad                    # the small triad, full timing
    python benchmarks/profile_kernels.py gemm_128x128 --scale large --sample on --reps 1
    python benchmarks/profile_kernels.py stream_triad --top 40 --perf-data triad.data

Cases are benchmarks/sampling_cases.py's names. Two profiles measured on the 2-core container
(shares of the samples in the kernels):
  the small triad, full timing (95% of all samples in the kernels): run_timed 56%, the channel
  calendars (``channel_request``) 16%, the DRAM model's column commands 10%, the end-of-kernel
  write-back to the MALL 3%;
  the large 4096^3 f16 GEMM sampled (loop method): run_timed 39%, the loop fast-forward with its cache
  warming 29%, the channel calendars 6%, LDS addresses 5%.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))                      # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sampling_cases  # noqa: E402

STT_FUNC = 2   # an ELF symbol's st_info type for a function


def function_symbols(obj: bytes) -> list[tuple[str, int]]:
    """function_symbols lists (name, size) of the defined functions in a 64-bit little-endian ELF object
    (numba's object code for one library)."""
    from gpusim.frontends.elf import Elf
    return [(s.name, s.size) for s in Elf(obj, "numba's object code", any_machine=True).symbols()
            if s.kind == STT_FUNC and s.section != 0 and s.size > 0]


def short_name(symbol: str) -> str:
    """short_name turns numba's mangled ``_ZN6gpusim6engine7kernels2cu9run_timedB2v1B...`` into
    ``cu.run_timed`` (module and function)."""
    rest = symbol[3:] if symbol.startswith("_ZN") else symbol
    parts = []
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        n = int(digits)
        parts.append(rest[len(digits):len(digits) + n])
        rest = rest[len(digits) + n:]
    return ".".join(parts[-2:]) if parts else symbol


def write_perf_map() -> int:
    """write_perf_map writes /tmp/perf-PID.map for every function of every gpusim kernel compiled in this
    process and returns how many it named."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import gpusim
    libraries = {}
    for module in pkgutil.walk_packages(gpusim.__path__, "gpusim."):
        try:
            loaded = importlib.import_module(module.name)
        except Exception:   # an optional front end (Triton) that is not installed
            continue
        for value in vars(loaded).values():
            if isinstance(value, CPUDispatcher):
                for result in value.overloads.values():
                    libraries[id(result.library)] = result.library
    entries = {}
    for library in libraries.values():
        try:
            obj = library.serialize_using_object_code()[2][0]
        except Exception:   # a library loaded from elsewhere, with no object code at hand
            continue
        for name, size in function_symbols(obj):
            address = library.get_pointer_to_function(name)
            if address:
                entries[address] = (size, short_name(name))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, (size, name) in sorted(entries.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(entries)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", help="a case of benchmarks/sampling_cases.py (stream_triad, gemm_128x128, ...)")
    ap.add_argument("--scale", choices=sampling_cases.SCALES, default="small")
    ap.add_argument("--arch", default="cdna3")
    ap.add_argument("--sample", choices=("off", "on", "auto"), default="off", help="sampled timing (default off)")
    ap.add_argument("--reps", type=int, default=3, help="measured runs after the compiling one (default 3)")
    ap.add_argument("--top", type=int, default=25, help="functions printed (default 25)")
    ap.add_argument("--perf-data", default=None, help="keep perf's recording here (default: a temporary file)")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    chosen = [c for c in sampling_cases.cases(args.scale) if c.name == args.case]
    if not chosen:
        ap.error(f"no case {args.case!r} (the names of benchmarks/sampling_cases.py)")
    perf = shutil.which("perf")
    if perf is None:
        ap.error("perf is not installed (Debian: apt-get install linux-perf)")
    if "numba" in sys.modules:
        ap.error("numba is already imported in this process: run the script on its own")
    # numba reads its cache directory when it is imported: a fresh one makes every kernel compile here
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="gpusim-profile-numba-")
    import gpusim
    kernel = chosen[0].load()

    def run():
        return gpusim.simulate(kernel, args.arch, timing=True, outputs=False, sample=args.sample)

    try:
        return _profile(args, perf, run)
    finally:   # the fresh numba cache (and perf's recording unless it was asked to be kept)
        shutil.rmtree(os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)


def _profile(args, perf: str, run) -> int:
    """_profile compiles and runs once, names the kernels for perf, records ``args.reps`` runs and prints
    the shares."""
    started = time.perf_counter()
    run()
    print(f"compiled and ran once in {time.perf_counter() - started:.1f} s; "
          f"{write_perf_map()} functions named in /tmp/perf-{os.getpid()}.map", flush=True)
    data = args.perf_data or os.path.join(os.environ["NUMBA_CACHE_DIR"], "perf.data")
    recorder = subprocess.Popen([perf, "record", "-q", "-F", "499", "-p", str(os.getpid()), "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)   # perf attaches
    started = time.perf_counter()
    for _ in range(args.reps):
        result = run()
    seconds = time.perf_counter() - started
    recorder.send_signal(signal.SIGINT)
    _, complaint = recorder.communicate()
    if not os.path.exists(data) or os.path.getsize(data) == 0:
        last = complaint.strip().splitlines()[-1] if complaint.strip() else "it wrote nothing"
        print(f"profile_kernels.py: error: perf record failed ({last}); "
              "/proc/sys/kernel/perf_event_paranoid may forbid it", file=sys.stderr)
        return 2
    print(f"{args.case} [{args.scale}, sample {args.sample}]: {result.cycles:,} cycles, "
          f"{seconds / args.reps:.2f} s a run over {args.reps}")
    report = subprocess.run([perf, "report", "-i", data, "--stdio", "--sort", "dso,sym"],
                            capture_output=True, text=True).stdout
    shares, outside = Counter(), 0.0
    for line in report.splitlines():
        fields = line.split()
        if not fields or line.startswith("#") or not fields[0].endswith("%"):
            continue
        share = float(fields[0][:-1])
        if "[JIT]" in line:
            shares[fields[-1]] += share
        else:
            outside += share
    inside = sum(shares.values())
    print(f"{inside:.1f}% of the samples in the simulator's kernels, {outside:.1f}% elsewhere (Python, numpy, "
          f"the OS, perf); by kernel function, share of the kernels' samples:")
    for name, share in shares.most_common(args.top):
        print(f"  {100 * share / max(inside, 1e-9):5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
