"""Regenerates layouts.npz: where every v_mfma of gpusim's ISA table keeps each entry of its A, B and D
matrices, as AMD's matrix instruction calculator gives them.

The calculator is https://github.com/ROCm/amd_matrix_instruction_calculator (commit 2ef9189 was used); for
each instruction this runs ``matrix_calculator.py --architecture cdna3 (gfx942 names) or cdna2 (gfx90a names)
--instruction NAME --A-matrix|--B-matrix|--D-matrix --register-layout --csv``. Array ``NAME:A`` (``:B``,
``:D``; C is laid out as D) has one row per matrix entry: block, row, column, the entry's first register
(counted in 32-bit registers), its lane, and the low bit of its element in that register.

For a sparse MFMA (v_smfmac_*) it also keeps ``NAME:K``, where the compression positions of each A entry
lie (the calculator's --compression; the low bit is the entry's 4-bit group field), under ABID a
(``NAME:K:abid{a}``) and under CBSZ 1, which makes it ignore ABID (``NAME:K:cbsz1abid1``).

For the instructions of MODIFIED it also keeps A under CBSZ c and ABID a (``NAME:A:cbsz{c}abid{a}``, the
entry each block reads) and B under each BLGP p (``NAME:B:blgp{p}``); and for every MFMA ``NAME:flags``, the
largest CBSZ the calculator allows and whether it takes BLGP.

    python tests/exec/data/mfma_layouts/regenerate.py PATH/TO/matrix_calculator.py   (needs tabulate)
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from gpusim.asm import isa  # noqa: E402

# v0{5}, v0{5}.[15:0], v[1:0]{5}: register(s), {lane}, [high:low] bits of the element
ENTRY = re.compile(r"v(?:\[(\d+):(\d+)\]|(\d+))\{(\d+)\}(?:\.\[(\d+):(\d+)\])?")


# one instruction of each multi-block shape and type family, and single-block ones that take BLGP
MODIFIED = ("v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_16x16x4_4b_f16", "v_mfma_f32_4x4x4_16b_bf16",
            "v_mfma_i32_4x4x4_16b_i8", "v_mfma_f32_32x32x2_f32", "v_mfma_f32_32x32x8f16", "v_mfma_f32_16x16x2bf16")


def layout(calculator: str, arch: str, name: str, matrix: str, *modifier: str) -> np.ndarray:
    """layout is the calculator's register layout of one matrix of one instruction (under ``modifier``, such as
    "--cbsz", "1") as rows of (block, row, column, first register, lane, low bit)."""
    which = "--compression" if matrix == "K" else f"--{matrix}-matrix"
    text = subprocess.run([sys.executable, calculator, "--architecture", arch, "--instruction", name,
                           which, "--register-layout", "--csv", *modifier], capture_output=True,
                          text=True, check=True).stdout
    rows, blocks = [], None
    for line in text.splitlines():
        if line.startswith("Block"):   # "Block 3", or "Blocks 0, 1" for blocks that read the same entries
            blocks = [int(b) for b in line.split(maxsplit=1)[1].split(",")]
        elif blocks is not None and line[:1].isdigit():
            cells = line.split(",")
            for col, cell in enumerate(cells[1:]):
                m = ENTRY.fullmatch(cell.strip())
                if m is None:
                    raise ValueError(f"{name} {matrix}: unexpected entry {cell!r}")
                reg = int(m.group(2) if m.group(2) is not None else m.group(3))
                for block in blocks:
                    rows.append((block, int(cells[0]), col, reg, int(m.group(4)), int(m.group(6) or 0)))
    if not rows:
        raise ValueError(f"the calculator has no {matrix} layout for {name} on {arch}")
    return np.array(rows, np.int16)


def flags(calculator: str, arch: str, name: str) -> np.ndarray:
    """flags is (the largest CBSZ, takes BLGP) of one instruction, from the calculator's own table."""
    spec = importlib.util.spec_from_file_location("matrix_calculator", calculator)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    info = module.dict_insts[arch][name]
    max_cbsz = min(4, info["blocks"].bit_length() - 1) if info["cbsz_abid"] else 0
    return np.array([max_cbsz, int(info["blgp"])], np.int16)


def main(calculator: str) -> None:
    out = {}
    for name, d in sorted(isa.table().items()):
        if d.fmt == "MFMA":
            arch = "cdna3" if "gfx942" in d.targets else "cdna2"
            for matrix in "ABDK" if d.sparse else "ABD":
                out[f"{name}:{matrix}"] = layout(calculator, arch, name, matrix)
            if d.sparse:   # the sets of position bits ABID picks (with CBSZ 0), and a CBSZ that ignores ABID
                for a in range(1, 4 if d.atype in ("f16", "bf16") else 2):
                    out[f"{name}:K:abid{a}"] = layout(calculator, arch, name, "K", "--abid", str(a))
                out[f"{name}:K:cbsz1abid1"] = layout(calculator, arch, name, "K", "--cbsz", "1", "--abid", "1")
            out[f"{name}:flags"] = flags(calculator, arch, name)
            if name in MODIFIED:
                max_cbsz, blgp = out[f"{name}:flags"]
                for c in range(1, max_cbsz + 1):
                    for a in sorted({0, 1, (1 << c) - 1}):
                        out[f"{name}:A:cbsz{c}abid{a}"] = layout(calculator, arch, name, "A", "--cbsz", str(c),
                                                                 "--abid", str(a))
                for p in range(1, 8) if blgp else ():
                    out[f"{name}:B:blgp{p}"] = layout(calculator, arch, name, "B", "--blgp", str(p))
    np.savez_compressed(Path(__file__).with_name("layouts.npz"), **out)


if __name__ == "__main__":
    main(sys.argv[1])
