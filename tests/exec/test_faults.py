"""A kernel that faults is reported like a GPU fault: one line that names the
kernel, the program counter, the instruction, the workgroup, wave and lane,
and what went wrong; the CLI exits with code 3.

The kernels are hand-written gfx942 fixtures in tests/exec/data/fault_*.s.
"""
from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

from exec_support import DATA, assert_checks_pass, fixture_path, needs_llvm_mc, run_cli

from gpusim import api
from gpusim.errors import GpusimError, KernelFault

FIXTURES = sorted(DATA.glob("*.s"))


def fault_of(name: str, **simulate_kw) -> KernelFault:
    kernel = api.load_kernel(fixture_path(name))
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", **simulate_kw)
    return info.value


def assert_one_line_fault(name: str, *flags: str) -> str:
    proc = run_cli("run", str(fixture_path(name)), *flags)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


# ---------------------------------------------------------------- fixtures assemble
@needs_llvm_mc
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_assembles_with_llvm_mc(path):
    proc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj",
                           "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _llvm_mc_offsets(path) -> list[tuple[int, str]]:
    """_llvm_mc_offsets lists (byte offset from the kernel entry, instruction text) as llvm-mc encodes them."""
    proc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-show-encoding", str(path)],
                          capture_output=True, text=True, check=True)
    out, pc = [], 0
    for line in proc.stdout.splitlines():
        m = re.match(r"\s+(\S.*?)\s*; encoding: \[(.*)\]", line)
        if m:
            out.append((pc, " ".join(m.group(1).split())))
            pc += len(m.group(2).split(","))
    return out


@needs_llvm_mc
def test_reported_pc_is_the_byte_offset_llvm_mc_assigns():
    offsets = _llvm_mc_offsets(fixture_path("fault_store_past_end.s"))
    store = [pc for pc, text in offsets if text.startswith("global_store_dword")]
    assert store == [0x2C]
    assert "pc 0x2c " in str(fault_of("fault_store_past_end.s"))


@needs_llvm_mc
@pytest.mark.parametrize("name", ["fault_absent_service.s", "fault_trap.s", "hostcall_cycle.s"])
def test_every_pc_is_the_address_llvm_objdump_shows(tmp_path, name):
    # the object llvm-mc writes, as llvm-objdump lays it out: alignment padding (s_nop 0) included
    obj = tmp_path / "k.o"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o", str(obj),
                    str(fixture_path(name))], check=True)
    dump = subprocess.run(["llvm-objdump-19", "-d", str(obj)], capture_output=True, text=True, check=True).stdout
    real = [int(m.group(1), 16) for m in re.finditer(r"^\s+(?!s_nop 0\b)\S.*// ([0-9A-F]{12}):", dump, re.M)]
    program = api.load_kernel(fixture_path(name)).program
    assert real == [int(pc) for pc in program.pc_bytes[:len(program)]]


# ---------------------------------------------------------------- (a) global store past the end
def test_store_past_end_of_buffer_names_everything():
    err = fault_of("fault_store_past_end.s")
    assert isinstance(err, GpusimError) and err.exit_code == 3
    msg = str(err)
    assert "\n" not in msg
    assert "kernel 'store_past_end' faulted" in msg
    assert "memory access outside every buffer" in msg
    assert "(4 bytes), 0 bytes past the end of buffer 'dst'" in msg
    assert "pc 0x2c 'global_store_dword v1, v2, s[6:7]'" in msg
    assert "workgroup (3, 0, 0), wave 0, lane 8" in msg
    assert err.loc is not None and err.loc.line == 20
    assert re.search(r"at address 0x[0-9a-f]+ ", msg)


def test_store_past_end_on_the_command_line():
    line = assert_one_line_fault("fault_store_past_end.s")
    assert re.match(r".*fault_store_past_end\.s:20:\d+: error: kernel 'store_past_end' faulted", line)
    assert "past the end of buffer 'dst'" in line
    assert "workgroup (3, 0, 0), wave 0, lane 8" in line


