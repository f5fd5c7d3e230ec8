"""The loads into the LDS take exactly the forms llvm-mc-19 takes, per target.

global_load_lds_dword and scratch_load_lds_dword (gfx942 only) name no destination; buffer_load_* with the
lds modifier (both targets) names its address VGPR first and no data register. A form llvm-mc takes that
gpusim does not model (the byte and short loads into the LDS) is refused as not supported yet, naming the
forms it models; a form llvm-mc refuses is refused at its line.
"""
from __future__ import annotations

from llvm_mc_parity import parity_test

FORMS = [
    "global_load_lds_dword v[2:3], off", "global_load_lds_dword v2, s[4:5] offset:-8",
    "global_load_lds_dword v[2:3], off offset:16 sc0 nt", "global_load_lds_dword v1, v[2:3], off",
    "global_load_lds_dword v[2:3], off lds", "global_load_dword v1, v[2:3], off lds", "global_load_lds_ubyte v[2:3], off",
    "scratch_load_lds_dword v1, off", "scratch_load_lds_dword off, s0 offset:4", "scratch_load_lds_dword off, off",
    "scratch_load_lds_sshort v1, off",
    "buffer_load_dword v1, s[4:7], s0 offen lds", "buffer_load_dword off, s[4:7], s0 lds",
    "buffer_load_dword v1, s[4:7], 0 idxen lds", "buffer_load_dword v[2:3], s[4:7], s0 idxen offen lds",
    "buffer_load_dword v1, s[4:7], s0 offen offset:4095 lds", "buffer_load_dword v1, off, s[4:7], s0 offen lds",
    "buffer_load_dwordx2 v1, s[4:7], 0 offen lds", "buffer_load_ushort v1, s[4:7], s0 offen lds",
    "buffer_load_ubyte_d16 v1, s[4:7], s0 offen lds", "buffer_store_dword v1, off, s[4:7], s0 lds",
    "buffer_load_dword v1, s[4:7], s0 offen lds tfe",
]
test_gpusim_accepts_exactly_what_llvm_mc_accepts = parity_test(FORMS, unsupported_says="global_load_lds_dword")
