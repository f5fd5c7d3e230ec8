"""The plain-text report ``gpusim run`` prints: one line per topic.

Every derived figure comes from a metric of gpusim.report.metrics (the
Result's ``metrics``), so the report, JSON and CSV agree; raw counts come
from the counters. A functional run (``--no-timing``) has no cycles and
shows only what the instruction counts give.
"""
from __future__ import annotations

from typing import Optional

from gpusim.report.metrics import dominant_peak
from gpusim.report.units import percent, si

_WAVE_STATES = (("issuing", "Wave_Issue_Pct"), ("vmcnt", "Wave_Stall_VMEM_Pct"),
                ("lgkmcnt", "Wave_Stall_LGKM_Pct"), ("barrier", "Wave_Stall_Barrier_Pct"),
                ("dependency", "Wave_Stall_Dependency_Pct"), ("unit busy", "Wave_Stall_Unit_Busy_Pct"),
                ("arbitration", "Wave_Stall_Arbiter_Pct"), ("s_nop/s_sleep", "Wave_Stall_Nop_Pct"),
                ("branch refill", "Wave_Stall_Ifetch_Pct"))


def format_run(result, kernel, sample: Optional[str] = None) -> str:
    """format_run renders a Result as the short report of ``gpusim run``.

    ``sample`` is the sampling mode the run asked for (gpusim.engine.sampling.SAMPLE_MODES; None: not
    known). A sampled run always gets its ``sampled`` line; a run timed in full gets one saying why only
    when it asked for sampling and the full simulation is news: under ``on``, or under ``auto`` when the
    dispatch executed more wave-instructions than the threshold (a small dispatch's full run is expected).
    """
    c = result.counters
    m = result.metrics
    g, b = result.grid, result.block
    lines = [
        _line("kernel", f"{result.kernel} ({result.target}) on {result.arch.name}"),
        _line("launch", f"grid {g[0]}x{g[1]}x{g[2]} workgroups, block {b[0]}x{b[1]}x{b[2]}: "
                        f"{c['SQ_WORKGROUPS']:,} workgroups, {c['SQ_WAVES']:,} waves"),
    ]
    lines.append(_occupancy_line(result, m))
    total = c["GPUSIM_INSTS_TOTAL"]
    lines.append(_line("executed", f"{total:,} wave-instructions ({total / max(c['SQ_WAVES'], 1):.1f} per wave)"))
    parts = [("VALU", c["SQ_INSTS_VALU"] - c["SQ_INSTS_MFMA"]), ("MFMA", c["SQ_INSTS_MFMA"]),
             ("SALU", c["SQ_INSTS_SALU"]), ("SMEM", c["SQ_INSTS_SMEM"]), ("VMEM rd", c["SQ_INSTS_VMEM_RD"]),
             ("VMEM wr", c["SQ_INSTS_VMEM_WR"]), ("LDS", c["SQ_INSTS_LDS"]), ("branch", c["SQ_INSTS_BRANCH"]),
             ("other", c["GPUSIM_INSTS_OTHER"])]
    lines.append(_line("", "  ".join(f"{name} {n:,}" for name, n in parts if n)))
    if result.cycles is None:
        lines.append(_line("compute", _operation_counts(m)))
        lines.append(_line("timing", "not run (--no-timing): instruction counts and checks only"))
    else:
        lines.extend(_timing_lines(result, m, sample))
    for chk in result.checks:
        lines.append(_line("check", chk.describe()))
    uninit = c.get("GPUSIM_UNINIT_READS", 0)
    if uninit:
        lines.append(f"warning: {uninit:,} wave-instructions read registers nothing wrote "
                     f"(first: {getattr(result, 'uninit_first', None)}); they read 0")
    clock = getattr(result, "clock_read", None)
    if clock:
        lines.append(f"warning: the kernel reads the clock ({clock}): it reads 0, since gpusim computes values "
                     "apart from timing; the report's cycles are what times the kernel")
    hwreg = getattr(result, "hwreg_read", None)
    if hwreg:
        lines.append(f"warning: the kernel reads a hardware register ({hwreg}): every s_getreg_b32 reads 0 in "
                     "gpusim (the wave's CU, SIMD and XCD ids, MODE, status)")
    return "\n".join(lines)


