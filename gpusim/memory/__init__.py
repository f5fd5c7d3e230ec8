"""The memory model: coalescer, caches (L1, scalar, L2, MALL) and HBM channels."""
from gpusim.memory.hierarchy import MemoryLevels

__all__ = ["MemoryLevels"]
