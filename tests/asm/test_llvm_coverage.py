"""Which of the real assembler's instructions gpusim runs: every mnemonic llvm-mc-19's disassembler decodes
for gfx942 and gfx90a is in gpusim's ISA table, or in gpusim.asm.not_modelled with the reason.

The mnemonics come from decoding one word (or two) of every opcode of every encoding format with plain
operands; an instruction gpusim adds must leave that list, and one it lacks must be named there.
"""
from __future__ import annotations

import re
import struct
import subprocess

import pytest
from llvm_mc_parity import needs_llvm_mc

from gpusim.asm import isa
from gpusim.asm.not_modelled import not_modelled


def _words() -> list[list[int]]:
    """one or two instruction words per opcode of each encoding format, with plain register operands
    (v1/v2/v3 sources, v3 destination, s2/s4 scalars; a second variant where a format's unused source must be
    zero for the decoder)"""
    out = []
    out += [[(op << 25) | (3 << 17) | (2 << 9) | 0x101] for op in range(64)]                          # VOP2
    out += [[(0x3F << 25) | (3 << 17) | (op << 9) | src] for op in range(256) for src in (0x101, 2)]   # VOP1
    out += [[(0x3E << 25) | (op << 17) | (2 << 9) | 0x101] for op in range(256)]                       # VOPC
    out += [[(0x34 << 26) | (op << 16) | 3, 0x101 | (s1 << 9) | (s2 << 18)]                           # VOP3
            for op in range(1024) for s1 in (0x102, 0) for s2 in (0x103, 0)]
    out += [[(0x1A7 << 23) | (op << 16) | 3 | (hi << 14), 0x101 | (0x102 << 9) | (s2 << 18) | (3 << 27)]
            for op in range(128) for s2 in (0x103, 0) for hi in (0, 1)]                               # VOP3P
    out += [[(2 << 30) | (op << 23) | (4 << 16) | (2 << 8) | 1] for op in range(128)]                  # SOP2
    out += [[(0xB << 28) | (op << 23) | (4 << 16) | 1] for op in range(32)]                            # SOPK
    out += [[(0x17D << 23) | (4 << 16) | (op << 8) | src] for op in range(256) for src in (2, 0)]     # SOP1
    out += [[(0x17E << 23) | (op << 16) | (2 << 8) | 1] for op in range(128)]                          # SOPC
    out += [[(0x17F << 23) | (op << 16) | imm] for op in range(128) for imm in (0, 1)]                 # SOPP
    out += [[(0x30 << 26) | (op << 18) | (4 << 6) | 1, 0] for op in range(256)]                        # SMEM
    out += [[(0x36 << 26) | (op << 17), 1 | (2 << 8) | (data1 << 16) | (vdst << 24)]                   # DS
            for op in range(256) for data1 in (3, 0) for vdst in (4, 0)]
    out += [[(0x37 << 26) | (op << 18) | (seg << 14), 2 | (3 << 8) | (0x7F << 16) | (vdst << 24)]      # FLAT
            for seg in range(3) for op in range(128) for vdst in (4, 0)]
    out += [[(0x38 << 26) | (op << 18), 2 | (3 << 8) | (4 << 16)] for op in range(128)]                # MUBUF
    out += [[(0x3A << 26) | (op << 15), 2 | (3 << 8) | (4 << 16)] for op in range(16)]                 # MTBUF
    return out


def llvm_mnemonics(mcpu: str) -> set[str]:
    """the mnemonics llvm-mc-19 decodes for ``mcpu``, without their encoding suffix"""
    text = "".join(" ".join(f"0x{b:02x}" for b in struct.pack(f"<{len(w)}I", *w)) + "\n" for w in _words())
    done = subprocess.run(["llvm-mc-19", "-disassemble", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}"],
                          input=text, capture_output=True, text=True, check=True)
    names = {line.split()[0] for line in done.stdout.splitlines() if line.strip() and not line.lstrip()[0] in ".;"}
    return {re.sub(r"_(e32|e64|sdwa|dpp)$", "", n) for n in names}


@needs_llvm_mc
@pytest.mark.parametrize("mcpu", ["gfx942", "gfx90a"])
def test_gpusim_runs_every_decoded_instruction_but_the_listed_ones(mcpu):
    real = llvm_mnemonics(mcpu)
    assert len(real) > 900   # the decoding reached every format
    missing = {n for n in real if isa.lookup(n) is None}
    listed = not_modelled(mcpu)
    assert sorted(missing - listed) == [], "decoded, not in gpusim's table, not listed as not modelled"
    assert sorted(listed - missing) == [], "listed as not modelled, but gpusim's table has it (or llvm-mc lacks it)"
