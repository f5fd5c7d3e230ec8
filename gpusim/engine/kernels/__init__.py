"""numba kernels of the timing engine (the only numba code of gpusim.engine)."""
