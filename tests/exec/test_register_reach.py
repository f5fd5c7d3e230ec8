"""Registers the executor would reach outside its register files are refused at load time.

The numba kernels index the scalar file (256 entries per wave) and the vector file (the kernel's
``.amdhsa_next_free_vgpr`` rows) without bounds checks, so the encoder guarantees that every register an
instruction touches is inside: a vector register where the executor reads a scalar one (it would read the
scalar file at the vector's index, up to 511), a scalar tuple that runs past the scalar file's end (a
buffer resource at scc reads four registers from 253), and a vector tuple narrower than what the
instruction touches by its shape (an MFMA's 16 accumulators written from a two-register operand) are each
an error at file:line. llvm-mc-19 rejects these forms too, which is why they are inline texts here rather
than fixtures under tests/exec/data (which must assemble).
"""
from __future__ import annotations

import pytest

from gpusim import api
from gpusim.errors import AsmError

HEAD = """; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: dst buffer u32[64] out
\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.globl probe
\t.p2align 8
\t.type probe,@function
probe:
"""
TAIL = """\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel probe
\t\t.amdhsa_group_segment_fixed_size 64
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_next_free_vgpr {nfv}
\t\t.amdhsa_next_free_sgpr 6
\t\t.amdhsa_accum_offset {acc}
\t.end_amdhsa_kernel
"""


def refusal(tmp_path, line: str, nfv: int = 8, acc: int = 8) -> AsmError:
    path = tmp_path / "k.s"
    path.write_text(HEAD + f"\t{line}\n" + TAIL.format(nfv=nfv, acc=acc))
    with pytest.raises(AsmError) as info:
        api.load_kernel(path)
    err = info.value
    assert err.loc is not None and err.loc.line == 9, str(err)   # the instruction's line
    assert err.exit_code == 2
    return err


def backstop_refusal(tmp_path, monkeypatch, line: str, nfv: int = 8, acc: int = 8) -> AsmError:
    """backstop_refusal loads ``line`` twice: as gpusim does, where the operand-class check (the llvm-mc
    rules, gpusim.asm.operand_classes) refuses it first, and with that check switched off, so that the
    encoder's register-reach check, the executor's own guarantee, is shown to refuse it by itself.
    Returns the second error."""
    refusal(tmp_path, line, nfv, acc)
    monkeypatch.setattr("gpusim.asm.encoder.check_operands", lambda ins, d: None)
    return refusal(tmp_path, line, nfv, acc)


@pytest.mark.parametrize("line, message", [
    ("s_mov_b32 s0, a255", "source 0 of 's_mov_b32' is a scalar operand: a vector register cannot be used here"),
    ("s_mov_b32 a255, s0", "destination of 's_mov_b32' is a scalar operand"),
    ("s_load_dwordx2 a[254:255], s[0:1], 0x0", "destination of 's_load_dwordx2' is a scalar operand"),
    ("v_readlane_b32 s0, v0, a255", "source 1 of 'v_readlane_b32' is a scalar operand"),
    ("v_readfirstlane_b32 a255, v0", "destination of 'v_readfirstlane_b32' is a scalar operand"),
    ("global_load_dword v1, v0, a[254:255]", "source 1 of 'global_load_dword' is a scalar operand"),
    ("s_setpc_b64 a[254:255]", "source 0 of 's_setpc_b64' is a scalar operand"),
])
def test_a_vector_register_in_a_scalar_operand_is_refused(tmp_path, monkeypatch, line, message):
    assert message in str(backstop_refusal(tmp_path, monkeypatch, line, nfv=512, acc=256))


@pytest.mark.parametrize("line, message", [
    ("v_fmac_f32_e32 s5, s5, v4", "destination of 'v_fmac_f32' is a vector operand: a scalar register cannot be "
                                  "used here"),
    ("v_mov_b32_e32 vcc_lo, v0", "destination of 'v_mov_b32' is a vector operand"),
    ("global_load_dword s4, v[0:1], off", "destination of 'global_load_dword' is a vector operand"),
    ("global_store_dword v[0:1], s5, off", "data of 'global_store_dword' is a vector operand"),
    ("ds_write_b32 v0, scc", "source 1 of 'ds_write_b32' is a vector operand"),
    ("v_mfma_f32_32x32x8_f16 a[0:15], s[0:1], v[2:3], a[0:15]",
     "source 0 of 'v_mfma_f32_32x32x8_f16' is a vector operand: a scalar register cannot be used here"),
    ("v_mfma_f32_32x32x8_f16 a[0:15], 1.0, v[2:3], a[0:15]",
     "source 0 of 'v_mfma_f32_32x32x8_f16' is a vector operand: a constant cannot be used here"),
    ("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], s[0:15]", "source 2 of 'v_mfma_f32_32x32x8_f16' is a "
                                                                "vector operand"),
])
def test_a_scalar_register_where_the_executor_indexes_the_vector_file_is_refused(tmp_path, monkeypatch, line, message):
    assert message in str(backstop_refusal(tmp_path, monkeypatch, line, nfv=24, acc=8))


