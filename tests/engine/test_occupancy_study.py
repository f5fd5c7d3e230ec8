"""Occupancy hides latency: a latency-bound kernel gets faster with more waves
per SIMD, up to the limiter the occupancy calculation names."""
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import load_arch
from gpusim.engine.timing import time_kernel

CHASE = Path(__file__).resolve().parents[2] / "benchmarks" / "kernels" / "pointer_chase.s"


def chase_with_vgprs(tmp_path, vgprs):
    """The pointer chase on 9728 one-wave workgroups, each holding ``vgprs`` VGPRs (so fewer fit per SIMD)."""
    # one trip of the chase's loop (32 loads) over 65536 elements of 64 bytes (4 MiB)
    text = CHASE.read_text().replace("grid=1,1,1", "grid=9728,1,1").replace("steps i32 4096", "steps i32 32")
    text = text.replace("u32[128,16]", "u32[65536,16]")
    # each wave starts its chase at element (workgroup id), byte offset id * 64, so the waves' loads are independent
    text = text.replace("v_mov_b32_e32 v1, 0", "s_lshl_b32 s3, s2, 6\n\tv_mov_b32_e32 v1, s3")
    text = text.replace(".amdhsa_user_sgpr_count 2", ".amdhsa_user_sgpr_count 2\n\t\t.amdhsa_system_sgpr_workgroup_id_x 1")
    text = text.replace(".amdhsa_next_free_vgpr 4", f".amdhsa_next_free_vgpr {vgprs}")
    text = text.replace(".amdhsa_accum_offset 4", f".amdhsa_accum_offset {min(vgprs, 256)}")
    path = tmp_path / f"chase_{vgprs}.s"
    path.write_text(text)
    return gpusim.load_kernel(path)


def test_more_waves_per_simd_hide_more_latency(tmp_path):
    arch = load_arch("cdna3")
    cycles = {}
    for vgprs, waves in ((512, 1), (256, 2), (128, 4), (64, 8)):
        kernel = chase_with_vgprs(tmp_path, vgprs)
        occ = gpusim.kernel_occupancy(kernel, arch)
        assert occ.waves_per_simd == waves
        assert occ.limiter == ("vgprs" if waves < 8 else "waves")
        cycles[waves] = time_kernel(kernel, arch).cycles
    assert cycles[1] > cycles[2] > cycles[4] > cycles[8]
    # 9728 waves run in 8 rounds at one wave per SIMD and all at once at eight
    assert cycles[1] > 3 * cycles[8]
