"""MemoryArrays: the memory hierarchy's state and counter arrays as one named bundle.

numba compiles a namedtuple of arrays into a struct whose fields are resolved at compile time, so the hot
loops read ``M.l2_tags`` at the cost of a positional argument, and a level added to the model is a field
here rather than a renumbering. Built by gpusim.memory.hierarchy.MemoryLevels (shapes documented there).
"""
from collections import namedtuple

MemoryArrays = namedtuple("MemoryArrays", (
    "params",                                                   # int64[N_PARAMS], access.P_* columns
    "l1_tags", "l1_stamps", "l1_ready", "l1_free", "l1_mshr", "tcp",          # vector L1 per CU
    "sq_tags", "sq_stamps", "sq_ready", "sqc",                                # scalar cache
    "l2_tags", "l2_stamps", "l2_ready", "l2_dirty", "l2_free", "l2_mshr", "tcc",   # L2 per XCD and channel
    "fabric_free", "fabric_full",                               # XCDs' ports to the data fabric
    "mall_tags", "mall_stamps", "mall_ready", "mall_dirty", "mall_free", "mall_ctr",   # MALL slices
    "hbm_free", "hbm_queue", "hbm_ctr",                                       # HBM channels
    "dram_params", "dram_map", "dram_bank", "dram_bg", "dram_pc", "dram_wq",  # HBM DRAM timing (kernels/dram.py)
    "seq",                                                      # int64[1], the replacement stamp clock
    "tr",                                                       # translation.TranslationArrays: UTCL1, UTCL2
))
