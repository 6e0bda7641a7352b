"""One bound for every number, on every way in (issue 12).

An action, a game option, a printed value typed with `data set`, a ship of the catalogue and an
imported file all carry numbers. `data set` once took 10^23 and 1e300, which `import` refused,
so an export no longer imported. Every way in now checks with :func:`check_numbers`.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleError

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
