"""A terminal timeline of waves: one row per wave slot, one character per cycle (or per few cycles).

``format_timeline`` draws the wave-slot tracks of a trace (gpusim.report.trace.build_trace) as text
for a mentor to walk through with a student. Upper-case letters are issues, by unit; lower-case
letters and marks are why the wave did not issue:

  issue   V VALU  M MFMA  S SALU  K scalar memory  G global memory  L LDS  B branch
          W s_waitcnt  E s_endpgm  N other (s_nop, s_sleep, s_barrier, messages)
  stall   v waits on vmcnt (global memory)  k waits on lgkmcnt (LDS, scalar memory)
          b at a barrier  d register dependency  u unit busy  a lost arbitration
          n s_nop or s_sleep  f instruction refill after a taken branch  . no wave in the slot
  -       the rest of an issue period (a SIMD gets the issue arbiter every 4th cycle)

When the window is wider than ``width`` columns, each column covers several cycles and shows an
issue if one happened in it, else the stall that took most of its cycles.
"""
from __future__ import annotations

import math

from gpusim.asm import isa

ISSUE_CHAR = {"valu": "V", "trans": "V", "mfma": "M", "salu": "S", "smem": "K", "vmem": "G", "lds": "L",
              "branch": "B"}
STALL_CHAR = {"vmcnt": "v", "lgkmcnt": "k", "barrier": "b", "dependency": "d", "unit busy": "u",
              "arbitration": "a", "s_nop/s_sleep": "n", "ifetch": "f"}
LEGEND = ("issue: V VALU  M MFMA  S SALU  K scalar mem  G global mem  L LDS  B branch  W s_waitcnt  "
          "E s_endpgm  N other\nstall: v vmcnt  k lgkmcnt  b barrier  d dependency  u unit busy  "
          "a arbitration  n s_nop/s_sleep  f ifetch  . empty slot  - rest of an issue period")


def issue_char(program, pc: int) -> str:
    """issue_char is the timeline letter of instruction ``pc``."""
    name = program.mnemonics[pc]
    if name == "s_endpgm":
        return "E"
    if name == "s_waitcnt":
        return "W"
    unit = isa.UNITS[int(program.unit[pc])]
    return ISSUE_CHAR.get(unit, "N")


def format_timeline(model, program, *, first: int, last: int, width: int = 100, max_rows: int = 32) -> str:
    """format_timeline draws cycles ``first``..``last`` of every wave-slot track of ``model`` as text.

    At most ``max_rows`` slots are drawn (those that held a wave in the window, in CU/SIMD order).
    """
    last = min(last, model.cycles)
    span = max(last - first + 1, 1)
    scale = max(1, math.ceil(span / width))
    cols = math.ceil(span / scale)
    rows: dict = {}
    names = {t.uid: (t.group, t.name) for t in model.tracks}
    for s in model.slices:
        group, name = names[s.track]
        if not name.startswith("SIMD ") or " slot " not in name:
            continue
        row = rows.setdefault((group, name), {"cells": [dict() for _ in range(cols)], "issue": [""] * cols,
                                               "wave": None})
        if row["wave"] is None and "workgroup" in s.args:
            row["wave"] = (s.args["workgroup"], s.args["wave"])
        cause = s.args.get("cause")
        for c in range(max(s.start, first), min(s.end, last + 1)):
            col = (c - first) // scale
            if cause == "issue":
                if c == s.start and not row["issue"][col]:
                    pc = int(s.args["pc"], 16)
                    row["issue"][col] = issue_char(program, _index_of(program, pc))
                row["cells"][col]["i"] = row["cells"][col].get("i", 0) + 1
            else:
                ch = STALL_CHAR.get(cause, "?")
                row["cells"][col][ch] = row["cells"][col].get(ch, 0) + 1
    unit = "cycle" if scale == 1 else f"{scale} cycles"
    out = [f"timeline: cycles {first:,}-{last:,}, 1 column = {unit}; {min(len(rows), max_rows)} of {len(rows)} "
           "wave slots", LEGEND]
    ruler = "".join(f"{first + c * scale:<10,d}"[:10] if c % 10 == 0 else "" for c in range(0, cols, 10))
    label_w = 28
    out.append(" " * label_w + ruler)
    for (group, name), row in sorted(rows.items())[:max_rows]:
        wave = f"WG{row['wave'][0]} w{row['wave'][1]}" if row["wave"] else ""
        label = f"{group} {name.replace('SIMD ', 'S').replace(' slot ', ' k')} {wave}"
        text = []
        for col in range(cols):
            if row["issue"][col]:
                text.append(row["issue"][col])
                continue
            cell = row["cells"][col]
            stalls = {k: v for k, v in cell.items() if k != "i"}
            text.append(max(stalls, key=stalls.get) if stalls else ("." if not cell else "-"))
        out.append(f"{label:<{label_w}}{''.join(text)}")
    if len(rows) > max_rows:
        out.append(f"... {len(rows) - max_rows} more slots: narrow with --trace-cus")
    return "\n".join(out)


def _index_of(program, pc_bytes: int) -> int:
    """_index_of maps a byte pc back to the instruction index."""
    import numpy as np
    return int(np.searchsorted(program.pc_bytes, pc_bytes))
