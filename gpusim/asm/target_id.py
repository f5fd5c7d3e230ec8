"""target_id reads the processor out of an ``.amdgcn_target`` string in the spellings LLVM writes.

Two spellings name the same target:

- ``amdgcn-amd-amdhsa--gfx942[:sramecc+][:xnack-]``: what clang and llvm-mc 19 write and accept;
- ``amdgpu9.42-amd-amdhsa-unknown-gfx942``: what the LLVM bundled with Triton 3.x writes, the
  architecture carrying the processor's version; llvm-mc 19 refuses it ("does not match the
  specified target id"), but it is Triton's untouched output, so gpusim reads it when the version
  agrees with the processor.

Anything else (another vendor or OS, a version that contradicts the processor, an unknown
feature) is refused.
"""
import re
from typing import Optional

_TARGET_RE = re.compile(
    r"(?:amdgcn-amd-amdhsa-|amdgpu(?P<major>[0-9]+)\.(?P<minor>[0-9a-f])(?P<step>[0-9a-f])-amd-amdhsa-unknown)"
    r"-(?P<proc>gfx(?P<gmajor>[0-9]+)(?P<gminor>[0-9a-f])(?P<gstep>[0-9a-f]))"
    r"(?::(?:sramecc|xnack)[+-])*")


def processor_of(target: str) -> Optional[str]:
    """processor_of returns the ``gfxNNN`` that ``target`` names, or None when LLVM would not write it."""
    m = _TARGET_RE.fullmatch(target)
    if m is None:
        return None
    features = [f[:-1] for f in target.split(":")[1:]]
    if len(features) != len(set(features)):
        return None
    if m.group("major") is not None:
        if (m.group("major"), m.group("minor"), m.group("step")) != (m.group("gmajor"), m.group("gminor"), m.group("gstep")):
            return None
    return m.group("proc")
