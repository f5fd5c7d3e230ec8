"""frontends turn what kernel authors write or ship (HIP source, code objects) into assembly text and a
launch header that gpusim.asm reads; gpusim.api.load_kernel dispatches here by suffix or magic."""
from __future__ import annotations

from pathlib import Path

HIP_SUFFIXES = (".hip",)
CODE_OBJECT_SUFFIXES = (".hsaco", ".co", ".o", ".bundle", ".hipfb")


def kind_of(path: str) -> str:
    """kind_of says how to read a kernel file: 'hip', 'code_object' or 'asm' (by suffix, then magic bytes)."""
    suffix = Path(path).suffix.lower()
    if suffix in HIP_SUFFIXES:
        return "hip"
    if suffix in CODE_OBJECT_SUFFIXES:
        return "code_object"
    if suffix in (".s", ".asm", ".amdgcn"):
        return "asm"
    try:
        with open(path, "rb") as f:
            head = f.read(32)
    except OSError:
        return "asm"
    from gpusim.frontends.bundle import is_bundle
    return "code_object" if head[:4] == b"\x7fELF" or is_bundle(head) else "asm"
