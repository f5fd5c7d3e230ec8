"""Keeping numba's on-disk caches consistent with gpusim's sources.

numba invalidates a cached function when its own file changes, but not when
a function it calls, or a constant it reads from another module, changes.
``ensure_fresh`` hashes every source file the compiled code can depend on (the
``kernels`` packages and ``gpusim/asm``, whose tables and constants they read)
and, when the hash differs from the one recorded beside the caches, drops the
cache files of every ``kernels`` package, so an edited or upgraded kernel never
runs stale machine code, while edits elsewhere (CLI, reports, sweeps) do not
cost a recompile. The caches are wherever numba keeps them: the package's
``__pycache__``, or under ``NUMBA_CACHE_DIR`` when that is set, or numba's
user-wide folder for a read-only install. The same hash, taken once per process
when its first ``kernels`` package is imported, is also part of the freshness
stamp numba writes into each cached function's index (``_StampedLocator``): a
process that imported the sources before they changed, and finishes compiling
after a newer process refreshed the caches, saves its code under its own hash,
which no process of the newer sources loads (before, it landed among the fresh
caches, and later runs of a function whose own file had not changed loaded it). tests/test_jitcache.py checks that
kernels import nothing else.

The functional run (``run_grid``) and the timing model (``run_timed``) call the
same instruction executors (``exec_valu``, ``exec_salu``, ...); those are
cached on their own, so whichever entry point compiles second loads them from
disk instead of compiling them again (saxpy's first ``--no-timing`` run after
its first timed run: 67 -> 31 CPU seconds). The same goes for the skipped
grid's ``run_skipped``, which the timing model and ``run_apart`` both call.

``compiled_call`` calls a cached numba entry point (the functional run's
``run_grid``, the timing model's ``run_timed``, the sampled run's ``run_apart``)
and, when numba is about to compile it rather than load it, first says so on
stderr, with what compiles and for about how long (COMPILES): a cold compile
takes minutes, and a silent pause that long looks like a hang.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_KERNEL_DIRS = ("exec/kernels", "engine/kernels", "memory/kernels")
HASHED_DIRS = _KERNEL_DIRS + ("asm",)   # what compiled code reads; see the module docstring
_checked = False
_announced: set = set()   # the entry points whose compile this process announced
# What each cached entry point compiles, and how long its cold compile takes (wall seconds on the 2-core
# development machine, numba 0.68, 2026-11-28, each into an empty NUMBA_CACHE_DIR: `gpusim run
# workloads/saxpy.s` 245-255 s; `gpusim run workloads/saxpy.s --no-timing` 89 s; the grid-sampled
# `gpusim run workloads/stream_triad_scalar.s` with the timing model and run_skipped cached, 14 s of compiling
# in its 17 s). The timing model's loop inlines the functional executor and the sampled run's one sliced copy
# of it (gpusim.engine.kernels.sliced_run); the functional run inlines the executor once more; run_apart links
# the cached run_skipped.
COMPILES = {
    "run_timed": ("the timing model", 250),
    "run_grid": ("the functional executor", 90),
    "run_apart": ("the sampled run's skipped middle", 15),
}
COMPILE_NOTICE = ("gpusim: compiling the simulator's kernels once ({what}{duration}); later runs load them "
                  "from the cache")


def _source_hash() -> str:
    """_source_hash digests the names and contents of the sources under HASHED_DIRS."""
    digest = hashlib.sha256()
    for src in sorted(f for d in HASHED_DIRS for f in (_PACKAGE / d).rglob("*.py")):
        digest.update(str(src.relative_to(_PACKAGE)).encode())
        digest.update(src.read_bytes())
    return digest.hexdigest()


def cache_dir(rel: str) -> Path:
    """cache_dir is the folder numba keeps the compiled code of package ``gpusim/<rel>`` in.

    It asks numba's own cache locators, in numba's order, about a module of that package, so that
    ``NUMBA_CACHE_DIR`` and read-only installs are followed; ``<rel>/__pycache__`` if numba's internals
    are not as expected.
    """
    probe = str(_PACKAGE / rel / "__init__.py")
    try:
        from numba.core import caching

        def stub():
            pass

        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")   # older numba: _CacheImpl
        for locator_class in impl._locator_classes:
            locator = locator_class.from_function(stub, probe)
            if locator is not None:
                return Path(locator.get_cache_path())
    except (ImportError, AttributeError, TypeError):
        pass
    return _PACKAGE / rel / "__pycache__"


class _StampedLocator:
    """_StampedLocator finds the cache of a function of a ``kernels`` package where numba's own locators would,
    and stamps its freshness with the process's source hash as well as the function's own file, so that numba
    loads only what was compiled from the sources this process runs (see the module docstring).

    Registered first in numba's list of locator classes by ensure_fresh; ``from_function`` answers None for
    every other function, which numba's own locators then place as before."""

    source_hash = ""
    inner_classes: tuple = ()

    def __init__(self, inner):
        self._inner = inner

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), self.source_hash)

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _is_kernel_file(py_file):
            return None
        for locator_class in cls.inner_classes:
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None


