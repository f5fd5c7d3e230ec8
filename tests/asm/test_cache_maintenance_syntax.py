"""The cache maintenance instructions take exactly the forms llvm-mc-19 takes, per target.

buffer_wbl2 and buffer_inv (gfx942) take the sc0/sc1/nt scope bits; gfx90a's buffer_wbl2 and
buffer_invl2 and both targets' buffer_wbinvl1[_vol] take nothing. A refused form names the instruction
and what it takes, at its line.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

import gpusim
from gpusim.errors import GpusimError

KERNEL = """\
; gpusim-launch: grid=1,1,1 block=64,1,1
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--{target}"
	.globl k
	.p2align 8
	.type k,@function
k:
	{line}
	s_endpgm
	.section .rodata,"a",@progbits
	.p2align 6, 0x0
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
"""
FORMS = ["buffer_wbl2", "buffer_wbl2 nt", "buffer_inv nt", "buffer_wbl2 sc1", "buffer_wbl2 sc0 sc1", "buffer_wbl2 sc1 nt", "buffer_wbl2 glc",
         "buffer_inv", "buffer_inv sc1", "buffer_inv sc0 sc1 nt", "buffer_inv v1", "buffer_invl2",
         "buffer_invl2 sc1", "buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbinvl1_vol sc1", "s_endpgm nt", "s_dcache_wb nt"]
CASES = [(t, f) for t in ("gfx942", "gfx90a") for f in FORMS]


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 is needed")
@pytest.mark.parametrize("target, line", CASES, ids=[f"{t}:{f}" for t, f in CASES])
def test_gpusim_accepts_exactly_what_llvm_mc_accepts(tmp_path, target, line):
    path = tmp_path / "k.s"
    path.write_text(KERNEL.format(target=target, line=line))
    mc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(path),
                         "-filetype=obj", "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    try:
        gpusim.load_kernel(path)
        error = None
    except GpusimError as e:
        error = str(e)
    assert (error is None) == (mc.returncode == 0), (error, mc.stderr)
    if error is not None:
        assert f"{path.name}:8:" in error and line.split()[0] in error
