"""VGPR index mode (s_set_gpr_idx_on ... s_set_gpr_idx_off, gpusim.asm.index_mode): a v_mov_b32 in the span
reads or writes the VGPR its operand names plus M0[7:0], for the operands whose bit M0[15:12] sets; the clang
corpus kernel dynamic_index (tests/data/corpus) shows the pattern LLVM emits. A span gpusim cannot decide
statically is refused, and an index past the wave's VGPRs is a fault naming the register."""
from __future__ import annotations

import numpy as np
import pytest
from exec_support import assert_assembles, needs_llvm_mc, run_cli

from gpusim import api
from gpusim.errors import KernelFault, UnsupportedInstruction

BODY = """\tv_lshlrev_b32_e32 v20, 5, v0
\tv_mul_u32_u24_e32 v0, 10, v0
\tv_add_u32_e32 v1, 1, v0
\tv_add_u32_e32 v2, 2, v0
\tv_add_u32_e32 v3, 3, v0
\tv_add_u32_e32 v4, 4, v0
\tv_add_u32_e32 v5, 5, v0
\tv_add_u32_e32 v6, 6, v0
\tv_add_u32_e32 v7, 7, v0
\ts_set_gpr_idx_on 3, gpr_idx(SRC0)
\tv_mov_b32_e32 v8, v0
\ts_set_gpr_idx_idx s4
\tv_mov_b32_e32 v9, v1
\ts_set_gpr_idx_mode gpr_idx(DST)
\tv_mov_b32_e32 v2, v0
\ts_mov_b32 s5, m0
\ts_set_gpr_idx_off
\tv_mov_b32_e32 v10, v3
\tv_mov_b32_e32 v11, s5
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dwordx4 v20, v[8:11], s[0:1]
\tglobal_store_dwordx4 v20, v[4:7], s[0:1] offset:16
\ts_endpgm
"""


def kernel(body: str = BODY) -> str:
    return f"""; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: out buffer u32[64, 8] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl index_mode
\t.p2align 8
\t.type index_mode,@function
index_mode:
\ts_load_dwordx2 s[0:1], s[0:1], 0x0
\ts_mov_b32 s4, 5
{body}\t.rodata
\t.p2align 6
\t.amdhsa_kernel index_mode
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 21
\t\t.amdhsa_next_free_sgpr 6
\t\t.amdhsa_accum_offset 24
\t.end_amdhsa_kernel
"""


@needs_llvm_mc
def test_the_kernel_assembles_with_llvm_mc(tmp_path):
    assert_assembles(tmp_path, kernel(), "gfx942")


@pytest.mark.parametrize("mode", [{}, {"timing": True}], ids=["functional", "timed"])
def test_moves_read_and_write_m0_relative_registers(tmp_path, mode):
    path = tmp_path / "k.s"
    path.write_text(kernel())
    out = api.simulate(api.load_kernel(path), "cdna3", **mode).outputs["out"]
    lane = np.arange(64, dtype=np.uint32)[:, None] * 10
    want = np.concatenate([
        lane + [3, 6],                             # v8 = v(0+3) (SRC0, index 3); v9 = v(1+5) after s_set_gpr_idx_idx
        lane + [3], np.full((64, 1), 0x8005),      # v10 = v3 after the span; M0 = index 5 | DST << 12
        lane + [4, 5, 6, 0],                       # v7 written through v2 + 5 with v0 (DST only: v0 read as named)
    ], axis=1).astype(np.uint32)
    np.testing.assert_array_equal(out, want)


def test_an_index_past_the_wave_s_vgprs_is_a_fault_naming_the_register(tmp_path):
    path = tmp_path / "k.s"
    path.write_text(kernel(BODY.replace("s_set_gpr_idx_on 3, gpr_idx(SRC0)", "s_set_gpr_idx_on 30, gpr_idx(SRC0)")))
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna3")
    assert "v30 (the operand's VGPR plus M0[7:0] in VGPR index mode; the wave has v0 to v20" in str(info.value)
    assert "'v_mov_b32_e32 v8, v0'" in str(info.value)


@pytest.mark.parametrize("edit, message", [
    (("\tv_mov_b32_e32 v9, v1\n", "\tv_add_u32_e32 v9, v1, v1\n"), "'v_add_u32' in VGPR index mode is not supported yet"),
    (("\ts_set_gpr_idx_idx s4\n", "\ts_set_gpr_idx_idx s4\n.Lin:\n"), "label '.Lin' inside VGPR index mode"),
    (("\ts_set_gpr_idx_idx s4\n", "\ts_set_gpr_idx_idx s4\n\ts_branch .Lout\n.Lout:\n"),
     "'s_branch' inside VGPR index mode is not supported yet"),
])
def test_a_span_gpusim_cannot_decide_statically_is_refused_at_its_line(tmp_path, edit, message):
    path = tmp_path / "k.s"
    path.write_text(kernel(BODY.replace(*edit)))
    with pytest.raises(UnsupportedInstruction) as info:
        api.load_kernel(path)
    assert message in str(info.value)
    proc = run_cli("run", str(path))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1 and message in proc.stderr


@pytest.mark.parametrize("bad, message", [
    ("s_set_gpr_idx_on 3, 16", "only 4-bit values are legal"),
    ("s_set_gpr_idx_on 3, gpr_idx(DST,DST)", "duplicate VGPR index mode 'DST'"),
    ("s_set_gpr_idx_mode gpr_idx(SRC3)", "invalid VGPR index mode 'SRC3'"),
])
def test_bad_mode_bits_are_refused_as_llvm_mc_refuses_them(tmp_path, bad, message):
    path = tmp_path / "k.s"
    path.write_text(kernel(BODY.replace("s_set_gpr_idx_on 3, gpr_idx(SRC0)", bad)))
    proc = run_cli("run", str(path))
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
