"""numba kernels of the functional executor (the only numba code of gpusim.exec)."""
from gpusim.jitcache import ensure_fresh

ensure_fresh()
