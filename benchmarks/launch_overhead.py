"""Host time of a program's kernel launches outside the timing loop (issue 19: "the system-level model, where
one application is hundreds of kernels").

For every shipped program (``workloads/*.yaml``, or those named), runs ``gpusim.simulate_program(path,
sample="auto")`` (what ``gpusim run app.yaml`` does) in this process and prints its kernel launches, how many
the launch memo reused, the host seconds of the whole run, the seconds inside the compiled timing loop
(``gpusim.engine.kernels.cu.run_timed``, timed around each call) and the rest per launch, timed or reused:
what every launch pays around its simulation (building the next kernel's memory levels, the launch memo's
cache snapshot and key, the counters), which a program of hundreds of short launches pays hundreds of times.
A warm-up run of the smallest program first loads numba's compiled code, so no figure contains a compile or
its cache load.

Usage:

    python benchmarks/launch_overhead.py                       # every shipped program (about a minute)
    python benchmarks/launch_overhead.py bitonic_sort_1m       # one of them (its name, or a path)
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))   # run from a checkout without installing

import gpusim  # noqa: E402
from gpusim import jitcache  # noqa: E402
from gpusim.engine.kernels import cu as timing_loop  # noqa: E402

WORKLOADS = REPO / "workloads"


class LoopClock:
    """LoopClock wraps jitcache.compiled_call so that the wall-clock seconds of every call of the timing loop
    add up in ``seconds``; other compiled entry points pass through untimed."""

    def __init__(self):
        self.seconds = 0.0
        self.calls = 0
        self._inner = jitcache.compiled_call

    def __call__(self, dispatcher, *args):
        if dispatcher is not timing_loop.run_timed:
            return self._inner(dispatcher, *args)
        start = time.perf_counter()
        try:
            return self._inner(dispatcher, *args)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1


def _programs(names: list) -> list:
    if not names:
        return sorted(WORKLOADS.glob("*.yaml"))
    out = []
    for name in names:
        path = Path(name) if name.endswith(".yaml") else WORKLOADS / f"{name}.yaml"
        if not path.is_file():
            sys.exit(f"launch_overhead.py: no program {path}")
        out.append(path)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", help="program names under workloads/ (default: all) or paths")
    args = ap.parse_args()
    programs = _programs(args.programs)
    clock = LoopClock()
    jitcache.compiled_call = clock
    start = time.perf_counter()
    gpusim.simulate_program(WORKLOADS / "pipeline_2stream.yaml", sample="auto")
    print(f"warm-up (numba cache load, pipeline_2stream): {time.perf_counter() - start:.1f} s")
    print(f"{'program':<24}{'launches':>9}{'reused':>8}{'host s':>9}{'loop s':>9}{'rest s':>9}"
          f"{'rest ms/launch':>16}")
    for path in programs:
        clock.seconds, clock.calls = 0.0, 0
        start = time.perf_counter()
        result = gpusim.simulate_program(path, sample="auto")
        host = time.perf_counter() - start
        launches = len(result.launches)
        reused = sum(1 for launch in result.launches if launch["reused"])
        rest = host - clock.seconds
        per = rest / max(launches, 1) * 1e3
        print(f"{path.stem:<24}{launches:>9}{reused:>8}{host:>9.2f}{clock.seconds:>9.2f}{rest:>9.2f}{per:>16.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
