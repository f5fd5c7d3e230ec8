"""Operands of the wrong class are refused at load time, at the operand, with llvm-mc's message.

These are the cases of issue 15 that used to load and run with another
meaning; test_operand_classes_llvm.py compares every class against llvm-mc-19.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gpusim import api
from gpusim.asm.encoder import encode_module
from gpusim.asm.parser import parse_text
from gpusim.errors import AsmError, UnsupportedInstruction


def load(line: str, target: str = "gfx942"):
    return encode_module(parse_text(".text\n" + line + "\n", "k.s"), target, 256)


@pytest.mark.parametrize("line, col, message, hint", [
    ("global_load_dword s4, v[0:1], off", 19, "invalid operand for instruction",
     "operand 1 of global_load_dword must be a VGPR or an AGPR, got s4"),
    ("s_load_dwordx2 v[4:5], s[0:1], 0x0", 16, "invalid operand for instruction",
     "operand 1 of s_load_dwordx2 must be an SGPR (2 registers), got v[4:5]"),
    ("v_fmac_f32_e32 s5, s5, v4", 16, "invalid operand for instruction",
     "operand 1 of v_fmac_f32 must be a VGPR, got s5"),
    ("v_fmac_f32_e32 v5, 1.5, s5", 25, "invalid operand for instruction",
     "operand 3 of v_fmac_f32 must be a VGPR, got s5"),
    ("s_lshl_b32 v0, s2, 8", 12, "invalid operand for instruction",
     "operand 1 of s_lshl_b32 must be an SGPR, got v0"),
    ("v_add_f32_e64 v0, 0x12345, v1", 19, "literal operands are not supported",
     "operand 2 of v_add_f32 must be a VGPR, an SGPR or an inline constant, got 0x12345"),
    ("v_add_f32_e64 v0, s1, s2", 23, "invalid operand (violates constant bus restrictions)",
     "a gfx9 VALU instruction reads at most 1 SGPR or literal value"),
    ("v_cndmask_b32_e32 v0, s1, v1, vcc", 31, "invalid operand (violates constant bus restrictions)",
     "a gfx9 VALU instruction reads at most 1 SGPR or literal value"),
    ("s_mov_b64 s[0:1], s2", 19, "invalid operand for instruction", "operand 2 of s_mov_b64 needs 2 registers, got 1"),
    ("s_load_dwordx2 s[4:6], s[0:1], 0x0", 16, "invalid operand for instruction",
     "operand 1 of s_load_dwordx2 needs 2 data registers, got 3"),
    ("s_mov_b64 s[0:1], 0x123456789", 19, "invalid operand for instruction",
     "0x123456789 does not fit the 64-bit operand 2 of s_mov_b64"),
    ("ds_write2_b32 v2, a2, v3", 1, "invalid register class: data and dst should be all VGPR or AGPR",
     "operands 2 and 3 of ds_write2_b32 are in different register files"),
    ("v_add_f32_e32 v0, -v1, v2", 19, "invalid operand for instruction",
     "operand 2 of v_add_f32 takes no -x or |x| source modifier"),
    ("v_readfirstlane_b32_e64 s0, v1", 1, "e64 variant of this instruction is not supported",
     "v_readfirstlane_b32 has _e32 forms"),
])
def test_wrong_operand_class_is_refused_at_the_operand(line, col, message, hint):
    with pytest.raises(AsmError) as err:
        load(line)
    assert not isinstance(err.value, UnsupportedInstruction)
    assert (err.value.loc.line, err.value.loc.col) == (2, col)
    assert err.value.message == message
    assert err.value.hint == hint


@pytest.mark.parametrize("line", [
    "v_add_f32 v0, v1, s2",             # no suffix: llvm-mc picks the VOP3 form
    "v_add_f32_e64 v0, s1, s1",         # one SGPR read twice is one constant-bus value
    "v_fmamk_f32 v0, 0x1234, 0x1234, v1",  # src0 may repeat the K literal
    "v_writelane_b32 v0, s1, m0",       # m0 as the lane select is beside the constant bus
    "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)",
    "flat_atomic_add v0, v[2:3], v4 sc0",
    "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]",
    "v_mov_b32 v0, src_shared_base",
    "v_add_f64 v[0:1], 0x3ff00000, v[2:3]",  # the high half of 1.0: an inline constant
])
def test_valid_operands_load(line):
    load(line)


def test_gfx90a_refuses_gfx942_only_forms_and_takes_its_own():
    load("v_mac_f32_e32 v0, v1, v2", "gfx90a")
    with pytest.raises(AsmError, match="does not exist on gfx942"):
        load("v_mac_f32_e32 v0, v1, v2", "gfx942")


KERNEL = Path(__file__).parent / "data" / "operands" / "flat_atomic_return.s"


def test_returning_flat_atomic_writes_the_old_value():
    """flat_atomic_add with sc0 takes (vdst, vaddr, vdata), as llvm-mc writes it, and returns the old value."""
    if shutil.which("llvm-mc-19"):
        subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", str(KERNEL), "-filetype=obj",
                        "-o", os.devnull], check=True)
    result = api.simulate(api.load_kernel(KERNEL), "cdna3", check=True)
    assert len(result.checks) == 2
    assert result.checks_passed, "\n".join(c.describe() for c in result.checks)
