"""The instruction table: loads isa/gfx9.yaml into :class:`InstrDef` records.

The table is data; this module only validates it and answers lookups.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import yaml

from gpusim.asm import sems
from gpusim.resources import data_dir

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

FORMATS = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM", "VOP1", "VOP2", "VOP3", "VOP3P", "VOPC",
           "MFMA", "GLOBAL", "FLAT", "MUBUF", "SCRATCH", "DS")
# the vector memory formats: a lane address each, through the vector L1 (SCRATCH: a lane's private segment)
VECTOR_MEMORY = ("GLOBAL", "FLAT", "MUBUF", "SCRATCH")
# issue units, as the timing model and the counters see them
UNITS = ("salu", "smem", "branch", "valu", "trans", "mfma", "vmem", "lds", "msg")
TARGETS = ("gfx90a", "gfx942")

_KEYS = {"fmt", "sem", "type", "dst", "src", "src1", "src2", "srcs", "layout", "sub", "kind", "data", "atomic",
         "returns", "trans", "shape", "atype", "btype", "passes", "targets", "encodings", "gfx942_name"}


@dataclass(frozen=True)
class InstrDef:
    """InstrDef is one row of the instruction table (see the header of isa/gfx9.yaml)."""

    name: str
    fmt: str
    sem: int
    dst: str
    src: tuple[str, str, str]
    srcs: int
    layout: str
    sub: int
    kind: str
    data: str
    atomic: str
    returns: bool
    trans: bool
    shape: tuple[int, ...]
    atype: str
    btype: str
    passes: int
    targets: tuple[str, ...]
    encodings: tuple[str, ...] = ()
    gfx942_name: str = ""

    @property
    def mfma_modifiers(self) -> tuple[int, bool]:
        """mfma_modifiers is (the largest CBSZ, whether the BLGP field has an effect) of an MFMA, as AMD's matrix
        instruction calculator gives them (its ``cbsz_abid`` and ``blgp`` flags; tests/exec/data/mfma_layouts
        holds them): the multi-block shapes broadcast A to at most 2**min(4, log2 blocks) blocks; every CDNA2
        MFMA but the f64 ones takes BLGP, and on CDNA3 the multi-block, the two single-block f32 and the f64
        ones do (the f64 ones read its bits as neg:[A, B, C])."""
        blocks = self.shape[3]
        f64 = self.atype == "f64"
        max_cbsz = 0 if f64 or blocks == 1 else min(4, blocks.bit_length() - 1)
        if "gfx942" in self.targets:
            return max_cbsz, f64 or blocks > 1 or self.atype == "f32"
        return max_cbsz, not f64

    @property
    def sparse(self) -> bool:
        """sparse: a v_smfmac, whose A holds two of each four K entries (their positions in src2) and whose
        D is its accumulator."""
        return self.sem == sems.V_SMFMAC

    @property
    def unit(self) -> str:
        """unit names the issue port the instruction uses."""
        if self.fmt in ("SOP1", "SOP2", "SOPC", "SOPK"):
            return "salu"
        if self.fmt == "SOPP":
            return "branch" if self.sem in (sems.S_BRANCH, sems.S_CBRANCH) else "msg"
        if self.fmt == "SMEM":
            return "smem"
        if self.fmt == "MFMA":
            return "mfma"
        if self.fmt in VECTOR_MEMORY:
            return "vmem"
        if self.fmt == "DS":
            return "lds"
        return "trans" if self.trans else "valu"


_DEFAULT_SRCS = {"SOP1": 1, "SOP2": 2, "SOPC": 2, "VOP1": 1, "VOP2": 2, "VOP3": 3, "VOPC": 2, "VOP3P": 3, "MFMA": 3}


def _make(name: str, row: dict) -> InstrDef:
    unknown = set(row) - _KEYS
    if unknown:
        raise ValueError(f"isa table: {name}: unknown keys {sorted(unknown)}")
    if row["fmt"] not in FORMATS:
        raise ValueError(f"isa table: {name}: unknown format {row['fmt']}")
    if row["sem"] not in sems.ID:
        raise ValueError(f"isa table: {name}: unknown semantic id {row['sem']}")
    base = row.get("type", "b32")
    src = row.get("src", base)
    shape = tuple(row.get("shape", ()))
    return InstrDef(
        name=name, fmt=row["fmt"], sem=sems.ID[row["sem"]], dst=row.get("dst", base),
        src=(src, row.get("src1", src), row.get("src2", src)),
        srcs=int(row.get("srcs", _DEFAULT_SRCS.get(row["fmt"], 0))), layout=row.get("layout", ""),
        sub=int(row.get("sub", 0)), kind=row.get("kind", ""), data=row.get("data", ""),
        atomic=row.get("atomic", ""), returns=bool(row.get("returns", False)), trans=bool(row.get("trans", False)),
        shape=shape, atype=row.get("atype", ""), btype=row.get("btype", ""), passes=int(row.get("passes", 0)),
        targets=tuple(row.get("targets", TARGETS)), encodings=tuple(row.get("encodings", ())),
        gfx942_name=row.get("gfx942_name", ""),
    )


@lru_cache(maxsize=None)
def table() -> dict[str, InstrDef]:
    """table returns every instruction of isa/gfx9.yaml by mnemonic.

    The table ships with gpusim (it is not user input), so it is read with libyaml's safe loader where
    PyYAML has one: a fifth of the pure-Python loader's time, which every command pays once.
    """
    with open(data_dir("isa") / "gfx9.yaml") as f:
        rows = yaml.load(f, Loader=_SAFE_LOADER)
    out = {name: _make(name, row) for name, row in rows.items()}
    for name, d in out.items():
        alias = out.get(d.gfx942_name, None)
        if d.gfx942_name and (alias is None or "gfx942" not in alias.targets
                              or (alias.shape, alias.atype) != (d.shape, d.atype)):
            raise ValueError(f"isa table: {name}: gfx942_name {d.gfx942_name} is no gfx942 MFMA of its shape")
    return out


def lookup(mnemonic: str) -> Optional[InstrDef]:
    """lookup returns the table row for a mnemonic (no encoding suffix), or None."""
    return table().get(mnemonic)


def type_bits(t: str) -> int:
    """type_bits returns the width in bits of an operand type name."""
    if t.startswith("v2"):
        return 2 * int(t[3:]) if t[3:].isdigit() else 32
    digits = "".join(ch for ch in t if ch.isdigit())
    return int(digits) if digits else 32
