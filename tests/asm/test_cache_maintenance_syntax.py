"""The cache maintenance instructions take exactly the forms llvm-mc-19 takes, per target.

buffer_wbl2 and buffer_inv (gfx942) take the sc0/sc1/nt scope bits; gfx90a's buffer_wbl2 and
buffer_invl2 and both targets' buffer_wbinvl1[_vol] take nothing. A refused form names the instruction
and what it takes, at its line.
"""
from __future__ import annotations

from llvm_mc_parity import parity_test

FORMS = ["buffer_wbl2", "buffer_wbl2 nt", "buffer_inv nt", "buffer_wbl2 sc1", "buffer_wbl2 sc0 sc1", "buffer_wbl2 sc1 nt", "buffer_wbl2 glc",
         "buffer_inv", "buffer_inv sc1", "buffer_inv sc0 sc1 nt", "buffer_inv v1", "buffer_invl2",
         "buffer_invl2 sc1", "buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbinvl1_vol sc1", "s_endpgm nt", "s_dcache_wb nt"]
test_gpusim_accepts_exactly_what_llvm_mc_accepts = parity_test(FORMS)
