"""Regenerates layouts.npz: where every v_mfma of gpusim's ISA table keeps each entry of its A, B and D
matrices, as AMD's matrix instruction calculator gives them.

The calculator is https://github.com/ROCm/amd_matrix_instruction_calculator (commit 2ef9189 was used); for
each instruction this runs ``matrix_calculator.py --architecture cdna3 (gfx942 names) or cdna2 (gfx90a names)
--instruction NAME --A-matrix|--B-matrix|--D-matrix --register-layout --csv``. Array ``NAME:A`` (``:B``,
``:D``; C is laid out as D) has one row per matrix entry: block, row, column, the entry's first register
(counted in 32-bit registers), its lane, and the low bit of its element in that register.

    python tests/exec/data/mfma_layouts/regenerate.py PATH/TO/matrix_calculator.py   (needs tabulate)
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from gpusim.asm import isa  # noqa: E402

# v0{5}, v0{5}.[15:0], v[1:0]{5}: register(s), {lane}, [high:low] bits of the element
ENTRY = re.compile(r"v(?:\[(\d+):(\d+)\]|(\d+))\{(\d+)\}(?:\.\[(\d+):(\d+)\])?")


def layout(calculator: str, arch: str, name: str, matrix: str) -> np.ndarray:
    """layout is the calculator's register layout of one matrix of one instruction as rows of
    (block, row, column, first register, lane, low bit)."""
    text = subprocess.run([sys.executable, calculator, "--architecture", arch, "--instruction", name,
                           f"--{matrix}-matrix", "--register-layout", "--csv"], capture_output=True, text=True,
                          check=True).stdout
    rows, block = [], None
    for line in text.splitlines():
        if line.startswith("Block "):
            block = int(line.split()[1])
        elif block is not None and line[:1].isdigit():
            cells = line.split(",")
            for col, cell in enumerate(cells[1:]):
                m = ENTRY.fullmatch(cell.strip())
                if m is None:
                    raise ValueError(f"{name} {matrix}: unexpected entry {cell!r}")
                reg = int(m.group(2) if m.group(2) is not None else m.group(3))
                rows.append((block, int(cells[0]), col, reg, int(m.group(4)), int(m.group(6) or 0)))
    if not rows:
        raise ValueError(f"the calculator has no {matrix} layout for {name} on {arch}")
    return np.array(rows, np.int16)


def main(calculator: str) -> None:
    out = {}
    for name, d in sorted(isa.table().items()):
        if d.fmt == "MFMA":
            arch = "cdna3" if "gfx942" in d.targets else "cdna2"
            for matrix in "ABD":
                out[f"{name}:{matrix}"] = layout(calculator, arch, name, matrix)
    np.savez_compressed(Path(__file__).with_name("layouts.npz"), **out)


if __name__ == "__main__":
    main(sys.argv[1])
