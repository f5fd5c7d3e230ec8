"""Checking the command line's output paths before any work starts.

A run can take minutes; an output path that cannot be written must be refused
before it, not found out by a traceback after it. ``check_output_file`` and
``check_output_folder`` are the one place every output flag (``--json``,
``--csv``, ``--trace``, ``-o``) is checked: each raises a UsageError that names
the flag, the path and why it cannot be written, or returns the path.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Optional

from gpusim.errors import UsageError

IMAGE_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def _refuse(flag: str, path: str, why: str) -> UsageError:
    return UsageError(f"{flag} {path}: {why}")


@contextmanager
def writing(flag: str, path) -> Iterator[None]:
    """writing turns an OSError while option ``flag``'s file ``path`` is written into a UsageError naming both: what
    the checks above cannot foresee (a disk that fills, /dev/full, a folder such as /proc that root may "write"
    but not create files in)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as err:
        raise _refuse(flag, str(path), f"cannot be written: {err.strerror or err}") from None


def _nearest_existing(path: Path) -> Path:
    """_nearest_existing is ``path`` or its closest ancestor that exists (the working directory at worst)."""
    probe = path
    while not probe.exists() and not probe.is_symlink():
        if probe.parent == probe:
            break
        probe = probe.parent
    return probe


def check_output_file(flag: str, path: Optional[str], suffixes: Optional[Iterable[str]] = None) -> Optional[str]:
    """check_output_file refuses an output file ``path`` of option ``flag`` that cannot be written.

    The file's folder must exist, be a folder and be writable; the path must not be a folder, and an
    existing file must be writable. ``suffixes`` (with dots) restricts the file's extension. None and
    ``-`` (standard output) pass unchanged. Returns ``path``.
    """
    if path is None or path == "-":
        return path
    if not path.strip():
        raise _refuse(flag, repr(path), "empty file name")
    target = Path(path)
    if target.is_dir():
        raise _refuse(flag, path, "is a folder; name a file")
    if suffixes is not None:
        allowed = tuple(suffixes)
        if target.suffix.lower() not in allowed:
            raise _refuse(flag, path, f"say a file ending in {', '.join(allowed)}")
    folder = target.parent
    if not folder.exists():
        blocker = _nearest_existing(folder)
        if blocker.exists() and not blocker.is_dir():
            raise _refuse(flag, path, f"{blocker} is a file, not a folder")
        raise _refuse(flag, path, f"no folder {folder}; create it first")
    if not folder.is_dir():
        raise _refuse(flag, path, f"{folder} is a file, not a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise _refuse(flag, path, "the file is not writable")
    if not target.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise _refuse(flag, path, f"folder {folder} is not writable")
    return path


def check_output_folder(flag: str, path: Optional[str]) -> Optional[str]:
    """check_output_folder refuses an output folder ``path`` of option ``flag`` that cannot be made or written.

    An existing path must be a writable folder; a new one must lie below a writable folder (missing
    folders in between are created by the command). None passes unchanged. Returns ``path``.
    """
    if path is None:
        return path
    if not str(path).strip():
        raise _refuse(flag, repr(path), "empty folder name")
    target = Path(path)
    if target.exists():
        if not target.is_dir():
            raise _refuse(flag, str(path), "is a file, not a folder")
        if not os.access(target, os.W_OK | os.X_OK):
            raise _refuse(flag, str(path), "the folder is not writable")
        return path
    base = _nearest_existing(target)
    if base.exists() and not base.is_dir():
        raise _refuse(flag, str(path), f"{base} is a file, not a folder")
    if base.exists() and not os.access(base, os.W_OK | os.X_OK):
        raise _refuse(flag, str(path), f"folder {base} is not writable")
    return path
