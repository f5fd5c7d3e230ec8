"""The dependency scoreboard's register lists: what each instruction reads and writes, registers renumbered
densely over the ones the program touches (gpusim.engine.scoreboard)."""
from pathlib import Path

import gpusim
from gpusim.engine.scoreboard import register_lists

DATA = Path(__file__).parent / "data"
CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "gfx942"


def _lists(path):
    regs = register_lists(gpusim.load_kernel(path).program.ops)
    reads = [list(regs.reads[regs.reads_at[i]:regs.reads_at[i + 1]]) for i in range(len(regs.reads_at) - 1)]
    writes = [list(regs.writes[regs.writes_at[i]:regs.writes_at[i + 1]]) for i in range(len(regs.writes_at) - 1)]
    return regs, reads, writes


def test_a_valu_chain_touches_two_registers():
    # v_mov_b32 v2, 1.0 then eight v_add_f32 v1, v1, v2 and s_endpgm
    regs, reads, writes = _lists(DATA / "valu_chain.s")
    assert regs.entries == 2
    v2, = writes[0]
    v1, = writes[1]
    assert reads[0] == [] and sorted(reads[1]) == sorted([v1, v2])
    assert all(w == [v1] for w in writes[1:9]) and reads[9] == writes[9] == []


def test_scalar_and_vector_registers_of_one_number_are_distinct_entries():
    # saxpy: s_load_dwordx2 s[4:5] ... global_load_dword v4 / v5 ... v_fmac_f32 v5, s5, v4
    regs, reads, writes = _lists(CORPUS / "saxpy.s")
    s45 = writes[0]
    assert len(s45) == 2
    v4 = writes[12]
    assert len(v4) == 1 and v4[0] not in s45
    assert set(reads[15]) >= {s45[1], v4[0]}   # v_fmac reads s5 and v4
    assert regs.entries == len(set(e for x in reads + writes for e in x))
