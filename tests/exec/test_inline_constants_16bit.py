"""Inline constants in 16-bit, mixed and packed operand positions, one row per form.

Each row is one real instruction that llvm-mc-19 accepts for gfx942, run in a
tiny one-wave kernel over 64 lanes of inputs and compared with a numpy
reference. The references use the value the hardware feeds for the constant,
as LLVM's AMDGPU backend models it (and llvm-mc-19 confirms by encoding the
bit pattern as the same inline constant):

- an f16 or packed-f16 operand gets the f16 value in bits 0-15 and 0 above
  (1.0 is 0x00003C00, so the high half of a packed operand is 0 unless
  op_sel_hi points it at the low half: the compiler's ``op_sel_hi:[1,0]``);
- a v_fma_mix source reads that f16 constant where its op_sel_hi bit marks it
  f16, and the f32 constant where it is f32 (op_sel is ignored there);
- a 16-bit or packed-16-bit integer operand gets the f32 pattern of a float
  constant (1.0 is 0x3F800000: low half 0, high half 0x3F80) and a sign-
  extended 32-bit integer (-1 is 0xFFFFFFFF);
- a packed-f32 operand (v_pk_*_f32, v_pk_mov_b32) gets the f32 value in its
  low dword and 0 in its high dword.
"""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from exec_support import run_kernel

M16 = np.uint32(0xFFFF)
F16 = np.float16
F32 = np.float32

HEADER = """\
; gpusim-launch: grid=1,1,1 block=64,1,1
; gpusim-arg: a buffer u32[128]
; gpusim-arg: b buffer u32[128]
; gpusim-arg: c buffer u32[128]
; gpusim-arg: d buffer u32[128]
; gpusim-arg: out buffer u32[128] out
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl k16
	.p2align 8
	.type k16,@function
k16:
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	s_load_dwordx2 s[12:13], s[0:1], 0x20
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 3, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[12:13], v1, s[4:5]
	global_load_dwordx2 v[14:15], v1, s[6:7]
	global_load_dwordx2 v[16:17], v1, s[8:9]
	global_load_dwordx2 v[18:19], v1, s[10:11]
	s_waitcnt vmcnt(0)
"""
# 32-bit forms: a, b, c, d's low dwords in v6, v7, v8 and v3 (the destination)
NARROW = """\
	v_mov_b32_e32 v6, v12
	v_mov_b32_e32 v7, v14
	v_mov_b32_e32 v8, v16
	v_mov_b32_e32 v3, v18
	{insn}
	v_mov_b32_e32 v10, v3
	v_mov_b32_e32 v11, 0
	global_store_dwordx2 v1, v[10:11], s[12:13]
"""
# 64-bit packed forms: a, b, d in v[22:23], v[24:25] and v[20:21] (the destination)
WIDE = """\
	v_mov_b32_e32 v22, v12
	v_mov_b32_e32 v23, v13
	v_mov_b32_e32 v24, v14
	v_mov_b32_e32 v25, v15
	v_mov_b32_e32 v20, v18
	v_mov_b32_e32 v21, v19
	{insn}
	global_store_dwordx2 v1, v[20:21], s[12:13]
"""
FOOTER = """\
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel k16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 26
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 28
	.end_amdhsa_kernel
"""


# ------------------------------------------------------------ lane helpers
def lo(x):
    return (x & M16).astype(np.uint16)


def hi(x):
    return (x >> np.uint32(16)).astype(np.uint16)


def h(x):
    """h reads 16-bit patterns as f16 values."""
    return np.asarray(x, np.uint16).view(F16)


def hbits(x):
    return np.asarray(x, F16).view(np.uint16).astype(np.uint32)


def pack(low, high):
    return np.asarray(low, np.uint32) | (np.asarray(high, np.uint32) << np.uint32(16))


def f(x):
    """f reads 32-bit patterns as f32 values."""
    return np.asarray(x, np.uint32).view(F32)


def fbits(x):
    return np.asarray(x, F32).view(np.uint32)


def s16(x):
    return np.asarray(x, np.uint16).view(np.int16).astype(np.int64)


def s32(x):
    return np.asarray(x, np.uint32).view(np.int32).astype(np.int64)


def f16_to_f32(x16):
    return h(x16).astype(F32)


def ldexp_f16(x, e):
    """ldexp_f16 returns the f16 bits of x * 2**e (infinity past the f16 range, 0 below it)."""
    with np.errstate(over="ignore"):
        return hbits(np.ldexp(np.float64(x), np.clip(e, -40, 40)).astype(F16))