def _line(label: str, text: str) -> str:
    return f"{label:8} {text}"


def _giga(m: dict, name: str) -> Optional[float]:
    return None if name not in m else m[name] * 1e9


def _occupancy_line(result, m: dict) -> str:
    o = result.occupancy
    text = "-" if o is None else f"{o.waves_per_simd:g} waves/SIMD allowed (limiter: {o.limiter})"
    if "Achieved_Waves_per_SIMD" in m:
        busy = m.get("Achieved_Waves_per_Busy_SIMD")
        text += (f"; achieved {'-' if busy is None else f'{busy:.2f}'} per SIMD while its CU held waves, "
                 f"{m['Achieved_Waves_per_SIMD']:.2f} over the whole GPU")
    return _line("occupancy", text)


def _operation_counts(m: dict) -> str:
    text = (f"{si(m['Total_FLOPs'], 'FLOP')} (VALU {si(m['VALU_FLOPs'], 'FLOP')}, "
            f"MFMA {si(m['MFMA_FLOPs'], 'FLOP')})")
    if m.get("MFMA_IOPs"):
        text += f"; INT8 MFMA {si(m['MFMA_IOPs'], 'OP')}"
    return text


def _compute_line(result, m: dict) -> str:
    c, arch = result.counters, result.arch
    peak = dominant_peak(c, arch)
    if peak is None:
        text = "no floating-point operations"
    else:
        text = (f"{si(_giga(m, 'GFLOPs'), 'FLOP/s')} = {percent(m.get('FLOPs_Pct_of_Peak'))} of the "
                f"{peak.label} peak {si(_giga(m, 'Peak_GFLOPs'), 'FLOP/s')} "
                f"(VALU {si(_giga(m, 'VALU_GFLOPs'), 'FLOP/s')}, MFMA {si(_giga(m, 'MFMA_GFLOPs'), 'FLOP/s')}); "
                f"{si(m['Total_FLOPs'], 'FLOP')} in all")
    if m.get("MFMA_IOPs"):
        text += f"; INT8 MFMA {si(_giga(m, 'MFMA_GIOPs'), 'OP/s')}"
        if dominant_peak(c, arch, "MFMA").dtype == "I8":
            text += f" = {percent(m.get('MFMA_FLOPs_Pct_of_Peak'))} of the i8 MFMA peak"
    return _line("compute", text)


def _timing_lines(result, m: dict, sample: Optional[str] = None) -> list:
    """_timing_lines renders the timing model's figures, one topic per line (``sampled`` after ``time``)."""
    arch = result.arch
    launch = arch.launch
    warm = ", after a warm-up run" if result.warm_up else ""
    sampled = sampling_line(result, sample)
    lines = [
        _line("time", f"{result.cycles:,} cycles = {m['Kernel_Time_us']:.2f} us at {arch.clocks.shader_mhz} MHz, "
                      f"first dispatch to end-of-kernel release{warm}"),
        *([sampled] if sampled else []),
        _line("profiler", f"{result.kernel_time_us:.2f} us kernel time as a profiler's kernel trace measures it "
                          f"(+ {launch.start_invalidate_cycles:,}-cycle cache invalidate at kernel start)"),
        _line("hipEvent", f"{result.event_time_us:.2f} us as hipEvent timing around the launch measures it "
                          f"(+ {launch.command_processor_latency_cycles / arch.clocks.shader_mhz:.2f} us launch "
                          f"latency, + {launch.completion_signal_cycles / arch.clocks.shader_mhz:.2f} us completion "
                          f"signal)"),
        _compute_line(result, m),
        _line("memory", f"HBM {si(_giga(m, 'HBM_Bandwidth'), 'B/s')} ({percent(m.get('HBM_Bandwidth_Pct_of_Peak'))} "
                        f"of peak {si(arch.hbm_bytes_per_s, 'B/s')})  "
                        f"L2 {si(_giga(m, 'L2_Bandwidth'), 'B/s')} ({percent(m.get('L2_Bandwidth_Pct_of_Peak'))})  "
                        f"LDS {si(_giga(m, 'LDS_Bandwidth'), 'B/s')} ({percent(m.get('LDS_Bandwidth_Pct_of_Peak'))})"),
        _line("busy", f"VALU {percent(m.get('VALU_Util'))}  MFMA {percent(m.get('MFMA_Util'))} of SIMD-cycles; "
                      f"SALU {percent(m.get('SALU_Util'))}  LDS {percent(m.get('LDS_Util'))}  "
                      f"VMEM {percent(m.get('VMEM_Util'))} of CU-cycles; IPC {m.get('IPC', 0):.2f}"),
        _line("waves", "  ".join(f"{label} {percent(m.get(name))}" for label, name in _WAVE_STATES)
              + " of resident wave-cycles"),
        _line("CUs", f"issuing {percent(m.get('CU_Issue_Pct'))}  no eligible wave "
                     f"{percent(m.get('CU_No_Eligible_Wave_Pct'))}  idle {percent(m.get('CU_Idle_Pct'))} of CU-cycles"),
        _line("caches", f"L1 hit {percent(m.get('L1_Hit_Rate'))}  L2 hit {percent(m.get('L2_Hit_Rate'))}  "
                        f"MALL hit {percent(m.get('MALL_Hit_Rate')) if arch.mall.present else 'none (no MALL)'}  "
                        f"scalar hit {percent(m.get('Scalar_Cache_Hit_Rate'))}"),
    ]
    if result.counters["SQ_INSTS_LDS"]:
        lines.append(_line("LDS", f"{m['LDS_Bank_Conflict_Cycles']:,.0f} bank-conflict cycles "
                                  f"({percent(m.get('LDS_Bank_Conflict_Pct'))} of LDS busy cycles)"))
    else:
        lines.append(_line("LDS", "not used"))
    lines.append(_line("hazards", f"{m['RAW_Hazards']:,.0f} RAW: wave-instructions that read a register "
                                  "before its producer completed"))
    return lines


