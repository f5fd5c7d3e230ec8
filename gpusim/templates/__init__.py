"""Kernel templates: Python that writes AMDGCN assembly register by register (``gpusim gen``).

``generate("gemm", m=256, n=256, k=64)`` returns a complete ``.s`` (launch header, code,
``.amdhsa_kernel`` block) for any registered family; ``templates()`` lists them. Each family is one
module that a mentor can read next to its output: every instruction comes from one ``w.op(...)``.
"""
from gpusim.templates.registry import Param, Template, TemplateError, generate, template, templates

__all__ = ["Param", "Template", "TemplateError", "generate", "template", "templates"]