# ------------------------------------------------------------ the forms
# (id, instruction, wide, reference(a, b, c, d) -> result, compared bits)
# Narrow references get 32-bit lanes and return 32-bit results; "low16" rows
# compare only bits 0-15 (the f16 result; the high half is not the point).
ROWS = [
    # v_fma_mix: the line a Triton layernorm emits (mean = sum * 1.0 + 0)
    ("fma_mix_f32 f16 src1 1.0 (Triton layernorm)", "v_fma_mix_f32 v3, v6, 1.0, v3 op_sel_hi:[1,1,0]", False,
     lambda a, b, c, d: fbits(f16_to_f32(lo(a)) * F32(1.0) + f(d)), "all"),
    ("fma_mix_f32 f16 src2 -2.0", "v_fma_mix_f32 v3, v6, v7, -2.0 op_sel_hi:[1,1,1]", False,
     lambda a, b, c, d: fbits(f16_to_f32(lo(a)) * f16_to_f32(lo(b)) + F32(-2.0)), "all"),
    ("fma_mix_f32 f32 src1 0.5 ignores op_sel", "v_fma_mix_f32 v3, v6, 0.5, v3 op_sel:[0,1,0] op_sel_hi:[0,0,0]",
     False, lambda a, b, c, d: fbits(f(a) * F32(0.5) + f(d)), "all"),
    ("fma_mix_f32 f16 hi half of a, f32 src1 4.0",
     "v_fma_mix_f32 v3, v6, 4.0, v7 op_sel:[1,0,0] op_sel_hi:[1,0,0]", False,
     lambda a, b, c, d: fbits(f16_to_f32(hi(a)) * F32(4.0) + f(b)), "all"),
    ("fma_mixlo_f16 f16 0.5", "v_fma_mixlo_f16 v3, v6, 0.5, v7 op_sel_hi:[1,1,1]", False,
     lambda a, b, c, d: pack(hbits(h(lo(a)) * F16(0.5) + h(lo(b))), hi(d)), "all"),
    ("fma_mixhi_f16 f16 -2.0", "v_fma_mixhi_f16 v3, v6, v7, -2.0 op_sel_hi:[1,1,1]", False,
     lambda a, b, c, d: pack(lo(d), hbits(h(lo(a)) * h(lo(b)) - F16(2.0))), "all"),
    # packed f16: the constant is (0, 1.0); op_sel_hi:[..,0] points the high half at it
    ("pk_add_f16 1.0 high half 0", "v_pk_add_f16 v3, v6, 1.0", False,
     lambda a, b, c, d: pack(hbits(h(lo(a)) + F16(1.0)), hbits(h(hi(a)) + F16(0.0))), "all"),
    ("pk_add_f16 1.0 op_sel_hi:[1,0]", "v_pk_add_f16 v3, v6, 1.0 op_sel_hi:[1,0]", False,
     lambda a, b, c, d: pack(hbits(h(lo(a)) + F16(1.0)), hbits(h(hi(a)) + F16(1.0))), "all"),
    ("pk_add_f16 1/(2pi) as llvm-mc prints it", "v_pk_add_f16 v3, v6, 0.15915494 op_sel_hi:[1,0]", False,
     lambda a, b, c, d: pack(hbits(h(lo(a)) + h(0x3118)), hbits(h(hi(a)) + h(0x3118))), "all"),
    ("pk_mul_f16 0.5 op_sel swaps halves", "v_pk_mul_f16 v3, v6, 0.5 op_sel:[0,1] op_sel_hi:[1,0]", False,
     lambda a, b, c, d: pack(hbits(h(lo(a)) * F16(0.0)), hbits(h(hi(a)) * F16(0.5))), "all"),
    ("pk_fma_f16 -1.0 both halves", "v_pk_fma_f16 v3, v6, -1.0, v7 op_sel_hi:[1,0,1]", False,
     lambda a, b, c, d: pack(hbits(-h(lo(a)) + h(lo(b))), hbits(-h(hi(a)) + h(hi(b)))), "all"),
    # packed 16-bit integers: a float constant is its f32 pattern, an integer is sign-extended
    ("pk_add_u16 1.0 is 0x3F800000", "v_pk_add_u16 v3, v6, 1.0", False,
     lambda a, b, c, d: pack(lo(a), (hi(a).astype(np.uint32) + 0x3F80) & 0xFFFF), "all"),
    ("pk_add_u16 -1 both halves", "v_pk_add_u16 v3, v6, -1", False,
     lambda a, b, c, d: pack((lo(a).astype(np.uint32) + 0xFFFF) & 0xFFFF,
                             (hi(a).astype(np.uint32) + 0xFFFF) & 0xFFFF), "all"),
    ("pk_sub_u16 64 op_sel_hi:[1,0]", "v_pk_sub_u16 v3, v6, 64 op_sel_hi:[1,0]", False,
     lambda a, b, c, d: pack((lo(a).astype(np.int64) - 64) & 0xFFFF, (hi(a).astype(np.int64) - 64) & 0xFFFF), "all"),
    ("pk_max_i16 -4 is 0xFFFFFFFC (high half -1)", "v_pk_max_i16 v3, v6, -4", False,
     lambda a, b, c, d: pack(np.maximum(s16(lo(a)), -4) & 0xFFFF, np.maximum(s16(hi(a)), -1) & 0xFFFF), "all"),
    # 16-bit VOP1/VOP2/VOP3
    ("add_f16 1.0", "v_add_f16_e32 v3, 1.0, v6", False,
     lambda a, b, c, d: hbits(F16(1.0) + h(lo(a))), "low16"),
    ("mul_f16_e64 -0.5", "v_mul_f16_e64 v3, v6, -0.5", False,
     lambda a, b, c, d: hbits(h(lo(a)) * F16(-0.5)), "low16"),
    ("fma_f16 4.0", "v_fma_f16 v3, v6, v7, 4.0", False,
     lambda a, b, c, d: hbits(h(lo(a)) * h(lo(b)) + F16(4.0)), "low16"),
    ("fma_f16 op_sel reads the constant's high half (0)", "v_fma_f16 v3, v6, 1.0, v7 op_sel:[0,1,0,0]", False,
     lambda a, b, c, d: hbits(h(lo(a)) * F16(0.0) + h(lo(b))), "low16"),
    ("ldexp_f16 1.0", "v_ldexp_f16_e32 v3, 1.0, v6", False,
     lambda a, b, c, d: ldexp_f16(1.0, s16(lo(a))), "low16"),
    ("cvt_f32_f16 -2.0", "v_cvt_f32_f16_e32 v3, -2.0", False,
     lambda a, b, c, d: fbits(np.full(64, -2.0, F32)), "all"),
    ("pack_b32_f16 1.0", "v_pack_b32_f16 v3, v6, 1.0", False,
     lambda a, b, c, d: pack(lo(a), np.full(64, 0x3C00)), "all"),
    ("add_u16 1.0 is 0x3F800000 (low half 0)", "v_add_u16_e32 v3, 1.0, v6", False,
     lambda a, b, c, d: lo(a).astype(np.uint32), "low16"),
    ("add_u16 -1", "v_add_u16_e32 v3, -1, v6", False,
     lambda a, b, c, d: (lo(a).astype(np.uint32) + 0xFFFF) & 0xFFFF, "low16"),
    # dot products
    ("dot2_f32_f16 1.0 in a packed source", "v_dot2_f32_f16 v3, v6, 1.0, v7", False,
     lambda a, b, c, d: fbits(f16_to_f32(lo(a)) + f(b)), "all"),
    ("dot2_f32_f16 f32 accumulator 1.0", "v_dot2_f32_f16 v3, v6, v7, 1.0", False,
     lambda a, b, c, d: fbits(f16_to_f32(lo(a)) * f16_to_f32(lo(b)) + f16_to_f32(hi(a)) * f16_to_f32(hi(b))
                              + F32(1.0)), "all"),
    ("dot2c_f32_f16 1.0", "v_dot2c_f32_f16_e32 v3, 1.0, v6", False,
     lambda a, b, c, d: fbits(f16_to_f32(lo(a)) + f(d)), "all"),
    ("dot2_i32_i16 -1", "v_dot2_i32_i16 v3, v6, -1, v7", False,
     lambda a, b, c, d: ((-s16(lo(a)) - s16(hi(a)) + s32(b)) & 0xFFFFFFFF).astype(np.uint32), "all"),
    # packed f32: the constant is (0, f32) in the 64-bit operand
    ("pk_fma_f32 1.0 high dword 0", "v_pk_fma_f32 v[20:21], v[22:23], 1.0, v[24:25]", True,
     lambda a, b, c, d: np.stack([f(a[:, 0]) + f(b[:, 0]), f(a[:, 1]) * F32(0.0) + f(b[:, 1])], 1), "all"),
    ("pk_add_f32 1.0 op_sel_hi:[1,0]", "v_pk_add_f32 v[20:21], v[22:23], 1.0 op_sel_hi:[1,0]", True,
     lambda a, b, c, d: np.stack([f(a[:, 0]) + F32(1.0), f(a[:, 1]) + F32(1.0)], 1), "all"),
    ("pk_mul_f32 -4.0 op_sel_hi:[1,0]", "v_pk_mul_f32 v[20:21], v[22:23], -4.0 op_sel_hi:[1,0]", True,
     lambda a, b, c, d: np.stack([f(a[:, 0]) * F32(-4.0), f(a[:, 1]) * F32(-4.0)], 1), "all"),
    ("pk_mov_b32 1.0", "v_pk_mov_b32 v[20:21], 1.0, v[22:23]", True,
     lambda a, b, c, d: np.stack([np.full(64, 0x3F800000, np.uint32), a[:, 0]], 1), "all"),
    ("pk_mov_b32 0.5 op_sel:[1,0]", "v_pk_mov_b32 v[20:21], v[22:23], 0.5 op_sel:[1,0]", True,
     lambda a, b, c, d: np.stack([a[:, 1], np.full(64, 0x3F000000, np.uint32)], 1), "all"),
]


