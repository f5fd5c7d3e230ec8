"""How gpusim's command line takes bad input: a few hundred generated bad inputs, counted by outcome.

    python benchmarks/robustness.py [--cases N] [--seed S] [--timeout SECONDS] [--jobs N] [--show OUTCOMES]

Each case runs ``python -m gpusim.cli ...`` in a fresh process with a time limit and is counted by how it
ended: ``refused`` (exit 2, one error line), ``fault`` (exit 3, a GPU fault report), ``check_failed``
(exit 1), ``passed`` (exit 0), ``traceback`` (a Python traceback on stderr, whatever the exit status),
``signal`` (killed by a signal: a crash) or ``hang`` (still running at the time limit). The last three
are bugs; the cases behind them are listed with the command that reproduces each.

The inputs: mutated corpus kernels (tests/exec/kernel_mutator.py, as the fuzz test makes them, run with a
small --max-instructions in timed and --no-timing mode), kernels whose gpusim launch/arg/check header lines
are damaged, a kernel whose static data (.rodata) holds bad data directives, architecture YAML files with bad
values, bad command-line flags, code objects with bytes damaged (a HIP kernel built with clang-19, its bytes
flipped anywhere, in its metadata note or in its code, or cut short; left out without clang-19), application
programs (.yaml) with bad values, and saved runs (``gpusim run --json``) with fields damaged, given to
``gpusim report`` and ``gpusim explain``. Every file is written to a temporary folder that is removed at the end.
"""
from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "exec"))
from kernel_mutator import choices_from, mutate, seed_texts  # noqa: E402

OUTCOMES = ("refused", "fault", "check_failed", "passed", "traceback", "signal", "hang")
BUGS = ("traceback", "signal", "hang")
LIMIT = "200000"
SAXPY = (REPO / "workloads" / "saxpy.s").read_text()

BAD_LAUNCH = ("grid=0,1,1 block=64,1,1", "grid=-1,1,1 block=64,1,1", "grid=1,1,1 block=0,1,1",
              "grid=1,1,1 block=2048,1,1", "grid=99999999999,1,1 block=64,1,1", "grid=1,1 block=64,1,1",
              "grid=a,b,c block=64,1,1", "block=64,1,1", "grid=1,1,1", "grid=1e3,1,1 block=64,1,1",
              "grid=16,1,1 block=256,1,1 grid=2,1,1", "grid=16,1,1 block=256,1,1 extra=1", "")
BAD_ARGS = ("n i32 abc", "n i32 99999999999999", "n f99 1", "x buffer f32[-1]", "x buffer f32[0]",
            "x buffer f32[99999999999999] init=zeros", "x buffer f32[4000] init=uniform(1)",
            "x buffer f32[4000] init=nosuch(1,2)", "x buffer f32[4000] seed=x", "x buffer", "a f32 nan",
            "y buffer f32[4000] init=uniform(-1,1) seed=2 out out", "q buffer f32[4] init=[1,2,3,4,5]",
            "x buffer f32[4000] init=randint(0,1e30)", "x buffer u8[4000] init=randint(-5,5)",
            "x buffer u64[4000] init=randint(0,18446744073709551617)", "x buffer f64[4000] init=uniform(-1e308,1e308)",
            "x buffer u32[4000] init=normal(0,1)", "x buffer u8[4000] init=arange", "x buffer f16[4000] init=value(1e6)")
BAD_CHECKS = ("y ~= ", "y ~= a * * x", "y ~= nosuch + 1", "y ~= x[99999]", "y ~= x.reshape(7, 7)",
              "y ~= a * x + y rtol=abc", "y ~= (", "y == y", "z ~= y", "y ~= x @ x", "y ~= 1 / 0",
              "y ~= np.nosuch(x)", "y ~= x if a else y", "y ~= [x for x in y]", "y ~= lambda: 1",
              "y ~= ().__class__", "y ~= 10 ** 10 ** 10", "y ~= x.astype('U99999999')")
BAD_ARCH_VALUES = (("hbm", "channels", "1e30"), ("hbm", "channels", "0"), ("hbm", "channels", "-8"),
                   ("hbm", "channels", "abc"), ("gpu", "xcds", "100000000"), ("gpu", "cus_per_xcd", "0"),
                   ("clocks", "shader_mhz", "0"), ("clocks", "shader_mhz", "1e308"), ("l2", "line_bytes", "3"),
                   ("l2", "size_bytes", "1"), ("cu", "simds", "0"), ("hbm", "latency_cycles", "-1"),
                   ("mall", "associativity", "0"), ("hbm", "channels", "[1, 2]"), ("hbm", "nosuch_key", "1"))
