"""device_libs picks the bitcode of ROCm's device libraries that a HIP compile links when a user asks for them.

gpusim's HIP headers compute the common math themselves, so that a kernel compiles the same on every
machine; what they cannot compute (double-precision exp, sin, pow, ...; tanf, atan2f, lgammaf, ...) ROCm
computes in its math library, ocml. ``gpusim run k.hip --device-libs DIR`` (``load_kernel(...,
device_libs=DIR)``) links ocml from DIR, as hipcc does, and the headers then map those functions to it:
the libraries are an input the user names, not something found on the machine, so a kernel that does not
ask for them never depends on them.

DIR holds the libraries' ``.bc`` files (Debian and Ubuntu: ``apt install rocm-device-libs`` puts them in
/usr/lib/x86_64-linux-gnu/amdgcn/bitcode; a ROCm install: /opt/rocm/amdgcn/bitcode). Their bitcode must be
no newer than the LLVM of clang-19: ROCm 6.2's and later are built by a newer LLVM, which clang-19 cannot read.
"""
from __future__ import annotations

from pathlib import Path

from gpusim.errors import GpusimError

DEBIAN_DIR = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"   # where Debian's rocm-device-libs puts them

# ocml's control variables, as hipcc sets them without fast-math flags: IEEE results (infinities and NaNs
# honoured, no unsafe rewrites, denormals kept, a correctly rounded f32 sqrt) on wave64
CONTROLS = ("oclc_finite_only_off.bc", "oclc_unsafe_math_off.bc", "oclc_daz_opt_off.bc",
            "oclc_correctly_rounded_sqrt_on.bc", "oclc_wavefrontsize64_on.bc")
# the ISA-version library per gfx target, newest first: ROCm before 5.5 ships gfx940's and not gfx942's; ocml
# tests the version only against the major generation (9000 and up), which the two share
ISA_VERSIONS = {"gfx942": ("oclc_isa_version_942.bc", "oclc_isa_version_940.bc"),
                "gfx90a": ("oclc_isa_version_90a.bc",)}


class DeviceLibsError(GpusimError):
    """DeviceLibsError is a --device-libs directory that does not hold what a HIP compile links."""


def bitcode_files(directory: str, target: str) -> list[Path]:
    """bitcode_files lists the files a compile for ``target`` links from ``directory``: ocml, its control
    variables and the target's ISA version. Raises DeviceLibsError naming what is missing."""
    root = Path(directory)
    if not root.is_dir():
        raise DeviceLibsError(f"--device-libs: '{directory}' is not a directory (ROCm's device libraries: "
                              f"apt install rocm-device-libs puts them in {DEBIAN_DIR})")
    isa = next((root / name for name in ISA_VERSIONS.get(target, ()) if (root / name).is_file()), None)
    if isa is None:
        wanted = " or ".join(ISA_VERSIONS.get(target, (f"an ISA version library for {target}",)))
        raise DeviceLibsError(f"--device-libs: '{directory}' has no {wanted}")
    files = [root / "ocml.bc", *(root / name for name in CONTROLS)]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise DeviceLibsError(f"--device-libs: '{directory}' lacks {', '.join(missing)} (not ROCm's device "
                              "libraries?)")
    return [*files, isa]


def clang_flags(directory: str, target: str) -> list[str]:
    """clang_flags are the clang options that link the device libraries of ``directory`` into a compile for
    ``target`` (only the functions the kernel calls are kept) and tell gpusim's headers they are there."""
    flags = ["-D__GPUSIM_OCML=1"]
    for f in bitcode_files(directory, target):
        flags += ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(f)]
    return flags
