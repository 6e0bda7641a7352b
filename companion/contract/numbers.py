"""One bound for every number, on every way in (issue 12).

An action, a game option, a printed value typed with `data set`, a ship of the catalogue and an
imported file all carry numbers. `data set` once took 10^23 and 1e300, which `import` refused,
so an export no longer imported. Every way in now checks with :func:`check_numbers`.
"""

from __future__ import annotations

import re
from typing import Any

from companion.contract.language import _
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
            raise beyond(f"The number {node}" if isinstance(node, float) or abs(node) < 10**40 else None)


LONGEST_NUMERAL = 40  # digits: far past LARGEST, and what a refusal may still repeat
_NUMERAL = r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?"


def beyond(shown: str | None = None) -> RuleError:
    """The refusal of a number no game counts; ``shown`` names it (None: one too long to repeat)."""
    from companion.contract.written import number

    if shown:
        return RuleError(
_("{number} is beyond what any game counts (at most {largest} either way): check what "
                           "was typed.").format(number=shown, largest=number(LARGEST, grouped=True)))
    return RuleError(_("A number of over {n} digits is beyond what any game counts (at most {largest} either "
                       "way): check what was typed.").format(n=LONGEST_NUMERAL, largest=number(LARGEST, grouped=True)))



def parse_points(text: str, decimals: bool = True) -> int | float | None:
    """Points as people write them: ``12``, ``-3``, ``2.5`` (``decimals``), or None when the text
    is not such a number (issue 23: half points were refused). Never NaN or an infinity; a
    number of over 40 digits is refused as beyond any game (RuleError)."""
    raw = str(text).strip()
    if len(raw) > LONGEST_NUMERAL and re.fullmatch(_NUMERAL, raw):  # a number, too long to be a score
        raise beyond()  # (issue 29, U1: it was "not a number", repeated whole)
    try:
        return int(raw)
    except ValueError:
        pass
    if not decimals or not raw or raw.lower().lstrip("+-") in ("nan", "inf", "infinity") or "_" in raw:
        return None
    raw = decimal_point(raw)
    try:
        value = float(raw)
    except ValueError:
        return None
    return tidy(value) if value == value and abs(value) != float("inf") else None


# patterns, compiled by re's own cache when a number with a comma is first read (a `status`
# reads none: compiling them at import was a tenth of the contract's start)
_COMMA = r"([+-]?\d*),(\d+)"
_GROUPS = r"[+-]?\d{1,3}([.,]\d{3})+"


def decimal_point(raw: str) -> str:
    """``12,5`` read as German players write it (issue 28), in every language: ``12.5``. A number
    whose comma or point could as well group thousands (``1,000``, and ``1.000`` in German) is
    refused with the two forms to type, never guessed."""
    from companion.contract.language import _, language

    if "," not in raw and "." not in raw:
        return raw
    grouped = re.fullmatch(_GROUPS, raw)
    if grouped and ("," in raw or language() == "de"):
        whole = raw.replace(",", "").replace(".", "")
        sep = "," if "," in raw else "."
        head, _sep, tail = raw.rpartition(sep)
        small = tidy(float(head.replace(",", "").replace(".", "") + "." + tail))
        from companion.contract.written import number

        raise RuleError(_("{typed} could be {whole} or {small}: type {whole}, or {small}.").format(
            typed=raw, whole=whole, small=number(small)))
    found = re.fullmatch(_COMMA, raw) if "," in raw else None
    return f"{found.group(1) or '0'}.{found.group(2)}" if found else raw


def tidy(value: int | float) -> int | float:
    """A sum of decimal points as people add them up: 0.1 + 0.2 is 0.3, and 2.0 is 2 (six
    decimals are more than any score sheet holds)."""
    if isinstance(value, float):
        value = round(value, 6)
        if value.is_integer() and abs(value) <= LARGEST:
            return int(value)
    return value
