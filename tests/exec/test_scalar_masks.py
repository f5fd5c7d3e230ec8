"""Golden tests of gfx9's scalar lane-mask and M0-relative instructions (tests/exec/data/sem_scalar_masks.s):
s_wqm, s_quadmask, s_bitreplicate_b64_b32, s_flbit_i32_i64, s_movrels and s_movreld, against Python written
from their definitions; and the fault of a relative move past the SGPRs."""
from __future__ import annotations

import numpy as np
import pytest

from exec_support import fixture_path, run_kernel
from gpusim import api
from gpusim.errors import KernelFault

M32, M64 = 0xFFFFFFFF, (1 << 64) - 1


def wqm(x: int, bits: int) -> int:
    return sum(0xF << 4 * q for q in range(bits // 4) if (x >> 4 * q) & 0xF)


def quadmask(x: int, bits: int) -> int:
    return sum(1 << q for q in range(bits // 4) if (x >> 4 * q) & 0xF)


def flbit_i64(x: int) -> int:
    """the index from the top of the first bit that differs from the sign bit; -1 if none does"""
    if x >> 63:
        x = ~x & M64
    return 64 - x.bit_length() if x else M32


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_scalar_masks_and_relative_moves(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 1 << 32, 8, dtype=np.uint64).astype(np.uint32)
    x[0] &= 0x0F0F00F0 if seed == 1 else M32   # quads of zeros too
    x[2] = 0 if seed == 2 else x[2]             # quadmask of zero: SCC 0
    x[6] = 0xFFFFFFFF if seed == 0 else x[6]    # s_flbit of a negative pair
    s = [int(v) for v in x]                      # s4..s11
    out = [int(v) for v in run_kernel(fixture_path("sem_scalar_masks.s"), {"x": x})["out"]]
    pair = lambda k: s[k - 4] | s[k - 3] << 32  # noqa: E731 (s[k:k+1])
    want = [wqm(s[0], 32), int(wqm(s[0], 32) != 0),
            wqm(pair(4), 64) & M32, wqm(pair(4), 64) >> 32,
            quadmask(s[2], 32), quadmask(pair(6), 64), 0,
            sum(3 << 2 * k for k in range(32) if (s[4] >> k) & 1) & M32,
            sum(3 << 2 * k for k in range(32) if (s[4] >> k) & 1) >> 32,
            flbit_i64(pair(10)),
            s[3],                  # s4 + 3 = s7
            s[2], s[3],            # s[4:5] + 2 = s[6:7]
            s[5],                  # s34 + 5 = s39 <- s9
            0, flbit_i64(M64)]
    assert out == want


def test_a_relative_move_past_the_sgprs_faults_naming_the_register(tmp_path):
    text = fixture_path("sem_scalar_masks.s").read_text().replace("s_mov_b32 m0, 3", "s_mov_b32 m0, 100")
    path = tmp_path / "movrels.s"
    path.write_text(text)
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna3")
    assert "M0-relative register past the wave's registers: s104 (the operand's SGPR plus M0" in str(info.value)
    assert "'s_movrels_b32 s31, s4'" in str(info.value)
    assert info.value.exit_code == 3