# what the ``samples`` of each method are (gpusim.engine.sampling.SamplingOutcome)
_SAMPLE_KINDS = {"loop": "per-wave rates", "grid": "round boundaries"}


def sampling_line(result, sample: Optional[str] = None) -> str:
    """sampling_line is the report's ``sampled`` line for a timed Result, or '' when there is nothing to say.

    Sampled: the method, the share of wave-instructions simulated in detail and the error estimate on
    cycles as a half-width (SamplingOutcome.error_pct), with its two parts: the 95% confidence interval from
    the measured rates (sampling noise) and the method's own error, measured against full simulations
    (gpusim.engine.sampling.METHOD_ERROR). Timed in full: the outcome's reason, only when ``sample`` asked
    for sampling and the full run is news (see format_run).
    """
    from gpusim.engine.sampling_policy import SAMPLE_ABOVE_WAVE_INSTRUCTIONS

    outcome = getattr(result, "sampling", None)
    if outcome is None or result.cycles is None:
        return ""
    if outcome.sampled:
        what = _SAMPLE_KINDS.get(outcome.method, "measured rates")
        has_ci = outcome.samples >= 2
        ci = (f"95% CI, {outcome.samples:,} {what}" if has_ci else
              f"no confidence interval: {outcome.samples} measured rate{'s' * (outcome.samples != 1)}")
        if outcome.method_error_pct > 0:
            noise = f"sampling noise ± {percent(outcome.noise_pct(result.cycles))} ({ci})" if has_ci else ci
            interval = (f"± {percent(outcome.error_pct(result.cycles))}: {noise} and the {outcome.method} method's "
                        f"error measured against full runs ± {percent(outcome.method_error_pct)}")
        elif has_ci:
            interval = (f"± {percent(outcome.noise_pct(result.cycles))} from sampling noise alone "
                        f"({ci}; not the method's bias)")
        else:
            interval = f"({ci})"
        return _line("sampled", f"{outcome.method}: {percent(100.0 * outcome.simulated_fraction)} of "
                                f"wave-instructions simulated in detail; cycles {result.cycles:,} {interval}; "
                                "--sample off for the full simulation")
    asked = sample == "on" or (sample == "auto" and
                               result.counters.get("GPUSIM_INSTS_TOTAL", 0) > SAMPLE_ABOVE_WAVE_INSTRUCTIONS)
    if not asked or not outcome.reason:
        return ""
    return _line("sampled", f"no, timed in full: {outcome.reason}")
