"""A wave that runs past the last instruction of the code faults like a GPU, in every mode.

llvm-mc assembles a kernel without s_endpgm, or one that branches to a label after its last instruction,
so they are valid input; the wave then runs off the end of the code. The encoder ends every Program with
an end-of-text sentinel row (gpusim.asm.program.PAST_END) that executing faults with "pc 0x.. is past
the end of the kernel", naming kernel, pc, workgroup and wave (exit 3), where the interpreter used to index
past its arrays (a segfault or glibc heap corruption) and the value slice raised IndexError.
"""
from __future__ import annotations

import pytest

from exec_support import REPO, fixture_path, run_cli

from gpusim import api
from gpusim.asm.program import PAST_END, M_SUB
from gpusim.asm import sems
from gpusim.errors import KernelFault

MODES = {"functional": {}, "timed": {"timing": True, "check": True}, "timed-sliced": {"timing": True, "outputs": False}}


def fault_message(name: str, **kw) -> KernelFault:
    kernel = api.load_kernel(fixture_path(name))
    with pytest.raises(KernelFault) as info:
        api.simulate(kernel, "cdna3", **kw)
    return info.value


@pytest.mark.parametrize("mode", MODES)
def test_a_kernel_without_s_endpgm_faults_past_its_last_instruction(mode):
    err = fault_message("fault_no_endpgm.s", **MODES[mode])
    assert str(err).endswith(
        "error: kernel 'no_endpgm' faulted: pc 0x18 is past the end of the kernel (its code ends with "
        "'global_store_dword v1, v0, s[4:5]' at pc 0x10) and no s_endpgm ended the wave; pc 0x18, "
        "workgroup (0, 0, 0), wave 0")
    assert err.exit_code == 3
    assert err.loc.line == 13   # the last instruction, which the wave ran past


@pytest.mark.parametrize("mode", MODES)
def test_a_branch_to_a_label_after_the_last_instruction_faults(mode):
    msg = str(fault_message("fault_branch_to_end.s", **MODES[mode]))
    assert ("kernel 'branch_to_end' faulted: pc 0xc is past the end of the kernel (its code ends with "
            "'s_endpgm' at pc 0x8) and no s_endpgm ended the wave; pc 0xc, workgroup (0, 0, 0), wave 0") in msg


@pytest.mark.parametrize("mode", MODES)
def test_s_setpc_to_the_end_address_faults_past_the_end(mode):
    msg = str(fault_message("fault_setpc_to_end.s", **MODES[mode]))
    assert "kernel 'setpc_to_end' faulted: pc 0x14 is past the end of the kernel" in msg
    assert "pc 0x14, workgroup (0, 0, 0), wave 0" in msg


def test_the_cli_reports_the_fault_in_one_line_with_exit_3():
    for flags in ((), ("--no-timing",)):
        proc = run_cli("run", str(fixture_path("fault_no_endpgm.s")), "--check", *flags)
        assert proc.returncode == 3, proc.stderr
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "fault_no_endpgm.s:13:2: error: kernel 'no_endpgm' faulted: pc 0x18 is past" \
            in lines[0], proc.stderr


def test_the_sentinel_is_not_an_instruction():
    kernel = api.load_kernel(fixture_path("fault_no_endpgm.s"))
    p = kernel.program
    assert len(p) == 4 and p.rows == 5
    assert p.sem[4] == sems.S_ENDPGM and p.mods[4, M_SUB] == PAST_END
    assert p.pc_bytes[4] == 0x18   # the address just past the last instruction
    assert p.mods[3, M_SUB] != PAST_END


@pytest.mark.parametrize("mode", MODES)
def test_counters_of_a_normal_kernel_do_not_count_the_sentinel(mode):
    kernel = api.load_kernel(REPO / "tests" / "data" / "corpus" / "gfx942" / "saxpy.s")
    r = api.simulate(kernel, "cdna3", **MODES[mode])
    # 64 waves run 17 instructions and s_endpgm, except the last (work-items 4032.. >= n = 4000), which
    # skips the 11 of the body
    assert r.counters["GPUSIM_INSTS_TOTAL"] == 63 * 18 + 7
    assert r.counters["SQ_WAVES"] == 64
