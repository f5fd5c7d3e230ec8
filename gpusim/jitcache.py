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
user-wide folder for a read-only install. tests/test_jitcache.py checks that
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


def ensure_fresh() -> None:
    """ensure_fresh clears numba cache files of all kernel packages if any gpusim source changed."""
    global _checked
    if _checked:
        return
    _checked = True
    value = _source_hash()
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
