"""One bound for every number, on every way in (issue 12).

An action, a game option, a printed value typed with `data set`, a ship of the catalogue and an
imported file all carry numbers. `data set` once took 10^23 and 1e300, which `import` refused,
so an export no longer imported. Every way in now checks with :func:`check_numbers`.
"""

from __future__ import annotations

from typing import Any

from companion.contract.errors import RuleError

# No game counts further: statistics divide scores as floats, and a huge integer breaks them.
LARGEST = 10**15


def check_numbers(value: Any) -> None:
    """Refuse a number beyond :data:`LARGEST` either way, NaN or an infinity, anywhere inside
    ``value`` (a slip like Ann=99999999999 is caught before it reaches the rules)."""
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and not abs(node) <= LARGEST:
            shown = f"The number {node}" if isinstance(node, float) or abs(node) < 10**40 else "A number of over 40 digits"
            raise RuleError(f"{shown} is beyond what any game counts (at most {LARGEST:,} either way): "
                            "check what was typed.")


def parse_points(text: str, decimals: bool = True) -> int | float | None:
    """Points as people write them: ``12``, ``-3``, ``2.5`` (``decimals``), or None when the text
    is not such a number (issue 23: half points were refused). Never NaN or an infinity."""
    raw = str(text).strip()
    try:
        return int(raw)
    except ValueError:
        pass
    if not decimals or not raw or raw.lower().lstrip("+-") in ("nan", "inf", "infinity") or "_" in raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return tidy(value) if value == value and abs(value) != float("inf") else None


def tidy(value: int | float) -> int | float:
    """A sum of decimal points as people add them up: 0.1 + 0.2 is 0.3, and 2.0 is 2 (six
    decimals are more than any score sheet holds)."""
    if isinstance(value, float):
        value = round(value, 6)
        if value.is_integer() and abs(value) <= LARGEST:
            return int(value)
    return value
