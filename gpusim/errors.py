"""The error types a user of gpusim can see.

Every mistake in user input (assembly, launch header, architecture YAML, CLI
flags) raises a :class:`GpusimError` subclass that knows where it happened.
The CLI prints ``str(error)`` as a single line and exits with code 2; a
kernel that faults at run time raises :class:`KernelFault` (exit code 3).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Optional


@dataclass(frozen=True)
class SourceLoc:
    """SourceLoc names a place in an input file (1-based line and column)."""

    file: str
    line: int
    col: int = 1
    text: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class GpusimError(Exception):
    """GpusimError is a user-facing error with an optional source location.

    ``str(err)`` is one line: ``file:line:col: error: message (did you mean X?)``.
    """

    exit_code = 2

    def __init__(self, message: str, loc: Optional[SourceLoc] = None, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.hint = hint

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        hint = f" ({self.hint})" if self.hint else ""
        text = ""
        if self.loc and self.loc.text.strip():
            snippet = " ".join(self.loc.text.split())
            if len(snippet) > 60:
                snippet = snippet[:57] + "..."
            text = f" [in: {snippet}]"
        return f"{where}error: {self.message}{hint}{text}"


class AsmError(GpusimError):
    """AsmError is malformed or unsupported assembly."""


class HeaderError(GpusimError):
    """HeaderError is a malformed ``; gpusim-*`` launch header line."""


class ArchError(GpusimError):
    """ArchError is an invalid architecture YAML file or value."""


class ProgramError(GpusimError):
    """ProgramError is an invalid application program file (gpusim.system.loader)."""


class UsageError(GpusimError):
    """UsageError is a bad command-line flag or argument value."""


class UnsupportedInstruction(AsmError):
    """UnsupportedInstruction is a real AMDGCN instruction gpusim cannot run yet."""


class CheckFailed(GpusimError):
    """CheckFailed is a ``gpusim-check`` whose outputs differ from the reference."""

    exit_code = 1


class KernelFault(GpusimError):
    """KernelFault is a kernel that faulted while running, reported like a GPU fault.

    It names the kernel, the program counter (byte offset from the kernel
    entry), the instruction, the wave and the lane. ``code`` is the fault code
    (gpusim.exec.kernels.memory FAULT_*) and ``row`` the faulting instruction's
    row in the Program, for callers that act on the kind of fault (-1: unknown). ``printed`` holds what the
    kernel printed before it faulted (a gpusim.exec.device_printf.Printed, or None), as a GPU's runtime shows
    a failed assert's message before the fault.
    """

    exit_code = 3

    def __init__(self, message: str, loc: Optional[SourceLoc] = None, hint: str = "", *, code: int = -1,
                 row: int = -1):
        super().__init__(message, loc, hint)
        self.code = code
        self.row = row
        self.printed = None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """did_you_mean returns ``"did you mean X?"`` for the closest choice, or ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


class ProgramDeadlock(GpusimError):
    """ProgramDeadlock is a program whose streams can never all finish: an event waited for but never recorded
    often enough, a cycle of waits, a collective some member GPU never reaches. Its message names every stuck
    stream and what it waits for; like a kernel fault it is found by running, so its exit code is 3."""

    exit_code = 3
