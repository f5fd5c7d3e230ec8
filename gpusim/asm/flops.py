"""FLOP accounting: which profiler FLOP counters one wave-instruction increments.

flop_counts maps an instruction-table row to the counters one execution of
it (one wave-instruction) adds to, with AMD's profiler names:

- ``SQ_INSTS_VALU_{ADD,MUL,FMA,TRANS}_{F16,F32,F64}`` count VALU
  wave-instructions by operation and type. As in rocprof-compute, a
  wave-instruction is taken to do its operation on all 64 lanes whatever
  the exec mask, and FLOPs are ``64 * (ADD + MUL + TRANS + 2 * FMA)``. Subtracts
  count as ADD; MAD/MAC/FMAC/FMA-mix/DIV_FMAS as FMA. A packed op
  (``v_pk_fma_f32``, ``v_pk_add_f16``, ...) does two operations per lane
  and adds 2, and so does a two-element dot product (``v_dot2*_f32_f16`` /
  ``_bf16``: two FMA per lane, counted under F16). Min/max, compares,
  conversions and integer ops are not FLOPs.
- ``SQ_INSTS_VALU_MFMA_{F16,BF16,F32,F64,I8,F8,XF32}`` count MFMA
  wave-instructions by input type (FP8 and BF8 both count as F8), and
  ``SQ_INSTS_VALU_MFMA_MOPS_*`` their matrix operations in units of 512:
  an M x N x K MFMA over B blocks does 2 * M * N * K * B operations per
  wave-instruction, so FLOPs (OPs for I8) are ``512 * MOPS``.
"""
from __future__ import annotations

from functools import lru_cache

from gpusim.asm import sems
from gpusim.asm.isa import InstrDef

LANES = 64
FLOPS_PER_MOP = 512
VALU_DTYPES = ("F16", "F32", "F64")
VALU_OPS = ("ADD", "MUL", "FMA", "TRANS")
MFMA_DTYPES = ("F16", "BF16", "F32", "F64", "I8", "F8", "XF32")

VALU_COUNTERS = tuple(f"SQ_INSTS_VALU_{op}_{t}" for t in VALU_DTYPES for op in VALU_OPS)
MFMA_COUNTERS = tuple(f"SQ_INSTS_VALU_MFMA_{t}" for t in MFMA_DTYPES)
MOPS_COUNTERS = tuple(f"SQ_INSTS_VALU_MFMA_MOPS_{t}" for t in MFMA_DTYPES)
COUNTERS = VALU_COUNTERS + MFMA_COUNTERS + MOPS_COUNTERS

# semantic name -> (operation, type, operations per lane)
_VALU = {
    "V_ADD_F16": ("ADD", "F16", 1), "V_SUB_F16": ("ADD", "F16", 1), "V_SUBREV_F16": ("ADD", "F16", 1),
    "V_MUL_F16": ("MUL", "F16", 1), "V_FMA_F16": ("FMA", "F16", 1),
    "V_PK_ADD_F16": ("ADD", "F16", 2), "V_PK_MUL_F16": ("MUL", "F16", 2), "V_PK_FMA_F16": ("FMA", "F16", 2),
    "V_DOT2C_F32_F16": ("FMA", "F16", 2), "V_DOT2_F32_F16": ("FMA", "F16", 2), "V_DOT2_F32_BF16": ("FMA", "F16", 2),
    "V_ADD_F32": ("ADD", "F32", 1), "V_SUB_F32": ("ADD", "F32", 1), "V_SUBREV_F32": ("ADD", "F32", 1),
    "V_MUL_F32": ("MUL", "F32", 1), "V_MUL_LEGACY_F32": ("MUL", "F32", 1),
    "V_FMA_F32": ("FMA", "F32", 1), "V_MAD_F32": ("FMA", "F32", 1), "V_DIV_FMAS_F32": ("FMA", "F32", 1),
    "V_FMA_MIX_F32": ("FMA", "F32", 1), "V_FMA_MIXLO_F16": ("FMA", "F32", 1), "V_FMA_MIXHI_F16": ("FMA", "F32", 1),
    "V_PK_ADD_F32": ("ADD", "F32", 2), "V_PK_MUL_F32": ("MUL", "F32", 2), "V_PK_FMA_F32": ("FMA", "F32", 2),
    "V_ADD_F64": ("ADD", "F64", 1), "V_MUL_F64": ("MUL", "F64", 1), "V_FMA_F64": ("FMA", "F64", 1),
    "V_DIV_FMAS_F64": ("FMA", "F64", 1),
}

_MFMA_TYPE = {"f16": "F16", "bf16": "BF16", "f32": "F32", "f64": "F64", "i8": "I8", "fp8": "F8", "bf8": "F8",
              "xf32": "XF32"}


def _float_type(d: InstrDef) -> str:
    for t in (d.dst, *d.src):
        if t in ("f16", "f32", "f64"):
            return t.upper()
    return ""


def mfma_ops(d: InstrDef) -> int:
    """mfma_ops returns the matrix operations (2 * M * N * K * blocks) of one MFMA wave-instruction."""
    m, n, k, blocks = d.shape
    return 2 * m * n * k * blocks


@lru_cache(maxsize=None)
def flop_counts(d: InstrDef) -> tuple:
    """flop_counts returns ((counter, increment), ...) for one execution of the instruction ``d``.

    The increments are per wave-instruction (see the module docstring for
    what each counter counts); an instruction that does no floating-point or
    matrix arithmetic returns ().
    """
    if d.fmt == "MFMA":
        t = _MFMA_TYPE[d.atype]
        return ((f"SQ_INSTS_VALU_MFMA_{t}", 1), (f"SQ_INSTS_VALU_MFMA_MOPS_{t}", mfma_ops(d) // FLOPS_PER_MOP))
    row = _VALU.get(sems.NAMES[d.sem])
    if row is not None:
        op, t, n = row
        return ((f"SQ_INSTS_VALU_{op}_{t}", n),)
    if d.trans and _float_type(d):
        return ((f"SQ_INSTS_VALU_TRANS_{_float_type(d)}", 1),)
    return ()
