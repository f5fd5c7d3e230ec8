"""The .amdgcn_target spellings gpusim reads: LLVM 19's and the one Triton 3.x's bundled LLVM writes."""
import pytest

from gpusim.asm.target_id import processor_of


@pytest.mark.parametrize("target, processor", [
    ("amdgcn-amd-amdhsa--gfx942", "gfx942"),
    ("amdgcn-amd-amdhsa--gfx90a:xnack+", "gfx90a"),
    ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942"),
    ("amdgpu9.42-amd-amdhsa-unknown-gfx942", "gfx942"),
    ("amdgpu9.0a-amd-amdhsa-unknown-gfx90a", "gfx90a"),
])
def test_llvm_spellings_name_their_processor(target, processor):
    assert processor_of(target) == processor


@pytest.mark.parametrize("target", [
    "amdgpu9.40-amd-amdhsa-unknown-gfx942",     # the version contradicts the processor
    "amdgcn-amd-amdhsa-unknown-gfx942",         # llvm-mc 19 refuses an 'unknown' environment with amdgcn
    "amdgcn-amd-amdpal--gfx942",
    "gfx942",
    "amdgcn-amd-amdhsa--gfx942:xnack+:xnack-",
    "amdgcn-amd-amdhsa--gfx942:wavefrontsize32+",
])
def test_other_spellings_are_refused(target):
    assert processor_of(target) is None
