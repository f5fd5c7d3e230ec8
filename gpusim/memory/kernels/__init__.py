"""numba kernels of the memory model: coalescer, caches, channels, bounded queues, the miss path."""
from gpusim.jitcache import ensure_fresh

ensure_fresh()
