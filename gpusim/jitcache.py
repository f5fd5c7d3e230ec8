"""Keeping numba's on-disk caches consistent with the kernel sources.

numba invalidates a cached function when its own file changes, but not when
a function it calls (and compiled into itself) changes. ``ensure_fresh``
hashes every source file of a ``kernels`` package and drops that package's
cache files when the hash differs from the one recorded with them, so an
edited or upgraded kernel never runs stale machine code.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


def ensure_fresh(package_dir: str) -> None:
    """ensure_fresh clears ``package_dir/__pycache__`` numba files if any ``*.py`` there changed."""
    root = Path(package_dir)
    digest = hashlib.sha256()
    for src in sorted(root.glob("*.py")):
        digest.update(src.name.encode())
        digest.update(src.read_bytes())
    stamp_value = digest.hexdigest()
    cache = root / "__pycache__"
    stamp = cache / "gpusim-kernels.stamp"
    try:
        if stamp.exists() and stamp.read_text() == stamp_value:
            return
        cache.mkdir(exist_ok=True)
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink()
        stamp.write_text(stamp_value)
    except OSError:
        # A read-only install cannot hold a cache; numba then compiles in memory.
        pass
