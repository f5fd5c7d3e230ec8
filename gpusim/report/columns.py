"""Plain-text tables: rows of cells padded into columns, the terminal reports' one layout."""
from __future__ import annotations

from typing import Collection, Sequence


def aligned(rows: Sequence[Sequence[str]], right: Collection[int], header_left: bool = False) -> list[str]:
    """aligned pads each column of ``rows`` (a header row first, then the body) to its widest cell, right-
    aligning the columns whose indexes are in ``right`` and left-aligning the others (every header cell too,
    with ``header_left``), and returns one line per row, cells two spaces apart. The last cell is padded too:
    callers that print bare lines strip them."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) if i in right and not (k == 0 and header_left) else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(r, widths)))
            for k, r in enumerate(rows)]