# ---------------------------------------------------------------- (b) LDS past the allocation
def test_lds_access_beyond_group_segment_size():
    err = fault_of("fault_lds_past_end.s")
    msg = str(err)
    assert "kernel 'lds_past_end' faulted" in msg
    assert "LDS access outside the workgroup's allocation at LDS offset 256 (allocation 256 bytes)" in msg
    assert "'ds_write_b32 v1, v0'" in msg
    assert "workgroup (1, 0, 0), wave 0, lane 0" in msg
    assert err.loc.line == 14
    line = assert_one_line_fault("fault_lds_past_end.s")
    assert "fault_lds_past_end.s:14:" in line and "LDS offset 256" in line


# ---------------------------------------------------------------- (c) runaway loop
def test_a_loop_with_no_way_out_is_stopped_at_its_first_turn():
    """s_add / s_branch back: no s_endpgm, conditional branch or s_setpc can be reached, whatever the
    registers hold, so the wave is stopped when it first branches back, not at an instruction limit."""
    msg = str(fault_of("fault_runaway.s"))
    assert "kernel 'spin_forever' faulted: endless loop: wave 0 can never leave the loop at pc 0x4..0x8 " \
           "(lines 12-13)" in msg
    assert "pc 0x4 's_add_u32 s4, s4, 1', workgroup (0, 0, 0), wave 0" in msg and "lane" not in msg
    line = assert_one_line_fault("fault_runaway.s")
    assert "endless loop" in line and "fault_runaway.s:12:" in line


def test_a_counter_that_never_reaches_its_bound_is_stopped_by_the_wave_budget():
    msg = str(fault_of("fault_runaway_counter.s", max_wave_instructions=5000))
    assert "kernel 'count_past' faulted: runaway kernel: wave 0 executed more than 5,000 instructions, in the " \
           "loop at pc 0x4..0x10 (lines 13-15); raise the limit with --max-wave-instructions" in msg
    # 1 + 3 * 1666 instructions ran: the 5001st is the loop's second
    assert "pc 0x8 's_cmp_eq_u32 s4, 100', workgroup (0, 0, 0), wave 0" in msg
    line = assert_one_line_fault("fault_runaway_counter.s", "--max-wave-instructions", "5000")
    assert "runaway kernel" in line and "fault_runaway_counter.s:14:" in line


def test_the_dispatch_budget_still_bounds_all_waves_together():
    msg = str(fault_of("fault_runaway_counter.s", max_instructions=5000))
    assert "kernel 'count_past' faulted: runaway kernel: instruction limit reached" in msg
    assert "5,000 wave-instructions" in msg and "--max-instructions" in msg


@pytest.mark.parametrize("outputs", [True, False], ids=["values", "sliced"])
def test_a_grid_of_runaway_waves_is_found_by_running_its_first_workgroup_alone(outputs):
    """256 waves loop side by side in the timed model, so none reaches its 3,000-instruction budget before
    the dispatch's 20,000 run out. The timing model first runs workgroup 0 alone (the runaway probe): its
    loop reads no memory another workgroup could change, so the probe's fault at the per-wave budget is the
    run's, the same report the functional run gives. Without the probe this would be the dispatch limit."""
    kw = {"max_instructions": 20_000, "max_wave_instructions": 3000}
    msg = str(fault_of("fault_runaway_grid.s", timing=True, outputs=outputs, **kw))
    assert "kernel 'loop_past_bound' faulted: runaway kernel: wave 0 executed more than 3,000 instructions, in " \
           "the loop at pc 0x1c..0x34 (lines 20-24)" in msg
    assert "workgroup (0, 0, 0), wave 0" in msg
    assert msg == str(fault_of("fault_runaway_grid.s", timing=False, **kw))


