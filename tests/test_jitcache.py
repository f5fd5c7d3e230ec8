"""The numba cache stamp covers every gpusim module that compiled code can read."""
import ast
from pathlib import Path

from gpusim import jitcache

PACKAGE = Path(jitcache.__file__).parent


def _gpusim_imports(path: Path) -> set:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gpusim"):
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("gpusim"))
    return names


def _covered(module: str) -> bool:
    rel = module.split(".")[1:]
    if rel[:1] == ["jitcache"]:
        return True
    return any("/".join(rel).startswith(d) for d in jitcache.HASHED_DIRS)


def test_kernels_import_only_hashed_modules():
    kernel_files = [f for d in jitcache._KERNEL_DIRS for f in (PACKAGE / d).glob("*.py")]
    assert len(kernel_files) > 10
    outside = {(f.name, m) for f in kernel_files for m in _gpusim_imports(f) if not _covered(m)}
    assert outside == set(), "a kernel reads a module whose edits would not refresh the numba caches"


def test_the_hash_changes_with_kernel_and_asm_sources_only(tmp_path, monkeypatch):
    for d in jitcache.HASHED_DIRS + ("sweep",):
        (tmp_path / d).mkdir(parents=True)
        (tmp_path / d / "a.py").write_text("X = 1\n")
    monkeypatch.setattr(jitcache, "_PACKAGE", tmp_path)
    first = jitcache._source_hash()
    (tmp_path / "sweep" / "a.py").write_text("X = 2\n")
    assert jitcache._source_hash() == first
    (tmp_path / "asm" / "a.py").write_text("X = 2\n")
    second = jitcache._source_hash()
    assert second != first
    (tmp_path / "memory/kernels" / "a.py").write_text("X = 2\n")
    assert jitcache._source_hash() != second


def test_a_numba_cache_dir_set_by_the_user_is_kept_fresh_too(tmp_path, monkeypatch):
    from numba.core import config
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    cache = jitcache.cache_dir("engine/kernels")
    assert tmp_path in cache.parents
    cache.mkdir(parents=True, exist_ok=True)
    stale = cache / "cu.run_timed-236.py311.nbi"
    stale.write_text("compiled from an older source")
    (cache / "gpusim-kernels.stamp").write_text("an older source hash")
    monkeypatch.setattr(jitcache, "_checked", False)
    jitcache.ensure_fresh()
    assert not stale.exists()
    assert (cache / "gpusim-kernels.stamp").read_text() == jitcache._source_hash()


def test_will_compile_is_true_until_the_signature_is_compiled():
    from numba import njit

    from gpusim.jitcache import will_compile

    @njit
    def twice(x):
        return 2 * x

    assert will_compile(twice, (3,))
    assert twice(3) == 6
    assert not will_compile(twice, (4,))
    assert will_compile(twice, (1.5,))   # another signature compiles again
    assert not will_compile(lambda x: x, (1,))   # not a numba dispatcher (NUMBA_DISABLE_JIT): nothing compiles


def test_compiled_call_announces_each_entry_point_compile_once(capsys, monkeypatch):
    from numba import njit

    from gpusim import jitcache

    @njit
    def plus(a, b):
        return a + b

    @njit
    def run_grid(a):   # named as the functional run's entry point: its notice says what and how long
        return -a

    monkeypatch.setattr(jitcache, "_announced", set())
    assert jitcache.compiled_call(plus, 1, 2) == 3
    assert jitcache.compiled_call(plus, 1.5, 2.0) == 3.5   # compiles again, announced already
    assert jitcache.compiled_call(run_grid, 2) == -2
    assert jitcache.compiled_call(run_grid, 3) == -3   # loaded: nothing to announce
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "gpusim: compiling the simulator's kernels once (plus); later runs load them from the cache",
        "gpusim: compiling the simulator's kernels once (the functional executor, about 1.5 minutes on 2 cores); "
        "later runs load them from the cache",
    ]


def test_compile_notice_rounds_long_compiles_to_half_minutes(monkeypatch):
    from gpusim import jitcache

    monkeypatch.setitem(jitcache.COMPILES, "run_timed", ("the timing model", 250))
    assert "(the timing model, about 4 minutes on 2 cores)" in jitcache.compile_notice("run_timed")
    monkeypatch.setitem(jitcache.COMPILES, "run_timed", ("the timing model", 60))
    assert "(the timing model, about 60 s on 2 cores)" in jitcache.compile_notice("run_timed")


def _import_probe(path, name="gpusim_stamp_probe"):
    """_import_probe imports the module at ``path`` afresh under one fixed name (numba names a function's cache
    files after its module), as a new process would."""
    import importlib.util
    import sys

    sys.modules.pop(name, None)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_code_compiled_from_other_sources_is_never_loaded(tmp_path, monkeypatch):
    # A process that imported the kernels before an edit (or an upgrade) may finish compiling after a newer process
    # refreshed the caches; what it saves must not be loaded by the newer sources' processes, even for a function
    # whose own file did not change (a constant or callee of another module did).
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    monkeypatch.setattr(impl, "_locator_classes", list(impl._locator_classes))   # all restored afterwards
    monkeypatch.setattr(jitcache._StampedLocator, "source_hash", jitcache._StampedLocator.source_hash)
    monkeypatch.setattr(jitcache._StampedLocator, "inner_classes", jitcache._StampedLocator.inner_classes)
    package = tmp_path / "gpusim"
    (package / "engine" / "kernels").mkdir(parents=True)
    probe = package / "engine" / "kernels" / "probe.py"
    probe.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.setattr(jitcache, "_PACKAGE", package)

    jitcache._stamp_caches_with("sources before the edit")
    old = _import_probe(probe)
    assert old.twice(21) == 42   # compiled and saved under the old sources' hash
    assert not jitcache.will_compile(_import_probe(probe).twice, (1,))   # the same sources load it

    jitcache._stamp_caches_with("sources after the edit")
    assert jitcache.will_compile(_import_probe(probe).twice, (1,))

    outside = tmp_path / "elsewhere.py"   # a function outside gpusim's kernels keeps numba's own stamp
    outside.write_text(probe.read_text())
    assert _import_probe(outside, "gpusim_stamp_outside").twice(2) == 4
    jitcache._stamp_caches_with("sources before the edit")
    assert not jitcache.will_compile(_import_probe(outside, "gpusim_stamp_outside").twice, (1,))
