"""Fixtures shared by every test folder."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def cli(tmp_path):
    """cli runs ``python -m gpusim.cli ARGS`` with this checkout importable, in the test's tmp_path unless
    ``cwd`` says otherwise, and returns the CompletedProcess (stdout and stderr as text)."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def run(*args, cwd=None):
        return subprocess.run([sys.executable, "-m", "gpusim.cli", *args], capture_output=True, text=True,
                              cwd=cwd or tmp_path, env=env, timeout=600)
    return run
