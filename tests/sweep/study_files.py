"""Helpers the sweep tests share: writing a study file and loading one that must be refused."""
from pathlib import Path

import pytest

from gpusim.sweep import StudyError, load_study


def write(folder: Path, text: str, name: str = "study.yaml") -> Path:
    """write puts ``text`` in ``folder / name`` and returns that path."""
    path = folder / name
    path.write_text(text)
    return path


def refused(folder: Path, text: str) -> str:
    """refused loads ``text`` as a study and returns the one-line StudyError it must raise."""
    with pytest.raises(StudyError) as err:
        load_study(write(folder, text))
    assert "\n" not in str(err.value)
    return str(err.value)
