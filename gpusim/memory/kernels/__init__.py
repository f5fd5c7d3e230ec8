"""numba kernels of the memory model: coalescer, caches, channels, bounded queues, the miss path."""
