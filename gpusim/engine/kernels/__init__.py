"""numba kernels of the timing engine (the only numba code of gpusim.engine)."""
from gpusim.jitcache import ensure_fresh

ensure_fresh()
