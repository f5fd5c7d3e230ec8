"""Architecture descriptions: YAML files -> validated, frozen :class:`Arch` objects.

``load_arch('cdna3')`` loads a shipped file, ``load_arch('my.yaml')`` any
file (``extends:`` merges it over a parent), ``arch_overrides(arch, {...})``
derives a what-if variant, ``occupancy(arch, ...)`` says how many waves of a
kernel fit on a CU and what limits them, ``format_arch(arch)`` renders the
resolved parameters for ``gpusim arch show``.
"""
from .format import format_arch
from .loader import arch_overrides, builtin_arch_names, load_arch, load_arch_text
from .occupancy import (KernelDoesNotFit, KernelResources, Occupancy, descriptor_occupancy, extra_sgprs,
                        kernel_resources, occupancy)
from .schema import Arch, key_paths

__all__ = [
    "Arch", "KernelDoesNotFit", "KernelResources", "Occupancy", "arch_overrides",
    "builtin_arch_names", "descriptor_occupancy", "extra_sgprs", "format_arch", "kernel_resources", "key_paths",
    "load_arch", "load_arch_text", "occupancy",
]