BAD_FLAGS = (["--grid", "0,1,1"], ["--grid", "-4,1,1"], ["--block", "5000"], ["--block", "x"],
             ["--max-instructions", "-1"], ["--max-instructions", "0"], ["--max-instructions", "abc"],
             ["--arg", "n=abc"], ["--arg", "nosuch=1"], ["--arg", "n"], ["--arg", "n=16384"],
             ["--kernel", "nosuch"], ["--arch", "nosuch"], ["--arch", "/nonexistent/a.yaml"],
             ["--json", "/nonexistent/dir/r.json"], ["--csv", "/nonexistent/dir/r.csv"],
             ["--trace", "/nonexistent/dir/t.json"], ["--trace-cus", "9-1"], ["--trace-cycles", "x:y"],
             ["--trace-max-events", "-5"], ["--no-such-flag"], ["--timeline", "--no-timing"])


def kernel_cases(rng: random.Random, count: int) -> list[tuple[str, str, list[str]]]:
    """kernel_cases are (what, kernel text, extra CLI flags) for ``count`` mutated corpus kernels."""
    seeds = seed_texts()
    out = []
    for n in range(count):
        path, text = seeds[n % len(seeds)]
        mutated, done = mutate(text, choices_from([rng.randrange(1 << 16) for _ in range(16)]), rng.randint(1, 3))
        mode = ["--check"] if n % 2 else ["--check", "--no-timing"]
        out.append((f"mutated {Path(path).name}: {'; '.join(done)}", mutated, ["--max-instructions", LIMIT, *mode]))
    return out


STATIC_DATA = (REPO / "tests" / "asm" / "data" / "static" / "static_data.s").read_text()
BAD_DATA = ("\t.byte 999", "\t.byte -129, 1", "\t.quad bytes", "\t.long words+4", "\t.fill -1",
            "\t.fill 99999999999, 8", "\t.fill 2, 9, 1", "\t.zero 1, 2, 3", "\t.p2align 99", "\t.align 3",
            "\t.balign -8", "\t.asciz \"open", "\t.ascii \"a\" \"b\"", "\t.float abc", "\t.double 1e999",
            "\t.long 1,,2", "\t.short (", "\t.octa 1", "\t.uleb128 5", "\t.byte nosuch",
            "\t.string \"\\777\\xfffff\"", "\t.space 67108865", "\t.word 1")


def static_data_cases() -> list[tuple[str, str, list[str]]]:
    """static_data_cases put a bad data directive in place of the .rodata bytes a kernel reads through @rel32."""
    good = "\t.byte\t1, 2, 3, 4, 5, 6, 7, 8"
    return [(f"data line '{bad.strip()}'", STATIC_DATA.replace(good, bad), ["--check", "--max-instructions", LIMIT])
            for bad in BAD_DATA]


def header_cases() -> list[tuple[str, str, list[str]]]:
    """header_cases damage saxpy's launch, argument and check lines one at a time."""
    out = []
    lines = SAXPY.split("\n")

    def with_line(prefix: str, new: str) -> str:
        edited = list(lines)
        for k, line in enumerate(edited):
            if line.startswith(prefix):
                edited[k] = f"{prefix} {new}"
                break
        return "\n".join(edited)

    for launch in BAD_LAUNCH:
        out.append((f"launch line '{launch}'", with_line("; gpusim-launch:", launch), ["--no-timing", "--check", "--max-instructions", LIMIT]))
    for arg in BAD_ARGS:
        edited = SAXPY.replace("; gpusim-arg: n i32 4000", f"; gpusim-arg: {arg}") if arg.startswith(("n ", "a ")) \
            else SAXPY.replace("; gpusim-check:", f"; gpusim-arg: {arg}\n; gpusim-check:")
        out.append((f"arg line '{arg}'", edited, ["--no-timing", "--check", "--max-instructions", LIMIT]))
    for check in BAD_CHECKS:
        out.append((f"check line '{check}'", with_line("; gpusim-check:", check), ["--no-timing", "--check", "--max-instructions", LIMIT]))
    return out