def _inputs():
    """_inputs returns four u32[128] buffers (two dwords per lane) of exactly representable values.

    f16 halves are non-zero multiples of 1/4 in [-8, 8] (sums and products
    with the constants are exact, so no rounding choice hides a wrong
    constant, and a low dword read as f32 is a normal number); the high
    dwords are f32 values in [-8, 8).
    """
    rng = np.random.default_rng(15)

    def halves():
        return hbits((rng.integers(1, 33, 64) * rng.choice([-1, 1], 64) / 4).astype(F16))

    bufs = []
    for _ in range(4):
        low = pack(halves(), halves())
        high = fbits(rng.uniform(-8, 8, 64).astype(F32))
        bufs.append(np.stack([low, high], 1).reshape(-1).astype(np.uint32))
    return bufs


def kernel_text(insn: str, wide: bool) -> str:
    return HEADER + (WIDE if wide else NARROW).format(insn=insn) + FOOTER


@pytest.mark.parametrize("name,insn,wide,ref,compare", ROWS, ids=[r[0] for r in ROWS])
def test_inline_constant_form_matches_hardware_value(tmp_path, name, insn, wide, ref, compare):
    path = tmp_path / "k16.s"
    path.write_text(kernel_text(insn, wide))
    a, b, c, d = _inputs()
    out = run_kernel(path, {"a": a, "b": b, "c": c, "d": d})["out"].astype(np.uint32).reshape(64, 2)
    if wide:
        want = np.asarray(ref(*(x.reshape(64, 2) for x in (a, b, c, d))))
        want = want.view(np.uint32) if want.dtype == F32 else want.astype(np.uint32)
        got = out
    else:
        want = np.asarray(ref(*(x.reshape(64, 2)[:, 0] for x in (a, b, c, d)))).astype(np.uint32)
        got = out[:, 0]
        if compare == "low16":
            got, want = got & M16, want & M16
    bad = np.flatnonzero((got != want).reshape(64, -1).any(1))
    assert bad.size == 0, (f"{insn}: lane {bad[0]} got {got[bad[0]]} want {want[bad[0]]} "
                           f"({bad.size} lanes differ)")


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is needed")
def test_every_form_assembles_with_llvm_mc(tmp_path):
    """Every row is an instruction llvm-mc-19 accepts for gfx942, so the table pins real forms."""
    text = "".join(kernel_text(insn, wide).replace("k16", f"k{n}") for n, (_, insn, wide, _, _) in enumerate(ROWS))
    path = tmp_path / "all.s"
    path.write_text(text)
    run = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", str(path),
                          "-filetype=obj", "-o", str(tmp_path / "all.o")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_one_over_two_pi_is_an_inline_constant_not_a_literal(tmp_path):
    """0.15915494 (llvm-mc's spelling of 1/(2*pi)) encodes inline: the VOP3P instruction is 8 bytes, as llvm-mc's."""
    import gpusim

    path = tmp_path / "k16.s"
    path.write_text(kernel_text("v_pk_add_f16 v3, v6, 0.15915494 op_sel_hi:[1,0]", False))
    program = gpusim.load_kernel(path).program
    k = program.mnemonics.index("v_pk_add_f16")
    assert program.pc_bytes[k + 1] - program.pc_bytes[k] == 8
