"""How the reports write quantities: SI-prefixed rates and sizes, and shares of a whole."""
from __future__ import annotations

from typing import Optional

_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def si(value: Optional[float], unit: str) -> str:
    """si writes a base-unit quantity with an SI prefix and three significant digits: 1.23 TFLOP/s, 0 B/s;
    None is '-'."""
    if value is None:
        return "-"
    for scale, prefix in _PREFIXES:
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def percent(value: Optional[float]) -> str:
    """percent writes a share: 0%, <0.1%, 4.2%, 42%; None is '-'."""
    if value is None:
        return "-"
    if value == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%" if value < 10 else f"{value:.0f}%"