def arch_cases() -> list[tuple[str, str, str]]:
    """arch_cases are (what, arch YAML text, CLI subcommand) for architecture files with bad values."""
    out = []
    for section, key, value in BAD_ARCH_VALUES:
        text = f"extends: cdna3\nname: bad\n{section}:\n  {key}: {value}\n"
        for cmd in ("arch", "run"):
            out.append((f"arch {section}.{key}: {value} ({cmd})", text, cmd))
    bomb = "extends: cdna3\nname: bomb\na0: &a0 [1, 1, 1, 1, 1]\n" + "".join(
        f"a{k}: &a{k} [*a{k - 1}, *a{k - 1}, *a{k - 1}, *a{k - 1}, *a{k - 1}]\n" for k in range(1, 6))
    out += [("arch with a small alias bomb (run)", bomb, "run"), ("arch: not a mapping", "- 1\n- 2\n", "arch"),
            ("arch: broken YAML", "extends: cdna3\nhbm: {channels: \n", "arch"),
            ("arch: extends itself", "extends: bad.yaml\nname: loop\n", "run"), ("arch: empty file", "", "arch")]
    return out


HIP_KERNEL = REPO / "tests" / "frontends" / "data" / "vadd.hip"
# (what, operation placed in PROGRAM's stream)
BAD_OPS = (("repeat halving to 0", "repeat: {var: k, halving: [8, 0], ops: [{host_delay: 1}]}"),
           ("repeat doubling from 0", "repeat: {var: k, doubling: [0, 8], ops: [{host_delay: 1}]}"),
           ("repeat of 10^12", "repeat: {var: k, range: [0, 1000000000000, 1], ops: [{host_delay: 1}]}"),
           ("repeat range step 0", "repeat: {var: k, range: [0, 10, 0], ops: [{host_delay: 1}]}"),
           ("host_delay nan", "host_delay: .nan"), ("host_delay 1e308", "host_delay: 1e308"),
           ("all_reduce chunk 0", "all_reduce: {send: g, chunk_bytes: 0}"),
           ("all_reduce channels 10^9", "all_reduce: {send: g, channels: 1000000000}"),
           ("all_reduce group twice", "all_reduce: {send: g, group: [0, 0, 1]}"),
           ("broadcast root 7", "broadcast: {send: g, root: 7}"),
           ("memcpy 10^14 bytes", "memcpy: {src: hx, dst: g, nbytes: 100000000000000}"),
           ("memcpy offset past the end", "memcpy: {src: hx, dst: g, nbytes: 64, dst_offset: 4096}"),
           ("memset 256", "memset: {dst: g, value: 256}"),
           ("kernel grid 2^32", "kernel: SAXPY\n        grid: [4294967296, 1, 1]"),
           ("kernel scalar out of range", "kernel: SAXPY\n        args: {n: 99999999999999}"),
           ("template of 10^9 rows", "kernel: template:gemm\n        params: {m: 1000000000}"),
           ("kernel that is a directory", "kernel: ."), ("unknown operation", "launch_rocket: 1"),
           ("wait before its own record", "wait: e\n      - record: e"))
# (what, a line of PROGRAM's system: added below its gpus line, or replacing it)
BAD_SYSTEM = (("link bandwidth 0", "  link: {bandwidth_gbps: 0}"),
              ("link bandwidth nan", "  link: {bandwidth_gbps: .nan}"),
              ("link latency -5", "  link: {latency_us: -5}"), ("copy engines 0", "  copy_engines: 0"),
              ("10^8 GPUs", "  gpus: {arch: cdna3, count: 100000000}"), ("unknown topology", "  topology: torus"))
PROGRAM = """system:
  gpus: {arch: cdna3, count: 2}
buffers:
  g: {type: "f32[1024] ones", gpus: all}
  hx: {type: "f32[1024] zeros", host: true}
streams:
  - name: s
    gpus: all
    ops:
      - OP
"""


def program_cases() -> list[tuple[str, str]]:
    """program_cases are (what, program YAML text) for application programs with bad values."""
    saxpy = str(REPO / "workloads" / "saxpy.s")
    out = [(f"program op: {what}", PROGRAM.replace("OP", op.replace("SAXPY", saxpy))) for what, op in BAD_OPS]
    gpus = "  gpus: {arch: cdna3, count: 2}"
    for what, line in BAD_SYSTEM:
        system = line if line.startswith("  gpus:") else f"{gpus}\n{line}"
        out.append((f"program system: {what}", PROGRAM.replace(gpus, system).replace("OP", "host_delay: 1")))
    out += [("program: params naming params", 'params: {a: "${b}", b: 4}\n' + PROGRAM.replace("OP", "host_delay: 1")),
            ("program: alias bomb", "a0: &a0 [1, 1]\na1: &a1 [*a0, *a0]\n" + PROGRAM.replace("OP", "host_delay: 1")),
            ("program: not a mapping", "- 1\n- 2\n"), ("program: broken YAML", "streams: [\n")]
    return out


