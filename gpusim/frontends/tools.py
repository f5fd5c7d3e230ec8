"""Finding the LLVM tools the frontends run (clang, llvm-objdump): the first of a list of names on PATH."""
from __future__ import annotations

import shutil
from typing import Sequence


def find_tool(names: Sequence[str], missing: Exception) -> str:
    """find_tool returns the path of the first of ``names`` found on PATH, or raises ``missing`` (an error that
    names the tool and how to install it)."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise missing
