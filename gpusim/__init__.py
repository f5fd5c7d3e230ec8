"""gpusim: a cycle-approximate simulator of AMD CDNA GPUs running real AMDGCN assembly.

The public API (:mod:`gpusim.api`): ``load_arch``, ``load_kernel``, ``kernel_from_text``,
``simulate`` and ``Result``. It is imported lazily so that ``import gpusim``
and the CLI's ``--help`` stay fast.
"""
__version__ = "0.1.0"
__all__ = ["load_arch", "load_kernel", "kernel_from_text", "simulate", "kernel_occupancy", "Kernel", "Result"]


def __getattr__(name):
    if name in __all__:
        from gpusim import api
        return getattr(api, name)
    raise AttributeError(f"module 'gpusim' has no attribute '{name}'")