def code_object_cases(rng: random.Random, count: int, work: Path) -> list[tuple[str, bytes, list[str]]]:
    """code_object_cases are (what, file bytes, CLI flags) for ``count`` damaged copies of a HIP kernel's code
    object: bytes flipped anywhere, in the metadata note or in the code, or the file cut short; none without
    clang-19 (the object is built here)."""
    from gpusim.frontends import hip
    from gpusim.frontends.elf import Elf
    if shutil.which("clang-19") is None:
        return []
    asm, obj, header = work / "vadd.s", work / "vadd.o", work / "vadd_header.txt"
    subprocess.run(hip.compile_args(str(HIP_KERNEL), "gfx942", output=str(asm)), check=True)
    subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx942", "-c", str(asm), "-o", str(obj)],
                   check=True)
    header.write_text(hip.header_text(HIP_KERNEL.read_text()))
    data = obj.read_bytes()
    elf = Elf(data, str(obj))
    note = next(s for s in elf.sections if s.type == 7)
    text = next(s for s in elf.sections if s.name == ".text")
    out = []
    for n in range(count):
        damaged = bytearray(data)
        how = n % 4
        if how == 3:
            cut = rng.randrange(len(data))
            damaged = damaged[:cut]
            what = f"code object cut at byte {cut}"
        else:
            lo, size, where = ((0, len(data), "anywhere"), (note.offset, note.size, "in the metadata note"),
                               (text.offset, text.size, "in the code"))[how]
            at = sorted(lo + rng.randrange(size) for _ in range(rng.randint(1, 8)))
            for k in at:
                damaged[k] = rng.randrange(256)
            what = f"code object with bytes {', '.join(map(str, at))} flipped ({where})"
        mode = ["--check"] if n % 2 else ["--check", "--no-timing"]
        out.append((what, bytes(damaged), ["--header", str(header), "--max-instructions", LIMIT, *mode]))
    return out


DAMAGED_VALUES = (None, "x", -1, 1e308, [], {}, True, 10 ** 30, [1, 2], {"a": 1}, "")


def saved_run_cases(rng: random.Random, count: int, work: Path) -> list[tuple[str, str]]:
    """saved_run_cases are (what, JSON text) for ``count`` copies of a saved run of saxpy with one to three
    fields (at any depth) replaced by a value of another kind or removed, and files that hold no object."""
    good = work / "good_run.json"
    subprocess.run([sys.executable, "-m", "gpusim.cli", "run", str(REPO / "workloads" / "saxpy.s"), "--json",
                    str(good)], capture_output=True, check=True, cwd=work, env=_checkout_env())
    run = json.loads(good.read_text())

    def paths(value, prefix=()):
        if prefix:
            yield prefix
        items = value.items() if isinstance(value, dict) else enumerate(value[:3]) if isinstance(value, list) else ()
        for key, child in items:
            yield from paths(child, prefix + (key,))
    every = list(paths(run))
    out = []
    for _ in range(count):
        damaged = copy.deepcopy(run)
        done = []
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(every)
            parent = damaged
            try:
                for key in path[:-1]:
                    parent = parent[key]
                if isinstance(parent, dict) and rng.random() < 0.3:
                    parent.pop(path[-1], None)
                    done.append(f"{'.'.join(map(str, path))} removed")
                else:
                    parent[path[-1]] = rng.choice(DAMAGED_VALUES)
                    done.append(f"{'.'.join(map(str, path))} = {parent[path[-1]]!r}")
            except (KeyError, IndexError, TypeError):   # an earlier change removed the path
                continue
        out.append((f"saved run with {'; '.join(done) or 'nothing'}", json.dumps(damaged)))
    return out + [(f"saved run file holding {text!r}", text) for text in ("", "[]", "null", "1e999999", '"run"')]


def classify(proc: subprocess.CompletedProcess) -> str:
    if proc.returncode < 0:
        return "signal"
    if "Traceback (most recent call last)" in proc.stderr:
        return "traceback"
    return {0: "passed", 1: "check_failed", 2: "refused", 3: "fault"}.get(proc.returncode, "traceback")


