"""The occupancy limiter reported for real kernels: small ``.amdhsa_kernel`` blocks where VGPRs, LDS or
the workgroup size bind, through ``gpusim.kernel_occupancy`` and the ``gpusim occupancy`` command.

Rules (LLVM AMDGPUBaseInfo for gfx90a/gfx942, cdna3 figures): waves per SIMD from VGPRs =
min(8, 512 // alignTo(VGPRs, 8)); workgroups per CU = min(4 SIMDs x that // waves per workgroup,
32 wave slots // waves per workgroup, 65536 // alignTo(LDS, 512), 16 barrier slots if > 1 wave).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.arch import arch_overrides, load_arch

REPO = Path(__file__).resolve().parents[2]
CDNA3 = load_arch("cdna3")


def kernel_file(tmp_path: Path, *, block: int, vgprs: int, accum: int | None = None, lds: int = 0) -> Path:
    """kernel_file writes a one-instruction kernel with the given resources and workgroup size."""
    accum = vgprs if accum is None else accum
    path = tmp_path / f"k_{block}_{vgprs}_{accum}_{lds}.s"
    path.write_text(f"""; gpusim-launch: grid=1,1,1 block={block},1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl k
	.p2align 8
	.type k,@function
k:
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_count 2
		.amdhsa_group_segment_fixed_size {lds}
		.amdhsa_next_free_vgpr {vgprs}
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset {accum}
	.end_amdhsa_kernel
""")
    return path


# (id, kernel resources, waves per SIMD, workgroups per CU, limiter)
CASES = [
    # 512 // 96 = 5 waves per SIMD; 4 x 5 // 4 waves = 5 workgroups
    ("vgprs", dict(block=256, vgprs=96), 5.0, 5, "vgprs"),
    # 40 arch VGPRs + 128 AGPRs = 168 (a multiple of 8): 512 // 168 = 3 waves per SIMD, 12 one-wave workgroups
    ("vgprs_with_agprs", dict(block=64, vgprs=168, accum=40), 3.0, 12, "vgprs"),
    # alignTo(20000, 512) = 20480: 65536 // 20480 = 3 workgroups of 4 waves = 3 waves per SIMD
    ("lds", dict(block=256, vgprs=32, lds=20000), 3.0, 3, "lds"),
    # 1024 work-items = 16 waves: 32 wave slots // 16 = 2 workgroups
    ("workgroup_1024", dict(block=1024, vgprs=32), 8.0, 2, "waves"),
    # 192 work-items = 3 waves: 32 // 3 = 10 workgroups, 30 waves, 2 slots idle
    ("workgroup_192", dict(block=192, vgprs=32), 7.5, 10, "waves"),
    # 72 VGPRs allow 512 // 72 = 7 waves per SIMD, 28 per CU, but a 16-wave workgroup fits only once:
    # 28 // 16 = 1 workgroup, 4 waves per SIMD
    ("workgroup_1024_vgprs", dict(block=1024, vgprs=72), 4.0, 1, "vgprs"),
]


@pytest.mark.parametrize("resources, per_simd, workgroups, limiter", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_kernel_occupancy_names_the_binding_resource(tmp_path, resources, per_simd, workgroups, limiter):
    occ = gpusim.kernel_occupancy(gpusim.load_kernel(kernel_file(tmp_path, **resources)), CDNA3)
    assert (occ.waves_per_simd, occ.workgroups_per_cu, occ.limiter) == (per_simd, workgroups, limiter)
    assert occ.workgroup_limits[limiter] == workgroups
    assert f"{occ.waves_per_workgroup} waves per workgroup" in occ.rule or limiter == "lds"


def test_barrier_slots_bind_for_small_workgroups_with_more_wave_slots(tmp_path):
    # with 10 wave slots per SIMD (gfx9-like), 2-wave workgroups: 40 // 2 = 20 > 16 barrier slots
    arch = arch_overrides(CDNA3, {"cu.max_waves_per_simd": 10})
    occ = gpusim.kernel_occupancy(gpusim.load_kernel(kernel_file(tmp_path, block=128, vgprs=32)), arch)
    assert (occ.workgroups_per_cu, occ.limiter) == (16, "workgroup_slots")


def gpusim_cli(*args: str, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_cli_names_lds_as_the_limiter(tmp_path):
    path = kernel_file(tmp_path, block=256, vgprs=32, lds=20000)
    out = gpusim_cli("occupancy", path.name, cwd=tmp_path)
    assert re.search(r"^\s+limiter:\s+lds\b", out, re.M), out
    assert "3 waves/SIMD" in out


def test_cli_block_override_makes_the_workgroup_size_bind(tmp_path):
    # 72 VGPRs: 7 waves per SIMD with 64-wide workgroups, 4 with 1024-wide ones (one 16-wave workgroup)
    path = kernel_file(tmp_path, block=64, vgprs=72)
    assert "7 waves/SIMD" in gpusim_cli("occupancy", path.name, cwd=tmp_path)
    out = gpusim_cli("occupancy", path.name, "--block", "1024,1,1", cwd=tmp_path)
    assert re.search(r"^\s+limiter:\s+vgprs\b", out, re.M), out
    assert "4 waves/SIMD" in out
