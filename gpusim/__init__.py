"""gpusim: a cycle-approximate simulator of AMD CDNA GPUs running real AMDGCN assembly.

The public API (:mod:`gpusim.api`): ``load_arch``, ``load_kernel``, ``kernel_from_text``,
``simulate`` and ``Result``; for applications of many kernels, copies and collectives over one GPU or
many, ``simulate_program`` (:mod:`gpusim.system`). It is imported lazily so that ``import gpusim``
and the CLI's ``--help`` stay fast.
"""
__version__ = "0.1.0"
__all__ = ["load_arch", "load_kernel", "kernel_from_text", "simulate", "kernel_occupancy", "Kernel", "Result",
           "simulate_program"]


def __getattr__(name):
    if name == "simulate_program":
        from gpusim.system.simulate import simulate_program
        return simulate_program
    if name in __all__:
        from gpusim import api
        return getattr(api, name)
    raise AttributeError(f"module 'gpusim' has no attribute '{name}'")
