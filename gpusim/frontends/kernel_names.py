"""kernel_names matches a kernel name as a user writes it (``vadd``) to a symbol (``_Z4vaddPKfS0_Pfi``)."""
from __future__ import annotations

import re
from typing import Sequence

from gpusim.errors import UsageError, did_you_mean

_SOURCE_NAME = re.compile(r"(\d+)")


def plain_name(symbol: str) -> str:
    """plain_name is the unqualified-or-qualified source name of an Itanium-mangled symbol, else the symbol.

    ``_Z4vaddPKfS0_Pfi`` -> ``vadd``; ``_ZN2ns4scanEPf`` -> ``ns::scan``. Only the name
    is read (no parameter types): that is what a user types to pick a kernel.
    """
    if not symbol.startswith("_Z"):
        return symbol
    pos, nested = 2, symbol.startswith("_ZN")
    if nested:
        pos = 3
        while pos < len(symbol) and symbol[pos] in "rVKRO":  # cv- and ref-qualifiers of a member function
            pos += 1
    parts = []
    while pos < len(symbol):
        m = _SOURCE_NAME.match(symbol, pos)
        if m is None:
            break
        n = int(m.group(1))
        if n <= 0 or m.end() + n > len(symbol):
            return symbol
        parts.append(symbol[m.end():m.end() + n])
        pos = m.end() + n
        if not nested:
            break
    return "::".join(parts) if parts else symbol


def resolve(requested: str, symbols: Sequence[str], path: str) -> str:
    """resolve returns the symbol among ``symbols`` that ``requested`` names (the symbol itself or its plain name).

    Raises UsageError naming the kernels there are when none matches, or the candidates when
    several overloads share the name.
    """
    if requested in symbols:
        return requested
    found = [s for s in symbols if plain_name(s) == requested]
    if len(found) == 1:
        return found[0]
    listing = ", ".join(describe(s) for s in symbols) or "none"
    if found:
        raise UsageError(f"kernel name '{requested}' is ambiguous in {path}: "
                         f"{', '.join(found)}; pass the symbol to --kernel")
    hint = did_you_mean(requested, [plain_name(s) for s in symbols])
    raise UsageError(f"no kernel '{requested}' in {path} (kernels: {listing})", hint=hint)


def describe(symbol: str) -> str:
    """describe names a kernel for a listing: ``vadd (_Z4vaddPKfS0_Pfi)`` or just ``red``."""
    plain = plain_name(symbol)
    return symbol if plain == symbol else f"{plain} ({symbol})"


def pick(requested, symbols: Sequence[str], path: str) -> str:
    """pick is resolve for a ``--kernel`` that may be absent: then the file must hold exactly one kernel."""
    if requested is not None:
        return resolve(requested, symbols, path)
    if len(symbols) == 1:
        return symbols[0]
    if not symbols:
        raise UsageError(f"{path}: no kernel found")
    raise UsageError(f"{path} holds several kernels ({', '.join(describe(s) for s in symbols)}); "
                     "pick one with --kernel")
