"""Running many kernels in one subprocess, so that a crash of the simulator is seen and not suffered.

Run as a script, it reads one JSON request a line on stdin (``{"text": kernel text, "mode": "functional" |
"timed" | "sliced", "limit": max wave-instructions}``; mode "crash-by-signal" kills the worker with SIGSEGV,
for the harness's own test), runs the kernel as the CLI would (load_kernel, then
simulate with the check for the functional and timed modes; the sliced mode is a timed run without
outputs) and answers one JSON line: ``{"outcome": OUTCOME, "detail": text}``. OUTCOME is ``passed``
(check passed, exit 0), ``check_failed`` (exit 1), ``refused`` (a GpusimError, exit 2), ``fault`` (a
KernelFault, exit 3) or ``traceback`` (any other exception: a bug).

:class:`KernelRunner` is the parent's side: it keeps one worker alive, sends it a kernel and waits with a
timeout. A worker that dies (a signal: SIGSEGV, glibc's abort on heap corruption) is reported as
``signal``, one that does not answer in time as ``hang``; either way a fresh worker takes the next kernel.
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[2]
MODES = ("functional", "timed", "sliced")
# what the CLI can end with on bad input; anything else is a bug
CLEAN_OUTCOMES = ("passed", "check_failed", "refused", "fault")


def run_one(text: str, mode: str, limit: int) -> tuple[str, str]:
    """run_one runs kernel ``text`` in ``mode`` and returns (outcome, detail)."""
    from gpusim import api
    from gpusim.errors import CheckFailed, GpusimError, KernelFault

    try:
        kernel = api.kernel_from_text(text, "fuzz.s")
        if mode == "sliced":
            api.simulate(kernel, "cdna3", timing=True, outputs=False, max_instructions=limit)
            return "passed", ""
        result = api.simulate(kernel, "cdna3", check=True, timing=mode == "timed", max_instructions=limit)
        return ("passed", "") if result.checks_passed else ("check_failed", "")
    except CheckFailed as err:
        return "check_failed", str(err)
    except KernelFault as err:
        return "fault", str(err)
    except GpusimError as err:
        return "refused", str(err)
    except Exception:  # noqa: BLE001 - anything else is what the fuzz test looks for
        return "traceback", traceback.format_exc()


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("ping"):   # compile (or load) the numba kernels before any run is timed
            results = [run_one(request["warmup"], mode, 100_000) for mode in MODES] if request.get("warmup") else []
            outcome, detail = "pong", "; ".join(f"{o} {d}" for o, d in results)
        elif request["mode"] == "crash-by-signal":   # the harness's own test: die as a segfault would
            os.kill(os.getpid(), signal.SIGSEGV)
        else:
            outcome, detail = run_one(request["text"], request["mode"], int(request["limit"]))
        sys.stdout.write(json.dumps({"outcome": outcome, "detail": detail}) + "\n")
        sys.stdout.flush()


class KernelRunner:
    """KernelRunner runs kernels in a worker subprocess and survives the worker's death."""

    def __init__(self, timeout_s: float = 60.0, start_timeout_s: float = 900.0):
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self.proc: Optional[subprocess.Popen] = None
        self.stderr = None

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env, cwd=REPO)
        warmup = (REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s").read_text()
        answer = self._ask({"ping": True, "warmup": warmup}, self.start_timeout_s)
        if answer[0] != "pong":
            raise RuntimeError(f"the fuzz worker did not start: {answer}")

    def _stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _stderr_tail(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-2000:]

    def _ask(self, request: dict, timeout_s: float) -> tuple[str, str]:
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass   # it died already: the read below reports how
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout_s)
        if not ready:
            self._stop()
            return "hang", f"no answer within {timeout_s:.0f} s"
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            detail = f"the simulator died (exit status {code}): {self._stderr_tail()}"
            self.proc = None
            return "signal", detail
        answer = json.loads(line)
        return answer["outcome"], answer["detail"]

    def run(self, text: str, mode: str, limit: int) -> tuple[str, str]:
        """run returns (outcome, detail) of kernel ``text`` in ``mode`` (see the module docstring)."""
        if self.proc is None:
            self._start()
        return self._ask({"text": text, "mode": mode, "limit": limit}, self.timeout_s)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
        self._stop()


if __name__ == "__main__":
    main()
