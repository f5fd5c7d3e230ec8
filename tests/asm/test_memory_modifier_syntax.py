"""Memory instructions take their modifiers as llvm-mc-19 does, per target.

The cache-policy bits are gfx942's sc0, sc1 and nt on its vector memory instructions and gfx90a's glc,
slc and scc (neither takes gfx10's dlc; scalar loads take glc on both); the bits may come in any order,
but after the offset, and a buffer instruction's offen/idxen come before the offset and its lds last. An
ds_*2 instruction's offset0 comes before its offset1.
"""
from __future__ import annotations

from llvm_mc_parity import parity_test

FORMS = [
    "global_load_dword v1, v[2:3], off glc", "global_load_dword v1, v[2:3], off slc",
    "global_load_dword v1, v[2:3], off sc0", "global_load_dword v1, v[2:3], off sc1",
    "global_load_dword v1, v[2:3], off nt", "global_load_dword v1, v[2:3], off scc",
    "global_load_dword v1, v[2:3], off glc slc", "global_load_dword v1, v[2:3], off slc glc",
    "global_load_dword v1, v[2:3], off nt sc0", "global_load_dword v1, v[2:3], off sc1 sc0",
    "global_load_dword v1, v[2:3], off dlc", "global_load_dword v1, v[2:3], off offset:4 glc",
    "global_load_dword v1, v[2:3], off glc offset:4", "global_load_dword v1, v[2:3], off sc0 offset:4",
    "global_store_dword v[2:3], v1, off offset:-8 sc0 sc1", "global_store_dword v[2:3], v1, off nt offset:-8",
    "flat_load_dword v1, v[2:3] offset:4 glc", "flat_load_dword v1, v[2:3] glc offset:4",
    "scratch_load_dword v2, v1, off offset:4 nt", "scratch_load_dword v2, v1, off nt offset:4",
    "buffer_load_dword v2, v1, s[4:7], s0 offen offset:4 glc slc",
    "buffer_load_dword v2, v1, s[4:7], s0 offen glc offset:4", "buffer_load_dword v2, v1, s[4:7], s0 offset:4 offen",
    "buffer_store_dword v2, v1, s[4:7], s0 offen offset:4 sc0 nt",
    "buffer_load_dword v2, s[4:7], s0 offen offset:4 glc lds", "buffer_load_dword v2, s[4:7], s0 offen offset:4 lds glc",
    "buffer_load_dword v1, s[4:7], s0 offen sc0 nt lds", "buffer_load_dword v1, s[4:7], s0 offen lds offset:4",
    "buffer_load_dword v1, s[4:7], s0 lds offen",
    "ds_read2_b32 v[2:3], v1 offset0:1 offset1:2", "ds_read2_b32 v[2:3], v1 offset1:2 offset0:1",
    "ds_read_b32 v2, v1 offset:4", "ds_read_b32 v2, v1 glc",
    "s_load_dword s1, s[2:3], 0x0 glc", "s_load_dword s1, s[2:3], 0x0 sc0",
]
test_gpusim_accepts_exactly_what_llvm_mc_accepts = parity_test(FORMS)
