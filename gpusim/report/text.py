"""The plain-text report ``gpusim run`` prints."""
from __future__ import annotations


def format_run(result, kernel) -> str:
    """format_run renders a Result as the short report of ``gpusim run``."""
    c = result.counters
    g, b = result.grid, result.block
    lines = [
        f"kernel   {result.kernel} ({result.target}) on {result.arch.name}",
        f"launch   grid {g[0]}x{g[1]}x{g[2]} workgroups, block {b[0]}x{b[1]}x{b[2]}: "
        f"{c['SQ_WORKGROUPS']} workgroups, {c['SQ_WAVES']} waves",
    ]
    if result.occupancy is not None:
        o = result.occupancy
        lines.append(f"occupancy {o.waves_per_simd:g} waves/SIMD, limiter {o.limiter}")
    total = c["GPUSIM_INSTS_TOTAL"]
    lines.append(f"executed {total:,} wave-instructions "
                 f"({total / max(c['SQ_WAVES'], 1):.1f} per wave)")
    parts = [("VALU", c["SQ_INSTS_VALU"] - c["SQ_INSTS_MFMA"]), ("MFMA", c["SQ_INSTS_MFMA"]),
             ("SALU", c["SQ_INSTS_SALU"]), ("SMEM", c["SQ_INSTS_SMEM"]), ("VMEM rd", c["SQ_INSTS_VMEM_RD"]),
             ("VMEM wr", c["SQ_INSTS_VMEM_WR"]), ("LDS", c["SQ_INSTS_LDS"]), ("branch", c["SQ_INSTS_BRANCH"]),
             ("other", c["GPUSIM_INSTS_OTHER"])]
    lines.append("  " + "  ".join(f"{name} {n:,}" for name, n in parts if n))
    lines.append("timing   functional run: cycle timing is not modelled yet")
    for chk in result.checks:
        lines.append(f"check    {chk.describe()}")
    return "\n".join(lines)
