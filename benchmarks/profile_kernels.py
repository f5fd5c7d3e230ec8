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

``--lines`` names the source lines instead, inlined code included. The kernels are then compiled with
DWARF line tables only (numba's debug info, in the "directives only" form its CUDA target uses:
numba's full debug info marks every function noinline, and the timing loop then runs 1.7 times slower
with its time in the wrong places), and each sample's address is looked up in those tables
(``llvm-dwarfdump-19 --debug-line`` on the object code; lines where the compiler kept none count as
``file:0``).

Usage (Linux with ``perf``; compiling takes 3-5 minutes on 2 cores, 7-8 with ``--lines``, then the runs):

    python benchmarks/profile_kernels.py stream_triad                    # the small triad, full timing
    python benchmarks/profile_kernels.py gemm_128x128 --scale large --sample on --reps 1
    python benchmarks/profile_kernels.py stream_triad --top 40 --perf-data triad.data
    python benchmarks/profile_kernels.py gemm_128x128 --scale large --reps 1 --lines

Cases are benchmarks/sampling_cases.py's names. Two profiles measured on the 2-core container
(shares of the samples in the kernels):
  the small triad, full timing (95% of all samples in the kernels): run_timed 56%, the channel
  calendars (``channel_request``) 16%, the DRAM model's column commands 10%, the end-of-kernel
  write-back to the MALL 3%;
  the large 4096^3 f16 GEMM sampled (loop method): run_timed 39%, the loop fast-forward with its cache
  warming 29%, the channel calendars 6%, LDS addresses 5%.
And by source line (``--lines``), the large 4096^3 f16 GEMM timed in full (21.45 s a run with the line
tables; 98.6% of the samples in the kernels), by file: the CU loop (engine/kernels/cu.py) 36.5%, the
cache tag and line lookups (memory/kernels/cache.py) 23.6%, the bandwidth calendars (channel.py) 11.5%,
the MSHR and queue pools (slots.py) 6.6%, numba's min and max 4.7%, operand reads (lanes.py) 4.4%. No
line holds more than 5.2%: the scan of a set's tags (cache.py ``cache_lookup``) 5.2%, a held line's
ready cycle (``line_hit``) 4.8%, the calendar's bucket read (``channel_request``) 4.3%, the register
scoreboard (cu.py ``_deps_ready``) 4.5% over its three lines; 10.5% is cache.py code the compiler kept
no line for. Loads of the model's state, not arithmetic, lead.
"""
from __future__ import annotations

import argparse
import functools
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


def line_rows(obj: bytes, dwarfdump: str) -> list[tuple[int, str]]:
    """line_rows returns the (address, "path:line") rows of the DWARF line tables of a relocatable object
    (numba's object code for one library), sorted by address; addresses are offsets in its code section,
    paths are relative to the checkout where they lie inside it."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        text = subprocess.run([dwarfdump, "--debug-line", f.name], capture_output=True, text=True).stdout
    rows, dirs, files = [], {}, {}
    file_index = None
    for line in text.splitlines():
        if line.startswith("debug_line["):   # a new table: its own directories and files
            dirs, files, file_index = {}, {}, None
        elif m := re.match(r'include_directories\[\s*(\d+)\] = "(.*)"', line):
            dirs[int(m.group(1))] = m.group(2)
        elif m := re.match(r"file_names\[\s*(\d+)\]:", line):
            file_index = int(m.group(1))
        elif (m := re.match(r'\s+name: "(.*)"', line)) and file_index is not None:
            files[file_index] = [m.group(1), 0]
        elif (m := re.match(r"\s+dir_index: (\d+)", line)) and file_index in files:
            files[file_index][1] = int(m.group(1))
        elif m := re.match(r"0x([0-9a-f]+)\s+(\d+)\s+\d+\s+(\d+)", line):
            name, d = files.get(int(m.group(3)), ("?", 0))
            rows.append((int(m.group(1), 16), f"{_source_path(os.path.join(dirs.get(d, ''), name))}:{m.group(2)}"))
    rows.sort()
    return rows


@functools.lru_cache(maxsize=None)
def _source_path(path: str) -> str:
    """_source_path names a line table's file for the report: relative to the checkout, from ``numba/`` for
    numba's own, and a bare name (a DWARF 4 table leaves the compilation directory out) as the one gpusim
    source file of that name, when there is exactly one."""
    if path.startswith(str(REPO) + os.sep):
        return os.path.relpath(path, REPO)
    if os.sep + "numba" + os.sep in path:
        return path[path.rindex(os.sep + "numba" + os.sep) + 1:]
    if os.sep not in path:
        found = sorted((REPO / "gpusim").rglob(path))
        if len(found) == 1:
            return str(found[0].relative_to(REPO))
    return path


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


def compiled_objects() -> list[tuple[object, bytes]]:
    """compiled_objects lists (numba library, its object code) for every gpusim kernel compiled in this
    process."""
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
    out = []
    for library in libraries.values():
        try:
            out.append((library, library.serialize_using_object_code()[2][0]))
        except Exception:   # a library loaded from elsewhere, with no object code at hand
            continue
    return out


def code_ranges(objects, dwarfdump: str) -> list[tuple[int, int, list]]:
    """code_ranges returns (run-time start, size, line rows) of the code section of each object, located
    through any of its functions: the section is loaded whole, so every function's run-time address less
    its offset in the section gives the same start."""
    from gpusim.frontends.elf import Elf
    out = []
    for library, obj in objects:
        elf = Elf(obj, "numba's object code", any_machine=True)
        for sym in elf.symbols():
            address = library.get_pointer_to_function(sym.name) if sym.kind == STT_FUNC and sym.size else 0
            if address:
                out.append((address - sym.value, elf.sections[sym.section].size, line_rows(obj, dwarfdump)))
                break
    return out


def write_perf_map(objects) -> int:
    """write_perf_map writes /tmp/perf-PID.map for every function of ``objects`` (compiled_objects) and
    returns how many it named."""
    entries = {}
    for library, obj in objects:
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
    ap.add_argument("--lines", action="store_true",
                    help="shares by source line (inlined code included) and by file, from DWARF line tables "
                         "(needs llvm-dwarfdump-19)")
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
    dwarfdump = shutil.which("llvm-dwarfdump-19") or shutil.which("llvm-dwarfdump")
    if args.lines and dwarfdump is None:
        ap.error("--lines needs llvm-dwarfdump-19 (Debian: apt-get install llvm-19)")
    # numba reads its cache directory when it is imported: a fresh one makes every kernel compile here
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="gpusim-profile-numba-")
    if args.lines:
        complaint = _line_tables_only()
        if complaint:
            ap.error(complaint)
    import gpusim
    kernel = chosen[0].load()

    def run():
        return gpusim.simulate(kernel, args.arch, timing=True, outputs=False, sample=args.sample)

    try:
        return _profile(args, perf, run, dwarfdump)
    finally:   # the fresh numba cache (and perf's recording unless it was asked to be kept)
        shutil.rmtree(os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)