def _checkout_env() -> dict:
    """_checkout_env is this process's environment with this checkout first on PYTHONPATH."""
    return dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def run_case(args: list[str], timeout: float, cwd: Path) -> tuple[str, str]:
    env = _checkout_env()
    try:
        proc = subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                              timeout=timeout, cwd=cwd, env=env)
    except subprocess.TimeoutExpired:
        return "hang", f"still running after {timeout:.0f} s"
    return classify(proc), (proc.stderr or proc.stdout)[-600:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=200, help="mutated kernels (default 200)")
    ap.add_argument("--code-objects", type=int, default=40, help="damaged code objects (default 40)")
    ap.add_argument("--saved-runs", type=int, default=30, help="damaged saved runs (default 30)")
    ap.add_argument("--seed", type=int, default=15, help="random seed of the mutations (default 15)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("--show", default=",".join(BUGS), help="outcomes whose cases to list (default: the bugs)")
    ns = ap.parse_args()
    rng = random.Random(ns.seed)
    work = Path(tempfile.mkdtemp(prefix="gpusim-robustness-"))
    counts: collections.Counter = collections.Counter()
    by_kind: dict = collections.defaultdict(collections.Counter)
    shown: list = []
    show = set(ns.show.split(","))
    started = time.perf_counter()
    try:
        cases = []
        for k, (what, text, flags) in enumerate(kernel_cases(rng, ns.cases) + header_cases() + static_data_cases()):
            path = work / f"k{k}.s"
            path.write_text(text)
            kind = "kernel" if what.startswith("mutated") else "data" if what.startswith("data") else "header"
            cases.append((kind, what, ["run", str(path), *flags]))
        for k, (what, text, cmd) in enumerate(arch_cases()):
            path = work / f"arch{k}.yaml"
            path.write_text(text)
            args = ["arch", "show", str(path)] if cmd == "arch" else \
                ["run", str(REPO / "workloads" / "saxpy.s"), "--arch", str(path), "--max-instructions", LIMIT]
            cases.append(("arch", what, args))
        for flags in BAD_FLAGS:
            cases.append(("flags", " ".join(flags), ["run", str(REPO / "workloads" / "saxpy.s"), "--check", *flags]))
        for k, (what, blob, flags) in enumerate(code_object_cases(rng, ns.code_objects, work)):
            path = work / f"co{k}.o"
            path.write_bytes(blob)
            cases.append(("code obj", what, ["run", str(path), *flags]))
        for k, (what, text) in enumerate(program_cases()):
            path = work / f"program{k}.yaml"
            path.write_text(text)
            cases.append(("program", what, ["run", str(path), "--max-instructions", LIMIT]))
        for k, (what, text) in enumerate(saved_run_cases(rng, ns.saved_runs, work)):
            path = work / f"run{k}.json"
            path.write_text(text)
            command = ["report", str(work / "good_run.json"), str(path)] if k % 2 == 0 else ["explain", str(path)]
            cases.append(("run json", what, command))
        with ThreadPoolExecutor(max_workers=max(ns.jobs, 1)) as pool:
            runs = pool.map(lambda case: run_case(case[2], ns.timeout, work), cases)
            for n, ((kind, what, args), (outcome, detail)) in enumerate(zip(cases, runs), 1):
                counts[outcome] += 1
                by_kind[kind][outcome] += 1
                if outcome in show:
                    shown.append((outcome, what, args, detail))
                print(f"\r{n}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        for outcome, what, args, detail in shown:
            print(f"--- {outcome}: {what}\n    gpusim {' '.join(args)}\n    {detail.strip().splitlines()[-1] if detail.strip() else ''}")
        print(f"{len(cases)} bad inputs in {time.perf_counter() - started:.0f} s")
        print(f"{'input':8s} " + " ".join(f"{o:>12s}" for o in OUTCOMES))
        for kind in ("kernel", "header", "data", "arch", "flags", "code obj", "program", "run json"):
            print(f"{kind:8s} " + " ".join(f"{by_kind[kind][o]:12d}" for o in OUTCOMES))
        print(f"{'all':8s} " + " ".join(f"{counts[o]:12d}" for o in OUTCOMES))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if any(counts[b] for b in BUGS) else 0


if __name__ == "__main__":
    sys.exit(main())
