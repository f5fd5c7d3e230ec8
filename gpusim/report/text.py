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
    if result.cycles is None:
        lines.append("timing   not run (add --timing for cycles on the timing model)")
    else:
        lines.extend(_timing_lines(result))
    for chk in result.checks:
        lines.append(f"check    {chk.describe()}")
    return "\n".join(lines)


def _pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "-"


def _timing_lines(result) -> list:
    """_timing_lines renders the timing model's figures: time, unit busy fractions, caches, HBM."""
    c = result.counters
    arch = result.arch
    cycles = result.cycles
    simd_cycles = cycles * arch.cus * arch.cu.simds
    hbm = c.get("GPUSIM_HBM_READ_BYTES_sum", 0) + c.get("GPUSIM_HBM_WRITE_BYTES_sum", 0)
    seconds = cycles / (arch.clocks.shader_mhz * 1e6)
    l1 = c.get("TCP_TOTAL_CACHE_ACCESSES_sum", 0)
    l2 = c.get("TCC_HIT_sum", 0) + c.get("TCC_MISS_sum", 0)
    return [
        f"time     {cycles:,} cycles = {result.time_us:.2f} us at {arch.clocks.shader_mhz} MHz "
        "(timing model, first layer)",
        f"busy     VALU {_pct(c['GPUSIM_VALU_BUSY_CYCLES'], simd_cycles)}  "
        f"MFMA {_pct(c['GPUSIM_MFMA_BUSY_CYCLES'], simd_cycles)} of SIMD-cycles; "
        f"LDS bank-conflict cycles {c['SQ_LDS_BANK_CONFLICT']:,}",
        f"memory   L1 hit {_pct(c.get('GPUSIM_TCP_HIT_sum', 0), l1)}  L2 hit {_pct(c.get('TCC_HIT_sum', 0), l2)}  "
        f"HBM {hbm / seconds / 1e12:.2f} TB/s ({_pct(hbm / seconds, arch.hbm_bytes_per_s)} of peak)",
        "waves    " + "  ".join(f"{label} {_pct(c[name], c['GPUSIM_WAVE_CYCLES'])}" for label, name in _STALLS
                                if c.get(name)) + " of wave-cycles",
    ]


_STALLS = (("issuing", "GPUSIM_WAVE_ISSUE_CYCLES"), ("vmcnt", "GPUSIM_STALL_WAITCNT_VM_CYCLES"),
           ("lgkmcnt", "GPUSIM_STALL_WAITCNT_LGKM_CYCLES"), ("barrier", "GPUSIM_STALL_BARRIER_CYCLES"),
           ("dependency", "GPUSIM_STALL_DEPENDENCY_CYCLES"), ("unit busy", "GPUSIM_STALL_UNIT_BUSY_CYCLES"),
           ("arbitration", "GPUSIM_STALL_ARBITER_CYCLES"), ("s_nop", "GPUSIM_STALL_NOP_CYCLES"))