def _line_tables_only() -> str:
    """_line_tables_only makes numba, imported next, compile with DWARF line tables and nothing else of its
    debug info (its CUDA target's "directives only" form), so it inlines as it always does; returns a
    complaint when this numba has no such option."""
    os.environ["NUMBA_DEBUGINFO"] = "1"
    os.environ["NUMBA_EXTEND_VARIABLE_LIFETIMES"] = "0"   # debug info would otherwise keep every variable alive
    import warnings

    from numba.core import compiler, errors
    # numba cannot find the source of the lambdas its overloads return; their lines are not needed
    if hasattr(errors, "NumbaDebugInfoWarning"):
        warnings.filterwarnings("ignore", category=errors.NumbaDebugInfoWarning)
    option = getattr(compiler.Flags, "options", {}).get("dbg_directives_only")
    if option is None or not hasattr(option, "_default"):
        return "--lines: this numba has no 'dbg_directives_only' compiler flag to compile line tables alone"
    option._default = True
    return ""


def _profile(args, perf: str, run, dwarfdump) -> int:
    """_profile compiles and runs once, names the kernels for perf, records ``args.reps`` runs and prints
    the shares."""
    started = time.perf_counter()
    run()
    objects = compiled_objects()
    print(f"compiled and ran once in {time.perf_counter() - started:.1f} s; "
          f"{write_perf_map(objects)} functions named in /tmp/perf-{os.getpid()}.map", flush=True)
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
    if args.lines:
        return _print_lines(perf, data, code_ranges(objects, dwarfdump), args.top)
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


def _print_lines(perf: str, data: str, ranges, top: int) -> int:
    """_print_lines prints the shares of the kernels' samples by source file and by source line."""
    import bisect
    script = subprocess.run([perf, "script", "-i", data, "-F", "ip"], capture_output=True, text=True).stdout
    ranges = sorted(ranges, key=lambda r: r[0])   # code sections do not overlap: the last start at or below
    starts = [start for start, _, _ in ranges]     # a sample's address is the only section that can hold it
    by_line, total = Counter(), 0
    for word in script.split():
        total += 1
        ip = int(word, 16)
        j = bisect.bisect_right(starts, ip) - 1
        if j >= 0 and ip < starts[j] + ranges[j][1]:
            rows = ranges[j][2]
            k = bisect.bisect_right(rows, (ip - starts[j], "\uffff")) - 1
            by_line[rows[k][1] if k >= 0 else "?:0"] += 1
    inside = sum(by_line.values())
    if not inside:
        print("profile_kernels.py: error: no sample fell in the kernels' code", file=sys.stderr)
        return 2
    by_file = Counter()
    for where, n in by_line.items():
        by_file[where.rsplit(":", 1)[0]] += n
    print(f"{100 * inside / max(total, 1):.1f}% of the samples in the simulator's kernels; share of those by "
          f"source file:")
    for name, n in by_file.most_common(top):
        print(f"  {100 * n / inside:5.1f}%  {name}")
    print("by source line (file:0, code the compiler kept no line for):")
    for name, n in by_line.most_common(top):
        print(f"  {100 * n / inside:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