@pytest.mark.parametrize("line, message", [
    ("buffer_load_dword v1, v0, scc, 0 offen",
     "source 1 of 'buffer_load_dword' needs 4 scalar registers from register 253, past the end of the scalar "
     "register file"),
    ("s_buffer_load_dword s4, scc, 0x0", "source 0 of 's_buffer_load_dword' needs 4 scalar registers from "
                                          "register 253"),
])
def test_a_scalar_tuple_past_the_end_of_the_scalar_file_is_refused(tmp_path, monkeypatch, line, message):
    assert message in str(backstop_refusal(tmp_path, monkeypatch, line))


@pytest.mark.parametrize("line, message", [
    ("v_mfma_f32_32x32x8_f16 v[0:1], v[0:1], v[2:3], v[0:1]",
     "destination of 'v_mfma_f32_32x32x8_f16' must be 16 vector registers (v[N:N+15]), got 2"),
    ("v_mfma_f32_32x32x8_f16 a[0:15], v3, v[4:5], a[0:15]",
     "source 0 of 'v_mfma_f32_32x32x8_f16' must be 2 vector registers (v[N:N+1]), got 1"),
    ("v_mfma_f64_16x16x4_f64 v[0:3], v[0:1], v[2:3], v[0:3]",
     "destination of 'v_mfma_f64_16x16x4_f64' must be 8 vector registers (v[N:N+7]), got 4"),
    ("ds_read2_b64 v3, v0 offset1:1", "destination of 'ds_read2_b64' must be 4 vector registers"),
    ("ds_write2_b32 v0, v[2:3], v4 offset1:1", "source 1 of 'ds_write2_b32' must be one vector register, got 2"),
    ("v_mad_u64_u32 v3, s[0:1], v0, v0, 0", "destination of 'v_mad_u64_u32' must be 2 vector registers"),
])
def test_a_vector_tuple_narrower_than_the_instruction_touches_is_refused(tmp_path, monkeypatch, line, message):
    assert message in str(backstop_refusal(tmp_path, monkeypatch, line, nfv=24, acc=8))


def test_the_same_instructions_with_the_right_operands_load(tmp_path):
    path = tmp_path / "k.s"
    body = "".join(f"\t{x}\n" for x in (
        "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "ds_read2_b64 v[4:7], v0 offset1:1",
        "ds_write2_b32 v0, v2, v3 offset1:1", "v_mad_u64_u32 v[4:5], s[0:1], v0, v0, 0",
        "buffer_load_dword v1, v0, s[4:7], 0 offen", "v_readlane_b32 s0, v0, 5",
        "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], 0"))
    path.write_text(HEAD + body + TAIL.format(nfv=24, acc=8))
    assert len(api.load_kernel(path).program) == 8


@pytest.mark.parametrize("field, message, line", [
    (".amdhsa_user_sgpr_count 40", "'.amdhsa_user_sgpr_count' 40 is out of range (0..31)", 14),
    (".amdhsa_user_sgpr_count 2\n\t\t.amdhsa_user_sgpr_kernarg_preload_length 200",
     "'.amdhsa_user_sgpr_kernarg_preload_length' 200 is out of range (0..16)", 15),
    (".amdhsa_user_sgpr_count 2\n\t\t.amdhsa_user_sgpr_kernarg_preload_length 16",
     "'.amdhsa_user_sgpr_count' 2 is smaller than the 18 user SGPRs", 14),
])
def test_launch_sgprs_outside_the_user_sgpr_range_are_refused_before_running(tmp_path, field, message, line):
    """The launch writes the user SGPRs into the scalar file unchecked; a count llvm-mc refuses, or one below
    what the enabled fields need, is refused where the assembler refuses it, at the field."""
    path = tmp_path / "k.s"
    path.write_text((HEAD + TAIL.format(nfv=8, acc=8)).replace(".amdhsa_user_sgpr_count 2", field))
    with pytest.raises(AsmError) as info:
        api.load_kernel(path)
    assert message in str(info.value)
    assert info.value.loc.line == line