def test_the_probe_leaves_a_workgroup_that_waits_for_another_to_the_full_run():
    """Workgroup 0 spins (sc0 sc1 loads, s_sleep) on a flag the last of 16 workgroups sets: alone it never
    ends, but its loop may wait on others, so the probe's fault is not taken and the run completes."""
    kernel = api.load_kernel(fixture_path("spin_on_last_workgroup.s"))
    run = api.simulate(kernel, "cdna3", timing=True, check=True, max_wave_instructions=3000)
    assert run.outputs["flag"].tolist() == [1, 1]


@pytest.mark.parametrize("name, label, waits", [
    ("fault_runaway_grid.s", ".Lloop", False),              # a plain load and a counter: its own business
    ("fault_runaway_counter.s", ".Lloop", False),
    ("spin_on_last_workgroup.s", ".Lwait", True),           # sc0 sc1 load, s_sleep
    ("fault_barrier_spin_wait.s", ".Lwait", True),          # sc0 sc1 load
])
def test_which_loops_may_wait_on_other_workgroups(name, label, waits):
    from gpusim.exec.runaway import may_wait_on_others
    program = api.load_kernel(fixture_path(name)).program
    first = next(i for i, loc in enumerate(program.locs) if label + ":" in (
        fixture_path(name).read_text().splitlines()[loc.line - 2]))
    assert may_wait_on_others(program, first) is waits
    assert may_wait_on_others(program, 0) is True   # before any loop: nothing known


@pytest.mark.parametrize("path, loops", [
    ("fault_runaway_grid.s", True),                          # a backward s_cbranch
    ("spin_on_last_workgroup.s", True),
    ("../../../workloads/saxpy.s", False),                    # no backward branch: the runaway probe is skipped
])
def test_which_programs_have_loops(path, loops):
    from gpusim.exec.runaway import has_loops
    assert has_loops(api.load_kernel(fixture_path(path)).program) is loops


@pytest.mark.parametrize("flag", ["--max-wave-instructions", "--max-instructions", "--timeout"])
def test_a_budget_must_be_positive(flag):
    proc = run_cli("run", str(fixture_path("fault_runaway_counter.s")), flag, "0")
    assert proc.returncode == 2 and f"{flag} must be positive" in proc.stderr


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timed"])
def test_the_host_time_watchdog_stops_a_run_the_budgets_allow(timing):
    # 16 waves that would each run 10**12 instructions: only the watchdog ends it
    kernel = api.load_kernel(fixture_path("fault_runaway_counter.s"), grid="4,1,1", block="256,1,1")
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", timing=timing, max_instructions=10 ** 15, max_wave_instructions=10 ** 12,
                     timeout=0.5)
    msg = str(info.value)
    assert "kernel 'count_past' faulted: runaway kernel: still running after 0.5 s of host time (--timeout)" in msg
    assert "workgroup (0, 0, 0), wave" in msg


def test_a_watchdog_that_does_not_fire_changes_nothing():
    kernel = api.load_kernel(fixture_path("uninit_reads.s"))
    plain = api.simulate(kernel, "cdna3", timing=True)
    watched = api.simulate(kernel, "cdna3", timing=True, timeout=600)
    assert watched.cycles == plain.cycles and watched.counters == plain.counters


# ---------------------------------------------------------------- (d) barrier only some waves reach
def test_barrier_reached_by_one_wave_while_the_other_loops_with_no_way_out():
    """Wave 0 waits at s_barrier forever (real hardware hangs) while wave 1 is in a loop it can never leave:
    a barrier deadlock, found once nothing else can move, not at an instruction limit."""
    msg = str(fault_of("fault_barrier_half.s"))
    assert "kernel 'barrier_half' faulted: barrier deadlock: 1 other wave(s) of the workgroup wait at s_barrier " \
           "while wave 1 can never leave the loop at pc 0x1c..0x1c (line 18)" in msg
    assert "'s_branch .Lspin'" in msg and "workgroup (0, 0, 0), wave 1" in msg
    line = assert_one_line_fault("fault_barrier_half.s")
    assert "barrier deadlock" in line and "fault_barrier_half.s:18:" in line


