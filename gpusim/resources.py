"""Locating the data folders (``archs/``, ``isa/``) shipped with gpusim.

In a source checkout or editable install they sit at the repository root,
beside the ``gpusim`` package; in a built wheel they are packaged as
``gpusim/_data/<name>``. :func:`data_dir` finds either.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """data_dir returns the folder of shipped data called ``name`` ('archs' or 'isa')."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"gpusim data folder '{name}' is missing from the installation")
