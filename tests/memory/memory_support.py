"""Helpers shared by the memory-model tests."""


def py(kernel):
    """py returns a numba kernel's pure-Python body (itself when NUMBA_DISABLE_JIT=1 made it plain Python)."""
    return getattr(kernel, "py_func", kernel)
