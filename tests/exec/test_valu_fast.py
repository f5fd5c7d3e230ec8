"""The VALU fast path (gpusim.exec.kernels.valu_fast) computes what the general VALU path computes.

Every corpus kernel (clang-19 output, full of v_lshl_add_u64 address arithmetic with VGPR-pair, SGPR-pair
and constant sources, carries, cndmasks and f32 math, some under partial EXEC) runs twice: as encoded, with
the instructions the encoder marked M_FAST on the fast path, and with every mark cleared. Every output
buffer must come out bit for bit the same.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.asm.program import M_FAST
from gpusim.exec.launch import Dispatch

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
KERNELS = sorted((CORPUS / "gfx942").glob("*.s")) + sorted((CORPUS / "gfx90a").glob("*.s"))


def _outputs(kernel) -> dict:
    module = kernel.module
    return Dispatch(module, kernel.source, kernel.program, module.launch, module.args).run().final


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_fast_path_matches_the_general_path(path):
    kernel = gpusim.load_kernel(path)
    fast = kernel.program.mods[:, M_FAST].copy()
    assert fast.any()
    with_fast = _outputs(kernel)
    kernel.program.mods[:, M_FAST] = 0
    general = _outputs(kernel)
    for name, value in with_fast.items():
        assert value.tobytes() == general[name].tobytes(), name


def test_the_64_bit_address_adds_take_the_fast_path():
    kernel = gpusim.load_kernel(CORPUS / "gfx942" / "saxpy.s")
    marked = {m for i, m in enumerate(kernel.program.mnemonics) if kernel.program.mods[i, M_FAST]}
    assert {"v_lshl_add_u64", "v_lshlrev_b64"} <= marked