def test_barrier_reached_by_one_wave_while_the_other_spins_on_a_flag():
    """Wave 1 spins on a flag that wave 0 sets only after the barrier: the loop has an exit, so no proof of a
    deadlock; wave 1's own budget ends it and the report names the wave waiting at the barrier."""
    msg = str(fault_of("fault_barrier_spin_wait.s", max_wave_instructions=5000))
    assert "kernel 'spin_wait' faulted: barrier deadlock: 1 other wave(s) of the workgroup wait at s_barrier " \
           "while wave 1 executed more than 5,000 instructions, in the loop at pc 0x38..0x4c (lines 24-28)" in msg
    assert "workgroup (0, 0, 0), wave 1" in msg


# ---------------------------------------------------------------- (e) a jump into the middle of an instruction
def test_setpc_to_a_non_instruction_address():
    msg = str(fault_of("fault_bad_jump.s"))
    assert "kernel 'bad_jump' faulted: jump to an address that is not an instruction" in msg
    assert re.search(r"at address 0x[0-9a-f]*6;", msg), msg
    assert "pc 0xc 's_setpc_b64 s[4:5]'" in msg
    line = assert_one_line_fault("fault_bad_jump.s")
    assert "fault_bad_jump.s:13:" in line


def test_fault_is_not_a_check_failure_even_with_check():
    proc = run_cli("run", str(fixture_path("fault_store_past_end.s")), "--check")
    assert proc.returncode == 3
    assert proc.stdout == ""


# ---------------------------------------------------------------- the timing model reports the same faults
@pytest.mark.parametrize("name, kw", [
    ("fault_store_past_end.s", {}), ("fault_lds_past_end.s", {}), ("fault_bad_jump.s", {}),
    ("fault_runaway.s", {}), ("fault_barrier_half.s", {}),
    ("fault_runaway_counter.s", {"max_instructions": 5000}),
    ("fault_runaway_counter.s", {"max_wave_instructions": 777}),
    ("fault_barrier_spin_wait.s", {"max_wave_instructions": 5000}),
])
def test_a_timed_run_reports_a_fault_like_the_functional_run(name, kw):
    assert str(fault_of(name, timing=True, **kw)) == str(fault_of(name, **kw))
    # without outputs the faulting store's data is skipped, its address still checked
    assert str(fault_of(name, timing=True, outputs=False, **kw)) == str(fault_of(name, **kw))


@pytest.mark.parametrize("kw", [{"timing": False}, {"timing": True}, {"timing": True, "check": False}],
                         ids=["functional", "timed", "timed-sliced"])
def test_an_address_at_or_above_2_to_the_63_faults_at_lane_0(kw):
    # a full wave's addresses are checked as one span; as signed numbers these are negative
    msg = str(fault_of("fault_load_high_address.s", **kw))
    assert "memory access outside every buffer at address 0x8000000000000000 (4 bytes)" in msg
    assert "past the end of buffer 'dst'" in msg
    assert re.search(r"workgroup \(0, 0, 0\), wave 0, lane 0\b", msg)


# ---------------------------------------------------------------- which instructions are in an endless loop
@pytest.mark.parametrize("name, endless", [
    ("fault_runaway.s", [1, 1, 1, 0]),              # s_mov falls into s_add / s_branch back (s_endpgm: an exit)
    ("fault_runaway_counter.s", [0, 0, 0, 0, 0]),   # s_cbranch_scc0 may leave
    ("fault_barrier_half.s", [0, 0, 0, 0, 0, 0, 1]),
])
def test_endless_instructions_are_those_no_exit_is_reachable_from(name, endless):
    from gpusim.exec.runaway import endless_instructions
    program = api.load_kernel(fixture_path(name)).program
    assert endless_instructions(program)[:len(endless)].tolist() == endless


