"""--device-libs DIR links the math library (ocml) of ROCm's device libraries into a HIP compile, and gpusim's
HIP header then takes from it what it cannot compute itself: double-precision exp, log, sin, cos, pow, ...
and tanf, atanf, asinf, hypotf, ... run on gpusim within about an ulp of numpy, on both targets. A directory
that is not ROCm's device libraries, or whose bitcode clang-19 cannot read, is one clear error.

Debian's rocm-device-libs (5.2.3, which clang-19 reads) is what .ci/run installs for these tests."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.errors import GpusimError, UsageError
from gpusim.frontends.device_libs import DEBIAN_DIR, DeviceLibsError, bitcode_files

DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 compiles HIP")
needs_libs = pytest.mark.skipif(not Path(DEBIAN_DIR, "ocml.bc").is_file(),
                                reason="ROCm's device libraries: apt install rocm-device-libs (.ci/run does)")


@needs_libs
@pytest.mark.parametrize("arch", ["cdna3", "cdna2"])
def test_ocml_functions_match_numpy_within_an_ulp_or_two(arch):
    target = {"cdna3": "gfx942", "cdna2": "gfx90a"}[arch]
    kernel = gpusim.load_kernel(DATA / "ocml_math.hip", target=target, device_libs=DEBIAN_DIR)
    r = gpusim.simulate(kernel, arch, check=True, timing=False)
    # rtol 5e-16 is about 2.25 ulp of a double, 3e-7 about 2.5 ulp of a float
    assert len(r.checks) == 14 and all(c.passed for c in r.checks), [c.describe() for c in r.checks]


@needs_libs
def test_the_isa_version_of_gfx942_falls_back_to_gfx940s_where_rocm_ships_no_942():
    names = [f.name for f in bitcode_files(DEBIAN_DIR, "gfx942")]
    assert names[0] == "ocml.bc" and names[-1] in ("oclc_isa_version_942.bc", "oclc_isa_version_940.bc")
    assert bitcode_files(DEBIAN_DIR, "gfx90a")[-1].name == "oclc_isa_version_90a.bc"


def test_without_device_libs_a_missing_function_names_the_flag(tmp_path):
    src = tmp_path / "k.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                   "__global__ void k(double *d) { d[threadIdx.x] = sin(d[threadIdx.x]); }\n")
    with pytest.raises(GpusimError, match=r"'sin' is unavailable: .* link them with --device-libs DIR"):
        gpusim.load_kernel(src)


def _fake_libs(directory: Path, files: list[str], content: bytes = b"not bitcode\n") -> Path:
    directory.mkdir()
    for name in files:
        (directory / name).write_bytes(content)
    return directory


ALL = ["ocml.bc", "oclc_finite_only_off.bc", "oclc_unsafe_math_off.bc", "oclc_daz_opt_off.bc",
       "oclc_correctly_rounded_sqrt_on.bc", "oclc_wavefrontsize64_on.bc", "oclc_isa_version_942.bc"]


@pytest.mark.parametrize("files, message", [
    (None, r"'.*' is not a directory \(ROCm's device libraries: apt install rocm-device-libs"),
    ([], r"has no oclc_isa_version_942.bc or oclc_isa_version_940.bc"),
    (["oclc_isa_version_940.bc", "ocml.bc"], r"lacks oclc_finite_only_off.bc, .*oclc_wavefrontsize64_on.bc "
                                             r"\(not ROCm's device libraries\?\)"),
    (ALL, r"clang-19 cannot read the bitcode in '.*': doesn't start with bitcode header \(libraries built by an "
          r"LLVM newer than 19"),
])
def test_a_directory_that_is_not_readable_device_libs_is_one_clear_error(tmp_path, files, message):
    libs = tmp_path / "libs" if files is None else _fake_libs(tmp_path / "libs", files)
    with pytest.raises(DeviceLibsError, match=message):
        gpusim.load_kernel(DATA / "ocml_math.hip", device_libs=libs)


def test_device_libs_on_an_assembly_file_is_a_usage_error():
    with pytest.raises(UsageError, match=r"--device-libs links ROCm's math library into a HIP compile; .* is not "
                                         r"a \.hip file"):
        gpusim.load_kernel(Path(__file__).parents[2] / "workloads" / "saxpy.s", device_libs="/nowhere")


def test_the_cli_reports_bad_device_libs_in_one_line_with_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "gpusim.cli", "run", str(DATA / "ocml_math.hip"), "--device-libs",
                           str(tmp_path / "none")], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [f"error: --device-libs: '{tmp_path / 'none'}' is not a directory (ROCm's "
                                        "device libraries: apt install rocm-device-libs puts them in "
                                        f"{DEBIAN_DIR})"]