def _is_kernel_file(py_file) -> bool:
    """_is_kernel_file tells whether ``py_file`` is a module of one of gpusim's ``kernels`` packages."""
    try:
        rel = Path(py_file).resolve().relative_to(_PACKAGE).as_posix()
    except (ValueError, OSError):
        return False
    return any(rel.startswith(d + "/") for d in _KERNEL_DIRS)


def _stamp_caches_with(value: str) -> None:
    """_stamp_caches_with registers _StampedLocator, first, with numba's cache machinery, stamping with source
    hash ``value``; leaves numba as it is if its internals are not as expected (the stamp file still guards)."""
    try:
        from numba.core import caching

        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
        classes = [c for c in impl._locator_classes if c is not _StampedLocator]
        _StampedLocator.inner_classes = tuple(classes)
        _StampedLocator.source_hash = value
        impl._locator_classes = [_StampedLocator] + classes
    except (ImportError, AttributeError, TypeError):
        pass


def ensure_fresh() -> None:
    """ensure_fresh clears numba cache files of all kernel packages if any gpusim source changed, and stamps the
    caches this process writes with the sources' hash (_StampedLocator)."""
    global _checked
    if _checked:
        return
    _checked = True
    value = _source_hash()
    _stamp_caches_with(value)
    for rel in _KERNEL_DIRS:
        cache = cache_dir(rel)
        stamp = cache / "gpusim-kernels.stamp"
        try:
            if stamp.exists() and stamp.read_text() == value:
                continue
            cache.mkdir(parents=True, exist_ok=True)
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink()
            stamp.write_text(value)
        except OSError:
            # A cache folder that cannot be written holds no cache; numba then compiles in memory.
            pass


def timing_model_cached() -> bool:
    """timing_model_cached tells whether the timing model's compiled code is on disk and current."""
    ensure_fresh()
    return any(cache_dir("engine/kernels").glob("cu.run_timed-*.nbi"))


def will_compile(dispatcher, args: tuple) -> bool:
    """will_compile tells whether calling numba ``dispatcher`` with ``args`` compiles machine code.

    False when this process already compiled that signature, or numba's on-disk cache holds it for
    the current source (what numba's own loader checks); False too when ``dispatcher`` is not a numba
    dispatcher (NUMBA_DISABLE_JIT). Falls back to "nothing compiled in this process yet" if numba's
    internals are not as expected (or the function is not cached).
    """
    if not hasattr(dispatcher, "overloads"):
        return False
    try:
        sig = tuple(dispatcher.typeof_pyval(a) for a in args)
        if sig in dispatcher.overloads:
            return False
        cache = dispatcher._cache
        if not hasattr(cache, "_cache_file"):   # not cached on disk: every new signature compiles
            return True
        index = cache._cache_file._load_index()
        return cache._index_key(sig, dispatcher.targetctx.codegen()) not in index
    except Exception:   # numba internals moved: a coarser answer, never a failure of the run
        return not dispatcher.overloads


def compile_notice(name: str) -> str:
    """compile_notice is the line printed before entry point ``name`` compiles: what it is and how long it
    takes (COMPILES), or just its name for another function."""
    what, seconds = COMPILES.get(name, (name, None))
    if seconds is None:
        duration = ""
    elif seconds < 90:
        duration = f", about {seconds} s on 2 cores"
    else:
        duration = f", about {round(seconds / 60 * 2) / 2:g} minutes on 2 cores"
    return COMPILE_NOTICE.format(what=what, duration=duration)


def compiled_call(dispatcher, *args):
    """compiled_call returns ``dispatcher(*args)``, first printing its compile_notice on stderr, once per entry
    point and process, when that call is about to compile (a cold or stale cache)."""
    ensure_fresh()
    name = getattr(dispatcher, "__name__", repr(dispatcher))
    if name not in _announced and will_compile(dispatcher, args):
        _announced.add(name)
        print(compile_notice(name), file=sys.stderr, flush=True)
    return dispatcher(*args)