# ---------------------------------------------------------------- runtime services gpusim does not provide
@pytest.mark.parametrize("mode", [{}, {"timing": True, "check": False}], ids=["functional", "timed"])
def test_a_kernel_that_calls_malloc_faults_in_the_heap_it_names(mode):
    fault = fault_of("fault_absent_service.s", **mode)
    msg = str(fault)
    assert ("memory access outside every buffer at address 0x7e0200000018 (8 bytes), in the device heap of malloc "
            "and free, given by the hidden argument hidden_heap_v1: gpusim runs no host beside the kernel") in msg
    assert "buffer 'dst'" not in msg   # not the nearest buffer: the service is named instead
    # the called function lies before the kernel: at 0x4, where the kernel's .p2align 8 puts it at 0x100
    assert "pc -0xfc 'global_load_dwordx2 v[2:3], v1, s[4:5] offset:24'" in msg
    assert fault.loc.line == 13


def test_a_kernel_that_calls_malloc_exits_3_with_one_line():
    line = assert_one_line_fault("fault_absent_service.s")
    assert "kernel 'heap_alloc' faulted" in line and "hidden_heap_v1" in line


@pytest.mark.parametrize("timing", [False, True])
def test_the_host_gpusim_plays_survives_a_hostcall_buffer_the_kernel_corrupted(timing):
    # a ready stack that cycles: the host answers, clears the ready flag, and the kernel ends
    assert_checks_pass("hostcall_cycle.s", checks=1, timing=timing)


def test_hidden_dynamic_lds_size_holds_the_launch_dynamic_lds():
    assert_checks_pass("dynamic_lds_size.s", checks=1, timing=False)


# ---------------------------------------------------------------- s_trap
@pytest.mark.parametrize("mode", [{}, {"timing": True, "check": False}, {"timing": True, "outputs": False}],
                         ids=["functional", "timed", "timed-sliced"])
def test_llvm_trap_ends_the_dispatch_and_llvm_debugtrap_goes_on(mode):
    fault = fault_of("fault_trap.s", **mode)
    assert (
        "kernel 'trap' faulted: s_trap 2, llvm.trap (__builtin_trap(), abort(), a failed assert): the trap handler "
        "halts the wave and puts the dispatch's queue in the error state; pc 0x2c 's_trap 2', workgroup (1, 0, 0), "
        "wave 0") in str(fault)
    assert fault.loc.line == 20   # not the s_trap 3 of line 13, which every wave passed


@pytest.mark.parametrize("trap, message", [
    ("3", None),
    ("0x102", "s_trap 2, llvm.trap"),   # the id is the immediate's low byte, as the hardware reads it
    ("7", "s_trap 7, a trap id the trap handler defines no use for"),
])
def test_the_trap_id_is_the_low_byte_of_the_immediate(tmp_path, trap, message):
    text = fixture_path("fault_trap.s").read_text().replace("s_trap 2", f"s_trap {trap}")
    path = tmp_path / "trap.s"
    path.write_text(text)
    kernel = api.load_kernel(path)
    if message is None:
        dst = api.simulate(kernel, "cdna3", timing=False).outputs["dst"]
        assert (dst == np.arange(256)).all()   # every wave went on past both traps
        return
    with pytest.raises(KernelFault, match=message):
        api.simulate(kernel, "cdna3")


def test_a_loc_directive_in_assembly_a_user_keeps_does_not_move_the_fault(tmp_path):
    # .file/.loc name a fault's source line only in a frontend's compiler output (HIP, Triton); in a .s file the
    # user runs, the fault stays at the assembly's own line
    text = fixture_path("fault_trap.s").read_text().replace(
        "trap:\n", 'trap:\n\t.file 1 "/src" "trap.cl"\n\t.loc 1 42 7\n')
    path = tmp_path / "with_loc.s"
    path.write_text(text)
    with pytest.raises(KernelFault) as info:
        api.simulate(api.load_kernel(path), "cdna3", timing=False)
    assert (info.value.loc.file, info.value.loc.line) == (str(path), 22)
