"""Mutating real kernels into bad ones: the fuzz test's and benchmarks/robustness.py's input generator.

A mutation edits the instruction lines of a kernel's code (the lines between its entry label and the
end of its text section): it deletes, duplicates or swaps lines, renumbers a register operand, replaces
an immediate or offset with a boundary value, retargets a branch (to another label or to one placed
after the last instruction) or drops ``s_endpgm``. Every choice comes from a caller-given sequence of
integers, so a hypothesis strategy or a seeded ``random.Random`` drives it and a failure reproduces.
The result is text that is often no longer a valid kernel: the simulator must refuse it, fault, or run it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

REPO = Path(__file__).resolve().parents[2]
# small corpus kernels: each runs in well under a second at its launch size, functional and timed
SEED_KERNELS = (
    "tests/data/corpus/gfx942/saxpy.s", "tests/data/corpus/gfx942/vadd_tail.s",
    "tests/data/corpus/gfx942/reduce_lds.s", "tests/data/corpus/gfx942/transpose_lds.s",
    "tests/data/corpus/gfx942/divergent_loop.s", "tests/data/corpus/gfx942/hist_lds_atomic.s",
    "tests/data/corpus/gfx942/wave_max_bpermute.s", "tests/data/corpus/gfx942/wave_scan_dpp.s",
    "tests/data/corpus/gfx942/mfma_gemm_32x32x8f16.s", "tests/data/corpus/gfx942/gather.s",
    "tests/data/corpus/gfx942/f64_math.s", "tests/data/corpus/gfx942/intdiv.s",
)
OPERATIONS = ("delete", "duplicate", "swap", "register", "immediate", "branch", "drop_endpgm", "branch_to_end")
# values at the edges of register files, offset fields, LDS sizes and 32/64-bit integers
BOUNDARY_IMMEDIATES = ("0", "1", "-1", "63", "64", "65", "255", "256", "4095", "4096", "65535", "65536",
                       "0x7fffffff", "0x80000000", "0xffffffff", "-4096", "0x3fff", "1.0", "-0.5")
BOUNDARY_REGISTERS = (0, 1, 3, 100, 101, 102, 103, 104, 105, 106, 127, 200, 250, 254, 255, 256, 511, 512)

_INSTRUCTION = re.compile(r"^\s+([a-z][a-z0-9_]*)\b(.*)$")
_LABEL = re.compile(r"^(\.?[A-Za-z_][\w.$]*):")
_REGISTER = re.compile(r"\b([svat])(\d+)\b|\b([svat])\[(\d+):(\d+)\]")
_IMMEDIATE = re.compile(r"(?<![\w\[:])(-?0x[0-9a-fA-F]+|-?\d+(?:\.\d+)?)(?![\w\]:])")
_BRANCH = re.compile(r"^(\s+s_(?:c)?branch\w*\s+)(\S+)(.*)$")


@dataclass(frozen=True)
class Code:
    """Code is a kernel file split around its instruction lines: ``lines[first:last]`` is the code."""

    lines: tuple
    first: int
    last: int

    def instruction_indices(self) -> list[int]:
        return [k for k in range(self.first, self.last) if _INSTRUCTION.match(self.lines[k])
                and not self.lines[k].lstrip().startswith(".")]

    def labels(self) -> list[str]:
        return [m.group(1) for k in range(self.first, self.last) if (m := _LABEL.match(self.lines[k]))]


def split_code(text: str) -> Code:
    """split_code finds the code of the first kernel: after ``.type NAME,@function`` and its label,
    up to the next section switch (``.section``, ``.rodata``, ``.data``) or ``.Lfunc_end``."""
    lines = tuple(text.split("\n"))
    first = 0
    for k, line in enumerate(lines):
        if "@function" in line:
            first = k + 1
            if first < len(lines) and _LABEL.match(lines[first]):
                first += 1
            break
    last = len(lines)
    for k in range(first, len(lines)):
        s = lines[k].strip()
        if s.startswith((".section", ".rodata", ".data", ".Lfunc_end", ".end_amdhsa", ".amdhsa_kernel")):
            last = k
            break
    return Code(lines, first, last)


def mutate(text: str, choices: Callable[[int], int], count: int) -> tuple[str, list[str]]:
    """mutate applies ``count`` mutations to kernel ``text`` and returns (new text, what was done).

    ``choices(n)`` returns an integer in [0, n): each random decision of a mutation is one call.
    """
    code = split_code(text)
    lines = list(code.lines)
    last = code.last
    done: list[str] = []
    for _ in range(count):
        sub = Code(tuple(lines), code.first, last)
        instrs = sub.instruction_indices()
        if not instrs:
            break
        op = OPERATIONS[choices(len(OPERATIONS))]
        k = instrs[choices(len(instrs))]
        if op == "delete":
            done.append(f"delete line {k + 1}: {lines[k].strip()}")
            del lines[k]
            last -= 1
        elif op == "duplicate":
            done.append(f"duplicate line {k + 1}: {lines[k].strip()}")
            lines.insert(k, lines[k])
            last += 1
        elif op == "swap":
            j = instrs[choices(len(instrs))]
            done.append(f"swap lines {k + 1} and {j + 1}")
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "register":
            lines[k], what = _renumber_register(lines[k], choices)
            done.append(f"line {k + 1}: {what}")
        elif op == "immediate":
            lines[k], what = _replace_immediate(lines[k], choices)
            done.append(f"line {k + 1}: {what}")
        elif op == "branch":
            branches = [j for j in instrs if _BRANCH.match(lines[j])]
            labels = sub.labels()
            if branches and labels:
                j = branches[choices(len(branches))]
                target = labels[choices(len(labels))]
                m = _BRANCH.match(lines[j])
                lines[j] = f"{m.group(1)}{target}{m.group(3)}"
                done.append(f"line {j + 1}: branch to {target}")
        elif op == "drop_endpgm":
            ends = [j for j in instrs if lines[j].strip().startswith("s_endpgm")]
            for j in reversed(ends):
                del lines[j]
                last -= 1
            done.append(f"drop {len(ends)} s_endpgm")
        elif op == "branch_to_end":
            if ".Lfuzz_end:" not in lines:
                lines.insert(last, ".Lfuzz_end:")
                last += 1
            lines.insert(k, "\ts_branch .Lfuzz_end")
            last += 1
            done.append(f"line {k + 1}: s_branch to a label after the last instruction")
    return "\n".join(lines), done


def _renumber_register(line: str, choices: Callable[[int], int]) -> tuple[str, str]:
    found = list(_REGISTER.finditer(line))
    if not found:
        return line, "no register to renumber"
    m = found[choices(len(found))]
    new_first = BOUNDARY_REGISTERS[choices(len(BOUNDARY_REGISTERS))] if choices(2) else None
    if m.group(1):
        first = new_first if new_first is not None else max(int(m.group(2)) + choices(9) - 4, 0)
        new = f"{m.group(1)}{first}"
    else:
        lo, hi = int(m.group(4)), int(m.group(5))
        first = new_first if new_first is not None else max(lo + choices(9) - 4, 0)
        new = f"{m.group(3)}[{first}:{first + hi - lo + choices(3) - 1}]"
    return line[:m.start()] + new + line[m.end():], f"{m.group(0)} -> {new}"


def _replace_immediate(line: str, choices: Callable[[int], int]) -> tuple[str, str]:
    m = _INSTRUCTION.match(line)
    operands = (m.group(2) if m else "").split(";")[0]   # not the trailing comment
    start = m.start(2) if m else 0
    found = list(_IMMEDIATE.finditer(operands))
    if not found:
        return line, "no immediate to replace"
    x = found[choices(len(found))]
    new = BOUNDARY_IMMEDIATES[choices(len(BOUNDARY_IMMEDIATES))]
    return line[:start + x.start()] + new + line[start + x.end():], f"{x.group(0)} -> {new}"


def seed_texts() -> list[tuple[str, str]]:
    """seed_texts returns (repository path, text) of every seed kernel."""
    return [(p, (REPO / p).read_text()) for p in SEED_KERNELS]


def choices_from(values: Sequence[int]) -> Callable[[int], int]:
    """choices_from turns a sequence of integers (hypothesis draws, a seeded RNG's) into ``choices``;
    past its end it keeps answering 0."""
    it = iter(values)

    def pick(n: int) -> int:
        return next(it, 0) % n if n > 0 else 0

    return pick
