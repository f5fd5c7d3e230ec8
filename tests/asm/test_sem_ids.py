"""The semantic ids: every module constant is its name's index in NAMES (the executor dispatches on the
constants, the ISA table names the ids), and the unit ranges the interpreter routes by follow one another."""
from gpusim.asm import sems


def test_every_constant_is_its_index_in_names():
    wrong = [(n, getattr(sems, n, None), i) for i, n in enumerate(sems.NAMES) if getattr(sems, n, None) != i]
    assert not wrong, wrong[:5]


def test_the_unit_ranges_are_ordered_and_cover_every_id():
    ends = [sems.SALU_END, sems.FLOW_END, sems.VALU_END, sems.MFMA_END, sems.SMEM_END, sems.VMEM_END,
            sems.LDS_END]
    assert ends == sorted(ends) and ends[-1] == len(sems.NAMES)
    assert sems.NAMES[sems.SALU_END] == "S_NOP" and sems.NAMES[sems.VALU_END] == "V_MFMA"
