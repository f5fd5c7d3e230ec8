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
its first timed run: 67 -> 31 CPU seconds).

``compiled_call`` calls a cached numba entry point (the functional run's
``run_grid``, the timing model's ``run_timed``) and, when numba is about to
compile it rather than load it, first says so once on stderr: a cold compile
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
_announced = False
# CPU seconds of a cold compile on a 2-core machine, measured (see the commit that set them): the timing
# model's loop (with the functional executor it inlines) and the functional run alone
COMPILE_SECONDS = 80
COMPILE_NOTICE = ("gpusim: compiling the simulator's kernels once (about {seconds} s on 2 cores); later runs load "
                  "them from the cache")


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


def compiled_call(dispatcher, *args):
    """compiled_call returns ``dispatcher(*args)``, first printing COMPILE_NOTICE once per process on stderr
    when that call is about to compile (a cold or stale cache)."""
    global _announced
    ensure_fresh()
    if not _announced and will_compile(dispatcher, args):
        _announced = True
        print(COMPILE_NOTICE.format(seconds=COMPILE_SECONDS), file=sys.stderr, flush=True)
    return dispatcher(*args)
